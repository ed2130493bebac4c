// Vector (16-byte) loads and stores: out = s * a + b on float4 elements.
extern "C" __global__ void vec4(const float4 *a, const float4 *b, float4 *out, float s, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4)
    return;
  float4 x = a[i], y = b[i];
  out[i] = make_float4(s * x.x + y.x, s * x.y + y.y, s * x.z + y.z, s * x.w + y.w);
}
