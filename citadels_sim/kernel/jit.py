"""The kernel's JIT decorators and its one-time compile.

Every kernel function is decorated with :func:`hot` and compiled by :func:`compile_kernel`
with **one** signature, derived from its parameter names (:data:`ARG_TYPES`; any other
parameter is an int64).  Callers passing int16, int32 or bool values are converted at the call, so no function is
ever specialised twice: numba compiles one copy of each, the compile stays short and the
on-disk cache small.  ``compile_kernel`` compiles (or loads from the cache) every function,
callees before callers, then forbids further specialisations, so a stray argument type is
an error instead of a silent recompile.

``hot`` functions run with numba's reference counting switched off (``_nrt=False``): they
may not allocate arrays, and they take the game as a ``State`` record and the constant
tables as a ``Tables`` record (see :mod:`.layout`), each passed as one pointer.  Numba's
IR inlining (``inline="always"``) re-types the callee in every caller and made the compile
explode, so it is kept to the bots (:func:`inline`): a family's decision is inlined into its
single caller, the decision's switch, instead of being compiled as a function of its own
(cold compile 82 s -> 68 s on the 2-core machine), and the two helpers that sit inside the
decisions' loops are inlined there (LLVM did not, and the build decision lost 5% of a
game's time); LLVM inlines other small callees by itself.  Measured cold start and speed: docs/performance.md and ``citadels bench``.
"""

from __future__ import annotations

import inspect
import time
from types import ModuleType
from collections.abc import Callable

import numba
from numba import njit, types

from .layout import STATE_DTYPE, TABLES_DTYPE

STATE = numba.from_dtype(STATE_DTYPE)
TABLES = numba.from_dtype(TABLES_DTYPE)

#: the type of each parameter name that is not an int64
ARG_TYPES = {
    "st": STATE,
    "tb": TABLES,
    "v": types.float64,  # an option's value (bots)
    "best": types.float64,  # the best value so far (bots.common.offer)
    "sign": types.float64,  # +1.0 to take the best, -1.0 the worst (bots)
    "bonus": types.float64,  # a value added to some options (bots)
    "finish": types.float64,  # points behind that hold back the completing build (bots)
    "low": types.float64,  # the lowest value so far (bots)
    "total": types.float64,  # a sum of values (bots)
    "z": types.uint64,  # a SplitMix64 word
    "seat_out": types.Array(types.int32, 2, "C"),  # one game's per-seat outputs (layout O_*)
    "game_out": types.Array(types.int32, 1, "C"),  # one game's outputs (layout OG_*)
    "held": types.Array(types.int16, 2, "C"),
    "records": types.Array(types.int32, 3, "C"),
    "picks": types.Array(types.int8, 3, "C"),
    "seats_out": types.Array(types.int32, 3, "C"),  # a chunk's outputs: one row per game
    "games_out": types.Array(types.int32, 2, "C"),
    "held_out": types.Array(types.int16, 3, "C"),
    "records_out": types.Array(types.int32, 4, "C"),
    "picks_out": types.Array(types.int8, 4, "C"),
}

_KERNEL: list = []  # every kernel dispatcher, in definition order
_compiled = False


def hot(fn: Callable) -> Callable:
    """A kernel function: nopython, cached, no reference counting, one signature; called
    from Python it releases the GIL (so threads can play games side by side)."""
    return _register(njit(cache=True, _nrt=False, nogil=True)(fn))


#: the functions numba inlines into their callers (:func:`inline`), never compiled on their own
_INLINED: set = set()


def inline(fn: Callable) -> Callable:
    """A function numba inlines into each function that calls it, never compiled on its own:
    a bot family's decision (``bots/<family>.py``, ``choose_*``), inlined into the one
    function that calls it, the decision's switch in ``bots.dispatch`` (so the switch and the
    families' decisions compile as one function, as when every family was a branch of it),
    and a helper inside a decision's loop where LLVM would not inline it (measured in
    docs/performance.md).  Everything else is :func:`hot`."""
    dispatcher = njit(_nrt=False, inline="always")(fn)
    _INLINED.add(id(dispatcher))
    return dispatcher


def _register(dispatcher):
    _KERNEL.append(dispatcher)
    return dispatcher


def signature(dispatcher) -> tuple:
    """The one signature of a kernel function, from its parameter names."""
    names = inspect.signature(dispatcher.py_func).parameters
    return tuple(ARG_TYPES.get(name, types.int64) for name in names)


def _callees(dispatcher, known: set) -> list:
    """The kernel functions ``dispatcher`` calls: by a global name, as an attribute of a module
    it imports (``heuristic.choose_build``), or through an :func:`inline` function it inlines."""
    glb = dispatcher.py_func.__globals__
    names = dispatcher.py_func.__code__.co_names
    found = [glb[n] for n in names if n in glb and glb[n] is not dispatcher]
    found += [getattr(m, n) for m in found if isinstance(m, ModuleType)
              for n in names if hasattr(m, n)]
    found += [c for f in found if id(f) in _INLINED for c in _callees(f, known)]
    callees = {id(f): f for f in found if id(f) in known and f is not dispatcher}
    return list(callees.values())


def compile_order() -> list:
    """Every kernel function, each after the kernel functions it calls."""
    known = {id(d) for d in _KERNEL}
    order, seen = [], set()

    def visit(d):
        if id(d) in seen:
            return
        seen.add(id(d))
        for c in _callees(d, known):
            visit(c)
        order.append(d)

    for d in _KERNEL:
        visit(d)
    return order


def compile_kernel(progress: Callable[[int, int, str, bool], None] | None = None) -> list:
    """Compile (or load from numba's cache) every kernel function once, callees first.

    ``progress(done, total, name, compiled)`` is called after each function (``compiled``
    False when it came from the cache).  Returns ``(name, seconds, compiled)`` per
    function.  Importing the kernel modules first registers them: call this after
    ``import citadels_sim.kernel.run``.  Later calls return at once.
    """
    global _compiled
    if _compiled:
        return []
    order = compile_order()
    timings = []
    for i, d in enumerate(order):
        t0 = time.perf_counter()
        misses = sum(d.stats.cache_misses.values())
        d.compile(signature(d))
        d.disable_compile()
        compiled = sum(d.stats.cache_misses.values()) > misses
        name = f"{d.py_func.__module__.rsplit('.', 1)[-1]}.{d.py_func.__name__}"
        timings.append((name, time.perf_counter() - t0, compiled))
        if progress is not None:
            progress(i + 1, len(order), name, compiled)
    _compiled = True
    return timings


def kernel_functions() -> list:
    """Every registered kernel dispatcher (for tests and diagnostics)."""
    return list(_KERNEL)
