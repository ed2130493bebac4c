; R4-F1: a kernel marked willreturn. ScalarEvolution takes willreturn as "every loop
; ends", counted i != n with step 2 as n/2, and the charged-loop versioning ran an
; unchecked copy that for odd n never ends (i is always even and wraps at 2^32). Now
; atoll-strip-facts removes willreturn and mustprogress, so the loop keeps its check
; and the timeout's cancel ends it. LLVM IR: the attribute must reach the passes.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @willreturn_forever(ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %idx = and i32 %i, 255
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %idx
  store i32 %i, ptr addrspace(1) %p, align 4
  %i.next = add i32 %i, 2
  %c = icmp ne i32 %i.next, %n
  br i1 %c, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}

attributes #0 = { willreturn mustprogress }
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}
