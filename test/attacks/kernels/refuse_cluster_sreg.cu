// The cluster special registers of a launch without a cluster: reading them does
// not fault (measured on the H200), but kernels are never launched in clusters and
// the PTX validator refuses every cluster register: atoll-mem refuses them first.
#include "common.h"
extern "C" __global__ void cluster_sreg(u32 *out) {
  u32 c = __nvvm_read_ptx_sreg_clusterid_x() | (__nvvm_read_ptx_sreg_cluster_ctarank() << 8) |
          (__nvvm_read_ptx_sreg_cluster_nctarank() << 16) |
          (__nvvm_read_ptx_sreg_nclusterid_x() << 24);
  out[gtid()] = c;
}
