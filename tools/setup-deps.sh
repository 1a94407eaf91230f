#!/usr/bin/env bash
# setup-deps.sh: installs the Debian packages one step needs, only those missing.
# Usage: tools/setup-deps.sh [STEP...]   (default: quickstart)
#   quickstart  build the library and the CLI, run the README's examples: compiler, CMake,
#               pkg-config, protobuf-c, the onnx.proto of libonnx-dev, python3-numpy (the
#               README's numpy example)
#   test        the test suite's builds (tools/run-tests.sh plain, sanitize, tsan):
#               quickstart's, plus cmocka and Debian's ONNX 1.12 node tests (libonnx-testdata)
#   install     test's, plus python3-numpy (the docs' Python snippets, run installed)
#   fuzz        test's, plus clang (libFuzzer)
#   leak        test's, plus valgrind
#   coverage    test's, plus gcovr
#   python      the Python package's tests (tools/run-tests.sh python): the build, plus
#               python3, python3-numpy, python3-onnx (the backend and its node tests),
#               python3-pytest, and python3-venv, python3-pip, python3-setuptools and
#               python3-wheel (the package installed with pip, offline, in a venv too)
#   all         every one of them
#   cross-armhf, cross-aarch64, cross-s390x
#               a cross build run under emulation (tools/run-tests.sh cross): the target's
#               dpkg architecture added, Debian's cross gcc, qemu-user, and the target's
#               protobuf-c and cmocka (multiarch packages); not part of `all`
set -euo pipefail
base=(build-essential cmake pkg-config libprotobuf-c-dev protobuf-c-compiler libonnx-dev)
pip=(python3-venv python3-pip python3-setuptools python3-wheel)
pkgs=() foreign=()
[ $# -gt 0 ] || set -- quickstart
for step in "$@"; do
  case "$step" in
    quickstart) pkgs+=("${base[@]}" python3-numpy) ;;
    test | plain | sanitize | tsan) pkgs+=("${base[@]}" libcmocka-dev libonnx-testdata) ;;
    install) pkgs+=("${base[@]}" libcmocka-dev libonnx-testdata python3-numpy) ;;
    fuzz) pkgs+=("${base[@]}" libcmocka-dev libonnx-testdata clang) ;;
    leak) pkgs+=("${base[@]}" libcmocka-dev libonnx-testdata valgrind) ;;
    coverage) pkgs+=("${base[@]}" libcmocka-dev libonnx-testdata gcovr) ;;
    python) pkgs+=("${base[@]}" python3 python3-numpy python3-onnx python3-pytest "${pip[@]}") ;;
    cross-armhf | cross-aarch64 | cross-s390x)
      arch=${step#cross-} triple=""
      case "$arch" in
        armhf) triple=arm-linux-gnueabihf ;;
        aarch64) arch=arm64 triple=aarch64-linux-gnu ;;
        s390x) triple=s390x-linux-gnu ;;
      esac
      foreign+=("$arch")
      pkgs+=("${base[@]}" "gcc-$triple" qemu-user "libprotobuf-c-dev:$arch" "libcmocka-dev:$arch") ;;
    all) pkgs+=("${base[@]}" python3-numpy libcmocka-dev libonnx-testdata clang valgrind gcovr
                python3 python3-onnx python3-pytest "${pip[@]}") ;;
    *) echo "usage: tools/setup-deps.sh [quickstart|test|install|fuzz|leak|coverage|python|all|cross-armhf|cross-aarch64|cross-s390x]..." >&2; exit 2 ;;
  esac
done
missing=()
for p in $(printf '%s\n' "${pkgs[@]}" | sort -u); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
for a in "${foreign[@]}"; do # multiarch: the target's packages next to the host's
  dpkg --print-foreign-architectures | grep -qx "$a" || $sudo dpkg --add-architecture "$a"
done
# one index that fails to download (a mirror mid-sync) need not stop the install
$sudo apt-get update -qq || echo "setup-deps: apt-get update reported errors; installing anyway" >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
