#!/usr/bin/env bash
# `make demo`: harden the example kernels with atoll-harden --summarize and, when a
# CUDA device is present, run the multi-tenant demo service.
set -euo pipefail
build="${1:-build}"
harden="$build/bin/atoll-harden"
kernels_dir="$build/examples/kernels"

echo "== AToLL demo: hardening the example kernels =="
shopt -s nullglob
kernels=("$kernels_dir"/*.bc)
if ((${#kernels[@]} == 0)); then
  echo "no example kernels under $kernels_dir (build the 'examples' target)" >&2
  exit 1
fi
out="$build/demo"
mkdir -p "$out"
for bc in "${kernels[@]}"; do
  name=$(basename "$bc" .bc)
  echo "-- $name.bc"
  if "$harden" "$bc" -o "$out/$name.hardened.ll" --summarize; then
    echo "   hardened -> $out/$name.hardened.ll"
  else
    rc=$?
    if [ "$rc" -eq 1 ]; then
      echo "   refused (as the diagnostics above explain)"
    else
      exit "$rc"
    fi
  fi
done

echo
echo "== AToLL demo: multi-tenant service =="
service="$build/bin/multi_tenant_service"
if [ ! -x "$service" ]; then
  echo "multi_tenant_service was not built" >&2
  exit 1
fi
if ! "$service" --probe >/dev/null 2>&1; then
  echo "No CUDA device here: $("$service" --probe 2>&1 | tail -n 1)"
  echo "The kernels above were hardened; run 'make demo' on a machine with an NVIDIA GPU"
  echo "to see several tenants (one of them malicious, held to an SM quota where the"
  echo "device has SM partitions) share it."
  exit 0
fi
"$service" --kernels "$kernels_dir"
