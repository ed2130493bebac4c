; A tenant's !atoll.charged.work (preempt-charge-entry.ll): the mark is reserved.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @forged(ptr addrspace(1) %out) {
entry:
  store i32 1, ptr addrspace(1) %out, align 4
  br label %exit, !atoll.charged.work !0
exit:
  ret void
}

!0 = !{i64 0}
