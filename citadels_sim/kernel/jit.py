"""The kernel's JIT decorators and its one-time compile.

Every kernel function is decorated with :func:`hot` and compiled by :func:`compile_kernel`
with **one** signature, derived from its parameter names (:data:`ARG_TYPES`; any other
parameter is an int64).  Callers passing int16, int32 or bool values are converted at the
call, so no function is ever specialised twice: numba compiles one copy of each, the compile
stays short and the on-disk cache small.  ``compile_kernel`` compiles every function, callees
before callers, on a cold cache; a warm start loads only the entry point Python calls (its
machine code holds its callees').  What it loads may not be specialised again, so a stray
argument type is an error instead of a silent recompile.

``hot`` functions run with numba's reference counting switched off (``_nrt=False``): they
may not allocate arrays, and they take the game as a ``State`` record and the constant
tables as a ``Tables`` record (see :mod:`.layout`), each passed as one pointer.  Numba's
IR inlining (``inline="always"``) re-types the callee in every caller and made the compile
explode, so it is kept to functions with one caller (:func:`inline`): a family's decision is
inlined into the decision's switch instead of being compiled as a function of its own (cold
compile 82 s -> 68 s on the 2-core machine), the two helpers that sit inside the decisions'
loops are inlined there (LLVM did not, and the build decision lost 5% of a game's time), and
the wrappers around the whole game or turn (``run.play_one``, ``game.play_game``,
``turn.play_turn``, ``turn._play``) into their callers: numba links every callee into its
caller's module and LLVM optimises and emits the whole again, so each such wrapper cost
about 3 s of compile.
LLVM inlines other small callees by itself.  On a cold cache the functions compile on every
core (:mod:`.parallel_compile`).  Measured cold start and speed: docs/performance.md and
``citadels bench``.
"""

from __future__ import annotations

import gc
import inspect
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from collections.abc import Callable

import numba
from numba import njit, types

from . import parallel_compile
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
    "odds_r1": types.float64,  # the chance that the rank-1 character attacks (bots)
    "odds_r2": types.float64,  # the chance that the rank-2 character attacks (bots)
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


def hot(fn: Callable) -> Callable:
    """A kernel function: nopython, cached, no reference counting, one signature; called
    from Python it releases the GIL (so threads can play games side by side)."""
    return _register(njit(cache=True, _nrt=False, nogil=True, no_cfunc_wrapper=True)(fn))


#: the functions numba inlines into their callers (:func:`inline`), never compiled on their own
_INLINED: set = set()


def inline(fn: Callable) -> Callable:
    """A function numba inlines into each function that calls it, never compiled on its own:
    a bot family's decision (``bots/<family>.py``, ``choose_*``), inlined into the one
    function that calls it, the decision's switch in ``bots.dispatch`` (so the switch and the
    families' decisions compile as one function, as when every family was a branch of it),
    a helper inside a decision's loop where LLVM would not inline it, and a wrapper around
    the whole game or turn with one caller (measured in docs/performance.md).  Called from
    Python (tests), it compiles on first use.  Everything else is :func:`hot`."""
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


def callees(dispatcher, known) -> list:
    """The kernel functions ``dispatcher`` calls: by a global name, as an attribute of a module
    it imports (``heuristic.choose_build``), or through an :func:`inline` function it inlines."""
    glb = dispatcher.py_func.__globals__
    names = dispatcher.py_func.__code__.co_names
    found = [glb[n] for n in names if n in glb and glb[n] is not dispatcher]
    found += [getattr(m, n) for m in found if isinstance(m, ModuleType)
              for n in names if hasattr(m, n)]
    found += [c for f in found if id(f) in _INLINED for c in callees(f, known)]
    unique = {id(f): f for f in found if id(f) in known and f is not dispatcher}
    return list(unique.values())


def compile_order() -> list:
    """Every kernel function, each after the kernel functions it calls."""
    known = {id(d) for d in _KERNEL}
    order, seen = [], set()

    def visit(d):
        if id(d) in seen:
            return
        seen.add(id(d))
        for c in callees(d, known):
            visit(c)
        order.append(d)

    for d in _KERNEL:
        visit(d)
    return order


def _name(d) -> str:
    return f"{d.py_func.__module__.rsplit('.', 1)[-1]}.{d.py_func.__name__}"


def _cached_marker() -> Path:
    """The file that says this kernel's whole compile is in numba's cache directory."""
    from . import SOURCE_DIGEST
    return Path(numba.config.CACHE_DIR) / f"citadels-kernel-{SOURCE_DIGEST}.compiled"


def load(d, done: set) -> bool:
    """Compile kernel function ``d`` with its one signature (or load it from numba's cache),
    once (``done``: the ids of those already loaded), and forbid any other specialisation;
    returns whether it was compiled rather than loaded."""
    if id(d) in done:
        return False
    misses = sum(d.stats.cache_misses.values())
    d.compile(signature(d))
    d.disable_compile()
    done.add(id(d))
    return sum(d.stats.cache_misses.values()) > misses


def load_with_callees(d, known, done: set) -> None:
    """:func:`load` kernel function ``d`` after its callees (``known``: the ids of the
    kernel's functions), which a compile worker finds in numba's cache."""
    for c in callees(d, known) + [d]:
        load(c, done)


def entry_points() -> list:
    """The kernel functions no kernel function calls: those Python calls (``run.play_games``).
    Their cached machine code holds every callee's, so a warm start loads only them."""
    known = {id(d) for d in _KERNEL}
    called = {id(c) for d in _KERNEL for c in callees(d, known)}
    return [d for d in compile_order() if id(d) not in called]


#: the ids of the kernel functions loaded (or compiled) in this process
_loaded: set[int] = set()
#: the ``every`` arguments :func:`compile_kernel` has served in this process
_served: set[bool] = set()


@contextmanager
def _collector_set_aside(pause: bool):
    """The cyclic garbage collector paused while the kernel loads from the cache (``pause``;
    never while it compiles, whose garbage it frees), and afterwards, the first time, told to
    leave alone every object made so far (``gc.freeze``): the imports and the loaded kernel
    (numba's types, dispatchers and code libraries), kept for the process's life.
    Collecting them again and again, and last at the process's exit, took a third of a warm
    start (docs/performance.md).  The cost: an object made before the kernel first loads
    that later becomes garbage in a cycle is never freed."""
    collecting = gc.isenabled()
    if pause:
        gc.disable()
    try:
        yield
    finally:
        if not _served:
            gc.freeze()
        if collecting:
            gc.enable()


@contextmanager
def _compile_settings():
    """How the kernel is compiled, apart from numba's defaults, while it is compiled:

    - no loop vectorisation: the kernel's loops are short and branchy; LLVM's loop vectoriser
      took about a tenth of the compile and no measurable speed was lost without it
      (docs/performance.md);
    - numba's CPU target, set up on the first load, imports ``scipy.linalg`` (a quarter of a
      second of a warm start) only to learn whether a BLAS is there for the inner product of
      ``np.correlate`` and ``np.convolve`` (else a plain loop): the kernel calls neither, so
      that import is refused meanwhile unless scipy.linalg is loaded."""
    blas = "scipy.linalg.cython_blas"
    block = blas not in sys.modules
    if block:
        sys.modules[blas] = None  # type: ignore[assignment]
    vectorize = numba.config.LOOP_VECTORIZE
    numba.config.LOOP_VECTORIZE = 0
    try:
        yield
    finally:
        numba.config.LOOP_VECTORIZE = vectorize
        if block and sys.modules.get(blas, 0) is None:
            del sys.modules[blas]


def compile_kernel(progress: Callable[[int, int, str, bool], None] | None = None,
                   every: bool = False) -> list:
    """Compile (or load from numba's cache) the kernel, callees first.

    On a cold cache every function is compiled, on every core, here and in worker processes
    (:mod:`.parallel_compile`); a warm start loads only the :func:`entry_points`, or every
    function with ``every`` (tests call inner functions directly).  ``progress(done, total,
    name, compiled)`` is called after each function (``compiled`` False when it came from the
    cache).  Returns ``(name, seconds, compiled)`` per function loaded by this call, an empty
    list when they all were loaded already.  Importing the kernel modules first registers
    them: call this after ``import citadels_sim.kernel.run``.
    """
    if every in _served or True in _served:
        return []
    order = compile_order()
    marker = _cached_marker()
    cold = not marker.exists()
    workers = parallel_compile.worker_count()
    parallel = cold and workers > 1
    # a cold compile in this process alone compiles (and times) every function in order
    wanted = order if every or (cold and not parallel) else entry_points()
    timings = []
    with _collector_set_aside(pause=not cold), _compile_settings():
        if parallel:
            index = {id(d): i for i, d in enumerate(order)}
            graph = [[index[id(c)] for c in callees(d, index)] for d in order]

            def compile_here(i: int) -> None:
                load_with_callees(order[i], index, _loaded)

            def done_one(i: int, s: float) -> None:
                timings.append((_name(order[i]), s, True))
                if progress is not None:
                    progress(len(timings), len(order), _name(order[i]), True)

            parallel_compile.compile_in_workers(graph, workers, compile_here, done_one)
        for i, d in enumerate(wanted):
            if id(d) in _loaded:
                continue
            t0 = time.perf_counter()
            compiled = load(d, _loaded)
            if parallel:  # compiled and reported by a worker: only loaded here
                continue
            timings.append((_name(d), time.perf_counter() - t0, compiled))
            if progress is not None:
                progress(i + 1, len(wanted), _name(d), compiled)
    try:
        marker.touch()
    except OSError:  # a read-only cache: the next cold start compiles again
        pass
    _served.add(every)
    return timings


def serve_compiles() -> None:
    """A compile worker (:mod:`.parallel_compile`): compile the function of each number read
    on stdin (of the compile order; its callees load from the cache) and say so on stdout."""
    order = compile_order()
    known = {id(d) for d in order}
    done: set[int] = set()
    with _compile_settings():
        for line in sys.stdin:
            load_with_callees(order[int(line)], known, done)
            print("done", flush=True)


def kernel_functions() -> list:
    """Every registered kernel dispatcher (for tests and diagnostics)."""
    return list(_KERNEL)
