#!/bin/sh
# Builds and runs every case of sync_probe.cu on the GPU host (nvcc, sm_90), each
# in its own process with a 10 s watchdog ("TIMEOUT" = a hang, not a fault).
set -u
dir=$(dirname "$0")
out=${1:-.}
nvcc -arch=sm_90 -O2 -o "$out/sync_probe" "$dir/sync_probe.cu" || exit 1
run() {
  timeout 10 "$out/sync_probe" "$@" || { rc=$?; [ $rc -eq 124 ] && echo "case $1 args $*: TIMEOUT (hang)"; }
}
run 0 0xffffffff; run 1 0xffffffff; run 2 0xffffffff 0 16; run 3 0xffffffff; run 4 0xffffffff
run 5 0xffffffff; run 6 0xffffffff; run 7 0xffffffff; run 8 0xffffffff; run 9 0xffffffff
run 10; run 11 16; run 12 33; run 13; run 14; run 15 0xffffffff; run 16 0xdeadbeef 0xffffffff
run 17 0; run 18 0xffffffff; run 19 0xffffffff; run 20 0 0 32
run 0 0; run 6 0; run 3 0
