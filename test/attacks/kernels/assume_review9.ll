; Review R9-F1: the tenant's promise "n is even" as a branch to `unreachable`. The
; toolchain's -O2 runs after atoll-strip-facts and turns it into llvm.assume, which
; the loop count's ScalarEvolution believed: the loop `for (i = 0; i != n; i += 2)`
; was counted (n - 2) / 2 and versioned into a copy without checks that an odd n
; never ends (nothing could stop it: the SMs were lost for the process). atoll-mem
; now drops every assumption first. LLVM IR: clang at -O2 makes the assume itself
; (then stripped), so the branch must reach the toolchain as written here.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @spin_assume_even(ptr addrspace(1) %out, i32 %n) {
entry:
  %odd = and i32 %n, 1
  %even = icmp eq i32 %odd, 0
  br i1 %even, label %ok, label %bad
bad:
  unreachable
ok:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %ok ], [ %i1, %loop ]
  %acc = phi i32 [ 1, %ok ], [ %acc1, %loop ]
  %x = mul i32 %acc, 1664525
  %acc1 = add i32 %x, %i
  %i1 = add i32 %i, 2
  %d = icmp ne i32 %i1, %n
  br i1 %d, label %loop, label %exit, !llvm.loop !1
exit:
  %r = phi i32 [ 0, %ok ], [ %acc1, %loop ]
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

; The constant form: "n < 100" promised, the loop charged min(n - 1, 98) + 1 while
; it runs n - 1 times (2^32 - 1 for n = 2^32 - 1).
define ptx_kernel void @spin_assume_below(ptr addrspace(1) %out, i32 %n) {
entry:
  %c = icmp ult i32 %n, 100
  br i1 %c, label %ok, label %bad
bad:
  unreachable
ok:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %ok ], [ %i1, %loop ]
  %acc = phi i32 [ 1, %ok ], [ %acc1, %loop ]
  %x = mul i32 %acc, 1664525
  %acc1 = add i32 %x, %i
  %i1 = add i32 %i, 1
  %d = icmp ult i32 %i1, %n
  br i1 %d, label %loop, label %exit, !llvm.loop !1
exit:
  %r = phi i32 [ 0, %ok ], [ %acc1, %loop ]
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

!1 = distinct !{!1, !2}
!2 = !{!"llvm.loop.unroll.disable"}
