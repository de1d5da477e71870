"""The shape of the house (docs/architecture.md): stages import only earlier stages, no import cycles,
imports at the top of modules, no module over 600 lines, no class over 300 lines, no module named
like a standard-library module."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx
import pytest

from support import REPO

# The pipeline's stages in order; a module may import its own stage and earlier ones only.
STAGES = (
    ("recycle.errors", "recycle.version"),
    ("recycle.lang",),
    ("recycle.engine",),
    ("recycle.compiler",),
    ("recycle.players",),
    ("recycle.run",),
    ("recycle.api",),
    ("recycle.analysis",),
    ("recycle.visualize",),
    ("recycle.integrations",),
    ("recycle.lsp",),
    ("recycle.cli",),
)
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 300
# Packages whose modules may keep a standard-library name: `recycle.lang.ast` is public API (the game
# tree users import by that name), so it stays, and with it its own `types` module.
STDLIB_NAMES_KEPT = ("recycle.lang.ast",)
# Modules that import other parts of recycle inside functions on purpose: name -> why.
DEFERRED_IMPORTS: dict[str, str] = {
    "recycle.cli.lsp": "the server needs pygls, an optional extra: imported when `recycle lsp` runs, so that "
                       "every other command works without it and this one can name the extra",
    "recycle": "the package root re-exports the notebook API (recycle.visualize.notebook) on first use: it needs "
               "matplotlib and graphviz, and `import recycle` to play a game should not load them",
}


def source_files() -> dict[str, Path]:
    """Module name -> file, for recycle/ and the top-level visualize/ installed as recycle.visualize."""
    mods = {}
    for root, prefix in ((REPO / "recycle", "recycle"), (REPO / "visualize", "recycle.visualize")):
        for f in sorted(root.rglob("*.py")):
            parts = list(f.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join([prefix, *parts])] = f
    return mods


MODULES = source_files()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _target(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The recycle modules an import statement names (the longest known module of each name)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = module.split(".")
        if node.level:
            is_pkg = MODULES[module].name == "__init__.py"
            base = base if is_pkg else base[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [prefix] + [f"{prefix}.{a.name}" for a in node.names]
    out = []
    for name in names:
        parts = name.split(".")
        while parts and ".".join(parts) not in MODULES:
            parts.pop()
        if parts and parts[0] == "recycle":
            out.append(".".join(parts))
    return out


def imports(module: str) -> list[tuple[str, bool]]:
    """(imported recycle module, inside a function?) for every import outside `if TYPE_CHECKING:`."""
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    found: list[tuple[str, bool]] = []

    def walk(node: ast.AST, in_func: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.orelse:
                    walk(sub, in_func)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((t, in_func) for t in _target(module, child) if t != module)
            walk(child, in_func or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(tree, False)
    return found


def stage_of(module: str) -> int | None:
    for rank, prefixes in enumerate(STAGES):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def test_every_module_belongs_to_a_stage():
    assert [m for m in MODULES if m != "recycle" and m != "recycle.__main__" and stage_of(m) is None] == []


def test_no_stage_imports_a_later_stage():
    backward = []
    for m in MODULES:
        here = stage_of(m)
        if here is None:
            continue  # the package root re-exports the public API; __main__ runs the CLI
        for t, _ in imports(m):
            there = stage_of(t)
            if there is None or there > here:
                backward.append(f"{m} imports {t}")
    assert backward == []


def test_no_import_cycles():
    g = nx.DiGraph()
    g.add_nodes_from(MODULES)
    for m in MODULES:
        for t, _ in imports(m):
            if MODULES[t].name != "__init__.py" or not m.startswith(t + "."):
                g.add_edge(m, t)
    assert [c for c in nx.simple_cycles(g)] == []


def test_imports_are_at_the_top():
    deferred = sorted({f"{m} -> {t}" for m in MODULES for t, in_func in imports(m) if in_func
                       and m not in DEFERRED_IMPORTS})
    assert deferred == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_and_class_sizes(module):
    text = MODULES[module].read_text("utf-8")
    assert text.count("\n") <= MAX_MODULE_LINES, f"{module} has {text.count(chr(10))} lines"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            lines = node.end_lineno - node.lineno + 1
            assert lines <= MAX_CLASS_LINES, f"class {node.name} of {module} has {lines} lines"


def test_no_module_shadows_the_standard_library():
    # A `collections.py` beside `import collections` confuses readers, and tools that resolve a name
    # by its file; compiler/ and lang/check/ each had one, now `collection_forms.py`.
    assert "recycle.compiler.collection_forms" in MODULES and "recycle.lang.check.collection_forms" in MODULES
    stdlib = set(sys.stdlib_module_names)
    shadowing = sorted(m for m in MODULES if m.split(".")[-1] in stdlib
                       and not any(m == k or m.startswith(k + ".") for k in STDLIB_NAMES_KEPT))
    assert shadowing == [], f"modules named like standard-library modules: {shadowing}"
