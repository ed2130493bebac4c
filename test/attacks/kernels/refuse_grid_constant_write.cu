// A __grid_constant__ parameter is read in place from parameter space (no local
// copy): writing it through a cast-away-const pointer would be a write to
// parameter space (LLVM or ptxas crash) -> refused.
#include "common.h"
struct Small {
  u32 v[4];
};
extern "C" __global__ void grid_constant_write(const __grid_constant__ Small s, u32 idx, u32 v,
                                               u32 *out) {
  Small *w = const_cast<Small *>(&s);
  w->v[idx & 3] = v;
  out[gtid()] = s.v[gtid() & 3];
}
