#!/usr/bin/env bash
# size-report.sh: the size of onnx-scatter per build configuration, at -Os (MinSizeRel) with the
# host's compiler: text/data/bss (`size`) of libonnxscatter.so and of examples/embed linked
# statically (-static, --gc-sections), that program's text split into onnx-scatter, protobuf-c
# and the C library (from the linker map), and the objects that weigh most in the scatter-only
# library. docs/embedding.md, "Minimal builds", shows its output.
# Usage: tools/size-report.sh [--check] [--dir DIR]
#   --check  build only the budgeted configuration (scatter-only, size first) and fail when its
#            library's text exceeds OSC_SIZE_BUDGET_KB (default 150) KiB (ctest size_budget)
#   --dir    where the build folders go (default build-size)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0 dir=build-size
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --dir) dir=$2; shift 2 ;;
    *) echo "usage: tools/size-report.sh [--check] [--dir DIR]" >&2; exit 2 ;;
  esac
done
budget_kb=${OSC_SIZE_BUDGET_KB:-150}
cc=${CC:-cc}
jobs=$(nproc)

# name and CMake flags of each configuration
names=(default scatter scatter-size-first minimal)
flags_default=""
flags_scatter="-DOSC_OPS=scatter"
flags_scatter_size_first="-DOSC_OPS=scatter -DOSC_SIZE_FIRST=ON"
flags_minimal="-DOSC_OPS=scatter -DOSC_SIZE_FIRST=ON -DOSC_THREADS=OFF -DOSC_MMAP=OFF"
[ "$check" -eq 0 ] || names=(scatter-size-first)

build() { # name: configure and build the two libraries in $dir/name, quietly
  local name=$1 var="flags_${1//-/_}"
  # shellcheck disable=SC2086
  cmake -S . -B "$dir/$name" -DCMAKE_BUILD_TYPE=MinSizeRel -DCMAKE_C_COMPILER="$cc" \
    -DOSC_BUILD_TESTS=OFF -DOSC_BUILD_TOOLS=OFF -DOSC_BUILD_BENCH=OFF -DOSC_PYTHON=OFF \
    -DOSC_INSTALL=OFF ${!var} >/dev/null &&
    cmake --build "$dir/$name" -j"$jobs" --target onnxscatter onnxscatter_shared >/dev/null
}

# text data bss of a file, by `size` (Berkeley format: text counts every read-only section)
tdb() { size "$1" | awk 'NR == 2 { print $1, $2, $3 }'; }

# examples/embed linked statically against the configuration's libonnxscatter.a; prints the
# text of the pieces from the linker map: onnx-scatter, protobuf-c, the rest (C library, crt)
embed_static() { # name
  local d="$dir/$1" threads=-pthread
  grep -q "OSC_THREADS:BOOL=OFF" "$d/CMakeCache.txt" && threads=""
  # shellcheck disable=SC2046
  "$cc" -Os -static -DOSC_STATIC_DEFINE -Iinclude -ffunction-sections -fdata-sections \
    examples/embed/main.c "$d/libonnxscatter.a" $(pkg-config --static --libs libprotobuf-c) -lm \
    $threads -Wl,--gc-sections -Wl,-Map="$d/embed.map" -o "$d/embed-static"
  awk -v objs="$d/embed-objects.txt" '
    function hex(s,   i, c, v) { # mawk has no strtonum
      v = 0
      for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
      return v
    }
    /^Linker script and memory map/ { on = 1; next }
    !on { next }
    /^ [.A-Za-z_]/ && NF == 1 { pend = $1; next }  # a long section name: the rest on the next line
    {
      if (pend != "" && $1 ~ /^0x/) { sec = pend; size = $2; file = $3 }
      else if ($1 ~ /^\./ && $2 ~ /^0x/ && NF >= 4) { sec = $1; size = $3; file = $4 }
      else { pend = ""; next }
      pend = ""
      if (sec !~ /^\.(text|rodata|eh_frame|gcc_except_table|init|fini)/) next
      who = file ~ /libonnxscatter\.a/ ? "osc" : file ~ /libprotobuf-c\.a/ ? "pbc" : "libc"
      t[who] += hex(size)
      if (who == "osc") { sub(/.*\(/, "", file); sub(/\)$/, "", file); o[file] += hex(size) }
    }
    END {
      printf "%d %d %d\n", t["osc"], t["pbc"], t["libc"]
      for (f in o) printf "%d %s\n", o[f], f > objs
    }' "$d/embed.map"
}

for n in "${names[@]}"; do
  build "$n"
done

lib_text() { tdb "$dir/$1/libonnxscatter.so" | awk '{ print $1 }'; }

if [ "$check" -eq 1 ]; then
  text=$(lib_text scatter-size-first)
  limit=$((budget_kb * 1024))
  echo "scatter-only size-first libonnxscatter.so: text $text bytes ($((text / 1024)) KiB); budget $limit ($budget_kb KiB)"
  if [ "$text" -gt "$limit" ]; then
    echo "FAILED: over the size budget by $((text - limit)) bytes; tools/size-report.sh shows where the bytes go" >&2
    exit 1
  fi
  exit 0
fi

echo "onnx-scatter sizes at -Os ($("$cc" --version | head -n 1); $(uname -m)), bytes"
echo
printf '%-20s %28s   %28s   %s\n' "" "libonnxscatter.so" "examples/embed, static" "static text by origin"
printf '%-20s %10s %8s %8s   %10s %8s %8s   %12s %10s %10s\n' configuration text data bss text data bss onnx-scatter protobuf-c "C library"
for n in "${names[@]}"; do
  read -r lt ld lb <<<"$(tdb "$dir/$n/libonnxscatter.so")"
  read -r po pp pl <<<"$(embed_static "$n")"
  read -r et ed eb <<<"$(tdb "$dir/$n/embed-static")"
  printf '%-20s %10d %8d %8d   %10d %8d %8d   %12d %10d %10d\n' "$n" "$lt" "$ld" "$lb" "$et" "$ed" "$eb" "$po" "$pp" "$pl"
done
echo
echo "configurations: default = every op; scatter = -DOSC_OPS=scatter; scatter-size-first = also"
echo "-DOSC_SIZE_FIRST=ON; minimal = also -DOSC_THREADS=OFF -DOSC_MMAP=OFF. The library's text"
echo "counts every read-only section (code, constants, unwind tables, relocations); protobuf-c"
echo "is a library of its own (libprotobuf-c.so) and not in it."
for n in scatter scatter-size-first; do
  echo
  echo "largest objects of onnx-scatter in the static $n program (text bytes):"
  sort -rn "$dir/$n/embed-objects.txt" | head -n 10 | awk '{ printf "  %8d  %s\n", $1, $2 }'
done
