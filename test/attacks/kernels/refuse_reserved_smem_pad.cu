// A tenant global named like the pass's own shared pad: were the pad looked up by
// name, this 1-byte array would be taken for the pad (sized for the widest
// access) and the shared-window clamp would trust it. Names in the __atoll
// namespace are refused.
#include "common.h"
extern "C" __shared__ u8 __atoll_smem_pad[1];
extern "C" __global__ void reserved_smem_pad(u32 *out, u64 off) {
  extern __shared__ u32 dyn[];
  __atoll_smem_pad[0] = 1;
  dyn[off] = 0x0bad0001u;
  out[gtid()] = __atoll_smem_pad[0];
}
