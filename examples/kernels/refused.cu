// A kernel the passes refuse: device-side printf writes into one buffer that the
// driver shares between every kernel in the context, so a tenant could flood or read
// it. atoll-harden and Runtime::loadApplication refuse it and name the kernel, the
// instruction and the reason ("printf is not supported ...").
#include <cstdio>

extern "C" __global__ void debug_dump(const int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    printf("data[%d] = %d\n", i, data[i]);
}
