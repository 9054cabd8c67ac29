"""Builds the gpuscout wheel by driving the project's CMake (pyproject.toml; docs/install.md).

CMake configures a Release tree (Ninja, ccache when present, GPUSCOUT_WHEEL=ON: a DT_RPATH to lib/gpuscout/libs)
and installs it into a staging folder. The binary becomes the wheel's script (pip puts it in
the environment's bin/), everything else cmake --install writes (the CUDA plugin in lib/gpuscout/, the translations
in share/locale/, the JSON Schemas, the man page, the completions) its data, which pip puts under the same prefix:
the binary finds the plugin and the translations from its own path (<bin>/../lib, <bin>/../share). The shared
libraries a plain Linux may lack (OpenBLAS, libpci, libfmt, libstdc++, ... found with ldd) are copied to
lib/gpuscout/libs/.
The tag is manylinux_2_XX for the highest GLIBC_2.XX symbol version those ELF files need (objdump -T).
GPUSCOUT_WHEEL_BUILD_DIR names the build folder (scripts/check-wheel: build/wheel, beside the ci tree of the same
compile flags, so ccache hands back the ci build's objects and only the links run again).
"""
import os
import platform
import re
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build import build
from distutils.command.build_scripts import build_scripts  # setuptools' copy of distutils, imported above

try:  # setuptools >= 70.1 has its own; Debian 12's setuptools 66 uses python3-wheel's
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    from wheel.bdist_wheel import bdist_wheel

ROOT = os.path.dirname(os.path.abspath(__file__))
# What every manylinux system has (PEP 600's policy list), less libstdc++: the build machine's is newer than many
# systems have (GCC 12's GLIBCXX_3.4.30), so it is bundled, one copy for the binary and libfmt. The CUDA driver and
# cuBLAS are the user's (the driver's libcuda.so.1, the toolkit's or the nvidia-cublas wheel's libcublas).
SYSTEM_LIBS = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libdl.so", "librt.so", "libpthread.so",
               "libresolv.so", "libutil.so", "libnsl.so", "libgcc_s.so", "libcuda.so", "libcublas")


def cmake_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(gpuscout VERSION ([0-9.]+)", f.read()).group(1)


def bundled_libraries(elf_files):
    """Shared libraries the ELF files load (ldd: the whole tree) that a manylinux system may not have."""
    out = {}
    for elf in elf_files:
        text = subprocess.run(["ldd", elf], capture_output=True, text=True, check=True).stdout
        for name, path in re.findall(r"^\s*(\S+) => (/\S+)", text, re.M):
            if not name.startswith(SYSTEM_LIBS):
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


def cmake_build_and_install(build_dir, stage):
    configure = ["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                 "-DGPUSCOUT_WERROR=ON", "-DGPUSCOUT_BUILD_TESTS=OFF", "-DGPUSCOUT_WHEEL=ON"]
    if shutil.which("ccache"):
        configure += [f"-DCMAKE_{lang}_COMPILER_LAUNCHER=ccache" for lang in ("C", "CXX", "CUDA")]
    subprocess.run(configure, check=True)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL")
    subprocess.run(["cmake", "--build", build_dir] + (["-j", jobs] if jobs else []), check=True)
    shutil.rmtree(stage, ignore_errors=True)
    subprocess.run(["cmake", "--install", build_dir, "--prefix", stage, "--strip"], check=True)


def staged_files(stage):
    """(folder relative to the prefix, [files]) for every file cmake --install wrote."""
    out = {}
    for folder, _, files in os.walk(stage):
        for name in sorted(files):
            out.setdefault(os.path.relpath(folder, stage), []).append(os.path.join(folder, name))
    return out


class CMakeBuild(build):
    def run(self):
        build_dir = os.environ.get("GPUSCOUT_WHEEL_BUILD_DIR") or os.path.join(ROOT, "build", "wheel")
        stage = os.path.join(os.path.abspath(self.build_base), "gpuscout-stage")
        cmake_build_and_install(build_dir, stage)
        files = staged_files(stage)
        binary = os.path.join(stage, "bin", "gpuscout")
        plugins = [f for f in files.get(os.path.join("lib", "gpuscout"), []) if f.endswith(".so")]
        libs_dir = os.path.join(stage, "lib", "gpuscout", "libs")
        os.makedirs(libs_dir, exist_ok=True)
        libs = []
        for name, path in sorted(bundled_libraries([binary, *plugins]).items()):
            libs.append(os.path.join(libs_dir, name))
            shutil.copyfile(path, libs[-1])
        files[os.path.join("lib", "gpuscout", "libs")] = libs
        del files["bin"]
        dist = self.distribution
        dist.scripts = [binary]
        dist.data_files = sorted(files.items())
        dist.gpuscout_glibc = glibc_needed([binary, *plugins, *libs])
        super().run()


class CopyBinary(build_scripts):
    """The wheel's script is the ELF binary: copied as it is (the stock step reads it as Python for a shebang)."""

    def copy_scripts(self):
        self.mkpath(self.build_dir)
        outfiles = []
        for script in self.scripts:
            outfiles.append(os.path.join(self.build_dir, os.path.basename(script)))
            self.copy_file(script, outfiles[-1])  # keeps the mode: pip keeps the exec bit it finds in the wheel
        return outfiles, outfiles


class Wheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        major, minor = getattr(self.distribution, "gpuscout_glibc", (2, 17))
        return "py3", "none", f"manylinux_{major}_{minor}_{platform.machine()}"


setup(version=cmake_version(), packages=[], py_modules=[],
      cmdclass={"build": CMakeBuild, "build_scripts": CopyBinary, "bdist_wheel": Wheel})
