"""Builds the gpuscout wheel by driving the project's CMake (pyproject.toml; docs/install.md).

The build configures build/wheel (Release, Ninja, ccache when present, GPUSCOUT_WHEEL=ON: libstdc++ linked in and
an RPATH to lib/gpuscout/libs), builds with CMAKE_BUILD_PARALLEL_LEVEL jobs and installs into a staging folder. The
binary becomes the wheel's script (the venv's bin/), the CUDA plugin and the shared libraries a plain Linux may lack
(OpenBLAS, libpci, libfmt, ... found with ldd) its data under lib/gpuscout/. The tag is manylinux_2_XX for the
highest GLIBC_ symbol version those ELF files need, read from them with objdump -T.
GPUSCOUT_WHEEL_BUILD_DIR names another build folder (CI uses one beside its ci build, so ccache reuses the objects).
"""
import os
import platform
import re
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build import build
from wheel.bdist_wheel import bdist_wheel

ROOT = os.path.dirname(os.path.abspath(__file__))
# What every manylinux system has (PEP 600's policy list, less libstdc++ and libgcc_s, which are linked in).
SYSTEM_LIBS = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libdl.so", "librt.so", "libpthread.so",
               "libresolv.so", "libutil.so", "libnsl.so", "libgcc_s.so")


def cmake_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(gpuscout VERSION ([0-9.]+)", f.read()).group(1)


def bundled_libraries(elf_files):
    """Shared libraries the ELF files load (ldd: the whole tree) that a manylinux system may not have."""
    out = {}
    for elf in elf_files:
        text = subprocess.run(["ldd", elf], capture_output=True, text=True, check=True).stdout
        for name, path in re.findall(r"^\s*(\S+) => (/\S+)", text, re.M):
            if not name.startswith(SYSTEM_LIBS) and "libcuda" not in name and "libcublas" not in name:
                out[name] = os.path.realpath(path)
    return out


def glibc_needed(elf_files):
    """The highest GLIBC_2.N symbol version any of the files needs, as (2, N)."""
    best = (2, 17)
    for elf in elf_files:
        text = subprocess.run(["objdump", "-T", elf], capture_output=True, text=True, check=True).stdout
        for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", text):
            best = max(best, (int(major), int(minor)))
    return best


class CMakeBuild(build):
    def run(self):
        build_dir = os.environ.get("GPUSCOUT_WHEEL_BUILD_DIR") or os.path.join(ROOT, "build", "wheel")
        stage = os.path.join(os.path.abspath(self.build_base), "gpuscout-stage")
        shutil.rmtree(stage, ignore_errors=True)
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                     "-DGPUSCOUT_WERROR=ON", "-DGPUSCOUT_BUILD_TESTS=OFF", "-DGPUSCOUT_WHEEL=ON"]
        if shutil.which("ccache"):
            configure += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL")
        subprocess.run(["cmake", "--build", build_dir] + (["-j", jobs] if jobs else []), check=True)
        subprocess.run(["cmake", "--install", build_dir, "--prefix", stage, "--strip"], check=True)
        binary = os.path.join(stage, "bin", "gpuscout")
        plugins = sorted(os.path.join(stage, "lib", "gpuscout", f) for f in os.listdir(os.path.join(stage, "lib", "gpuscout"))
                         if f.endswith(".so")) if os.path.isdir(os.path.join(stage, "lib", "gpuscout")) else []
        libs_dir = os.path.join(stage, "lib", "gpuscout", "libs")
        os.makedirs(libs_dir, exist_ok=True)
        libs = []
        for name, path in sorted(bundled_libraries([binary, *plugins]).items()):
            libs.append(os.path.join(libs_dir, name))
            shutil.copyfile(path, libs[-1])
        dist = self.distribution
        dist.scripts = [binary]
        dist.data_files = [("lib/gpuscout", plugins), ("lib/gpuscout/libs", libs),
                           ("share/gpuscout/schemas", [os.path.join(stage, "share", "gpuscout", "schemas", f)
                                                       for f in os.listdir(os.path.join(stage, "share", "gpuscout", "schemas"))])]
        dist.gpuscout_glibc = glibc_needed([binary, *plugins, *libs])
        super().run()


class Wheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        major, minor = getattr(self.distribution, "gpuscout_glibc", (2, 17))
        return "py3", "none", f"manylinux_{major}_{minor}_{platform.machine()}"


setup(version=cmake_version(), packages=[], py_modules=[], cmdclass={"build": CMakeBuild, "bdist_wheel": Wheel})
