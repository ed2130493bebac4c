; R7-F2: atomics that ptxas turns into compare-and-swap retry loops (no single
; instruction on sm_90), invisible in IR and PTX: no preemption check inside, and
; ~N^2 attempts for N contenders on one word. atoll-mem now expands them into IR
; loops around a native cmpxchg, which take a check like any loop. LLVM IR: the
; exact shapes.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@smem = internal addrspace(3) global [4 x i32] zeroinitializer, align 16

; Loop-free: every thread of the grid adds 1.0 (half) to the same global word, a
; SASS CAS loop (atom.global.add.noftz.f16) that had no poll at all.
define ptx_kernel void @f16_storm(ptr addrspace(1) %p) {
entry:
  %o = atomicrmw fadd ptr addrspace(1) %p, half 0xH3C00 monotonic, align 2
  ret void
}

; A wait on a flag nobody sets around a 4096-iteration loop of one shared float add
; (CUDA's atomicAdd(float *) on __shared__: atom.shared.add.f32, a SASS CAS loop).
; The inner loop was charged once (4096 x 64 units fit 2^20): 4096 contended shared
; atomics per thread between two polls; each is now a checked loop of its own.
define ptx_kernel void @shared_f32_storm(ptr addrspace(1) %flag, ptr addrspace(1) %out) {
entry:
  br label %wait
wait:
  %f = load volatile i32, ptr addrspace(1) %flag, align 4
  %done = icmp ne i32 %f, 0
  br i1 %done, label %exit, label %body
body:
  %i = phi i32 [ 0, %wait ], [ %n, %body ]
  %x = atomicrmw fadd ptr addrspace(3) @smem, float 1.0 monotonic, align 4
  %n = add i32 %i, 1
  %c = icmp ult i32 %n, 4096
  br i1 %c, label %body, label %wait
exit:
  %v = load float, ptr addrspace(3) @smem, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}
