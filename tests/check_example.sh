#!/usr/bin/env bash
# check_example.sh: the committed example equals what examples/gen_examples.c writes, and passes.
# Usage: check_example.sh GEN_EXE CLI_EXE SOURCE_DIR WORK_DIR
set -u
gen="$1" cli="$2" src="$3" work="$4"
pass=0 fail=0
rm -rf "$work" && mkdir -p "$work"
"$gen" "$work" || { echo "FAIL: generator exited non-zero"; echo "0 passed, 1 failed"; exit 1; }
for f in model.onnx test_data_set_0/input_0.pb test_data_set_0/input_1.pb \
         test_data_set_0/input_2.pb test_data_set_0/output_0.pb; do
  if cmp -s "$work/scatter_elements/$f" "$src/examples/scatter_elements/$f"; then
    pass=$((pass + 1))
  else
    echo "FAIL: examples/scatter_elements/$f differs from the generator's output (regenerate it)"
    fail=$((fail + 1))
  fi
done
if "$cli" test "$src/examples/scatter_elements"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
