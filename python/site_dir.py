"""site_dir: prints the site directory of the running interpreter for an install prefix,
relative to that prefix (python/CMakeLists.txt, OSC_PYTHON_DIR; python/tests/check-install.sh).

It is the interpreter's own purelib path for its default scheme (a venv's, pyenv's, a
distribution's), with the prefix put in for its base. Debian's python3 defaults to the scheme
posix_local, whose base /usr maps to /usr/local/lib/python3.X/dist-packages: relative to the
prefix /usr/local (CMake's default), which is on that interpreter's sys.path."""
import os
import sysconfig

scheme = getattr(sysconfig, "get_default_scheme", None) or sysconfig._get_default_scheme
scheme = scheme()
base = "/usr" if scheme == "posix_local" else "/PREFIX"
prefix = "/usr/local" if scheme == "posix_local" else base
path = sysconfig.get_path("purelib", scheme, vars={"base": base, "platbase": base})
print(os.path.relpath(path, prefix))
