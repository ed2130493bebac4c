#!/usr/bin/env bash
# Builds (when needed) and runs the adversarial isolation suite (test/attacks/,
# docs/security-model.md).
#
#   scripts/run-attacks.sh                  GPU mode if a CUDA device is usable, else offline
#   scripts/run-attacks.sh --offline        compile-and-harden checks only (what CI runs)
#   scripts/run-attacks.sh --gpu            GPU mode; exit 77 (skipped) without a device
#   scripts/run-attacks.sh --memcheck       the suite, then the benign controls and the
#                                           contained attacks again under
#                                           compute-sanitizer --tool memcheck
#   scripts/run-attacks.sh --memcheck-only  only the compute-sanitizer run
#   scripts/run-attacks.sh [...] -- ARGS    extra atoll-attacks arguments for every run,
#                                           e.g. -- --only forge_write,ctl_vadd_u32
#
# Environment (all optional):
#   ATOLL_ATTACKS_BIN          the harness binary; when set nothing is built (a GPU
#                              bundle: ATOLL_ATTACKS_BIN=.gpu-bundle/bin/atoll-attacks with
#                              LD_LIBRARY_PATH=.gpu-bundle/lib)
#   BUILD_DIR                  build tree to build and run from (default: <repo>/build)
#   ATOLL_ATTACKS_BITCODE_DIR  the attack bitcode (default: found next to the binary:
#                              <bin>/../test/attacks/kernels, then the build-time path)
#   ATOLL_ATTACKS_OUT          where logs and JSON results go (default: $OUT when set,
#                              else <build>/attacks-results)
#   COMPUTE_SANITIZER          compute-sanitizer (default: PATH, then
#                              /usr/local/cuda/bin/compute-sanitizer)
#   MEMCHECK_TIMEOUT_MS        pipeline timeout per attack under memcheck (default 120000)
#   MEMCHECK_ARGS              extra harness arguments for the memcheck run only
#                              (e.g. "--clamping mask" to halve its time)
#   JOBS                       parallel build jobs
#
# Exit status: 0 when every run passed (and memcheck found 0 errors), 77 when a GPU
# run was asked for without a device, else 1 (2 for usage/setup errors).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
mode=""
memcheck=0
suite=1
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --offline) mode="--offline" ;;
    --gpu) mode="--gpu" ;;
    --memcheck) memcheck=1 ;;
    --memcheck-only) memcheck=1; suite=0 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "run-attacks.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ "$memcheck" = 1 ] && [ "$mode" = "--offline" ]; then
  echo "run-attacks.sh: --memcheck needs a GPU; it cannot be combined with --offline" >&2
  exit 2
fi

# --- the harness ------------------------------------------------------------------------
bin="${ATOLL_ATTACKS_BIN:-}"
if [ -z "$bin" ]; then
  bin="$build/bin/atoll-attacks"
  if command -v cmake >/dev/null 2>&1; then
    if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
      echo "== configuring $build"
      gen=()
      command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
      cmake -S "$root" -B "$build" "${gen[@]}" || { echo "run-attacks.sh: configure failed" >&2; exit 2; }
    fi
    echo "== building atoll-attacks (and the attack bitcode) in $build"
    cmake --build "$build" --target atoll-attacks ${JOBS:+-j "$JOBS"} ||
      { echo "run-attacks.sh: build failed" >&2; exit 2; }
  fi
fi
if [ ! -x "$bin" ]; then
  echo "run-attacks.sh: no harness at $bin (build it, or set ATOLL_ATTACKS_BIN)" >&2
  exit 2
fi

out="${ATOLL_ATTACKS_OUT:-${OUT:-$build/attacks-results}}"
mkdir -p "$out" 2>/dev/null || out="$(mktemp -d)"
echo "== harness: $bin"
echo "== results: $out"

status=0
suite_rc=-
memcheck_rc=-
memcheck_summary="not run"

# --- the suite --------------------------------------------------------------------------
if [ "$suite" = 1 ]; then
  echo "== atoll-attacks ${mode:-(auto: GPU if present, else offline)}"
  start=$(date +%s)
  "$bin" ${mode:+"$mode"} --json "$out/attacks.json" "${extra[@]}" 2>&1 | tee "$out/attacks.log"
  suite_rc=${PIPESTATUS[0]}
  echo "== atoll-attacks exit status $suite_rc after $(( $(date +%s) - start )) s"
  if [ "$suite_rc" = 77 ]; then
    status=77
  elif [ "$suite_rc" != 0 ]; then
    status=1
  fi
fi

# --- compute-sanitizer memcheck -----------------------------------------------------------
if [ "$memcheck" = 1 ]; then
  cs="${COMPUTE_SANITIZER:-}"
  if [ -z "$cs" ]; then
    cs="$(command -v compute-sanitizer 2>/dev/null || true)"
    [ -z "$cs" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && cs=/usr/local/cuda/bin/compute-sanitizer
  fi
  if [ -z "$cs" ] || [ ! -x "$cs" ]; then
    echo "run-attacks.sh: compute-sanitizer not found (set COMPUTE_SANITIZER)" >&2
    exit 2
  fi
  # Controls and the contained attacks that end by themselves (no timeout spin, no
  # refused modules), one tenant at a time; generous timeouts (memcheck is slow).
  echo "== compute-sanitizer --tool memcheck: benign controls + contained attacks"
  start=$(date +%s)
  # shellcheck disable=SC2086
  "$cs" --tool memcheck --error-exitcode 86 --print-limit 100 \
    "$bin" --gpu --memcheck-safe --timeout-ms "${MEMCHECK_TIMEOUT_MS:-120000}" \
    --json "$out/memcheck-attacks.json" ${MEMCHECK_ARGS:-} "${extra[@]}" 2>&1 | tee "$out/memcheck.log"
  memcheck_rc=${PIPESTATUS[0]}
  elapsed=$(( $(date +%s) - start ))
  memcheck_summary="$(grep -E 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)"
  [ -z "$memcheck_summary" ] && memcheck_summary="(no ERROR SUMMARY line: did compute-sanitizer run?)"
  echo "== memcheck exit status $memcheck_rc after ${elapsed} s: $memcheck_summary"
  if [ "$memcheck_rc" = 77 ]; then
    [ "$status" = 0 ] && status=77
  elif [ "$memcheck_rc" != 0 ] || ! grep -qE 'ERROR SUMMARY: 0 errors' "$out/memcheck.log"; then
    status=1
  fi
fi

echo
echo "== summary"
[ "$suite" = 1 ] && echo "suite:    exit $suite_rc  ($(grep -E '^atoll-attacks: [0-9]+ results' "$out/attacks.log" | tail -1))"
[ "$memcheck" = 1 ] && echo "memcheck: exit $memcheck_rc  $memcheck_summary  ($(grep -E '^atoll-attacks: [0-9]+ results' "$out/memcheck.log" | tail -1))"
echo "logs and JSON: $out"
exit "$status"
