"""A sampling profile of whole `citadels simulate` runs, the compiled kernel included.

``perf`` sees numba's machine code only as anonymous memory: numba writes no symbol map.
This script writes one: a warm start loads the kernel's one entry point, ``run.play_games``,
from numba's cache as an ELF object holding every kernel function LLVM did not inline; its
symbol table (``nm -S``) gives each function's offset and size, and the entry point's address
gives where the object was loaded.  ``perf record`` then samples this process while it plays
and writes the games' tables (to Parquet with ``--out``), and ``perf report`` reads the map
(``/tmp/perf-PID.map``).  Samples are grouped by kernel module (a function keeps the time of
what LLVM inlined into it) and, outside the kernel, by library: polars, numpy, pyarrow, the
interpreter.

Usage (from a checkout, with ``perf`` installed; a run of 200,000 games takes seconds)::

    python tools/kernel_profile.py --games 200000 --strategies reference_classic
    python tools/kernel_profile.py --ruleset 2016 --players 6 --characters first_game \\
        --strategies heuristic --out /tmp/prof-run

It relies on numba's cache format (``CPUCodeLibrary._unserialize``), a private interface:
checked with numba 0.68.  Method and results: docs/performance.md, "Where the time goes".
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from numba.core import codegen

_objects: dict[str, bytes] = {}
_unserialize = codegen.CPUCodeLibrary._unserialize.__func__


def _keep_object(cls, cg, state):
    """numba's loader of cached code, keeping each library's ELF object."""
    name, kind, data = state
    if kind == "object":
        _objects[name] = data[0]
    return _unserialize(cls, cg, state)


codegen.CPUCodeLibrary._unserialize = classmethod(_keep_object)


def _symbols(obj: bytes, demangle: bool) -> list[tuple[int, int, str]]:
    """(offset, size, name) of the object's functions, by ``nm``."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        out = subprocess.run(["nm", "-S", "--defined-only", *(["-C"] if demangle else []),
                              f.name], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split(maxsplit=3)
        if len(parts) == 4 and parts[2] in "TtWw":
            rows.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return rows


def short(name: str) -> str:
    """``citadels_sim::kernel::draft::_deal[abi:..](Record<1>, ...)`` -> ``draft._deal``."""
    name = re.sub(r"\[abi:[^\]]*\]", "", name).split("(")[0]
    return name.removeprefix("citadels_sim::kernel::").replace("::", ".")


def write_map() -> Path:
    """Load the kernel and write this process's perf map of its functions."""
    from citadels_sim.kernel import jit, run
    jit.compile_kernel()
    (cres,) = run.play_games.overloads.values()
    obj = _objects[run.play_games.__name__]
    mangled, plain = _symbols(obj, False), _symbols(obj, True)
    entry = next(off for off, _, n in mangled if n == cres.fndesc.llvm_func_name)
    base = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name) - entry
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    path.write_text("".join(f"{base + off:x} {size:x} kernel:{short(name)}\n"
                            for off, size, name in plain if size))
    return path


def group(symbol: str, dso: str) -> str:
    """Where a sample's time goes, in the profile's words."""
    if symbol.startswith("kernel:"):
        parts = symbol[len("kernel:"):].split(".")
        return "kernel " + ".".join(parts[:2] if parts[0] == "bots" else parts[:1])
    for key, label in (("polars", "polars (tables)"), ("arrow", "pyarrow (Parquet)"),
                       ("parquet", "pyarrow (Parquet)"), ("numpy", "numpy"),
                       ("_multiarray", "numpy"), ("python", "Python interpreter"),
                       ("libc", "libc (memory, copies)"), ("kernel.kallsyms", "OS kernel"),
                       ("numba", "numba runtime")):
        if key in dso:
            return label
    return f"other ({dso})"


def main(argv: list[str] | None = None) -> None:
    from citadels_sim.cli import options
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_game(p)  # --ruleset, --players, --characters, --districts, ... as simulate
    p.add_argument("--strategies", default=None, help="as for citadels simulate")
    p.add_argument("--games", type=int, default=200_000)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--out", default=None, help="write the games to Parquet here")
    p.add_argument("--top", type=int, default=25, help="functions listed")
    p.add_argument("--map-only", action="store_true",
                   help="write the perf map of this process and stop (a check of the map)")
    a = p.parse_args(argv)
    import citadels_sim
    config = options.config(a)
    path = write_map()
    if a.map_only:
        print(f"{len(path.read_text().splitlines())} kernel functions mapped in {path}")
        return
    citadels_sim.simulate(config, a.strategies, games=2_000, progress=False)  # threads up
    data = Path(tempfile.mkdtemp()) / "perf.data"
    perf = subprocess.Popen(["perf", "record", "-q", "-F", "1999", "-p", str(os.getpid()),
                             "-o", str(data)], stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    t0 = time.perf_counter()
    citadels_sim.simulate(config, a.strategies, games=a.games, workers=a.workers,
                          out=a.out, progress=False)
    wall = time.perf_counter() - t0
    perf.send_signal(signal.SIGINT)
    perf.wait()
    report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children",
                             "--sort", "dso,sym", "-F", "period,dso,sym", "-t", "\t"],
                            capture_output=True, text=True, check=True).stdout
    path.unlink()
    shutil.rmtree(data.parent)
    by_group: dict[str, int] = defaultdict(int)
    by_function: dict[str, int] = defaultdict(int)
    for line in report.splitlines():
        cols = line.split("\t")
        if line.startswith("#") or len(cols) < 3 or not cols[0].strip().isdigit():
            continue
        period, dso, sym = int(cols[0]), cols[1].strip(), cols[2].strip()
        sym = re.sub(r"^\[[.k]\] ", "", sym)
        by_group[group(sym, dso)] += period
        by_function[sym if sym.startswith("kernel:") else f"{sym} ({dso})"] += period
    total = sum(by_group.values()) or 1
    print(f"{a.games:,} games of {config.ruleset} {config.players}p, "
          f"{a.strategies or 'default'} bots, {wall:.2f} s wall"
          + (f", written to {a.out}" if a.out else "") + "; share of CPU samples:")
    for name, n in sorted(by_group.items(), key=lambda kv: -kv[1]):
        print(f"  {100 * n / total:5.1f}%  {name}")
    print(f"the {a.top} functions with most samples (a kernel function includes what LLVM "
          "inlined into it):")
    for name, n in sorted(by_function.items(), key=lambda kv: -kv[1])[:a.top]:
        print(f"  {100 * n / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
