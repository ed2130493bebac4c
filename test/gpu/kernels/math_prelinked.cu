// The same math kernel, compiled the way clang does by default: libdevice is linked
// by clang already (its register-only inline asm included), so the bitcode carries
// no __nv_* calls. The hardening passes must accept it as well.
#include "math_kernels.cu"
