"""Entry points into the kernel: many games on several threads, or one game with its event log.

Game ``first + j`` of a run is seeded from ``(seed, first + j)`` alone, so any chunking and
any number of threads give the same games.  A chunk is shared among Python threads, each
taking blocks of its games in turn, playing them in its own ``State`` record and writing only
their output rows; :func:`play_games` releases the GIL, so the threads run on every core.
Plain threads rather than numba's ``parallel=True``: the parallel pipeline compiled (and
optimised) the whole kernel a second time, a quarter of the cold start.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from .game import play_game
from .jit import compile_kernel, hot, inline
from .layout import (C_LEN, D_HAUNTED, G_CAP_HIT, G_CROWN, G_FIRST, G_FIRST_CROWN, G_HOLDER,
                     G_LOG_N, G_NP, G_ROUND, MAX_RANKS, MAX_SEATS, OG_CAP_HIT, OG_CROWN, OG_FIRST,
                     OG_FIRST_CROWN, OG_GAME_LEN, OG_HOLDER, OG_ROUNDS, O_BEHIND, O_COLOURS,
                     O_COMPLETE, O_DISTRICTS, O_EXTRAS, O_FIRST, O_GOLD, O_HAND, O_LED, O_PLACE,
                     O_SCORE, O_SEAT_LEN, O_UNIQUE_HI, O_UNIQUE_LO, O_VALUE, P_BEHIND, P_CITY_N,
                     P_COLOURS, P_COMPLETE, P_EXTRAS, P_GOLD, P_HAND_N, P_LED, P_PLACE, P_SCORE,
                     P_VALUE, STATE_DTYPE, UNIQUE_LO_BITS)
from .state import new_record, new_states, setup_game


@hot
def write_outputs(st, seat_out, game_out):
    """Copy a finished game's per-seat and per-game outputs (layout ``O_*``, ``OG_*``)."""
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
        seat_out[s, O_LED] = st.p[s, P_LED]
        seat_out[s, O_BEHIND] = st.p[s, P_BEHIND]
    game_out[OG_ROUNDS] = g[G_ROUND]
    game_out[OG_CAP_HIT] = g[G_CAP_HIT]
    game_out[OG_FIRST] = g[G_FIRST]
    game_out[OG_CROWN] = g[G_CROWN]
    game_out[OG_FIRST_CROWN] = g[G_FIRST_CROWN]
    for r in range(MAX_RANKS):
        game_out[OG_HOLDER + r] = g[G_HOLDER + r]


@inline
def play_one(st, tb, seed, game, log_on, seat_out, game_out, held, records, picks):
    """Set up game ``game`` in ``st``, play it and write its outputs (inlined into
    :func:`play_games`, its one caller: the whole kernel is compiled once less)."""
    setup_game(st, tb, seed, game, log_on)
    play_game(st, tb, held, records, picks)
    write_outputs(st, seat_out, game_out)


@hot
def play_games(tb, seed, first, start, stop, log_on, st, seats_out, games_out, held_out,
               records_out, picks_out):
    """Play games ``first + j`` for ``start <= j < stop`` in ``st`` (with their event logs if
    ``log_on``), into their rows of the preallocated outputs.

    ``picks_out`` has one row per game, or a single row with no rounds when the per-round
    detail is not wanted.
    """
    for j in range(start, stop):
        play_one(st, tb, seed, first + j, log_on, seats_out[j], games_out[j], held_out[j],
                 records_out[j], picks_out[j % picks_out.shape[0]])


#: games a thread takes from a chunk at a time, until none are left: the threads then end a
#: chunk together even when another thread of the process (building the last chunk's
#: results) takes part of a core from one of them (whole runs 3-5% faster than halves)
BLOCK = 512


def play_chunk_arrays(tb, seed: int, first: int, seats_out, games_out, held_out, records_out,
                      picks_out) -> None:
    """Python entry: :func:`play_games` on as many threads as numba's thread count for this
    thread (``numba.set_num_threads``; default ``NUMBA_NUM_THREADS``), each with a scratch
    ``State``, taking :data:`BLOCK` games at a time."""
    compile_kernel()
    n = games_out.shape[0]
    threads = max(1, min(numba.get_num_threads(), -(-n // BLOCK)))
    states = new_states(threads)
    blocks = iter(range(0, n, BLOCK))
    taking = threading.Lock()

    def play(t: int) -> None:
        while True:
            with taking:
                start = next(blocks, n)
            if start >= n:
                return
            play_games(tb, seed, first, start, min(start + BLOCK, n), False, states[t],
                       seats_out, games_out, held_out, records_out, picks_out)

    if threads == 1:
        play(0)
        return
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(play, range(threads)))


def _one_game(tb, seed: int, game: int, log_on: bool):
    """Play game ``game`` of a run (with its event log if ``log_on``): its final State and
    its per-seat and per-game outputs."""
    compile_kernel()
    st = new_record(STATE_DTYPE)
    seats_out = np.zeros((1, MAX_SEATS, O_SEAT_LEN), np.int32)
    games_out = np.zeros((1, OG_GAME_LEN), np.int32)
    play_games(tb, seed, game, 0, 1, log_on, st, seats_out, games_out,
               np.zeros((1, MAX_SEATS, MAX_RANKS), np.int16),
               np.zeros((1, MAX_SEATS, MAX_RANKS, C_LEN), np.int32),
               np.zeros((1, 0, MAX_RANKS, 2), np.int8))
    return st, seats_out[0], games_out[0]


def play_state(tb, seed: int, game: int, log_on: bool):
    """Play one game (with its event log if ``log_on``) and return its final State."""
    return _one_game(tb, seed, game, log_on)[0]


def run_logged(tb, seed: int, game: int):
    """Play one game with its event log; returns (log rows, seat outputs, game outputs)."""
    st, seat_out, game_out = _one_game(tb, seed, game, True)
    return st.log[:st.g[G_LOG_N]].copy(), seat_out, game_out
