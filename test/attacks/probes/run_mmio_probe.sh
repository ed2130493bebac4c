#!/bin/sh
# Builds and runs every case of mmio_probe.cu on the GPU host (nvcc, sm_90; PTX ISA
# 8.2 or later for .mmio), each in its own process with a 10 s watchdog.
set -u
dir=$(dirname "$0")
out=${1:-.}
nvcc -arch=sm_90 -O2 -o "$out/mmio_probe" "$dir/mmio_probe.cu" || exit 1
cuobjdump -ptx "$out/mmio_probe" 2>/dev/null | grep -E "ld\.mmio|st\.mmio|\.version" | head -4
for c in 0 1 2; do
  timeout 10 "$out/mmio_probe" $c || { rc=$?; [ $rc -eq 124 ] && echo "case $c: TIMEOUT (hang)"; }
done
