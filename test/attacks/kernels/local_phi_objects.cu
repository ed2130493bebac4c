// A local pointer that may point into one of two stack arrays (the object cannot
// be determined statically), indexed far out of range by the attacker. Issue 13,
// class 9: contained, not refused: both arrays are merged into one frame object
// and the pointer is clamped into the frame (this thread's own stack).
#include "common.h"
extern "C" __global__ void local_two_objects(u32 sel, u32 idx, u32 v, u32 *out) {
  volatile u32 a[16], b[32];
  for (int i = 0; i < 16; ++i) a[i] = i;
  for (int i = 0; i < 32; ++i) b[i] = 2 * i;
  volatile u32 *p = (sel & 1) ? a : b;
  p[idx] = v;
  out[gtid()] = p[(idx + 1) & 15] + a[gtid() & 15] + b[gtid() & 31];
}
