; Device functions are inlined into every kernel that calls them (transitively),
; so their accesses are confined with the kernel's own windows and hidden
; parameters; byval arguments become stack objects of the kernel; the device
; functions are then removed from the module.
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose>' -S %s -o - 2>%t.verbose | FileCheck %s
; RUN: FileCheck %s --check-prefix=VERBOSE --input-file=%t.verbose
; RUN: %opt-atoll -passes=atoll-mem %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [16 x float] undef, align 4

define internal float @leaf(ptr %p, i64 %i) noinline {
  %q = getelementptr float, ptr %p, i64 %i
  %v = load float, ptr %q, align 4
  ret float %v
}

define float @middle(ptr %p, i64 %i, ptr byval([4 x float]) align 4 %s) {
  %a = call float @leaf(ptr %p, i64 %i)
  %b = call float @leaf(ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 %i)
  %sq = getelementptr float, ptr %s, i64 %i
  %c = load float, ptr %sq, align 4
  %ab = fadd float %a, %b
  %abc = fadd float %ab, %c
  ret float %abc
}

define ptx_kernel void @kern(ptr %in, ptr %out, i64 %i) {
  %s = alloca [4 x float], align 4
  %r = call float @middle(ptr %in, i64 %i, ptr byval([4 x float]) align 4 %s)
  store float %r, ptr %out, align 4
  ret void
}

; CHECK-NOT:   define {{.*}} @leaf
; CHECK-NOT:   define {{.*}} @middle
; CHECK-LABEL: define ptx_kernel void @kern(ptr %in, ptr %out, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control)
; CHECK-NOT:     call float
; The leaf's load through the kernel's pointer: arena.
; CHECK:         [[O:%.*]] = and i32 {{%.*}}, %atoll.arena.mask.a4
; CHECK-NEXT:    [[Z:%.*]] = zext i32 [[O]] to i64
; CHECK-NEXT:    or i64 %atoll.arena.base, [[Z]]
; The leaf's load through the shared tile: into @tile.
; CHECK:         getelementptr float, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64 %i
; CHECK-NEXT:    mul i64 %i, 4
; CHECK-NEXT:    trunc i64
; CHECK-NEXT:    call i32 asm "mov.b32 $0, $1;", "=r,r"
; CHECK-NEXT:    call i32 @llvm.umin.i32(i32 {{%.*}}, i32 60)
; CHECK-NEXT:    and i32
; CHECK-NEXT:    zext i32
; CHECK-NEXT:    getelementptr i8, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i64
; The byval copy is a stack object of the kernel.
; CHECK:         getelementptr float, ptr [[S:%s[0-9]*]], i64 %i
; CHECK:         call i32 @llvm.umin.i32(i32 {{%.*}}, i32 12)
; CHECK:         getelementptr i8, ptr [[S]], i64
; CHECK-NOT:   define {{.*}} @leaf
; CHECK-NOT:   define {{.*}} @middle

; The byval copy at the call (a memcpy into the kernel's stack object) is proven safe.
; VERBOSE: atoll-mem: kern: local memcpy proven-safe: constant offset inside its object | call void @llvm.memcpy.p0.p0.i64(
; VERBOSE: atoll-mem: kern: global load confined: into the arena (mask) | %v.i{{[0-9]*}} = load float, ptr %q.i{{[0-9]*}}, align 4
; VERBOSE: atoll-mem: kern: shared load confined: into its shared object | %v.i{{[0-9]*}} = load float, ptr %q.i{{[0-9]*}}, align 4
; VERBOSE: atoll-mem: kern: local load confined: into its stack object | %c.i = load float, ptr %sq.i, align 4
; VERBOSE: atoll-mem: kern: global store confined: into the arena (mask) | store float %abc.i, ptr %out, align 4
