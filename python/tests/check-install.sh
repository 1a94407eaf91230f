#!/usr/bin/env bash
# check-install.sh: the package installed the two ways a user installs it, under two interpreters
# (a `python3 -m venv` one and Debian's /usr/bin/python3, each first on PATH), each install then
# running the bundled example from outside the repository (check_installed.py):
#   cmake --install BUILD --prefix P: BUILD is configured again for the interpreter
#     (-DPython3_EXECUTABLE), so the install must move to that interpreter's site directory;
#     expected: P/ + the interpreter's site-packages relative to its prefix, read from `site`
#     (/usr/local for Debian's python3, whose sys.path has /usr/local/lib/python3.X/dist-packages);
#   pip install --no-build-isolation --no-index ./python: into the venv itself, and with Debian's
#     python3 into --prefix P (its pip picks P/local/lib/python3.X/dist-packages); the library is
#     built by CMake in PIP_BUILD (kept between runs, as a build folder).
# Needs python3-venv, python3-pip,
# python3-setuptools, python3-wheel and python3-numpy (the venv sees the system's packages).
# Usage: python/tests/check-install.sh BUILD PIP_BUILD   (BUILD: configured, package built)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BUILD PIP_BUILD" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd) pip_build=$(mkdir -p "$2" && cd "$2" && pwd)
model="$root/examples/scatter_elements/model.onnx"
tmp=$(mktemp -d)
# BUILD is configured for /usr/bin/python3 again at the end, when a check failed too.
trap 'cmake -B "$build" -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null; rm -rf "$tmp"' EXIT
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"

site_rel() { # interpreter: its site-packages folder, relative to the prefix it installs to
  "$1" -c 'import os, site, sys, sysconfig
pre = "/usr/local" if sysconfig.get_default_scheme() == "posix_local" else sys.prefix
print(next(os.path.relpath(p, pre) for p in site.getsitepackages() if p.startswith(pre + "/")))'
}
run_example() { # how, interpreter, prefix, site folder (empty: the interpreter's own)
  (cd "$tmp" && PYTHONPATH="$4" "$2" "$root/python/tests/check_installed.py" "$3" "$model") ||
    { echo "FAIL $1 ($2)" >&2; exit 1; }
  echo "ok   $1 ($2)"
}

for py in "$tmp/venv/bin/python3" /usr/bin/python3; do
  name=$(basename "$(dirname "$(dirname "$py")")") # venv or usr
  PATH="$(dirname "$py"):$PATH"
  prefix="$tmp/cmake-$name" site="$tmp/cmake-$name/$(site_rel "$py")"
  cmake -S "$root" -B "$build" -DPython3_EXECUTABLE="$py" >/dev/null
  cmake --build "$build" --target onnx_scatter_python >/dev/null
  cmake --install "$build" --prefix "$prefix" >/dev/null
  [ -f "$site/onnx_scatter/libonnxscatter.so" ] || {
    echo "FAIL cmake --install: not in $site; installed:" >&2
    find "$prefix" -name '*.so' >&2
    exit 1
  }
  run_example "cmake --install" "$py" "$prefix" "$site"

  prefix="$tmp/venv" args=()
  [ "$name" = venv ] || { prefix="$tmp/pip-$name" args=(--prefix "$prefix"); }
  (cd "$root" && OSC_PIP_BUILD_DIR="$pip_build" "$py" -m pip install -q --no-build-isolation \
    --no-index "${args[@]}" ./python >"$tmp/pip.log" 2>&1) ||
    { tail -n 30 "$tmp/pip.log" >&2; echo "FAIL pip install ($py)" >&2; exit 1; }
  site=""
  [ "$name" = venv ] || site=$(find "$prefix" -type d -name onnx_scatter -printf '%h' -quit)
  run_example "pip install" "$py" "$prefix" "$site"
done
