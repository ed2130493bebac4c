// 7-point 3D stencil on an nx x ny x nz grid: a 2D grid of threads marches in z
// (the usual pattern); the border is copied.
extern "C" __global__ void stencil3d(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  const long long plane = (long long)nx * ny;
  for (int z = 0; z < nz; ++z) {
    long long i = z * plane + (long long)y * nx + x;
    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
      out[i] = in[i];
      continue;
    }
    out[i] = (1.0f / 7.0f) * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] +
                              in[i - plane] + in[i + plane]);
  }
}
