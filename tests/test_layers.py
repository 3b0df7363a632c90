"""The package's layers: every import of every module (those inside functions and under
``TYPE_CHECKING`` included) goes to its own layer or one below, and no modules import each
other in a circle.  The checker is tested on a small package written for the test."""

from __future__ import annotations

import ast
from pathlib import Path

import citadels_sim

#: layer of each top-level module or sub-package of ``citadels_sim``, lowest first
LAYERS = {"kernel": 0, "stats": 0, "versions": 0, "game": 1, "engine": 2, "studies": 3,
          "reporting": 4, "cli": 5}
#: the package's face (``citadels_sim/__init__.py``, ``__main__.py``): it may import from
#: every layer, and no module of the package imports it
FACE = ("__init__", "__main__")


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package in directory ``root``, by dotted name (a sub-package by
    its own name, for its ``__init__.py``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of the package that module ``name`` imports, anywhere in its file: for
    ``from X import Y`` the module ``X.Y`` when there is one, else ``X``."""
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[:len(here.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[tuple[list[str], set[str]]]:
    """Per strongly connected component of more than one module (Tarjan): a circle through
    it and its members."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = set()
            while True:
                w = stack.pop()
                on.discard(w)
                members.add(w)
                if w == v:
                    break
            if len(members) > 1:
                found.append((_circle(graph, members), members))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _circle(graph: dict[str, set[str]], members: set[str]) -> list[str]:
    """A shortest circle through the first of ``members``, within them."""
    start = min(members)
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(graph[path[-1]] & members):
            if w == start:
                return path + [start]
            if w not in seen:
                seen.add(w)
                paths.append(path + [w])
    raise AssertionError(f"no circle through {start}")  # a component always has one


def problems(root: Path, package: str, layers: dict[str, int]) -> list[str]:
    """What breaks the layering of the package in ``root``: modules without a layer,
    imports of the face, imports from a higher layer, and import circles."""
    known = modules(root, package)
    face = {package, *(f"{package}.{f}" for f in FACE)}
    graph = {name: imports(name, path, known) for name, path in known.items()}

    def layer(name: str) -> int | None:
        return layers.get(name.split(".")[1])

    out = [f"{name}: no layer (add {name.split('.')[1]!r} to the layers)"
           for name in graph if name not in face and layer(name) is None]
    for name, targets in graph.items():
        if name in face or layer(name) is None:
            continue
        for target in sorted(targets):
            if target in face:
                out.append(f"{name} imports the package's face {target}")
            elif layer(target) is not None and layer(target) > layer(name):
                out.append(f"{name} (layer {layer(name)}) imports {target} "
                           f"(layer {layer(target)})")
    inner = {n: ts - face for n, ts in graph.items() if n not in face}
    for circle, members in _cycles(inner):
        rest = sorted(members - set(circle))
        out.append("import circle: " + " -> ".join(circle)
                   + (f" (tangled with {', '.join(rest)})" if rest else ""))
    return out


def test_the_package_keeps_its_layers():
    root = Path(citadels_sim.__file__).parent
    assert problems(root, "citadels_sim", LAYERS) == []


def test_every_layer_is_there():
    """The layer map names what the package holds (a renamed sub-package fails here, not
    silently)."""
    root = Path(citadels_sim.__file__).parent
    tops = {n.split(".")[1] for n in modules(root, "citadels_sim") if n.count(".")}
    assert tops - {*FACE} == set(LAYERS)


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_checker_finds_upward_imports_and_circles(tmp_path):
    """A package ``pkg`` with a low and a high layer: an upward import hidden in a function,
    one under TYPE_CHECKING, a circle through a relative import, an import of the face and a
    module of no layer are each reported; imports downward and of names are not."""
    _write(tmp_path / "pkg", {
        "__init__.py": "from pkg.high import b\n",
        "low/__init__.py": "",
        "low/a.py": "def f():\n    from pkg.high.b import thing\n",
        "low/base.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    import pkg.high.d\n"),
        "high/__init__.py": "",
        "high/b.py": "from pkg.low import base\nfrom . import c\nthing = 1\n",
        "high/c.py": "from .b import thing\nfrom .. import low\n",
        "high/d.py": "import pkg\n",
        "other.py": "",
    })
    found = problems(tmp_path / "pkg", "pkg", {"low": 0, "high": 1})
    assert sorted(found) == sorted([
        "pkg.other: no layer (add 'other' to the layers)",
        "pkg.low.a (layer 0) imports pkg.high.b (layer 1)",
        "pkg.low.base (layer 0) imports pkg.high.d (layer 1)",
        "pkg.high.d imports the package's face pkg",
        "import circle: pkg.high.b -> pkg.high.c -> pkg.high.b",
    ])


def test_the_checker_reports_a_circle_across_layers(tmp_path):
    """A circle of three modules is reported once, as one path, beside its upward import."""
    _write(tmp_path / "pkg", {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/x.py": "import pkg.low.y\n",
        "low/y.py": "from pkg.high import z\n",
        "high/__init__.py": "",
        "high/z.py": "from ..low.x import name\n",
    })
    assert problems(tmp_path / "pkg", "pkg", {"low": 0, "high": 1}) == [
        "pkg.low.y (layer 0) imports pkg.high.z (layer 1)",
        "import circle: pkg.high.z -> pkg.low.x -> pkg.low.y -> pkg.high.z",
    ]
