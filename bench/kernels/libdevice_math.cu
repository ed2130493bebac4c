// libdevice math (full-precision sinf, expf, logf; the toolchain links libdevice):
// eight dependent rounds per element.
extern "C" __global__ void libdevice_math(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  float acc = 0.0f;
  for (int k = 0; k < 8; ++k) {
    acc += sinf(v) * expf(-0.5f * v) + logf(1.0f + v * v);
    v = v * 1.1f + 0.3f;
  }
  out[i] = acc;
}
