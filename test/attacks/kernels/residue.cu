// Residue probes: "writer" kernels (run on the victim pipeline) fill shared and
// local memory with secret words; "probe" kernels (attacker pipeline) read their
// uninitialised shared and local memory. Expected: all zeros.
#include "common.h"

#define RES_SHARED_WORDS 11776 // 46 KiB: under the 48 KiB static limit with the pad
#define RES_LOCAL_WORDS 512

extern "C" __global__ void residue_writer_shared(u32 salt) {
  volatile __shared__ u32 s[RES_SHARED_WORDS];
  for (u32 i = threadIdx.x; i < RES_SHARED_WORDS; i += blockDim.x)
    s[i] = ATK_SECRET(i + salt);
  __syncthreads();
}
// out[gtid] = OR of the words this thread read (all must be zero).
extern "C" __global__ void residue_probe_shared(u32 *out) {
  volatile __shared__ u32 s[RES_SHARED_WORDS];
  u32 acc = 0;
  for (u32 i = threadIdx.x; i < RES_SHARED_WORDS; i += blockDim.x)
    acc |= s[i];
  out[gtid()] = acc;
}
extern "C" __global__ void residue_writer_dynamic(u32 salt, u32 words) {
  extern __shared__ u32 d[];
  volatile u32 *s = d;
  for (u32 i = threadIdx.x; i < words; i += blockDim.x)
    s[i] = ATK_SECRET(i + salt);
  __syncthreads();
}
extern "C" __global__ void residue_probe_dynamic(u32 words, u32 *out) {
  extern __shared__ u32 d[];
  volatile u32 *s = d;
  u32 acc = 0;
  for (u32 i = threadIdx.x; i < words; i += blockDim.x)
    acc |= s[i];
  out[gtid()] = acc;
}
extern "C" __global__ void residue_writer_local(u32 salt) {
  volatile u32 l[RES_LOCAL_WORDS];
  for (u32 i = 0; i < RES_LOCAL_WORDS; ++i)
    l[i] = ATK_SECRET(i + salt + gtid());
}
extern "C" __global__ void residue_probe_local(u32 *out) {
  volatile u32 l[RES_LOCAL_WORDS];
  u32 acc = 0;
  for (u32 i = 0; i < RES_LOCAL_WORDS; ++i)
    acc |= l[i];
  out[gtid()] = acc;
}
// Reads every word of the pipeline's arena through its one buffer (the pointer
// wraps inside the arena): a recycled arena must be all zeros.
extern "C" __global__ void residue_probe_arena(const u32 *p, u64 words, u32 *out) {
  u32 acc = 0;
  for (u64 i = gtid(); i < words; i += nthreads())
    acc |= p[i];
  out[gtid()] = acc;
}
// Fills the whole arena with secret words (run before the pipeline is destroyed).
extern "C" __global__ void residue_fill_arena(u32 *p, u64 words) {
  for (u64 i = gtid(); i < words; i += nthreads())
    p[i] = ATK_SECRET(i);
}
// Byte-granular dynamic shared residue (issue 13, class 8): the victim fills
// `bytes` bytes with non-zero secrets; the attacker's launch asks for an odd
// dynamic size (4093) and reads every byte of its window, the last < 16 ones
// included. out[gtid] = OR of the bytes this thread read (must be zero).
extern "C" __global__ void residue_writer_dynamic_bytes(u32 bytes) {
  extern __shared__ u8 db[];
  volatile u8 *s = db;
  for (u32 i = threadIdx.x; i < bytes; i += blockDim.x)
    s[i] = (u8)(0x80u | (i & 0x7Fu));
  __syncthreads();
}
extern "C" __global__ void residue_probe_dynamic_bytes(u32 bytes, u32 *out) {
  extern __shared__ u8 db[];
  volatile u8 *s = db;
  u32 acc = 0;
  for (u32 i = threadIdx.x; i < bytes; i += blockDim.x)
    acc |= s[i];
  out[gtid()] = acc;
}
