#!/usr/bin/env bash
# run-tests.sh: the whole test suite, built twice: plain and with ASan+UBSan (warnings are errors).
# Usage: tools/run-tests.sh [plain|sanitize|all]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-all}"
tools/setup-deps.sh
run() { # build dir, extra cmake flags
  local dir="$1"; shift
  cmake -S . -B "$dir" -DOSC_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j"$(nproc)" >/dev/null
  (cd "$dir" && ctest --output-on-failure -j"$(nproc)")
}
case "$mode" in
  plain) run build-test ;;
  sanitize) run build-asan -DOSC_SANITIZE=ON ;;
  all) run build-test; run build-asan -DOSC_SANITIZE=ON ;;
  *) echo "usage: tools/run-tests.sh [plain|sanitize|all]" >&2; exit 2 ;;
esac
