"""Entry points into the kernel: many games in parallel, or one game with its event log.

Game ``first + j`` of a run is seeded from ``(seed, first + j)`` alone, so any chunking and
any number of threads give the same games.  Each ``prange`` iteration writes only its own
output rows.
"""

import numpy as np
from numba import njit, prange

from .jit import alloc

from .game import play_game
from .layout import (C_LEN, D_HAUNTED, G_CAP_HIT, G_CROWN, G_FIRST, G_HOLDER, G_LOG_N, G_NP,
                     G_ROUND, MAX_RANKS, OG_CAP_HIT, OG_CROWN, OG_FIRST, OG_GAME_LEN, OG_HOLDER,
                     OG_ROUNDS, O_COLOURS, O_COMPLETE, O_DISTRICTS, O_EXTRAS, O_FIRST, O_GOLD,
                     O_HAND, O_PLACE, O_SCORE, O_SEAT_LEN, O_UNIQUE_HI, O_UNIQUE_LO, O_VALUE,
                     P_CITY_N, P_COLOURS, P_COMPLETE, P_EXTRAS, P_GOLD, P_HAND_N, P_PLACE,
                     P_SCORE, P_VALUE, UNIQUE_LO_BITS)
from .state import new_state


@alloc
def _write(st, seat_out, game_out):
    g = st.g
    for s in range(g[G_NP]):
        seat_out[s, O_SCORE] = st.p[s, P_SCORE]
        seat_out[s, O_PLACE] = st.p[s, P_PLACE]
        seat_out[s, O_DISTRICTS] = st.p[s, P_CITY_N]
        seat_out[s, O_GOLD] = st.p[s, P_GOLD]
        seat_out[s, O_VALUE] = st.p[s, P_VALUE]
        seat_out[s, O_HAND] = st.p[s, P_HAND_N]
        seat_out[s, O_FIRST] = 1 if g[G_FIRST] == s else 0
        seat_out[s, O_COLOURS] = st.p[s, P_COLOURS]
        seat_out[s, O_COMPLETE] = st.p[s, P_COMPLETE]
        seat_out[s, O_EXTRAS] = st.p[s, P_EXTRAS]
        lo, hi = 0, 0
        for i in range(st.p[s, P_CITY_N]):
            bit = st.city[s, i] - D_HAUNTED
            if bit >= UNIQUE_LO_BITS:
                hi |= 1 << (bit - UNIQUE_LO_BITS)
            elif bit >= 0:
                lo |= 1 << bit
        seat_out[s, O_UNIQUE_LO] = lo
        seat_out[s, O_UNIQUE_HI] = hi
    game_out[OG_ROUNDS] = g[G_ROUND]
    game_out[OG_CAP_HIT] = g[G_CAP_HIT]
    game_out[OG_FIRST] = g[G_FIRST]
    game_out[OG_CROWN] = g[G_CROWN]
    for r in range(MAX_RANKS):
        game_out[OG_HOLDER + r] = st.g[G_HOLDER + r]


@njit(cache=True, parallel=True)
def run_games(tb, seed, first, seat_out, game_out, held_out, records_out, picks_out):
    """Play games ``first .. first + len(game_out) - 1`` into the preallocated outputs.

    ``picks_out`` has one row per game, or a single row with no rounds when the per-round
    detail is not wanted.
    """
    for j in prange(game_out.shape[0]):
        st = new_state(tb, seed, first + j, False)
        play_game(st, tb, held_out[j], records_out[j], picks_out[j % picks_out.shape[0]])
        _write(st, seat_out[j], game_out[j])


@alloc
def play_state(tb, seed, game, log_on):
    """Play one game (with its event log if ``log_on``) and return its final State."""
    st = new_state(tb, seed, game, log_on)
    held = np.zeros((st.p.shape[0], MAX_RANKS), np.int16)
    records = np.zeros((st.p.shape[0], MAX_RANKS, C_LEN), np.int32)
    play_game(st, tb, held, records, np.zeros((0, MAX_RANKS, 2), np.int8))
    return st


@alloc
def run_logged(tb, seed, game):
    """Play one game with its event log; returns (log rows, seat outputs, game outputs)."""
    st = play_state(tb, seed, game, True)
    seat_out = np.zeros((st.p.shape[0], O_SEAT_LEN), np.int32)
    game_out = np.zeros(OG_GAME_LEN, np.int32)
    _write(st, seat_out, game_out)
    return st.log[:st.g[G_LOG_N]].copy(), seat_out, game_out
