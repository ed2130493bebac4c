; Strings referenced from a table of pointers (clang: `const char *const names[]`)
; are followed through loads of the table: read-only use promotes both (data fields
; of an array of structs may be read at variable indices), a write through a loaded
; pointer is refused, and so is reading the table's pointer slots as plain data or
; copying the table (the addresses could come back as pointers).
; RUN: split-file %s %t
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %t/read.ll | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %t/read.ll | %llc-sm90 | FileCheck %s --check-prefix=PTX
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/write.ll 2>&1 | FileCheck %s --check-prefix=WRITE
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/asdata.ll 2>&1 | FileCheck %s --check-prefix=ASDATA
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/copied.ll 2>&1 | FileCheck %s --check-prefix=COPIED
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/slot.ll 2>&1 | FileCheck %s --check-prefix=SLOT

;--- read.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.S = type { ptr, i32 }
%struct.L = type { ptr, i64 }
%struct.P = type { float, double, ptr }

@.str1 = private unnamed_addr constant [6 x i8] c"alpha\00", align 1
@.str2 = private unnamed_addr constant [5 x i8] c"beta\00", align 1
@.str3 = private unnamed_addr constant [4 x i8] c"one\00", align 1
@.str4 = private unnamed_addr constant [4 x i8] c"two\00", align 1
@names = internal unnamed_addr addrspace(4) constant [2 x %struct.S] [%struct.S { ptr @.str1, i32 1 }, %struct.S { ptr @.str2, i32 2 }], align 8
@strs = internal unnamed_addr addrspace(1) constant [2 x ptr] [ptr @.str3, ptr @.str4], align 8
@long = internal constant %struct.L { ptr @.str1, i64 99 }, align 8
@ents = internal constant [2 x %struct.P] [%struct.P { float 1.0, double 2.0, ptr @.str3 }, %struct.P { float 3.0, double 4.0, ptr @.str4 }], align 8

; CHECK-DAG: @.str1 = private unnamed_addr addrspace(4) constant [6 x i8] c"alpha\00"
; CHECK-DAG: @.str2 = private unnamed_addr addrspace(4) constant [5 x i8] c"beta\00"
; CHECK-DAG: @.str3 = private unnamed_addr addrspace(4) constant [4 x i8] c"one\00"
; CHECK-DAG: @.str4 = private unnamed_addr addrspace(4) constant [4 x i8] c"two\00"
; CHECK-DAG: @names = internal unnamed_addr addrspace(4) constant [2 x %struct.S] [%struct.S { ptr addrspacecast (ptr addrspace(4) @.str1 to ptr), i32 1 }, %struct.S { ptr addrspacecast (ptr addrspace(4) @.str2 to ptr), i32 2 }], align 8
; CHECK-DAG: @strs = internal unnamed_addr addrspace(4) constant [2 x ptr] [ptr addrspacecast (ptr addrspace(4) @.str3 to ptr), ptr addrspacecast (ptr addrspace(4) @.str4 to ptr)], align 8
; CHECK-DAG: @long = internal addrspace(4) constant %struct.L { ptr addrspacecast (ptr addrspace(4) @.str1 to ptr), i64 99 }, align 8
; CHECK-DAG: @ents = internal addrspace(4) constant [2 x %struct.P] [%struct.P { float 1.000000e+00, double 2.000000e+00, ptr addrspacecast (ptr addrspace(4) @.str3 to ptr) },

define ptx_kernel void @k(ptr %out, i64 %i) {
  ; names[i].v: an i32 cannot hold an address.
  %e = getelementptr inbounds %struct.S, ptr addrspacecast (ptr addrspace(4) @names to ptr), i64 %i
  %vp = getelementptr inbounds nuw i8, ptr %e, i64 8
  %v = load i32, ptr %vp, align 8
  ; names[i].name[1]
  %n = load ptr, ptr %e, align 8
  %np = getelementptr inbounds nuw i8, ptr %n, i64 1
  %c1 = load i8, ptr %np, align 1
  ; strs[i][0]
  %sp = getelementptr inbounds ptr, ptr addrspace(1) @strs, i64 %i
  %s = load ptr, ptr addrspace(1) %sp, align 8
  %c2 = load i8, ptr %s, align 1
  ; long.n: an i64 at a constant offset that holds no address.
  %l = load i64, ptr getelementptr inbounds nuw (i8, ptr @long, i64 8), align 8
  %lp = load ptr, ptr @long, align 8
  %c3 = load i8, ptr %lp, align 1
  ; ents[i].b: a double at offsets 8 and 32, which hold no address.
  %pe = getelementptr inbounds %struct.P, ptr @ents, i64 %i
  %pb = getelementptr inbounds nuw i8, ptr %pe, i64 8
  %d = load double, ptr %pb, align 8
  %di = fptosi double %d to i64
  %a = zext i8 %c1 to i32
  %b = zext i8 %c2 to i32
  %c = zext i8 %c3 to i32
  %t0 = add i32 %v, %a
  %t1 = add i32 %t0, %b
  %t2 = add i32 %t1, %c
  %tz = zext i32 %t2 to i64
  %t3 = add i64 %tz, %l
  %t4 = add i64 %t3, %di
  store i64 %t4, ptr %out, align 8
  ret void
}

; PTX-DAG: .const .align 8 .u64 names[4] = {generic(_$_str1), 1, generic(_$_str2), 2};
; PTX-DAG: .const .align 8 .u64 strs[2] = {generic(_$_str3), generic(_$_str4)};

;--- write.ll
target triple = "nvptx64-nvidia-cuda"
@.str3 = private unnamed_addr constant [4 x i8] c"one\00", align 1
@strs = internal unnamed_addr addrspace(4) constant [1 x ptr] [ptr @.str3], align 8
define ptx_kernel void @k() {
  %s = load ptr, ptr addrspace(4) @strs, align 8
  store i8 0, ptr %s, align 1
  ret void
}
; WRITE: error: promote-ptx-constant-globals: refused global '.str3': writable module-scope storage (written by 'store i8 0, ptr %s, align 1' in 'k')

;--- asdata.ll
target triple = "nvptx64-nvidia-cuda"
@.str3 = private unnamed_addr constant [4 x i8] c"one\00", align 1
@strs = internal unnamed_addr addrspace(4) constant [1 x ptr] [ptr @.str3], align 8
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i64, ptr addrspace(4) @strs, i64 %i
  %a = load i64, ptr addrspace(4) %p, align 8
  store i64 %a, ptr %out, align 8
  ret void
}
; ASDATA: error: promote-ptx-constant-globals: refused global '.str3': writable module-scope storage (address escapes, a pointer table is read as data: '%a = load i64, ptr addrspace(4) %p, align 8' in 'k')

;--- copied.ll
target triple = "nvptx64-nvidia-cuda"
@.str3 = private unnamed_addr constant [4 x i8] c"one\00", align 1
@strs = internal unnamed_addr addrspace(4) constant [1 x ptr] [ptr @.str3], align 8
define ptx_kernel void @k(ptr %out) {
  call void @llvm.memcpy.p0.p4.i64(ptr %out, ptr addrspace(4) @strs, i64 8, i1 false)
  ret void
}
; COPIED: error: promote-ptx-constant-globals: refused global '.str3': writable module-scope storage (address escapes, a pointer table is copied: 'call void @llvm.memcpy.p0.p4.i64(ptr %out, ptr addrspace(4) @strs, i64 8, i1 false)' in 'k')

;--- slot.ll
; The same array of structs, read as i64 at the pointer field's offsets 16 and 40.
target triple = "nvptx64-nvidia-cuda"
%struct.P = type { float, double, ptr }
@.str3 = private unnamed_addr constant [4 x i8] c"one\00", align 1
@ents = internal constant [2 x %struct.P] [%struct.P { float 1.0, double 2.0, ptr @.str3 }, %struct.P { float 3.0, double 4.0, ptr @.str3 }], align 8
define ptx_kernel void @k(ptr %out, i64 %i) {
  %pe = getelementptr inbounds %struct.P, ptr @ents, i64 %i
  %pn = getelementptr inbounds nuw i8, ptr %pe, i64 16
  %a = load i64, ptr %pn, align 8
  store i64 %a, ptr %out, align 8
  ret void
}
; SLOT: error: promote-ptx-constant-globals: refused global '.str3': writable module-scope storage (address escapes, a pointer table is read as data: '%a = load i64, ptr %pn, align 8' in 'k')
