#!/usr/bin/env bash
# check-install.sh: builds this example out of tree against an installed onnx-scatter four ways
# (CMake find_package, shared and static; pkg-config, shared and static), runs each, checks output.
# Usage: examples/embed/check-install.sh PREFIX MODEL.onnx WORKDIR   (WORKDIR is recreated)
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 PREFIX MODEL.onnx WORKDIR" >&2; exit 2; }
prefix=$(cd "$1" && pwd) model=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/src"
cp "$here/main.c" "$here/CMakeLists.txt" "$work/src/" # nothing of the source tree is reachable
expected='output [3, 3]:
     3   2.1     1
     2     1   3.2
     1   3.1   2.2'

check() { # name, binary, shared|static
  local out
  out=$("$2" "$model") || { echo "FAIL $1: exit status $?" >&2; exit 1; }
  if [ "$(printf '%s\n' "$out" | tail -n 4)" != "$expected" ]; then
    printf 'FAIL %s: unexpected output:\n%s\n' "$1" "$out" >&2
    exit 1
  fi
  local needs=static
  readelf -d "$2" | grep -q 'NEEDED.*libonnxscatter\.so' && needs=shared
  [ "$needs" = "$3" ] || { echo "FAIL $1: linked $needs, expected $3" >&2; exit 1; }
  echo "ok   $1 ($3)"
}

# CMake: find_package(onnxscatter) from the prefix only.
for kind in shared static; do
  flag=OFF
  [ $kind = static ] && flag=ON
  cmake -S "$work/src" -B "$work/cmake-$kind" -DCMAKE_PREFIX_PATH="$prefix" \
    -DEMBED_STATIC=$flag -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >/dev/null
  cmake --build "$work/cmake-$kind" >/dev/null
  check "find_package" "$work/cmake-$kind/embed" $kind
done

# pkg-config: onnxscatter.pc from the prefix only.
pc=$(find "$prefix" -name onnxscatter.pc -print -quit)
[ -n "$pc" ] || { echo "FAIL: no onnxscatter.pc under $prefix" >&2; exit 1; }
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_LIBDIR="$(dirname "$pc"):$(pkg-config --variable pc_path pkg-config)"
cc=${CC:-cc}
flags=(-std=c11 -Wall -Wextra -Wpedantic -Werror)
libdir=$(pkg-config --variable=libdir onnxscatter)
# shellcheck disable=SC2046 # pkg-config output is meant to be split
"$cc" "${flags[@]}" "$work/src/main.c" -o "$work/pc-shared" $(pkg-config --cflags --libs onnxscatter) \
  -Wl,-rpath,"$libdir"
check "pkg-config" "$work/pc-shared" shared
static_libs=$(pkg-config --libs --static onnxscatter)
for lib in -lprotobuf-c -lm; do # the static library's own dependencies must be listed
  case " $static_libs " in *" $lib "*) ;; *) echo "FAIL: pkg-config --static lacks $lib" >&2; exit 1 ;; esac
done
# shellcheck disable=SC2046
"$cc" "${flags[@]}" -DOSC_STATIC_DEFINE "$work/src/main.c" -o "$work/pc-static" \
  $(pkg-config --cflags onnxscatter) ${static_libs/-lonnxscatter/-Wl,-Bstatic -lonnxscatter -Wl,-Bdynamic}
check "pkg-config --static" "$work/pc-static" static
