#!/usr/bin/env bash
# run-tests.sh: the whole test suite, in stages (README, "Tests", says what each does and how
# long it takes): install (the shipped targets installed, examples/embed and the docs' snippets
# built and run against them), leak (valgrind), python (the package's pytest suite, and the
# package installed by cmake and by pip), sanitize (the whole ctest suite under
# ASan+UBSan), tsan (the concurrency tests under ThreadSanitizer), fuzz (the four harnesses,
# OSC_FUZZ_SECONDS each, default 60), coverage (the whole suite at -O0, thresholds enforced),
# cross (armhf and s390x builds under qemu-user); `all` runs those; `plain` (the whole suite,
# plain build) runs only when asked for.
# Usage: tools/run-tests.sh [plain|sanitize|install|tsan|fuzz|leak|coverage|python|cross|all]   (default: all)
#        tools/run-tests.sh cross [armhf] [aarch64] [s390x]   (all three when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-all}"
# A stage must leave the machine as it found it: a tool given /dev/null as an output path may
# unlink or replace it (as root, gcovr 5.2 did), and every later `>/dev/null` then writes a
# regular file. Checked before the first stage, after each stage of `all` and at the end of any
# other run; the failure names the stage that ran last. The device is not recreated here:
# whoever runs the machine decides (`rm -f /dev/null && mknod -m 666 /dev/null c 1 3`).
devnull_intact() { # when: "after stage NAME", "before the first stage"
  [ -c /dev/null ] && return 0
  echo "run-tests.sh: /dev/null is not a character device $1" >&2
  return 1
}
devnull_intact "before the first stage"
case "$mode" in
  cross) tools/setup-deps.sh test ;; # and the cross packages of each target, in cross()
  plain | sanitize | tsan) tools/setup-deps.sh test ;;
  install | fuzz | leak | coverage | python) tools/setup-deps.sh "$mode" ;;
  *) tools/setup-deps.sh all ;;
esac
jobs="$(nproc)"
# OSC_NODE_TESTS_DIR (environment): where the ONNX 1.23 node tests are, when not in
# ../shared/onnx-node-tests (README, "Tests").
configure() { # build dir, extra cmake flags
  local dir="$1"; shift
  cmake -S . -B "$dir" -DOSC_WERROR=ON ${OSC_NODE_TESTS_DIR:+"-DOSC_NODE_TESTS_DIR=$OSC_NODE_TESTS_DIR"} \
    -DPython3_EXECUTABLE=/usr/bin/python3 "$@" >/dev/null
}
# Every step is chained with &&: `all` calls the stages under ||, where set -e does not apply.
run() { # build dir, extra cmake flags: build everything, run every test
  local dir="$1"; shift
  configure "$dir" "$@" && cmake --build "$dir" -j"$jobs" >/dev/null &&
    (cd "$dir" && ctest --output-on-failure -j"$jobs")
}
# What `cmake --install` ships, in the plain build folder: the libraries, the CLI and the
# Python package.
build_shipped() {
  cmake --build build-test -j"$jobs" --target onnxscatter onnxscatter_shared onnx-scatter \
    onnx_scatter_python >/dev/null
}
# Installs the plain build into a temporary prefix and builds examples/embed against it, out of
# tree, four ways (examples/embed/check-install.sh), then runs the docs' snippets against it
# (tests/check_doc_snippets.sh); the prefix is removed afterwards.
install_check() {
  local tmp rc=0
  tmp="$(mktemp -d)"
  configure build-test && build_shipped &&
    cmake --install build-test --prefix "$tmp/prefix" >/dev/null &&
    examples/embed/check-install.sh "$tmp/prefix" examples/scatter_elements/model.onnx \
      "$tmp/work" &&
    tests/check_doc_snippets.sh "$tmp/prefix" "$tmp/docs" || rc=$?
  rm -rf "$tmp"
  return "$rc"
}
# ThreadSanitizer instruments the whole library; only the concurrency tests need building:
# target osc-threads-tests, the programs of ctest label `threads` (test_threads: sessions on
# several threads; test_diff_tiny, the *_tiny fusion tests, test_threads_ew: runs on a
# session's own threads).
tsan() {
  configure build-tsan -DOSC_TSAN=ON &&
    cmake --build build-tsan -j"$jobs" --target osc-threads-tests >/dev/null &&
    (cd build-tsan && ctest --output-on-failure -j"$jobs" -L threads)
}
# libFuzzer harnesses (clang, ASan+UBSan), each for OSC_FUZZ_SECONDS (fuzz/run.sh).
fuzz() {
  OSC_FUZZ_BUILD=build-fuzz fuzz/run.sh "${OSC_FUZZ_SECONDS:-60}"
}
# valgrind (memcheck, leaks) over the plain build: the scatter-family node tests through the CLI
# (one process) and the malformed suite through the API runner (one process, every case loaded,
# run, and run again in place). Any error or definite/indirect leak exits 99, which fails the
# stage. The suite through the CLI (one process per case, ~1 s each under valgrind) is checked by
# LeakSanitizer instead: ctest bad_cli in the `sanitize` stage. The `plain` build is reused.
leak() {
  local vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect)
  local node="${OSC_NODE_TESTS_DIR:-../shared/onnx-node-tests}" fam=() d t
  for d in "$node" /usr/share/libonnx-testdata/data/node; do
    for t in "$d"/test_scatter* "$d"/test_tensorscatter* "$d"/test_gather_elements* "$d"/test_gathernd*; do
      [ -f "$t/model.onnx" ] && fam+=("$t")
    done
  done
  configure build-test && build_shipped &&
    cmake --build build-test -j"$jobs" --target test_bad >/dev/null &&
    echo "valgrind: ${#fam[@]} node tests" &&
    { [ ${#fam[@]} -eq 0 ] || "${vg[@]}" build-test/tools/onnx-scatter test "${fam[@]}" | tail -n 1; } &&
    echo "valgrind: malformed suite, API" && "${vg[@]}" build-test/tests/test_bad tests/bad/cases --slow | tail -n 1
}
# gcov line and branch coverage of the library (core/, loader/, ops/, rewrite/, runtime/) over
# the whole ctest suite (-O0), printed per file; fails under 95% of lines or 85% of branches. docs/security.md explains what
# stays uncovered. One gcovr run writes the report to build-cov/coverage.txt and checks the
# thresholds. Its output goes to a file in the build folder, never to a device: gcovr 5.2 checks
# that it can write its output by opening and then unlinking it, which as root deleted /dev/null.
coverage() {
  local rc=0
  # -O0 makes gcc's -Wformat-truncation noisy in tools/: the build log is shown only on failure
  configure build-cov -DOSC_COVERAGE=ON -DCMAKE_BUILD_TYPE=Debug -DOSC_WERROR=OFF &&
    { cmake --build build-cov -j"$jobs" >build-cov/build.log 2>&1 || { tail -n 40 build-cov/build.log; false; }; } &&
    find build-cov -name '*.gcda' -delete &&
    (cd build-cov && ctest --output-on-failure -j"$jobs" >/dev/null) || return 1
  # The files whose code runs only on an AVX-512 CPU are not counted on a CPU without it
  # (docs/security.md, "What coverage leaves out"): no test can reach them there.
  local cpu_only=()
  if ! grep -qw avx512f /proc/cpuinfo; then
    cpu_only=(-e ops/attention/att_avx512.c -e ops/conv/conv_direct.c)
    echo "coverage: no AVX-512 on this CPU: ${cpu_only[*]} not counted"
  fi
  gcovr -r . --object-directory build-cov -f core/ -f loader/ -f ops/ -f rewrite/ -f runtime/ \
    "${cpu_only[@]}" --exclude-unreachable-branches \
    -j"$jobs" --print-summary --fail-under-line 95 --fail-under-branch 85 -o build-cov/coverage.txt \
    >build-cov/coverage-summary.txt || rc=$?
  cat build-cov/coverage.txt build-cov/coverage-summary.txt 2>/dev/null
  return "$rc"
}
# The Python package (python/) of the plain build folder: its pytest suite (onnx's BackendTest
# over python3-onnx's node tests included) with Debian's python3, whatever python3 comes first
# on PATH, then the package installed by `cmake --install` and by `pip install ./python` (the
# library built by CMake in build-pip) under a venv's python3 and Debian's, each running the
# example (python/tests/check-install.sh).
python_tests() {
  local py=/usr/bin/python3
  configure build-test && build_shipped &&
    PYTHONPATH="$PWD/build-test/python" $py -m pytest -q -p no:cacheprovider python/tests &&
    python/tests/check-install.sh build-test build-pip
}
# Cross builds run under emulation (docs/embedding.md, "Minimal builds"): for each target the
# Debian cross compiler, qemu-user and the multiarch protobuf-c and cmocka (installed here when
# missing), a build with cmake/toolchain-TARGET.cmake of what ctest label `cross` runs (target
# osc-cross-tests: the library, the CLI, the unit tests that exercise sizes and byte order), then
# those tests under qemu. armhf (a 32-bit size_t) is built as the minimal runtime an embedded
# target takes (-Os, the scatter family only, size first); aarch64 and s390x (big-endian) with
# every op (Release).
cross() {
  local targets=("$@") t rc=0 t0 cfg
  [ ${#targets[@]} -gt 0 ] || targets=(armhf aarch64 s390x)
  for t in "${targets[@]}"; do
    case "$t" in armhf | aarch64 | s390x) ;; *) echo "cross: unknown target '$t' (armhf, aarch64, s390x)" >&2; return 2 ;; esac
  done
  for t in "${targets[@]}"; do
    t0=$SECONDS
    echo "-- cross $t"
    cfg=(-DCMAKE_BUILD_TYPE=Release)
    [ "$t" != armhf ] || cfg=(-DCMAKE_BUILD_TYPE=MinSizeRel -DOSC_OPS=scatter -DOSC_SIZE_FIRST=ON)
    tools/setup-deps.sh "cross-$t" &&
      configure "build-cross-$t" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchain-$t.cmake" "${cfg[@]}" \
        -DOSC_BUILD_BENCH=OFF -DOSC_PYTHON=OFF -DOSC_INSTALL=OFF &&
      cmake --build "build-cross-$t" -j"$jobs" --target osc-cross-tests >/dev/null &&
      (cd "build-cross-$t" && ctest --output-on-failure -j"$jobs" -L cross) || rc=1
    echo "-- cross $t: $((SECONDS - t0)) s"
  done
  return "$rc"
}
# `all` runs every stage even when one fails, says how long each took, then names the failed
# ones. It leaves out `plain`: the whole ctest suite runs twice anyway, under ASan+UBSan at the
# plain build's -O2 (`sanitize`) and at -O0 (`coverage`), and a third run would cost CI time
# without exercising code the other two do not. `install` and `leak` build just what they use.
# Each stage's output is also kept in build-logs/STAGE.log, and the end of a failed stage's log
# is printed again last, so that the tail of the whole output (what CI shows) says why.
all() {
  local failed=() st t0 t1
  mkdir -p build-logs
  for st in install leak python sanitize tsan fuzz coverage cross; do
    echo "== $st"
    t0=$SECONDS
    "stage_$st" > >(tee "build-logs/$st.log") 2>&1 || failed+=("$st")
    wait # the tee
    t1=$SECONDS
    echo "== $st: $((t1 - t0)) s"
    devnull_intact "after stage '$st'" || return 1
  done
  for st in "${failed[@]}"; do
    echo "== the end of failed stage $st (build-logs/$st.log):" >&2
    grep -v -E '^#[0-9]+ +(NEW|REDUCE|pulse|INITED)' "build-logs/$st.log" | tail -n 40 >&2
  done
  [ ${#failed[@]} -eq 0 ] || { echo "FAILED stages: ${failed[*]}" >&2; return 1; }
  echo "all stages passed in $SECONDS s"
}
stage_plain() { run build-test; }
stage_install() { install_check; }
stage_sanitize() { run build-asan -DOSC_SANITIZE=ON; }
stage_tsan() { tsan; }
stage_fuzz() { fuzz; }
stage_leak() { leak; }
stage_coverage() { coverage; }
stage_python() { python_tests; }
stage_cross() { cross armhf s390x; } # CI: a 32-bit and a big-endian target
rc=0
case "$mode" in
  plain) run build-test ;;
  sanitize) run build-asan -DOSC_SANITIZE=ON ;;
  install) install_check ;;
  tsan) tsan ;;
  fuzz) fuzz ;;
  leak) leak ;;
  coverage) coverage ;;
  python) python_tests ;;
  cross) shift; cross "$@" ;;
  all) all ;;
  *) echo "usage: tools/run-tests.sh [plain|sanitize|install|tsan|fuzz|leak|coverage|python|cross [TARGET...]|all]" >&2; exit 2 ;;
esac || rc=$?
[ "$mode" = all ] || devnull_intact "after stage '$mode'" || rc=1
exit "$rc"
