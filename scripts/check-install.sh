#!/usr/bin/env bash
# The install-and-consume test (CTest, examples/CMakeLists.txt): installs the build
# tree into a temporary prefix, then configures and builds examples/consumer and
# examples/vector_add out of tree against that prefix (find_package(Atoll)) and runs
# them. Without a GPU both print their "no CUDA device" message and exit 0.
#
#   scripts/check-install.sh BUILD_DIR [CXX_COMPILER] [GENERATOR]
set -euo pipefail
build=$(cd "${1:?usage: check-install.sh BUILD_DIR [CXX] [GENERATOR]}" && pwd)
cxx="${2:-}"
generator="${3:-}"
src=$(cd "$(dirname "$0")/.." && pwd)
work="$build/check-install"
start=$SECONDS

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
test -f "$prefix/lib/cmake/Atoll/AtollConfig.cmake"
test -f "$prefix/include/atoll/atoll.h"
# The sandboxed compile worker, where the installed library looks for it.
test -x "$prefix/libexec/atoll/atoll-compile-worker"

args=(-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release)
[ -n "$cxx" ] && args+=(-DCMAKE_CXX_COMPILER="$cxx")
[ -n "$generator" ] && args+=(-G "$generator")

for example in consumer vector_add; do
  echo "== configure and build examples/$example against the installed prefix"
  if ! cmake -S "$src/examples/$example" -B "$work/$example" "${args[@]}" \
       >"$work/$example.configure.log" 2>&1; then
    cat "$work/$example.configure.log"
    exit 1
  fi
  if ! cmake --build "$work/$example" >"$work/$example.build.log" 2>&1; then
    cat "$work/$example.build.log"
    exit 1
  fi
done

echo "== run"
"$work/consumer/atoll_consumer"
"$work/vector_add/vector_add"
echo "install-and-consume: OK in $((SECONDS - start)) s"
