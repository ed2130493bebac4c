#!/usr/bin/env bash
# Runs every GPU check from a bundle made by scripts/make-gpu-bundle.sh, on a host
# with an NVIDIA GPU and no LLVM: the GPU unit tests, the adversarial suite, the
# examples, and compute-sanitizer memcheck over the GPU tests and the contained
# attacks. Usage (from the repository root on the GPU host):
#   scripts/run-gpu.sh [bundle-dir] [log-dir]
# Exit status: non-zero if anything failed.
set -uo pipefail
bundle="$(cd "${1:-.gpu-bundle}" && pwd)"
logs="${2:-${OUT:-/tmp/atoll-gpu-logs}}"
mkdir -p "$logs"

# The binaries name bitcode inputs and their library by the build directory's
# absolute path: make the bundle appear there.
build_dir="$(cat "$bundle/BUILD_DIR")"
if [ ! -e "$build_dir" ]; then
  mkdir -p "$(dirname "$build_dir")"
  ln -s "$bundle" "$build_dir"
fi
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# On the GPU host no GPU test may skip: a skip is a failure (test/support/GpuGate.h).
export ATOLL_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$logs/gpu.txt"

failures=0
run() { # name, command...
  local name="$1"; shift
  echo "== $name"
  local start=$SECONDS
  # A hanging step costs its limit, not the whole run (STEP_LIMIT seconds, default 600).
  timeout -k 5 "${STEP_LIMIT:-600}" "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  tail -n "${TAIL:-25}" "$logs/$name.log"
  echo "== $name: exit $rc ($((SECONDS - start)) s)"
  # 77: every test skipped. Allowed only for unit tests (ALLOW_SKIP=1) that need the
  # stand-in driver and so skip on a real GPU (the reason is in the log above).
  if [ "$rc" -eq 77 ] && [ -n "${ALLOW_SKIP:-}" ]; then
    echo "== $name: skipped (allowed for a unit test)"; return
  fi
  [ "$rc" -eq 0 ] || failures=$((failures + 1))
}

for t in "$bundle"/tests/atoll-gpu-*; do
  [ -x "$t" ] || continue
  TAIL=6 run "$(basename "$t")" "$t" --gtest_brief=1
done
for t in "$bundle"/tests/atoll-unit-*; do
  [ -x "$t" ] || continue
  ALLOW_SKIP=1 TAIL=6 run "$(basename "$t")" "$t" --gtest_brief=1
done
[ -x "$bundle/bin/atoll-attacks" ] && TAIL=80 run attacks "$bundle/bin/atoll-attacks" --gpu --json "$logs/attacks.json"
[ -x "$bundle/bin/vector_add" ] && TAIL=5 run vector_add "$bundle/bin/vector_add"
[ -x "$bundle/bin/multi_tenant_service" ] && TAIL=40 run multi_tenant_service \
  "$bundle/bin/multi_tenant_service" --kernels "$bundle/examples/kernels"

if command -v compute-sanitizer >/dev/null && [ -z "${ATOLL_NO_MEMCHECK:-}" ]; then
  for t in "$bundle"/tests/atoll-gpu-*; do
    [ -x "$t" ] || continue
    # The context-loss test faults the context on purpose.
    case "$t" in *context-loss*) echo "== memcheck: leaving out $(basename "$t") (it faults the context on purpose)"; continue ;; esac
    # Only the timing-sensitive tests (named *TimingSensitive*) are left out: memcheck
    # slows kernels and host calls past their time bounds. Listed by name.
    excluded="$("$t" --gtest_list_tests --gtest_filter='*TimingSensitive*' |
      awk '/^[^ ]/ {s=$1} /^  / {printf "%s%s%s", sep, s, $1; sep=" "}')"
    echo "== memcheck-$(basename "$t"): timing-sensitive tests left out: ${excluded:-none}"
    TAIL=4 run "memcheck-$(basename "$t")" compute-sanitizer --tool memcheck --error-exitcode 9 \
      "$t" --gtest_brief=1 --gtest_filter="${MEMCHECK_FILTER:--*TimingSensitive*}"
  done
  [ -x "$bundle/bin/atoll-attacks" ] && TAIL=12 run memcheck-attacks compute-sanitizer --tool memcheck \
    --error-exitcode 9 "$bundle/bin/atoll-attacks" --gpu --memcheck-safe --timeout-ms 120000 \
    --json "$logs/memcheck-attacks.json" ${MEMCHECK_ATTACK_ARGS:-}
fi
echo "== GPU run: $failures failing step(s); logs in $logs"
[ "$failures" -eq 0 ]
