"""The kernel's output arrays for a chunk, kept from one chunk to the next while a run plays.

A fresh array costs more than blanking a used one: the operating system maps and zeroes its
pages as the kernel first writes them (measured on the 2-core machine: about 2 s of system
time per million 4-player games, 8-10 % of the kernel's games per second).  Inside
:func:`kept`, arrays handed back with :func:`give` wait (at most :data:`KEEP` sets) for the
next chunk of the same shape; outside, and once the last ``kept`` block ends, they are
dropped, so an idle process holds none.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from citadels_sim.kernel import layout as L

#: sets of arrays kept at most: the chunks in flight on the default executor
#: (:attr:`.executor.Local.AHEAD`)
KEEP = 2

_lock = threading.Lock()
_free: list[dict[str, np.ndarray]] = []
_scopes = 0


def _shapes(n: int, picks: bool, rounds: int, players: int) -> dict[str, tuple[int, ...]]:
    """The output arrays' shapes for ``n`` games of ``players`` seats (``picks``: ``rounds``
    rounds a game; else a single row with no rounds)."""
    return {"seat": (n, players, L.O_SEAT_LEN), "game": (n, L.OG_GAME_LEN),
            "held": (n, players, L.MAX_RANKS), "records": (n, players, L.MAX_RANKS, L.C_LEN),
            "picks": (n, rounds, L.MAX_RANKS, 2) if picks else (1, 0, L.MAX_RANKS, 2)}


#: each output array's type and blank value (picks: -1, no holder)
_KINDS = {"seat": (np.int32, 0), "game": (np.int32, 0), "held": (np.int16, 0),
          "records": (np.int32, 0), "picks": (np.int8, -1)}


def raw_arrays(n: int, picks: bool, rounds: int, players: int) -> dict[str, np.ndarray]:
    """New blank output arrays for ``n`` games of ``players`` seats (the kernel writes the
    seats of the game only; ``picks``: ``rounds`` rounds a game)."""
    return {k: (np.full(shape, blank, kind) if blank else np.zeros(shape, kind))
            for k, shape in _shapes(n, picks, rounds, players).items()
            for kind, blank in [_KINDS[k]]}


def take(n: int, picks: bool, rounds: int, players: int) -> dict[str, np.ndarray]:
    """Blank output arrays, as :func:`raw_arrays` makes them: kept ones of that shape,
    blanked, if there are any, else new ones."""
    shapes = _shapes(n, picks, rounds, players)
    with _lock:
        found = next((i for i, arrays in enumerate(_free)
                      if all(arrays[k].shape == shape for k, shape in shapes.items())), None)
        arrays = _free.pop(found) if found is not None else None
    if arrays is None:
        return raw_arrays(n, picks, rounds, players)
    for key, array in arrays.items():
        array.fill(_KINDS[key][1])
    return arrays


def give(arrays: dict[str, np.ndarray]) -> None:
    """Hand back arrays from :func:`take` once nothing refers to them: kept for the next
    chunk inside :func:`kept`, else dropped."""
    with _lock:
        if _scopes and len(_free) < KEEP:
            _free.append(arrays)


@contextmanager
def kept() -> Iterator[None]:
    """Keep the arrays handed back inside the block (blocks may nest and overlap across
    threads); the last block to end drops them."""
    global _scopes
    with _lock:
        _scopes += 1
    try:
        yield
    finally:
        with _lock:
            _scopes -= 1
            if not _scopes:
                _free.clear()
