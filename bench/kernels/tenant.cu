// Small kernels for the start-up, launch and multi-tenant benchmarks (not part of
// the kernel-overhead set).

// "First kernel result": out[t] = value + t.
extern "C" __global__ void first_result(int *out, int value) {
  out[threadIdx.x] = value + (int)threadIdx.x;
}

// Launch cost: a trivial kernel with a typical argument list (buffer, int, float).
extern "C" __global__ void launch_probe(float *out, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * (float)i;
}

// Multi-tenant: a small kernel of adjustable length (a dependent FMA chain per
// thread; `iters` is calibrated to about 10 us).
extern "C" __global__ void spin(float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (float)i * 1e-3f;
  for (int k = 0; k < iters; ++k)
    v = v * 0.999f + 0.001f;
  out[i] = v;
}

// Cancel latency: grid-filling kernels that never end on their own. spin_register
// iterates on registers only (its preemption check reads the cancel word every 2^k
// edges); spin_memory polls a word of its arena that nobody sets (a waiting cycle:
// the check reads the cancel word on every edge).
extern "C" __global__ void spin_register(float *out, float stop) {
  float v = (float)threadIdx.x;
  while (v != stop) {
    v = v * 0.5f + 1.0f; // converges to 2.0; stop = -1 never comes
    if (v == stop * 3.0f) // never either; a store keeps the loop (forward progress)
      out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  }
}

extern "C" __global__ void spin_memory(volatile int *flag) {
  while (*flag == 0) {
  }
}

// SM partitions (section "partition"): hogs that fill the GPU with long kernels.
// hog_compute: every block stays resident `ns` nanoseconds doing FMAs (no memory
// traffic but one store); hog_memory: `rounds` grid-stride passes copying n float4s
// (memory bandwidth).
__device__ static inline unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

extern "C" __global__ void hog_compute(float *out, unsigned long long ns) {
  const unsigned long long start = global_ns();
  float v = (float)threadIdx.x;
  while (global_ns() - start < ns) {
    for (int k = 0; k < 64; ++k)
      v = v * 0.999f + 0.001f;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The victim of section "partition": `spin`, and its first thread records when it
// ran and at what clock: t[3 slot + 0, 1] = %globaltimer (ns) at its start and end,
// t[3 slot + 2] = SM cycles (%clock64) in between (host vs device time, SM clock).
extern "C" __global__ void spin_timed(float *out, int iters, unsigned long long *t, int slot) {
  const unsigned long long t0 = global_ns();
  unsigned long long c0, c1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (float)i * 1e-3f;
  for (int k = 0; k < iters; ++k)
    v = v * 0.999f + 0.001f;
  out[i] = v;
  if (i == 0) {
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
    t[3 * slot] = t0;
    t[3 * slot + 1] = global_ns();
    t[3 * slot + 2] = c1 - c0;
  }
}

extern "C" __global__ void hog_memory(const float4 *in, float4 *out, unsigned long long n,
                                      int rounds) {
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (int r = 0; r < rounds; ++r)
    for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
      float4 a = in[i];
      out[i] = make_float4(a.x + 1.0f, a.y, a.z, a.w);
    }
}
