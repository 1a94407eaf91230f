"""setup.py: the onnx_scatter package with libonnxscatter inside it, built by CMake.

`pip install --no-build-isolation ./python` configures the repository with CMake (library and
package only) in the build's temporary folder, or in $OSC_PIP_BUILD_DIR, builds the target
onnx_scatter_python and ships BUILD/python/onnx_scatter as is (the generated _version.py and
the shared library included). $OSC_CMAKE_ARGS adds CMake arguments (e.g. -DOSC_OPS=scatter)."""
import os
import re
import shlex
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def version():
    with open(os.path.join(ROOT, "include", "onnx_scatter.h")) as f:
        text = f.read()
    return ".".join(re.search(rf"^#define OSC_VERSION_{part} (\d+)$", text, re.M).group(1)
                    for part in ("MAJOR", "MINOR", "PATCH"))


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        build = os.environ.get("OSC_PIP_BUILD_DIR") or os.path.join(
            os.path.abspath(self.get_finalized_command("build").build_temp), "cmake")
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                               "-DOSC_BUILD_TOOLS=OFF", "-DOSC_BUILD_TESTS=OFF",
                               "-DOSC_BUILD_BENCH=OFF", "-DOSC_INSTALL=OFF", "-DOSC_PYTHON=ON",
                               *shlex.split(os.environ.get("OSC_CMAKE_ARGS", ""))])
        subprocess.check_call(["cmake", "--build", build, "--target", "onnx_scatter_python",
                               "-j", str(os.cpu_count() or 1)])
        shutil.copytree(os.path.join(build, "python", "onnx_scatter"),
                        os.path.join(self.build_lib, "onnx_scatter"), dirs_exist_ok=True)


class BinaryDistribution(Distribution):
    def has_ext_modules(self):  # a shared library inside: a platform wheel, not a pure one
        return True


setup(version=version(), packages=["onnx_scatter"], cmdclass={"build_py": BuildWithCMake},
      distclass=BinaryDistribution)
