// Constant-memory tables: a 32-tap FIR filter with uniform (broadcast) accesses to
// __constant__ taps, plus a data-dependent lookup in a 256-entry __constant__ table.
// `in` holds n + 32 values.
struct Taps {
  float v[32];
};
struct Lut {
  float v[256];
};
constexpr Taps makeTaps() {
  Taps t{};
  for (int k = 0; k < 32; ++k)
    t.v[k] = (float)(k % 7 + 1) * 0.03125f;
  return t;
}
constexpr Lut makeLut() {
  Lut l{};
  for (int k = 0; k < 256; ++k)
    l.v[k] = (float)(k % 17) * 0.25f - 2.0f;
  return l;
}
__constant__ Taps taps = makeTaps();
__constant__ Lut lut = makeLut();

extern "C" __global__ void const_table(const float *in, const unsigned *keys, float *out,
                                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 32; ++k)
    acc += taps.v[k] * in[i + k];
  out[i] = acc + lut.v[keys[i] & 255u];
}
