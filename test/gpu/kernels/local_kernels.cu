#include <stdint.h>

// A stack frame close to the local-memory cap (R5-F4, ATOLL_DEFAULT_MAX_LOCAL_BYTES =
// 16 KiB per thread): 15,360 bytes, indexed at run time so that it stays in local
// memory. Its first launch must not grow the context's local-memory reservation
// (the runtime reserved the cap at start), so it must not wait for other tenants.
#define LOCAL_WORDS 3840u

extern "C" __global__ void local_frame(const uint32_t *seeds, uint32_t *out, uint32_t rounds) {
  uint32_t buf[LOCAL_WORDS];
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t seed = seeds[t];
  for (uint32_t i = 0; i < LOCAL_WORDS; ++i)
    buf[i] = seed * i + 1u;
  uint32_t acc = 0;
  for (uint32_t i = 0; i < rounds; ++i)
    acc += buf[(seed + i * 7u) % LOCAL_WORDS];
  out[t] = acc;
}
