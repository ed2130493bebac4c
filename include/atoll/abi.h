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
 *
 * mask-based mode (default): the arena size is a power of two of at most 4 GiB and the
 * base is aligned to the size, so a global address is confined by
 * base | (addr & (size - 1)), computed on the low 32 bits of addr.
 * modulo-based mode: any size and any 256-byte aligned base; confined by
 * base + (addr - base) % size.
 */
#ifndef ATOLL_ABI_H
#define ATOLL_ABI_H

#include <stdint.h>

#define ATOLL_ABI_VERSION 1u

#define ATOLL_HIDDEN_PARAM_COUNT 2u
#define ATOLL_HIDDEN_ARENA_BASE_INDEX 0u
#define ATOLL_HIDDEN_ARENA_SIZE_INDEX 1u
#define ATOLL_HIDDEN_ARENA_BASE_NAME "__atoll_arena_base"
#define ATOLL_HIDDEN_ARENA_SIZE_NAME "__atoll_arena_size"
#define ATOLL_HIDDEN_PARAM_BYTES 8u

/* Function attribute the pass puts on every kernel it hardened; its value is the
 * clamping mode ("mask-based" or "modulo-based"). The runtime refuses kernels
 * without it, so unhardened code can never be launched. */
#define ATOLL_HARDENED_ATTR "atoll-hardened"
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
} atoll_arena_descriptor;

#ifdef __cplusplus
static_assert(sizeof(atoll_arena_descriptor) ==
                  ATOLL_HIDDEN_PARAM_COUNT * ATOLL_HIDDEN_PARAM_BYTES,
              "the descriptor is the hidden parameters, in order");
#endif

#endif /* ATOLL_ABI_H */
