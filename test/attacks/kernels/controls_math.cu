// Benign control: libdevice math, in a module of its own so that a host without
// libdevice loses only this control, not the victim's health check (controls.cu).
#include "common.h"

// libdevice math (sinf carries register-only inline asm in libdevice).
extern "C" __global__ void libdevice_math(const float *x, float *out, u32 n) {
  u32 i = gtid();
  if (i >= n) return;
  float v = x[i];
  out[5 * i + 0] = sinf(v);
  out[5 * i + 1] = cosf(v);
  out[5 * i + 2] = expf(v * 0.5f);
  out[5 * i + 3] = logf(fabsf(v) + 1.0f);
  out[5 * i + 4] = sqrtf(fabsf(v)) + tanhf(v);
}
