"""Builds chickenfoot with its rules core compiled by mypyc where that can be done, pure Python otherwise.

The modules of the core's folder, ``src/chickenfoot/_core/`` (the rules as plain typed ints, and
the samplers and searches that read them), are compiled to C extensions when

* the build makes a regular wheel or installs (``pip install .``, ``python -m build``), not an
  editable install: an editable install must run the sources being edited;
* ``CHICKENFOOT_PURE`` is unset (or ``0``);
* the interpreter is CPython and a C compiler is found.

Otherwise, or if compiling fails, the package is the same modules as pure Python, and a build
with nothing compiled makes a ``py3-none-any`` wheel. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# mypyc builds the compiled core's folder: every module in it (chickenfoot._core.MODULES lists them in import order).
COMPILED = sorted(str(path) for path in Path("src/chickenfoot/_core").glob("*.py") if path.name != "__init__.py")
EDITABLE_OR_METADATA = {"editable_wheel", "develop", "egg_info", "dist_info", "sdist"}


def _why_pure() -> str | None:
    """Gets the reason to build pure Python, or ``None`` to compile the core."""
    if os.environ.get("CHICKENFOOT_PURE", "") not in ("", "0"):
        return "CHICKENFOOT_PURE is set"
    if sys.implementation.name != "cpython":
        return f"mypyc compiles for CPython, not {sys.implementation.name}"
    if EDITABLE_OR_METADATA.intersection(sys.argv[1:]) or not sys.argv[1:]:
        return "an editable install or a metadata step runs the sources as they are"
    compiler = os.environ.get("CC") or (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.name != "nt" and shutil.which(compiler) is None:  # MSVC is found at build time, or the build falls back
        return f"no C compiler ({compiler}) found"
    return None


class OptionalBuildExt(build_ext):
    """Builds the compiled core, and leaves the pure Python core in place if that fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no headers, a broken toolchain: the .py modules still work
            print(f"chickenfoot: compiling the core failed ({error}); the pure Python core is installed")

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            print(f"chickenfoot: compiling {ext.name} failed ({error}); the pure Python core is installed")


def _extensions() -> list[Any]:
    why = _why_pure()
    if why is None:
        try:
            from mypyc.build import mypycify
        except ImportError:
            why = "mypyc is not installed"
        else:
            # These modules import only the standard library, each other and the error classes: mypy
            # need not read the rest of the package (nor attrs, which the build environment lacks).
            return list(mypycify([*COMPILED, "--follow-imports=skip", "--ignore-missing-imports"], opt_level="3"))
    if "bdist_wheel" in sys.argv or "build_ext" in sys.argv:
        print(f"chickenfoot: building the pure Python core ({why})")
    return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
