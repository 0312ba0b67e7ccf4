"""setup.py — builds the desert package: a CPython C extension (desert._desert)
over libdesert and libdesert_json, plus the pure-Python helpers.

Where libdesert comes from (first match wins):
  1. DESERT_BUILD_DIR=/path/to/cmake/build — an in-tree CMake build with shared
     libraries (libdesert.so, libdesert_json.so at its top); headers from
     ../include next to this file; the build directory is put in the
     extension's RUNPATH so no LD_LIBRARY_PATH is needed.
  2. pkg-config desert — an installed libdesert (cmake --install).
  3. the compiler's default search paths (-ldesert_json -ldesert).
"""
import os
import shlex
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [os.path.join("desert", "_ext", f) for f in
           ("module.c", "schema.c", "to_python.c", "from_python.c", "items.c", "direct.c",
            "flat.c",
            "stream.c")]


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args], check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return shlex.split(out.stdout)


def library_flags():
    build = os.environ.get("DESERT_BUILD_DIR")
    if build:
        build = os.path.abspath(build)
        include = os.environ.get("DESERT_INCLUDE_DIR", os.path.join(HERE, "..", "include"))
        return dict(include_dirs=[os.path.abspath(include)], library_dirs=[build],
                    runtime_library_dirs=[build], libraries=["desert_json", "desert"])
    cflags, libs = pkg_config("--cflags", "desert"), pkg_config("--libs", "desert")
    if cflags is not None and libs is not None:
        flags = dict(include_dirs=[f[2:] for f in cflags if f.startswith("-I")],
                     library_dirs=[f[2:] for f in libs if f.startswith("-L")],
                     libraries=[f[2:] for f in libs if f.startswith("-l")])
        if "desert_json" not in flags["libraries"]:
            flags["libraries"].insert(0, "desert_json")
        flags["runtime_library_dirs"] = list(flags["library_dirs"])
        return flags
    return dict(libraries=["desert_json", "desert"])


ext = Extension(
    "desert._desert",
    sources=SOURCES,
    depends=[os.path.join("desert", "_ext", h) for h in ("ext.h", "items.h")],
    # hidden: the module exports PyInit__desert alone (PyMODINIT_FUNC marks
    # it); the extension's own functions and tables are then reached
    # directly, not through the GOT and PLT
    extra_compile_args=["-std=gnu11", "-fvisibility=hidden", "-Wall", "-Wextra",
                        "-Wno-missing-field-initializers",
                        "-Wno-cast-function-type"],
    **library_flags(),
)

class AlwaysBuildExt(build_ext):
    """Rebuilds the extension every time: pip builds in python/build/, and
    setuptools would otherwise keep an extension linked against another
    libdesert (its up-to-date check looks at source times, not at where
    the library comes from). Five small C files: a few seconds."""

    def finalize_options(self):
        super().finalize_options()
        self.force = True


setup(
    name="desert",
    cmdclass={"build_ext": AlwaysBuildExt},
    version="0.1.0",
    description="Python bindings of libdesert (the desert binary serialization format)",
    license="MIT",
    packages=["desert"],
    ext_modules=[ext],
    python_requires=">=3.9",
)
