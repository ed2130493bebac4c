// Review R5 probes on the GPU host (nvcc, sm_90), raw driver API, no AToLL code:
//  wait  - which driver calls on the runtime's request paths wait for another
//          stream's running kernel (2 s spin): ~2000 ms = waits (R5-F4/F6);
//          and what a launch of a kernel with 400 KiB of local memory per thread
//          does to free device memory (R5-F4).
//  charge - R5-F1: the shape of a "charged" loop (one cancel poll before the loop,
//          none inside: 4000 iterations of 16 same-address atomics, or of 256
//          dependent loads through a 1 GiB random ring) on a grid that fills the
//          device: the flag is set 1 ms after the launch, the time to the kernel's
//          end is what a cancel costs.
//  zero  - R5-F2: one wave of blocks zeroing 400 KiB of local memory per thread
//          byte by byte (the pass's unpolled zero-init), and the same with 16-byte
//          stores.
// Build: nvcc -arch=sm_90 -O2 review5_probe.cu -lcuda -o review5_probe
//        nvcc -arch=sm_90 -O2 -cubin review5_probe.cu -o review5_probe.cubin
// Run:   ./review5_probe wait|charge|zero review5_probe.cubin
#include <cuda.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <thread>
#include <vector>

typedef unsigned long long u64;

extern "C" __global__ void spin(u64 ns) {
  u64 t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  for (;;) {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > ns)
      break;
  }
}
extern "C" __global__ void biglocal(int *p, int i, int j) {
  volatile int a[102400];
  a[i] = 7;
  if (p)
    *p = a[j];
}
extern "C" __global__ void dyn(int *p) {
  extern __shared__ int s[];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (p)
    *p = s[0];
}
// One poll, then a loop the poll does not cover (the charged form).
extern "C" __global__ void charged_atomics(volatile unsigned *flag, unsigned *out, int n) {
  if (*flag)
    return;
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k)
      atomicAdd(out, 1u);
  }
}
extern "C" __global__ void charged_chase(volatile unsigned *flag, const u64 *ring, u64 *out,
                                         int n, int depth) {
  if (*flag)
    return;
  u64 at = (blockIdx.x * blockDim.x + threadIdx.x) * 7919ull % (1ull << 27);
#pragma unroll 1
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < depth; ++k)
      at = ring[at];
  out[blockIdx.x * blockDim.x + threadIdx.x] = at;
}
extern "C" __global__ void zero_bytes(unsigned *out, int bytes) {
  volatile unsigned char a[409600];
  for (int i = 0; i < bytes; ++i)
    a[i] = 0;
  out[blockIdx.x] = a[threadIdx.x * 7 % bytes];
}
extern "C" __global__ void zero_wide(unsigned *out, int bytes) {
  uint4 a[409600 / 16];
  for (int i = 0; i < bytes / 16; ++i)
    asm volatile("st.v4.u32 [%0], {%1, %1, %1, %1};" ::"l"(&a[i]), "r"(0) : "memory");
  out[blockIdx.x] = *(volatile unsigned *)&a[threadIdx.x * 7 % (bytes / 16)];
}

#define CK(x)                                                                                      \
  do {                                                                                             \
    CUresult r_ = (x);                                                                             \
    if (r_) {                                                                                      \
      const char *n_ = nullptr;                                                                    \
      cuGetErrorName(r_, &n_);                                                                     \
      printf("%s -> %s\n", #x, n_ ? n_ : "?");                                                     \
    }                                                                                              \
  } while (0)
static double ms(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}
using Clock = std::chrono::steady_clock;

static void waitProbe(CUmodule m) {
  CUfunction fspin, fdyn, fbig;
  CK(cuModuleGetFunction(&fspin, m, "spin"));
  CK(cuModuleGetFunction(&fdyn, m, "dyn"));
  CK(cuModuleGetFunction(&fbig, m, "biglocal"));
  CUstream s1, s2;
  CK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  CUdeviceptr buf;
  CK(cuMemAlloc(&buf, 1 << 20));
  u64 ns = 2000000000ull;
  void *a1[] = {&ns};
  CK(cuLaunchKernel(fspin, 1, 1, 1, 32, 1, 1, 0, s1, a1, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  printf("[wait] a 2 s spin runs on another stream; each call's duration:\n");
  auto t = Clock::now();
  CK(cuFuncSetAttribute(fdyn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000));
  printf("[wait] cuFuncSetAttribute(MAX_DYNAMIC_SHARED)        %9.3f ms\n", ms(t));
  int v;
  t = Clock::now();
  CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fdyn));
  printf("[wait] cuFuncGetAttribute                            %9.3f ms\n", ms(t));
  CUstream s3;
  t = Clock::now();
  CK(cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING));
  printf("[wait] cuStreamCreate                                %9.3f ms\n", ms(t));
  CUevent e;
  t = Clock::now();
  CK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
  printf("[wait] cuEventCreate                                 %9.3f ms\n", ms(t));
  t = Clock::now();
  CK(cuEventRecord(e, s3));
  printf("[wait] cuEventRecord (idle stream)                   %9.3f ms\n", ms(t));
  t = Clock::now();
  CK(cuEventDestroy(e));
  printf("[wait] cuEventDestroy                                %9.3f ms\n", ms(t));
  t = Clock::now();
  CK(cuStreamDestroy(s3));
  printf("[wait] cuStreamDestroy (idle)                        %9.3f ms\n", ms(t));
  void *a2[] = {&buf};
  t = Clock::now();
  CK(cuLaunchKernel(fdyn, 1, 1, 1, 32, 1, 1, 100000, s2, a2, nullptr));
  printf("[wait] cuLaunchKernel (first, 100000 B dyn shared)   %9.3f ms\n", ms(t));
  CK(cuStreamSynchronize(s2));
  int lb = 0;
  CK(cuFuncGetAttribute(&lb, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fbig));
  size_t fr0, tot, fr1, fr2;
  CK(cuMemGetInfo(&fr0, &tot));
  int i0 = 1, j0 = 1;
  void *a3[] = {&buf, &i0, &j0};
  t = Clock::now();
  CK(cuLaunchKernel(fbig, 1, 1, 1, 32, 1, 1, 0, s2, a3, nullptr));
  printf("[wait] cuLaunchKernel (biglocal, %d B local/thread) %9.3f ms\n", lb, ms(t));
  CK(cuMemGetInfo(&fr1, &tot));
  printf("[wait]   free device memory %.2f GiB -> %.2f GiB (of %.2f)\n", fr0 / 1073741824.0,
         fr1 / 1073741824.0, tot / 1073741824.0);
  t = Clock::now();
  CK(cuStreamSynchronize(s2));
  printf("[wait]   biglocal ended after                        %9.3f ms\n", ms(t));
  CK(cuMemGetInfo(&fr2, &tot));
  printf("[wait]   free after it ended: %.2f GiB\n", fr2 / 1073741824.0);
  CUevent e2;
  CK(cuEventCreate(&e2, 0));
  CK(cuEventRecord(e2, s1));
  t = Clock::now();
  CK(cuEventDestroy(e2));
  printf("[wait] cuEventDestroy (pending, busy stream)         %9.3f ms\n", ms(t));
  CUstream s4;
  CK(cuStreamCreate(&s4, CU_STREAM_NON_BLOCKING));
  CK(cuLaunchKernel(fspin, 1, 1, 1, 32, 1, 1, 0, s4, a1, nullptr));
  t = Clock::now();
  CK(cuStreamDestroy(s4));
  printf("[wait] cuStreamDestroy (busy stream)                 %9.3f ms\n", ms(t));
  CK(cuCtxSynchronize());
}

// Launch on s1, set the flag from s2 after 1 ms, time to the end.
static double cancelled(CUfunction f, void **args, unsigned grid, unsigned block,
                        CUdeviceptr flag) {
  CUstream s1, s2;
  CK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  CK(cuMemsetD32(flag, 0, 1));
  CK(cuCtxSynchronize());
  auto t = Clock::now();
  CK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, 0, s1, args, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CK(cuMemsetD32Async(flag, 1, 1, s2));
  CK(cuStreamSynchronize(s1));
  double d = ms(t);
  CK(cuStreamDestroy(s1));
  CK(cuStreamDestroy(s2));
  return d;
}

static void chargeProbe(CUmodule m) {
  CUfunction fa, fc;
  CK(cuModuleGetFunction(&fa, m, "charged_atomics"));
  CK(cuModuleGetFunction(&fc, m, "charged_chase"));
  CUdeviceptr flag, out, ring, outs;
  CK(cuMemAlloc(&flag, 4));
  CK(cuMemAlloc(&out, 4));
  const size_t n = size_t(1) << 27; // 1 GiB of u64
  CK(cuMemAlloc(&ring, n * 8));
  CK(cuMemAlloc(&outs, 1056 * 256 * 8));
  {
    // A random ring (Sattolo): every load misses the caches.
    std::vector<u64> h(n);
    for (size_t i = 0; i < n; ++i)
      h[i] = i;
    uint64_t x = 88172645463325252ull;
    for (size_t i = n - 1; i > 0; --i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      size_t j = x % i;
      std::swap(h[i], h[j]);
    }
    CK(cuMemcpyHtoD(ring, h.data(), n * 8));
  }
  int iters = 4000;
  void *aa[] = {&flag, &out, &iters};
  printf("[charge] 4000 x 16 same-address atomics, 1056 x 256 threads, flag set at 1 ms: "
         "ended after %.1f ms\n",
         cancelled(fa, aa, 1056, 256, flag));
  int depth = 256;
  void *ac[] = {&flag, &ring, &outs, &iters, &depth};
  printf("[charge] 4000 x 256 dependent loads (1 GiB ring), 1056 x 256 threads, flag set at "
         "1 ms: ended after %.1f ms\n",
         cancelled(fc, ac, 1056, 256, flag));
  int one = 1;
  void *a1[] = {&flag, &ring, &outs, &one, &depth};
  printf("[charge]   (one iteration of 256 loads, same grid: %.1f ms)\n",
         cancelled(fc, a1, 1056, 256, flag));
}

static void zeroProbe(CUmodule m) {
  CUfunction fb, fw;
  CK(cuModuleGetFunction(&fb, m, "zero_bytes"));
  CK(cuModuleGetFunction(&fw, m, "zero_wide"));
  CUdeviceptr out;
  CK(cuMemAlloc(&out, 1 << 20));
  int bytes = 409600;
  void *a[] = {&out, &bytes};
  for (unsigned grid : {132u, 264u}) {
    auto t = Clock::now();
    CK(cuLaunchKernel(fb, grid, 1, 1, 1024, 1, 1, 0, nullptr, a, nullptr));
    CK(cuCtxSynchronize());
    printf("[zero] %u x 1024 threads zero 400 KiB each, byte stores: %.1f ms\n", grid, ms(t));
    t = Clock::now();
    CK(cuLaunchKernel(fw, grid, 1, 1, 1024, 1, 1, 0, nullptr, a, nullptr));
    CK(cuCtxSynchronize());
    printf("[zero] %u x 1024 threads zero 400 KiB each, 16-byte stores: %.1f ms\n", grid, ms(t));
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    printf("usage: review5_probe wait|charge|zero CUBIN\n");
    return 2;
  }
  CK(cuInit(0));
  CUdevice d;
  CK(cuDeviceGet(&d, 0));
  CUcontext c;
  CK(cuDevicePrimaryCtxRetain(&c, d));
  CK(cuCtxSetCurrent(c));
  CUmodule m;
  CK(cuModuleLoad(&m, argv[2]));
  if (!strcmp(argv[1], "wait"))
    waitProbe(m);
  else if (!strcmp(argv[1], "charge"))
    chargeProbe(m);
  else if (!strcmp(argv[1], "zero"))
    zeroProbe(m);
  return 0;
}
