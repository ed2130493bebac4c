#!/bin/sh
# Builds review5_probe.cu on the GPU host (nvcc, sm_90) and runs its three parts,
# each under a time limit. Usage: run_review5_probe.sh OUTDIR
set -u
dir=$(dirname "$0")
out=${1:-.}
nvcc -arch=sm_90 -O2 -o "$out/review5_probe" "$dir/review5_probe.cu" -lcuda || exit 1
nvcc -arch=sm_90 -O2 -cubin -o "$out/review5_probe.cubin" "$dir/review5_probe.cu" || exit 1
for part in wait zero charge; do
  timeout 120 "$out/review5_probe" $part "$out/review5_probe.cubin" || echo "$part: exit $?"
done
