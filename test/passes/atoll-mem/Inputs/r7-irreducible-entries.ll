; Review R7-F4 input (see preempt-entry-drain.ll).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
; An irreducible cycle {a, b} (header b, closing edge a -> b) entered at b through %tob
; or at a through %toa (the tenant picks with %sel). The R6-F3 zeroing of the poll
; counter sits on the header's outside predecessors only (%tob).
define ptx_kernel void @irr(ptr addrspace(1) %p, i32 %sel, i64 %n) {
entry:
  %c = icmp eq i32 %sel, 0
  br i1 %c, label %toa, label %tob
toa:
  store volatile i32 1, ptr addrspace(1) %p, align 4
  br label %a
tob:
  store volatile i32 2, ptr addrspace(1) %p, align 4
  br label %b
a:
  %ia = phi i64 [0, %toa], [%ib.next, %b]
  %x = load i32, ptr addrspace(1) %p, align 4
  %ia.next = add i64 %ia, 1
  br label %b
b:
  %ib = phi i64 [0, %tob], [%ia.next, %a]
  %xx = phi i32 [0, %tob], [%x, %a]
  %y = load i32, ptr addrspace(1) %p, align 4
  %s = add i32 %xx, %y
  %q = getelementptr i8, ptr addrspace(1) %p, i64 16
  store i32 %s, ptr addrspace(1) %q, align 4
  %ib.next = add i64 %ib, 1
  %done = icmp eq i64 %ib.next, %n
  br i1 %done, label %exit, label %a
exit:
  ret void
}
