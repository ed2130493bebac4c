// Device probe (review R10-F3): what do ld.mmio / st.mmio (PTX ISA 8.2, sm_70+) do
// on ordinary device memory on this GPU: fault (a sticky error for every tenant of
// the context), or an ordinary relaxed .sys access? AToLL never emits them since
// session 10 (atoll-mem drops volatile from atomics; the PTX validator refuses
// .mmio), so this only decides how bad the hole was. One process per case; each
// case then runs a plain kernel in the same context to see whether it survived.
//   ./mmio_probe 0   baseline: ld.relaxed.sys / st.relaxed.sys
//   ./mmio_probe 1   ld.mmio.relaxed.sys.global + st.mmio.relaxed.sys.global
//   ./mmio_probe 2   the same on a misaligned-free, in-bounds address of a
//                    cudaMallocManaged buffer (host-visible memory)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void k(int which, unsigned *p, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = 0;
  unsigned *q = p + i;
  if (which == 0) {
    asm volatile("ld.relaxed.sys.global.b32 %0, [%1];" : "=r"(v) : "l"(q) : "memory");
    asm volatile("st.relaxed.sys.global.b32 [%0], %1;" ::"l"(q), "r"(v + 1) : "memory");
  } else {
    asm volatile("ld.mmio.relaxed.sys.global.b32 %0, [%1];" : "=r"(v) : "l"(q) : "memory");
    asm volatile("st.mmio.relaxed.sys.global.b32 [%0], %1;" ::"l"(q), "r"(v + 1) : "memory");
  }
  out[i] = v;
}

__global__ void plain(unsigned *p) { p[threadIdx.x] += 7; }

int main(int argc, char **argv) {
  int which = argc > 1 ? std::atoi(argv[1]) : 0;
  const unsigned n = 256 * 64;
  unsigned *p = nullptr, *out = nullptr;
  cudaError_t e = which == 2 ? cudaMallocManaged(&p, n * 4) : cudaMalloc(&p, n * 4);
  if (e == cudaSuccess)
    e = cudaMalloc(&out, n * 4);
  if (e == cudaSuccess)
    e = cudaMemset(p, 0, n * 4);
  if (e != cudaSuccess) {
    std::printf("case %d: setup failed: %s\n", which, cudaGetErrorString(e));
    return 2;
  }
  k<<<64, 256>>>(which, p, out);
  cudaError_t launch = cudaDeviceSynchronize();
  unsigned first = 0;
  cudaError_t copy = cudaMemcpy(&first, p, 4, cudaMemcpyDeviceToHost);
  plain<<<1, 32>>>(out);
  cudaError_t after = cudaDeviceSynchronize();
  std::printf("case %d (%s): kernel %s; p[0] after %u (expected 1); copy %s; a plain kernel "
              "afterwards: %s\n",
              which, which == 0 ? "relaxed.sys" : which == 1 ? "mmio, device memory" : "mmio, managed memory",
              cudaGetErrorString(launch), first, cudaGetErrorString(copy), cudaGetErrorString(after));
  return launch == cudaSuccess && after == cudaSuccess ? 0 : 1;
}
