#!/usr/bin/env bash
# Packs what a GPU host needs to run the GPU tests, the attack suite, the examples
# and the benchmarks from a build with LLVM linked statically (no LLVM needed
# there). The bundle keeps the build tree's layout (lib/, bin/, tests/, and every
# bitcode file at its relative path), so it can stand in for the build directory:
# on the GPU host, make the bundle appear at the build directory's path and run
# the binaries (their RPATH finds lib/).
set -euo pipefail
build="${1:-build-static}"
out="${2:-.gpu-bundle}"
rm -rf "$out"
mkdir -p "$out/lib" "$out/bin" "$out/tests"
cp -a "$build"/lib/libatoll_runtime.so* "$out/lib/"
for so in "$out"/lib/libatoll_runtime.so*; do
  [ -L "$so" ] || strip --strip-unneeded "$so"
done
for dir in tests bin; do
  [ -d "$build/$dir" ] || continue
  for f in "$build/$dir"/*; do
    [ -f "$f" ] && [ -x "$f" ] || continue
    # Programs that carry their own copy of LLVM (atoll-harden, the toolchain unit
    # tests, generators) are large and need no GPU: leave them out.
    if [ "$(stat -c %s "$f")" -gt $((16 << 20)) ]; then
      echo "bundle: skipping $dir/$(basename "$f") (carries LLVM; needs no GPU)"
      continue
    fi
    cp "$f" "$out/$dir/"
    strip --strip-unneeded "$out/$dir/$(basename "$f")" 2>/dev/null || true
  done
done
(cd "$build" && find . -name '*.bc' -not -path '*/CMakeFiles/*' -print0) |
  while IFS= read -r -d '' bc; do
    mkdir -p "$out/$(dirname "$bc")"
    cp "$build/$bc" "$out/$bc"
  done
# The hostile compile corpus (generated at build time; textual IR and PTX too).
if [ -d "$build/test/hostile-compile" ]; then
  mkdir -p "$out/test"
  cp -r "$build/test/hostile-compile" "$out/test/"
fi
(cd "$build" && pwd) > "$out/BUILD_DIR"
du -sh "$out"
