// libdevice math through clang's CUDA headers: sinf/expf/logf/sqrtf become calls to
// __nv_sinf/__nv_expf/__nv_logf/__nv_sqrtf, which the runtime's toolchain links.
extern "C" __global__ void math(const float *x, float *s, float *e, float *l, float *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    s[i] = sinf(v);
    e[i] = expf(v);
    l[i] = logf(v);
    q[i] = sqrtf(v);
  }
}
