; Found by review (F6): two constant objects of 2^32 and 2^64 - 2^32 bytes summed
; to 0 in the bank check, passed, and crashed NVPTX codegen in the service.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@a = internal addrspace(4) constant { i8, [4294967295 x i8] } { i8 1, [4294967295 x i8] zeroinitializer }, align 1
@b = internal addrspace(4) constant { i8, [18446744069414584319 x i8] } { i8 2, [18446744069414584319 x i8] zeroinitializer }, align 1

define ptx_kernel void @constant_bank_wrap(ptr %out, i64 %i, i64 %j) {
  %p = getelementptr i8, ptr addrspace(4) @a, i64 %i
  %v = load volatile i8, ptr addrspace(4) %p
  %q = getelementptr i8, ptr addrspace(4) @b, i64 %j
  %w = load volatile i8, ptr addrspace(4) %q
  %s = add i8 %v, %w
  store i8 %s, ptr %out
  ret void
}
