// Synchronisation primitives with hostile run-time operands (issue 13, class 6).
// Measured on the H200 without hardening (test/attacks/results/sync_probe_h200.txt):
// a warp member mask without the executing thread and a barrier count that is
// not a multiple of 32 raise an illegal-instruction fault that kills the context.
// Hardened, every barrier is the whole-CTA barrier 0 and every run-time
// member mask is confined to mask | %lanemask_eq: each kernel must run to its end.
// Every thread of the CTA reaches every primitive (no hang by construction).
#include "common.h"

static __device__ __forceinline__ u32 lane() { return threadIdx.x & 31; }

// barrier.sync with a hostile id (0xffffffff, 16, ...): every barrier becomes the
// whole-CTA barrier 0.
extern "C" __global__ void sync_bar_id(u32 id, u32 *out) {
  __nvvm_barrier_sync(id);
  __nvvm_bar_sync(id + 1);
  out[gtid()] = id;
}

// Found by review: warp 0 waits at barrier `id`, the other warps at barrier 0.
// Unhardened (different ids, no counts) each barrier waits for every thread: the
// block hangs forever, out of reach of any cancel. Hardened, both are barrier 0.
extern "C" __global__ void sync_bar_mismatch(u32 id, u32 *out) {
  if (threadIdx.x < 32)
    __nvvm_barrier_sync(id);
  else
    __nvvm_barrier_sync(0);
  out[gtid()] = 1;
}

// Found by review: the two halves of every warp reach different __syncthreads
// instructions (.aligned requires the whole warp at one instruction); hardened,
// barriers are the non-.aligned form.
extern "C" __global__ void sync_bar_split(u32 *out) {
  if (lane() < 16)
    __syncthreads();
  else
    __syncthreads();
  out[gtid()] = 2;
}

// Every warp primitive with a run-time mask the caller chooses per lane: `all`
// names every lane but the caller's own (the fault of the probe), `zero` names
// none. Confined, both are defined: mask | self is the full warp for the first
// and each lane alone for the second.
extern "C" __global__ void sync_warp_masks(u32 all, u32 zero, u32 *out) {
  u32 excl = all ^ (1u << lane());
  u32 v = gtid();
  u32 acc = __shfl_sync(excl, v, 0);
  acc += __shfl_down_sync(excl, v, 1);
  acc += __shfl_xor_sync(zero, v, 1);
  acc += __ballot_sync(excl, v & 1);
  acc += __all_sync(zero, 1);
  acc += __any_sync(excl, v & 2);
  acc += __match_any_sync(excl, v & 3);
  acc += __reduce_add_sync(excl, v);
  acc += __reduce_max_sync(zero, v);
  __syncwarp(excl);
  __syncwarp(zero);
  out[gtid()] = acc;
}

// nanosleep with the largest value (the ISA bounds the sleep at 1 ms).
extern "C" __global__ void sync_sleep(u32 ns, u32 *out) {
  __nvvm_nanosleep(ns); // CUDA's __nanosleep is inline asm; this is the intrinsic
  out[gtid()] = ns;
}

// Found by review (R3-F1): loop-free kernels whose lanes never meet in a warp
// primitive. Each primitive waits, inside the instruction and out of reach of any
// cancel, for every lane its mask names; unhardened these hang the warp forever
// (sync_probe_h200.txt cases 14, 15, 19). Hardened, every member mask is
// (mask | %lanemask_eq) & %activemask: it names only lanes at the primitive.
// Full mask, the two halves of the warp at two different shuffles.
extern "C" __global__ void warp_hang_pc(u32 full, u32 *out) {
  u32 t = gtid(), r;
  if (t & 1)
    r = __shfl_sync(full, t, 0);
  else
    r = __shfl_down_sync(full, t, 1);
  out[t] = r;
}

// Each lane names itself and its neighbour: the masks disagree, so no lane's
// set of partners ever arrives together (mask | self alone changes nothing).
extern "C" __global__ void warp_hang_mask(u32 one, u32 *out) {
  u32 t = gtid(), l = lane();
  u32 m = (one << l) | (one << ((l + 1) & 31));
  out[t] = __shfl_sync(m, t, 0);
}

// Half the warp at __syncwarp, the other half at a shuffle, both with the full mask.
extern "C" __global__ void warp_hang_mixed(u32 full, u32 *out) {
  u32 t = gtid(), r = 0;
  if (lane() < 16)
    __syncwarp(full);
  else
    r = __shfl_sync(full, t, 0);
  out[t] = r;
}

// Half the warp at the CTA barrier, the other half at a full-mask __syncwarp that
// waits for the first half: each waits for the other.
extern "C" __global__ void warp_hang_bar(u32 full, u32 *out) {
  u32 t = gtid();
  if (lane() < 16)
    __syncthreads();
  else
    __syncwarp(full);
  out[t] = t;
}
