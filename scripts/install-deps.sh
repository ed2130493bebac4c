#!/usr/bin/env bash
# Installs what AToLL needs on Debian 12 (bookworm) and says what it installs first.
# Idempotent: when everything is present it only checks and returns.
set -euo pipefail

packages=(
  nlohmann-json3-dev libcli11-dev
  cmake ninja-build g++ make python3
  llvm-22-dev llvm-22-tools clang-22 libzstd-dev zlib1g-dev libedit-dev libxml2-dev
  libfmt-dev libgtest-dev
  libflatbuffers-dev flatbuffers-compiler libseccomp-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "AToLL: installing missing packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "AToLL: packages installed."
fi

cuda_path="${ATOLL_CUDA_PATH:-${CUDA_PATH:-/usr/local/cuda}}"
if [ ! -f "$cuda_path/include/cuda.h" ]; then
  echo "AToLL: cuda.h not found under $cuda_path/include: install the CUDA toolkit" \
       "(or set ATOLL_CUDA_PATH to it); Debian's packages do not carry CUDA 12+." >&2
  exit 1
fi
