"""One strategy against a league: its win share over the seats, on deals shared by everyone
evaluated on them.

A :class:`Table` seats the candidate in one seat and league members in the others and
plays a number of games from a seed.  :func:`schedule` lays out the tables of an
evaluation: blocks of opponents drawn from the league, each block played with the candidate
in every seat (so the crown's seat favours no one).  Every strategy evaluated on the same
tables plays the same deals — deck, draft and seat streams — against the same opponents
(common random numbers), so differences between candidates are not drowned in the luck of
the deal.  A first place shared by k players counts 1/k, so the fair share is exactly
1/N.

With ``copies``, it is the other way round: the candidate fills every seat but one, where a
single league member sits (each member in turn, in every seat), and the candidate's share
is that of its copies together (fair: (N-1)/N) -- what it keeps from a lone deviator.  A
strategy tuned so is one that is hard to exploit by the league's members (the league then
holds strategies tuned to exploit it: ``citadels tune --copies``).

Evaluations go through :mod:`citadels_sim.engine.executor` like every other game: an
:class:`Evaluation` (one candidate on a list of tables) is a self-contained picklable task,
so :func:`evaluate` plays a search's candidates on this machine one after another (the
default) or side by side on a cluster's workers, with the same shares either way.

A table smaller than :data:`PARALLEL_MIN_GAMES` plays on one thread: the kernel's parallel
loop waits for its slowest thread at the end of every call, and on a search's tables (a
few hundred games each) that wait cost more than the second thread gained — measured on
this project's shared 2-core machine, 16,000-17,000 games/s on two threads against
27,000-43,000 on one.  Here, such tables use every core all the same: the candidates of
an evaluation play side by side, one thread each.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass

import numba
import numpy as np
from tqdm.auto import tqdm

from citadels_sim.engine.executor import LOCAL, ChunkExecutor
from citadels_sim.engine.seeding import derive_seed
from citadels_sim.engine.simulate import (build_tables, kernel_slot, numba_threads, play_chunk,
                                          threads_for)
from citadels_sim.engine.warmup import ensure_kernel
from citadels_sim.game.config import GameConfig
from citadels_sim.game.strategies import Strategy
from citadels_sim.kernel import layout as L
from citadels_sim.stats.intervals import design_effect, wilson_deff
from citadels_sim.versions import KERNEL_VERSION, __version__


@dataclass(frozen=True)
class Table:
    """``games`` games from ``seed`` with the candidate in ``seat`` and ``opponents`` in
    the other seats (in seat order); with ``copies``, the one opponent in ``seat`` and the
    candidate in every other seat."""

    seat: int
    opponents: tuple[Strategy, ...]
    seed: int
    games: int
    copies: bool = False

    def lineup(self, candidate: Strategy, players: int) -> list[Strategy]:
        if self.copies:
            seats = [candidate] * (players - 1)
            seats.insert(self.seat, self.opponents[0])
            return seats
        seats = list(self.opponents)
        seats.insert(self.seat, candidate)
        return seats


def schedule(league: Sequence[Strategy], players: int, games: int, seed: int,
             *stream: object, copies: bool = False) -> list[Table]:
    """The tables of one evaluation of about ``games`` games (rounded up to fill every
    table alike): one block of opponents per league member (one block when the league has
    one member), each opponent seat drawn uniformly from the league, and the candidate in
    every seat of each block; with ``copies``, block ``b`` seats league member ``b`` alone
    in every seat in turn.  Seeds and draws derive from ``seed`` and ``stream`` (e.g.
    ``("train", generation)``), so distinct streams never share a deal."""
    blocks = len(league)
    draw = np.random.default_rng(derive_seed(seed, *stream, "league"))
    per = table_games(blocks, players, games)
    tables = []
    for b in range(blocks):
        opponents = ((league[b],) if copies else
                     tuple(league[i] for i in draw.integers(len(league), size=players - 1)))
        tables += [Table(seat, opponents, derive_seed(seed, *stream, b, seat), per, copies)
                   for seat in range(players)]
    return tables


def table_games(members: int, players: int, games: int) -> int:
    """The games of each table of an evaluation of about ``games`` games against a league of
    ``members``: one table per member and seat, every table alike (at least one game)."""
    return max(1, math.ceil(games / (members * players)))


#: tables with fewer games than this play on one thread (see the module docstring)
PARALLEL_MIN_GAMES = 2_000


def win_shares(candidate: Strategy, tables: Sequence[Table], config: GameConfig,
               workers: int | None = None) -> np.ndarray:
    """The candidate's win share in every game of ``tables`` (1, 0, or 1/k for a first
    place shared by k; with ``copies``, its copies' together), table after table;
    ``workers`` threads (default: all cores) for tables of at least
    :data:`PARALLEL_MIN_GAMES` games, one for smaller ones."""
    out = []
    with numba_threads(1):
        for t in tables:
            with nullcontext() if t.games < PARALLEL_MIN_GAMES else numba_threads(workers):
                out.append(_table_shares(candidate, t, config))
    return np.concatenate(out)


def _table_shares(candidate: Strategy, table: Table, config: GameConfig) -> np.ndarray:
    """:func:`win_shares` of one table, on the calling thread's numba threads."""
    raw = play_chunk(build_tables(config, table.lineup(candidate, config.players)),
                     table.seed, 0, table.games, config.players, False, config.max_rounds)
    first = raw["seat"][:, :, L.O_PLACE] == 1
    share = first[:, table.seat] / first.sum(axis=1)
    return 1 - share if table.copies else share


@dataclass(frozen=True)
class Evaluation:
    """One candidate on ``tables`` as a self-contained, picklable task (``index``: its
    place among the evaluation's candidates; ``workers``: as :func:`win_shares`)."""

    index: int
    candidate: Strategy
    tables: tuple[Table, ...]
    config: GameConfig
    workers: int | None = None
    versions: tuple[str, int] = (__version__, KERNEL_VERSION)


def play_evaluation(task: Evaluation) -> np.ndarray:
    """The candidate's win shares on the task's tables, played in this process (the
    function an executor's workers run)."""
    with kernel_slot(task.versions, task.workers):
        return win_shares(task.candidate, task.tables, task.config, task.workers)


def evaluate(candidates: Sequence[Strategy], tables: Sequence[Table], config: GameConfig,
             executor: ChunkExecutor = LOCAL, workers: int | None = None,
             bar: tqdm | None = None) -> list[np.ndarray]:
    """Every candidate's win shares on the same ``tables`` (:func:`win_shares`), one task
    per candidate on ``executor`` (default: here, one after another, on ``workers``
    threads); in the candidates' order, whatever order the tasks finish in.  ``bar``, a
    progress bar, moves on by one as each candidate's task finishes."""
    threads = threads_for(workers, executor)
    if (executor.sequential and threads > 1 and len(candidates) > 1
            and all(t.games < PARALLEL_MIN_GAMES for t in tables)):
        return _side_by_side(candidates, tables, config, threads, bar)
    tasks = [Evaluation(i, c, tuple(tables), config, threads)
             for i, c in enumerate(candidates)]
    shares: list[np.ndarray] = [np.empty(0)] * len(tasks)
    for task, result in executor.imap(play_evaluation, tasks):
        shares[task.index] = result
        if bar is not None:
            bar.update()
    return shares


def _side_by_side(candidates: Sequence[Strategy], tables: Sequence[Table], config: GameConfig,
                  threads: int, bar: tqdm | None) -> list[np.ndarray]:
    """:func:`evaluate` of small tables here: table by table on one thread each, ``threads``
    at once (the kernel releases the GIL), in the candidates' order.  Table by table, not
    candidate by candidate: a search's 15 candidates on 2 threads left one thread idle
    for the last candidate's whole evaluation."""
    ensure_kernel(show=False)
    with ThreadPoolExecutor(threads, initializer=numba.set_num_threads, initargs=(1,)) as pool:
        futures = [[pool.submit(_table_shares, c, t, config) for t in tables]
                   for c in candidates]
        shares = []
        for mine in futures:
            shares.append(np.concatenate([f.result() for f in mine]))
            if bar is not None:
                bar.update()
    return shares


def share_interval(shares: np.ndarray) -> dict[str, float]:
    """Mean win share, its 95% interval — Wilson's at the effective sample size (the
    game is the unit: its share's variance over the binomial one gives the design
    effect) — and the number of games."""
    shares = np.asarray(shares, float)
    n, wins = shares.size, float(shares.sum())
    variance = shares.var(ddof=1) / n if n > 1 else np.nan
    deff = design_effect(np.array([wins]), np.array([n]), np.array([variance]))
    lo, hi = wilson_deff(np.array([wins]), np.array([n]), deff)
    return {"games": n, "share": wins / n, "low": float(lo[0]), "high": float(hi[0])}
