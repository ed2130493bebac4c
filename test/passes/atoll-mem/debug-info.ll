; With debug info the diagnostic starts with the tenant's source location
; (file:line:col) of the refused instruction, including one inlined from a device
; function; a hardened kernel keeps its debug info and still compiles.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/refused.ll 2>&1 | FileCheck %s --check-prefix=REFUSED
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %t/inlined.ll 2>&1 | FileCheck %s --check-prefix=INLINED
; RUN: %opt-atoll -passes=atoll-mem -S %t/ok.ll -o - | FileCheck %s --check-prefix=OK
; RUN: %opt-atoll -passes=atoll-mem %t/ok.ll -o - | %llc-sm90 -o - | FileCheck %s --check-prefix=PTX

; REFUSED: error: attack.cu:12:7: atoll-mem: refused in '_Z6attackPi': atomic on local memory (undefined in PTX): %o = atomicrmw add ptr %a, i32 1 monotonic, align 4
; INLINED: error: helpers.cuh:3:5: atoll-mem: refused in 'kern': trap: a trap faults the shared CUDA context (use an early return): call void @llvm.trap()
; OK:       define ptx_kernel void @ok(ptr %p, i64 %i, i64 %__atoll_arena_base, i64 %__atoll_arena_size, i64 %__atoll_control) {{.*}}!dbg [[SP:![0-9]+]]
; OK:         store i32 7, ptr {{%.*}}, align 4, !dbg [[LOC:![0-9]+]]
; OK:       [[SP]] = distinct !DISubprogram(name: "ok"
; OK:       [[LOC]] = !DILocation(line: 4, column: 9
; PTX:        .loc 1 4 9

;--- refused.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @_Z6attackPi(ptr %p) !dbg !5 {
  %a = alloca i32, align 4
  %o = atomicrmw add ptr %a, i32 1 monotonic, align 4, !dbg !8
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "attack.cu", directory: "/tenant")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 2}
!5 = distinct !DISubprogram(name: "attack", linkageName: "_Z6attackPi", scope: !1, file: !1, line: 10, type: !6, scopeLine: 10, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 12, column: 7, scope: !5)

;--- inlined.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.trap()
define void @bail() !dbg !9 {
  call void @llvm.trap(), !dbg !10
  ret void
}
define ptx_kernel void @kern() !dbg !5 {
  call void @bail(), !dbg !8
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "kern.cu", directory: "/tenant")
!2 = !DIFile(filename: "helpers.cuh", directory: "/tenant")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 2}
!5 = distinct !DISubprogram(name: "kern", scope: !1, file: !1, line: 20, type: !6, scopeLine: 20, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 22, column: 3, scope: !5)
!9 = distinct !DISubprogram(name: "bail", scope: !2, file: !2, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DILocation(line: 3, column: 5, scope: !9)

;--- ok.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @ok(ptr %p, i64 %i) !dbg !5 {
  %q = getelementptr i32, ptr %p, i64 %i, !dbg !8
  store i32 7, ptr %q, align 4, !dbg !8
  ret void, !dbg !8
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "ok.cu", directory: "/tenant")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 2}
!5 = distinct !DISubprogram(name: "ok", scope: !1, file: !1, line: 2, type: !6, scopeLine: 2, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 4, column: 9, scope: !5)
