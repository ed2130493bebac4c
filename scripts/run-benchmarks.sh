#!/usr/bin/env bash
# One command for every AToLL benchmark (docs/benchmarks.md): builds atoll-bench if
# needed and runs it; results go to bench/results/ (results.json, results.csv, ptx/).
#
#   scripts/run-benchmarks.sh [atoll-bench options...]     e.g. --quick, --only=overhead
#
# Environment: BUILD (build directory, default build), ATOLL_BENCH (use this
# atoll-bench binary instead of building one, e.g. from a GPU bundle), OUT (results
# directory, default bench/results).
# Draw the chart afterwards with: python3 bench/plot.py bench/results/results.json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${BUILD:-build}"
out="${OUT:-bench/results}"

bench="${ATOLL_BENCH:-}"
if [ -z "$bench" ]; then
  if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
    scripts/install-deps.sh
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DATOLL_CUDA_PATH="${ATOLL_CUDA_PATH:-/usr/local/cuda}"
  fi
  cmake --build "$build" --target atoll-bench
  bench="$build/bin/atoll-bench"
fi
if [ ! -x "$bench" ]; then
  echo "run-benchmarks.sh: no atoll-bench at $bench" >&2
  exit 1
fi

mkdir -p "$out"
echo "run-benchmarks.sh: $bench --out $out $*"
set +e
"$bench" --out "$out" "$@" 2>&1 | tee "$out/atoll-bench.log"
rc="${PIPESTATUS[0]}"
set -e
echo "run-benchmarks.sh: atoll-bench exited with status $rc; results in $out/"
echo "run-benchmarks.sh: chart: python3 bench/plot.py $out/results.json  (writes docs/benchmarks-overhead.png)"
exit "$rc"
