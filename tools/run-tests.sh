#!/usr/bin/env bash
# run-tests.sh: the whole test suite: plain and ASan+UBSan builds (warnings are errors), the
# installed package (the embedding example built against it by find_package and by pkg-config),
# and the concurrency test under ThreadSanitizer.
# Usage: tools/run-tests.sh [plain|sanitize|install|tsan|all]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-all}"
tools/setup-deps.sh
jobs="$(nproc)"
configure() { # build dir, extra cmake flags
  local dir="$1"; shift
  cmake -S . -B "$dir" -DOSC_WERROR=ON "$@" >/dev/null
}
# Every step is chained with &&: `all` calls the stages under ||, where set -e does not apply.
run() { # build dir, extra cmake flags: build everything, run every test
  local dir="$1"; shift
  configure "$dir" "$@" && cmake --build "$dir" -j"$jobs" >/dev/null &&
    (cd "$dir" && ctest --output-on-failure -j"$jobs")
}
# Installs the plain build into a temporary prefix and builds examples/embed against it, out of
# tree, four ways (examples/embed/check-install.sh); the prefix is removed afterwards.
install_check() {
  local tmp rc=0
  tmp="$(mktemp -d)"
  configure build-test && cmake --build build-test -j"$jobs" >/dev/null &&
    cmake --install build-test --prefix "$tmp/prefix" >/dev/null &&
    examples/embed/check-install.sh "$tmp/prefix" examples/scatter_elements/model.onnx \
      "$tmp/work" || rc=$?
  rm -rf "$tmp"
  return "$rc"
}
# ThreadSanitizer instruments the whole library; only the concurrency test needs building.
tsan() {
  configure build-tsan -DOSC_TSAN=ON &&
    cmake --build build-tsan -j"$jobs" --target test_threads >/dev/null &&
    (cd build-tsan && ctest --output-on-failure -L threads)
}
# `all` runs every stage even when one fails, then names the failed ones.
all() {
  local failed=()
  echo "== plain"; run build-test || failed+=(plain)
  echo "== install"; install_check || failed+=(install)
  echo "== sanitize"; run build-asan -DOSC_SANITIZE=ON || failed+=(sanitize)
  echo "== tsan"; tsan || failed+=(tsan)
  [ ${#failed[@]} -eq 0 ] || { echo "FAILED stages: ${failed[*]}" >&2; return 1; }
  echo "all stages passed"
}
case "$mode" in
  plain) run build-test ;;
  sanitize) run build-asan -DOSC_SANITIZE=ON ;;
  install) install_check ;;
  tsan) tsan ;;
  all) all ;;
  *) echo "usage: tools/run-tests.sh [plain|sanitize|install|tsan|all]" >&2; exit 2 ;;
esac
