// Device-side malloc/free (the device heap is shared by every tenant) -> refused.
#include "common.h"
extern "C" __global__ void device_malloc(u64 n, u32 *out) {
  u32 *p = (u32 *)malloc(n);
  if (p) {
    p[0] = 1;
    out[gtid()] = p[n / 8];
    free(p);
  }
}
