// A per-thread array indexed with data-dependent indices (so it lives in local
// memory): 32 floats filled from the input, then 64 pseudo-random read-modify-write
// steps.
extern "C" __global__ void local_array(const unsigned *keys, const float *vals, float *out,
                                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float buf[32];
  float v = vals[i];
  for (int k = 0; k < 32; ++k)
    buf[k] = v * (float)(k + 1);
  unsigned state = keys[i];
  float acc = 0.0f;
  for (int r = 0; r < 64; ++r) {
    state = state * 1664525u + 1013904223u;
    unsigned idx = (state >> 16) & 31u;
    acc += buf[idx];
    buf[(idx + r) & 31u] = acc * 0.5f;
  }
  out[i] = acc;
}
