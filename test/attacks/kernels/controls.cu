// Benign controls: ordinary kernels that must give exactly (or, for libdevice
// math, within tolerance) the host-computed reference when hardened. The victim's
// health check (vadd_u32) lives here too.
#include "common.h"

extern "C" __global__ void vadd_u32(const u32 *a, const u32 *b, u32 *c, u32 n) {
  u32 i = gtid();
  if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void vadd_f32(const float *a, const float *b, float *c, u32 n) {
  for (u32 i = gtid(); i < n; i += nthreads()) c[i] = a[i] + b[i];
}

// C = A * B for n x n int32 matrices (n a multiple of 16), 16x16 tiles in shared
// memory with barriers.
#define TILE 16
extern "C" __global__ void matmul_tiled_i32(const i32 *A, const i32 *B, i32 *C, u32 n) {
  __shared__ i32 As[TILE][TILE];
  __shared__ i32 Bs[TILE][TILE];
  u32 row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  i32 acc = 0;
  for (u32 t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (u32 k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// sum += x[i] over n elements: per-block tree reduction in dynamic shared memory
// (blockDim.x words), one atomicAdd per block.
extern "C" __global__ void block_reduce_u32(const u32 *x, u32 n, unsigned long long *sum) {
  extern __shared__ u32 part[];
  u32 acc = 0;
  for (u32 i = gtid(); i < n; i += nthreads()) acc += x[i];
  part[threadIdx.x] = acc;
  __syncthreads();
  for (u32 s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, (unsigned long long)part[0]);
}

// In-bounds local array with dynamic indices: per-thread insertion sort of 16
// values, out = the sorted values.
extern "C" __global__ void local_sort16(const u32 *in, u32 *out, u32 nthreadsTotal) {
  u32 t = gtid();
  if (t >= nthreadsTotal) return;
  u32 l[16];
  for (u32 i = 0; i < 16; ++i) l[i] = in[t * 16 + i];
  for (u32 i = 1; i < 16; ++i) {
    u32 v = l[i];
    u32 j = i;
    while (j > 0 && l[j - 1] > v) {
      l[j] = l[j - 1];
      --j;
    }
    l[j] = v;
  }
  for (u32 i = 0; i < 16; ++i) out[t * 16 + i] = l[i];
}

// __constant__ lookup table (CRC-like mixing), and a read-only __device__ table
// that promote-ptx-constant-globals moves to constant memory.
__constant__ u32 k_mix[16] = {0x243F6A88u, 0x85A308D3u, 0x13198A2Eu, 0x03707344u,
                              0xA4093822u, 0x299F31D0u, 0x082EFA98u, 0xEC4E6C89u,
                              0x452821E6u, 0x38D01377u, 0xBE5466CFu, 0x34E90C6Cu,
                              0xC0AC29B7u, 0xC97C50DDu, 0x3F84D5B5u, 0xB5470917u};
__device__ u32 k_rot[8] = {1, 5, 7, 11, 13, 17, 19, 23};
extern "C" __global__ void constant_table(const u32 *in, u32 *out, u32 n) {
  u32 i = gtid();
  if (i >= n) return;
  u32 x = in[i];
  u32 r = k_rot[x & 7];
  out[i] = k_mix[x & 15] ^ ((x << r) | (x >> (32 - r)));
}

// float4 loads and stores: out[i] = ((x + y) + z) + w of in[i], and in[i] * 2.
extern "C" __global__ void float4_sum(const float4 *in, float *out, float4 *twice, u32 n) {
  u32 i = gtid();
  if (i >= n) return;
  float4 v = in[i];
  out[i] = ((v.x + v.y) + v.z) + v.w;
  twice[i] = make_float4(v.x + v.x, v.y + v.y, v.z + v.z, v.w + v.w);
}

// A byval struct parameter (integers: exact).
struct Affine {
  u32 scale;
  u32 n;
  u32 bias[4];
  u64 tag;
};
extern "C" __global__ void byval_affine(Affine p, const u32 *in, u32 *out) {
  u32 i = gtid();
  if (i >= p.n) return;
  out[i] = in[i] * p.scale + p.bias[i & 3] + (u32)p.tag;
}

// Shared memory reached through a generic pointer passed to a device function
// (clang's common case), with a warp shuffle.
static __device__ __noinline__ void scale_row(u32 *row, u32 k) {
  for (u32 i = 0; i < 32; ++i) row[i] *= k;
}
extern "C" __global__ void shared_generic_helper(const u32 *in, u32 *out) {
  __shared__ u32 tile[32][32];
  u32 t = threadIdx.x; // blockDim.x == 32
  for (u32 r = 0; r < 32; ++r) tile[r][t] = in[blockIdx.x * 1024 + r * 32 + t];
  __syncwarp();
  scale_row(tile[t], t + 1);
  __syncwarp();
  for (u32 r = 0; r < 32; ++r) {
    u32 v = tile[r][t];
    v += __shfl_xor_sync(0xFFFFFFFFu, v, 1);
    out[blockIdx.x * 1024 + r * 32 + t] = v;
  }
}

// R8-F7: a dense switch, which NVPTX lowers to a jump table (brx.idx, refused by the
// PTX validator) unless the toolchain compiles without jump tables. A tiny bytecode
// interpreter: each thread runs its own 16-instruction program (opcode in the low 3
// bits, argument above) on an accumulator seeded from x.
extern "C" __global__ void switch_interp(const u32 *prog, const u32 *x, u32 *out, u32 n) {
  u32 i = gtid();
  if (i >= n) return;
  u32 acc = x[i];
  for (u32 pc = 0; pc < 16; ++pc) {
    u32 ins = prog[i * 16 + pc];
    u32 arg = ins >> 3;
    switch (ins & 7) {
    case 0: acc += arg; break;
    case 1: acc ^= arg; break;
    case 2: acc *= arg | 1; break;
    case 3: acc = (acc << (arg & 31)) | (acc >> ((32 - (arg & 31)) & 31)); break;
    case 4: acc -= arg; break;
    case 5: acc += acc / ((arg & 0xFF) + 1); break;
    case 6: acc = ~acc; break;
    default: acc += __popc(arg); break;
    }
  }
  out[i] = acc;
}
