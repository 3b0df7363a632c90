"""Counter-based random streams: one SplitMix64 stream per (seed, game, stream id).

A game's streams depend only on the master seed and the game's index, never on the
worker or chunk that plays it, so results are identical for any parallel layout.  Keeping
separate streams for the deck, the draft and each seat's decisions means that changing
one seat's strategy leaves the deal unchanged (common random numbers for comparisons).
All arithmetic stays in uint64.
"""

import numpy as np
from .jit import hot

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GAME_SALT = np.uint64(0xD1B54A32D192ED03)
_STREAM_SALT = np.uint64(0x8CB92BA72F3D8DD7)


@hot
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@hot
def seed_streams(st, seed, game):
    """Fill ``st.rng`` with the starting states of game ``game``'s streams."""
    rng = st.rng
    base = _mix(np.uint64(seed) + _GAMMA)
    base = _mix(base ^ (np.uint64(game) * _GAME_SALT + _GAMMA))
    for k in range(rng.shape[0]):
        rng[k] = _mix(base + np.uint64(k + 1) * _STREAM_SALT)


@hot
def next_u64(st, k):
    """Next 64 random bits of stream ``k``."""
    rng = st.rng
    rng[k] += _GAMMA
    return _mix(rng[k])


@hot
def below(st, k, n):
    """A uniform integer in ``[0, n)`` from stream ``k`` (n < 2**32; bias < 2**-32 * n)."""
    return np.int64(((next_u64(st, k) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
