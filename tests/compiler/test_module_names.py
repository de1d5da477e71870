"""No module of the compiler is named like a standard-library module (a `collections.py` beside
`import collections` confuses readers and tools that resolve names by file)."""
from __future__ import annotations

import sys
from pathlib import Path

import recycle.compiler

COMPILER = Path(recycle.compiler.__file__).parent


def test_no_compiler_module_shadows_the_standard_library():
    names = {p.stem for p in COMPILER.glob("*.py")}
    assert "collection_forms" in names  # the forms once in collections.py
    shadowing = sorted(names & set(sys.stdlib_module_names))
    assert shadowing == [], f"compiler modules named like standard-library modules: {shadowing}"
