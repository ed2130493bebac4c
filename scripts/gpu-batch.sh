#!/usr/bin/env bash
# One bounded GPU batch from the bundle: each step under its own time limit, so a
# hanging step costs its limit, not the session. Usage: scripts/gpu-batch.sh STEP...
# Steps: attacks runtime isolation preemption hoststall hostile worker modulecheck
# compile compile-jitcache warp-probe mmio-probe review5-probe bench cancel memcheck
# memcheck-preemption demo partition partition-bench localmem
set -uo pipefail
bundle="$(cd .gpu-bundle && pwd)"
logs="${OUT:-/tmp/atoll-gpu-logs}"; mkdir -p "$logs"
build_dir="$(cat "$bundle/BUILD_DIR")"
[ -e "$build_dir" ] || { mkdir -p "$(dirname "$build_dir")"; ln -s "$bundle" "$build_dir"; }
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# A GPU test that would skip fails instead (test/support/GpuGate.h). Also the step
# memcheck-tests: the GPU tests under memcheck but the timing-sensitive ones.
export ATOLL_REQUIRE_GPU=1
step() { # name limit command...
  local name="$1" limit="$2"; shift 2
  local start=$SECONDS
  timeout -k 5 "$limit" "$@" > "$logs/$name.log" 2>&1; local rc=$?
  echo "== $name: exit $rc ($((SECONDS - start)) s)"; tail -n "${TAIL:-8}" "$logs/$name.log"
}
for s in "$@"; do case "$s" in
  runtime|isolation|preemption) step "$s" 90 "$bundle/tests/atoll-gpu-$s" --gtest_brief=1 ;;
  # SM partitions (issue 17): quotas measured with %smid; a device without green
  # contexts fails here (the H200 has them).
  partition) ( export ATOLL_EXPECT_PARTITIONS=1; TAIL=24 step partition 120 "$bundle/tests/atoll-gpu-partition" --gtest_brief=1 ) ;;
  partition-bench) TAIL=60 step partition-bench 300 "$bundle/bin/atoll-bench" --only=partition --out "$logs/bench-partition" --time-limit 280 ;;
  # R5-F4/R6-F2: the local-memory reservation at start and the load-time frame check.
  localmem) TAIL=24 step localmem 90 "$bundle/tests/atoll-gpu-local-memory" --gtest_brief=1 ;;
  hoststall) step hoststall 60 "$bundle/tests/atoll-gpu-host-stall" --gtest_brief=1 ;;
  # Issue 14: the hostile compile corpus through the sandboxed workers while a tenant
  # runs exact kernels; the worker's own tests (sandbox, protocol, pool) and the
  # driver-side module check with the real driver.
  hostile) TAIL=30 step hostile 200 "$bundle/tests/atoll-gpu-hostile-compile" --gtest_brief=1 ;;
  worker) TAIL=12 step worker 120 "$bundle/tests/atoll-unit-compile-worker" --gtest_brief=1 ;;
  modulecheck) TAIL=12 step modulecheck 60 "$bundle/tests/atoll-unit-module-check" --gtest_brief=1 ;;
  # Issue 14: per kernel interleaved cold loads (in-process / workers), the 16
  # kernels in parallel and the scaling curve (N = 1..16 loads of one kernel).
  compile) TAIL=40 step compile 300 "$bundle/bin/atoll-bench" --only=compile --out "$logs/bench-compile" --time-limit 280 ;;
  # The same with the driver's JIT cache left on (--jit-cache): nvJitLink's
  # -no-cache must keep the in-process path off it (the log's "CUDA driver JIT
  # cache" line: the directory unchanged; first / repetitions about 1.00x).
  compile-jitcache) TAIL=40 step compile-jitcache 300 "$bundle/bin/atoll-bench" --only=compile --jit-cache --out "$logs/bench-compile-jitcache" --time-limit 280 ;;
  # Review R3-F1: warp primitives whose lanes never meet (nvcc on the GPU host).
  warp-probe) step warp-probe 150 bash "$(dirname "$0")/../test/attacks/probes/run_warp_probe.sh" "$logs" ;;
  # Review R10-F3: what ld.mmio / st.mmio do on device and managed memory (nvcc on
  # the GPU host; AToLL no longer emits or accepts them).
  mmio-probe) TAIL=12 step mmio-probe 120 bash "$(dirname "$0")/../test/attacks/probes/run_mmio_probe.sh" "$logs" ;;
  # Review R5: driver calls that wait, local-memory reservation, charged-loop and
  # zero-init drain times (raw driver API, no AToLL code).
  review5-probe) TAIL=40 step review5-probe 300 sh "$(dirname "$0")/../test/attacks/probes/run_review5_probe.sh" "$logs" ;;
  attacks) TAIL=40 step attacks 300 "$bundle/bin/atoll-attacks" --gpu --json "$logs/attacks.json" ;;
  bench) TAIL=30 step bench 200 "$bundle/bin/atoll-bench" --quick --only=overhead,cancel --out "$logs/bench" --time-limit 180 ;;
  cancel) TAIL=30 step cancel 200 "$bundle/bin/atoll-bench" --only=cancel --out "$logs/bench-cancel" --time-limit 180 ;;
  # The preemption GPU tests (cancelled grids, fuel) under memcheck: a cancelled or
  # fuel-stopped kernel must not touch memory out of bounds on its way out. API errors
  # are not reported: the driver-side module check reads parameters until
  # cuFuncGetParamInfo says CUDA_ERROR_INVALID_VALUE (the end of the list).
  memcheck-preemption) TAIL=12 step memcheck-preemption 300 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 "$bundle/tests/atoll-gpu-preemption" --gtest_brief=1 ;;
  memcheck) TAIL=12 step memcheck 240 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 "$bundle/bin/atoll-attacks" --gpu --memcheck-safe --timeout-ms 120000 --json "$logs/memcheck-attacks.json" ;;
  demo) TAIL=12 step demo 60 "$bundle/bin/multi_tenant_service" --kernels "$bundle/examples/kernels" ;;
  memcheck-tests)
    # The GPU tests under memcheck, all but the timing-sensitive ones (named
    # *TimingSensitive*; memcheck slows them past their bounds) and the context-loss
    # test (it faults the context on purpose). Says which, by name.
    for t in runtime isolation preemption host-stall partition local-memory; do
      bin="$bundle/tests/atoll-gpu-$t"
      excluded="$("$bin" --gtest_list_tests --gtest_filter='*TimingSensitive*' |
        awk '/^[^ ]/ {s=$1} /^  / {printf "%s%s%s", sep, s, $1; sep=" "}')"
      echo "== memcheck-$t: timing-sensitive tests left out: ${excluded:-none}"
      TAIL=4 step "memcheck-$t" 200 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 "$bin" --gtest_brief=1 --gtest_filter=-*TimingSensitive*
    done
    echo "== memcheck-tests: atoll-gpu-context-loss left out (it faults the context on purpose)" ;;
esac; done
