#!/bin/sh
# Builds and runs every case of warp_probe.cu on the GPU host (nvcc, sm_90), each in
# its own process with a 10 s watchdog ("TIMEOUT" = a hang, not a fault).
set -u
dir=$(dirname "$0")
out=${1:-.}
nvcc -arch=sm_90 -O2 -o "$out/warp_probe" "$dir/warp_probe.cu" || exit 1
run() {
  timeout 10 "$out/warp_probe" "$@" || { rc=$?; [ $rc -eq 124 ] && echo "case $1 args $*: TIMEOUT (hang)"; }
}
for c in 0 1 2 3 4 5 6 10; do run $c 0xffffffff; done
run 0 0xffffffff 48 4; run 2 0xffffffff 48 4; run 4 0xffffffff 48 4
for c in 20 21 22 23 24 25 26 27 28; do run $c 0xffffffff 32 1; done
