; -print-pipeline-passes prints every atoll-mem option, and the printed pipeline
; parses back to the same pass: printed, fed back, printed again, same text.
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based;preempt=off;poll-shift=3;max-local-bytes=16384;verbose;summarize>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=ALL
; ALL: atoll-mem<clamping-mode=modulo-based;preempt=off;poll-shift=3;max-local-bytes=16384;verbose;summarize>
; Defaults are printed too (a pipeline printed in one process means the same in another).
; RUN: %opt-atoll -passes=atoll-mem -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=DEFAULT
; DEFAULT: atoll-mem<clamping-mode=mask-based;preempt=on;poll-shift=6;max-local-bytes=16384>
; Round trips, for each non-default value (opt appends ",verify" to a pipeline
; unless -disable-verify; the second run feeds back the printed text with it):
; RUN: %opt-atoll -passes='promote-ptx-constant-globals,atoll-mem<clamping-mode=modulo-based;poll-shift=0;max-local-bytes=16384;summarize>' -print-pipeline-passes -disable-output %s > %t.1
; RUN: %opt-atoll -disable-verify -passes="$(cat %t.1)" -print-pipeline-passes -disable-output %s > %t.2
; RUN: diff %t.1 %t.2
; RUN: FileCheck %s --check-prefix=RT1 --input-file=%t.2
; RT1: promote-ptx-constant-globals,atoll-mem<clamping-mode=modulo-based;preempt=on;poll-shift=0;max-local-bytes=16384;summarize>,verify{{$}}
; RUN: %opt-atoll -passes='atoll-mem<preempt=off;verbose;poll-shift=20;max-local-bytes=4096>' -print-pipeline-passes -disable-output %s > %t.3
; RUN: %opt-atoll -disable-verify -passes="$(cat %t.3)" -print-pipeline-passes -disable-output %s > %t.4
; RUN: diff %t.3 %t.4
; RUN: FileCheck %s --check-prefix=RT2 --input-file=%t.4
; RT2: atoll-mem<clamping-mode=mask-based;preempt=off;poll-shift=20;max-local-bytes=4096;verbose>,verify{{$}}
; The command-line flags set the defaults (clang -fpass-plugin: -mllvm, see
; test/passes/pass-plugin-flags.cu); explicit parameters override them.
; RUN: %opt-atoll -atoll-clamping-mode=modulo-based -atoll-preempt=false -atoll-poll-shift=4 -atoll-verbose -atoll-summarize -passes=atoll-mem -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=FLAGS
; FLAGS: atoll-mem<clamping-mode=modulo-based;preempt=off;poll-shift=4;max-local-bytes=16384;verbose;summarize>
; RUN: %opt-atoll -atoll-clamping-mode=modulo-based -passes='atoll-mem<clamping-mode=mask-based;poll-shift=7;max-local-bytes=16384>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=OVERRIDE
; OVERRIDE: atoll-mem<clamping-mode=mask-based;preempt=on;poll-shift=7;max-local-bytes=16384>
; RUN: not %opt-atoll -atoll-poll-shift=21 -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADFLAG
; BADFLAG: atoll-mem: invalid -atoll-poll-shift 21 (expected 0..20)
; RUN: not %opt-atoll -atoll-clamping-mode=bogus -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s --check-prefix=BADMODE
; BADMODE: Cannot find option named 'bogus'
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k() {
  ret void
}
