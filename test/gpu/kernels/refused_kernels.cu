// A module the hardening passes must refuse: inline assembly that stores to global
// memory (the passes cannot confine an address hidden in asm).
extern "C" __global__ void evil(unsigned *p) {
  asm volatile("st.global.u32 [%0], 1;" ::"l"(p) : "memory");
}
