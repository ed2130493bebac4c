; String constants move to constant memory: a printf format, a string passed as a
; printf argument (stored into vprintf's argument buffer, which only vprintf reads),
; and a string read byte by byte.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%printf_args = type { ptr, i32 }

@.str = private unnamed_addr constant [10 x i8] c"%s is %d\0A\00", align 1
@.str.1 = private unnamed_addr constant [6 x i8] c"alpha\00", align 1
@greeting = internal constant [6 x i8] c"hello\00", align 1

; CHECK: @.str = private unnamed_addr addrspace(4) constant [10 x i8] c"%s is %d\0A\00", align 1
; CHECK: @.str.1 = private unnamed_addr addrspace(4) constant [6 x i8] c"alpha\00", align 1
; CHECK: @greeting = internal addrspace(4) constant [6 x i8] c"hello\00", align 1

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: store ptr addrspacecast (ptr addrspace(4) @.str.1 to ptr), ptr %buf, align 8
; CHECK: call i32 @vprintf(ptr addrspacecast (ptr addrspace(4) @.str to ptr), ptr %buf)
; CHECK: getelementptr inbounds i8, ptr addrspacecast (ptr addrspace(4) @greeting to ptr), i64 %i
define ptx_kernel void @k(ptr %out, i32 %n, i64 %i) {
  %buf = alloca %printf_args, align 8
  call void @llvm.lifetime.start.p0(ptr %buf)
  store ptr @.str.1, ptr %buf, align 8
  %f = getelementptr inbounds nuw i8, ptr %buf, i64 8
  store i32 %n, ptr %f, align 8
  %r = call i32 @vprintf(ptr @.str, ptr %buf)
  call void @llvm.lifetime.end.p0(ptr %buf)
  %p = getelementptr inbounds i8, ptr @greeting, i64 %i
  %c = load i8, ptr %p, align 1
  store i8 %c, ptr %out, align 1
  ret void
}

declare i32 @vprintf(ptr, ptr)
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)

; PTX-DAG: .const .align 1 .b8 _$_str[10] = {37, 115, 32, 105, 115, 32, 37, 100, 10};
; PTX-DAG: .const .align 1 .b8 _$_str_$_1[6] = {97, 108, 112, 104, 97};
; PTX-DAG: .const .align 1 .b8 greeting[6] = {104, 101, 108, 108, 111};
; PTX: cvta.const.u64
; PTX: call.uni
; PTX: vprintf
