/* AToLL ABI: the single source of truth for the contract between the hardening
 * passes (which append hidden parameters to every kernel) and the runtime (which
 * supplies them at launch). Plain C so that any host language can include it.
 *
 * Every hardened kernel gets ATOLL_HIDDEN_PARAM_COUNT parameters appended after the
 * tenant's own, in this order:
 *
 *   index  name                      type      meaning
 *   0      __atoll_arena_base        uint64_t  device address of the pipeline's arena
 *   1      __atoll_arena_size        uint64_t  arena size in bytes
 *   2      __atoll_control           uint64_t  device address of the pipeline's control
 *                                              block (atoll_control_block, below)
 *
 * ABI v2 added the control block: the preemption checks the pass puts on every
 * cycle-closing CFG edge read its cancel word (and fuel budget) and leave the kernel
 * when it is set. The control block lives in a runtime-owned device allocation that
 * is never part of any arena, so tenant code can never write it: every global access
 * of a hardened kernel is confined to [arena base, base + size), the control block is
 * outside that range, and the pass's own loads and atomics on it are emitted after
 * confinement from the hidden parameter, never through a tenant pointer. A tenant can
 * only read its own arena, so it cannot even observe another pipeline's control word.
 *
 * mask-based mode (default): the arena size is a power of two of at most 4 GiB and the
 * base is aligned to the size, so a global address is confined by
 * base | (addr & (size - 1)), computed on the low 32 bits of addr.
 * modulo-based mode: any size and any 256-byte aligned base; confined by
 * base + (addr - base) % size.
 */
#ifndef ATOLL_ABI_H
#define ATOLL_ABI_H

#include <stddef.h>
#include <stdint.h>

#define ATOLL_ABI_VERSION 2u

#define ATOLL_HIDDEN_PARAM_COUNT 3u
#define ATOLL_HIDDEN_ARENA_BASE_INDEX 0u
#define ATOLL_HIDDEN_ARENA_SIZE_INDEX 1u
#define ATOLL_HIDDEN_CONTROL_INDEX 2u
#define ATOLL_HIDDEN_ARENA_BASE_NAME "__atoll_arena_base"
#define ATOLL_HIDDEN_ARENA_SIZE_NAME "__atoll_arena_size"
#define ATOLL_HIDDEN_CONTROL_NAME "__atoll_control"
#define ATOLL_HIDDEN_PARAM_BYTES 8u

/* Function attribute the pass puts on every kernel it hardened; its value is the
 * clamping mode ("mask-based" or "modulo-based"). The runtime refuses kernels
 * without it, so unhardened code can never be launched. */
#define ATOLL_HARDENED_ATTR "atoll-hardened"
/* Instruction metadata (kind name) that atoll-mem puts on the branches of the
 * loops it adds after the preemption step (the zero-init of shared memory: bounded
 * by the window, and must not be left half done). The toolchain's check after code
 * generation accepts a cycle without a preemption check only when it carries this;
 * input carrying it is refused. */
#define ATOLL_BOUNDED_LOOP_MD "atoll.bounded"
#define ATOLL_MODE_MASK "mask-based"
#define ATOLL_MODE_MODULO "modulo-based"

/* Smallest arena: the granularity of the driver's virtual memory mapping on
 * Hopper. Mask-mode arenas are powers of two of at least this size. */
#define ATOLL_MIN_ARENA_BYTES (2ull << 20)
/* Largest mask-mode arena: offsets into it are 32-bit (one instruction per
 * access). The runtime makes larger arenas modulo-only; a mask-mode kernel given a
 * larger arena anyway stays inside its first 4 GiB. */
#define ATOLL_MAX_MASK_ARENA_BYTES (4ull << 30)

/* Alignment of every buffer the runtime hands out inside an arena. */
#define ATOLL_BUFFER_ALIGNMENT 256u

/* Kernels may use at most this much PTX constant memory (one bank). */
#define ATOLL_CONSTANT_BANK_BYTES 65536u

/* The descriptor a host fills for one launch; the runtime appends its fields as
 * the hidden parameters above, in field order. */
typedef struct atoll_arena_descriptor {
  uint64_t base;
  uint64_t size;
  uint64_t control; /* device address of the atoll_control_block */
} atoll_arena_descriptor;

/* The per-pipeline control block (device memory, outside every arena). The runtime
 * writes `cancel` from its own non-blocking stream (never behind the tenant's work)
 * and resets the block before the next launch after a cancel; kernels only read
 * `cancel` and `fuel` and only set bits of `status`.
 *
 *   cancel  nonzero: every thread leaves the kernel at its next poll
 *   status  bits set by kernels (ATOLL_STATUS_*), atomically (atom.or)
 *   fuel    loop iterations charged per thread (a checked back edge 1, a charged
 *           loop its count when it starts); 0 = unlimited. At the first poll at
 *           which a thread has been charged at least fuel, it sets
 *           ATOLL_STATUS_FUEL_EXHAUSTED and exits (deterministic: it depends only on
 *           the thread's own control flow). */
typedef struct atoll_control_block {
  uint32_t cancel;
  uint32_t status;
  uint64_t fuel;
  uint64_t reserved[2];
} atoll_control_block;

#define ATOLL_CONTROL_CANCEL_OFFSET 0u
#define ATOLL_CONTROL_STATUS_OFFSET 4u
#define ATOLL_CONTROL_FUEL_OFFSET 8u
#define ATOLL_CONTROL_BLOCK_BYTES 32u
#define ATOLL_STATUS_FUEL_EXHAUSTED 1u

/* Default poll interval: a thread reads the cancel word on every 2^k-th
 * cycle-closing edge it takes (the other edges cost one decrement + compare);
 * cycles that wait (nanosleep, volatile memory accesses, inline asm) poll on
 * every edge. */
#define ATOLL_DEFAULT_POLL_SHIFT 6u

/* Per-thread local memory (stack frame) a hardened kernel may use (R5-F4). The
 * driver reserves local memory for every resident thread of the device, outside
 * every arena and budget (bytes x 2048 threads x 132 SMs on an H200: 16 KiB is
 * 4.3 GiB), and grows that reservation, waiting for running kernels, when a
 * kernel needs more. atoll-mem refuses a larger frame (max-local-bytes=) and the
 * PTX validator a larger .local depot, so codegen's own temporaries count too. */
#define ATOLL_DEFAULT_MAX_LOCAL_BYTES (16u * 1024u)

#ifdef __cplusplus
static_assert(sizeof(atoll_arena_descriptor) ==
                  ATOLL_HIDDEN_PARAM_COUNT * ATOLL_HIDDEN_PARAM_BYTES,
              "the descriptor is the hidden parameters, in order");
static_assert(sizeof(atoll_control_block) == ATOLL_CONTROL_BLOCK_BYTES, "control block size");
static_assert(offsetof(atoll_control_block, cancel) == ATOLL_CONTROL_CANCEL_OFFSET, "cancel");
static_assert(offsetof(atoll_control_block, status) == ATOLL_CONTROL_STATUS_OFFSET, "status");
static_assert(offsetof(atoll_control_block, fuel) == ATOLL_CONTROL_FUEL_OFFSET, "fuel");
#endif

#endif /* ATOLL_ABI_H */
