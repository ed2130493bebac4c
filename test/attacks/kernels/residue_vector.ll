; Found by review (F2): a variable-index extractelement on a vector with undefined
; lanes made codegen build a stack temporary with only the defined lanes written
; and read lane i from it: the rest is the previous kernel's local memory. The
; victim fills its stack with secrets; the attacker's lanes 1..1023 must be zero.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @residue_vector_writer(i32 %salt) {
entry:
  %l = alloca [1024 x i32], align 16
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %n, %loop ]
  %k = add i32 %i, %salt
  %m = mul i32 %k, -1640531535
  %lo = and i32 %m, 1048575
  %s = or i32 %lo, 1589641216
  %p = getelementptr inbounds i32, ptr %l, i32 %i
  store volatile i32 %s, ptr %p, align 4
  %n = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %n, 1024
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define ptx_kernel void @residue_vector_probe(ptr %out, i32 %a) {
entry:
  ; The index goes through a volatile slot: opaque to the optimiser, which would
  ; otherwise fold the extract of a vector with undefined lanes.
  %slot = alloca i32, align 4
  %v = insertelement <1024 x i32> poison, i32 %a, i32 0
  br label %loop
loop:
  %i = phi i32 [ 1, %entry ], [ %n, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  store volatile i32 %i, ptr %slot, align 4
  %iv = load volatile i32, ptr %slot, align 4
  %e = extractelement <1024 x i32> %v, i32 %iv
  %acc2 = or i32 %acc, %e
  %n = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %n, 1024
  br i1 %c, label %loop, label %exit
exit:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %g = add i32 %base, %tid
  %gi = zext i32 %g to i64
  %o = getelementptr inbounds i32, ptr %out, i64 %gi
  store i32 %acc2, ptr %o, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
