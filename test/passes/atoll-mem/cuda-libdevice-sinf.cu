// Real clang-22 output calling sinf (libdevice, linked by clang): libdevice's
// Payne-Hanek table __cudart_i2opi_f is an addrspace(1) module constant, which
// atoll-mem alone refuses as module storage; after promote-ptx-constant-globals
// it is a constant object, its reads are confined into it, libdevice's
// register-only inline asm (mad.lo.cc/madc) passes, and the kernel compiles.
// RUN: %clang-cuda %s -o %t.bc
// RUN: not %opt-atoll -passes=atoll-mem -disable-output %t.bc 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: %opt-atoll -passes='promote-ptx-constant-globals,atoll-mem<verbose>' %t.bc -o %t.hard.bc 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: llvm-dis %t.hard.bc -o - | FileCheck %s
// RUN: %llc-sm90 %t.hard.bc -o - | FileCheck %s --check-prefix=PTX
// RUN: %opt-atoll -passes='promote-ptx-constant-globals,atoll-mem<clamping-mode=modulo-based>' %t.bc -o - | %llc-sm90 -o /dev/null

__global__ void wave(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = sinf(x[i]) + __cosf(x[i]);
}

// ALONE: error: atoll-mem: refused in '_Z4wavePKfPfi': access to module-scope storage '__cudart_i2opi_f' (writable module globals are refused; run promote-ptx-constant-globals): {{.*}} = load i32, ptr addrspace(1) {{.*}}, align 4

// VERBOSE-DAG: atoll-mem: _Z4wavePKfPfi: constant load confined: into its constant object
// VERBOSE-DAG: atoll-mem: _Z4wavePKfPfi: unknown inline-asm proven-safe: inline asm on the allow-list | {{.*}}asm "{\0A\09mad.lo.cc.u32
// VERBOSE-DAG: atoll-mem: _Z4wavePKfPfi: local store confined: into its stack object
// VERBOSE-DAG: atoll-mem: _Z4wavePKfPfi: global store confined: into the arena (mask)

// CHECK: @__cudart_i2opi_f = internal unnamed_addr addrspace(4) constant [6 x i32]
// CHECK-LABEL: define {{.*}}ptx_kernel void @_Z4wavePKfPfi(
// CHECK:         getelementptr {{(inbounds nuw )?}}i32, ptr addrspace(4) @__cudart_i2opi_f, i64 [[I:%.*]]
// CHECK-NEXT:    [[O:%.*]] = mul i64 [[I]], 4
// CHECK-NEXT:    [[T:%.*]] = trunc i64 [[O]] to i32
// CHECK-NEXT:    [[OPQT:%.*]] = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 [[T]])
// CHECK-NEXT:    [[C:%.*]] = call i32 @llvm.umin.i32(i32 [[OPQT]], i32 20)
// CHECK-NEXT:    [[A:%.*]] = and i32 [[C]], -4
// CHECK-NEXT:    [[Z:%.*]] = zext i32 [[A]] to i64
// CHECK-NEXT:    [[P:%.*]] = getelementptr i8, ptr addrspace(4) @__cudart_i2opi_f, i64 [[Z]]
// CHECK-NEXT:    load i32, ptr addrspace(4) [[P]], align 4

// PTX: .const .align 4 .b8 __cudart_i2opi_f[24]
// PTX-LABEL: .entry _Z4wavePKfPfi(
// PTX:         ld.const.b32
// PTX:         mad.lo.cc.u32
