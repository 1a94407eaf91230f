#!/usr/bin/env bash
# setup-deps.sh: installs the Debian packages onnx-scatter needs, only those missing.
set -euo pipefail
pkgs=(build-essential cmake pkg-config libprotobuf-c-dev protobuf-c-compiler libonnx-dev libcmocka-dev libonnx-testdata
  clang valgrind gcovr) # clang: libFuzzer harnesses; valgrind: leak check; gcovr: coverage
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
