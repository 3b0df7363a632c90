"""A hardening's population as a game of its own: every bot it made against every exploiter
it found, and the mixture of bots that concedes least to the strongest of them.

With 2 and 3 players hardening does not settle: each round's bot beats the exploiters it was
tuned against and loses to a new one, as in rock-paper-scissors (on a random four_color set
at 2 players, six rounds: every round's bot lost 77-99% of the games to some exploiter).  A
seat that plays one of those bots, drawn at random each game, is another matter: an
exploiter must then beat all of them at once (the same population's best mixture kept 52%
against every exploiter found).  That is the double-oracle answer (McMahan et al. 2003;
PSRO, Lanctot et al. 2017): the payoff matrix ``M[i, j]`` is bot ``i``'s copies' win share
against exploiter ``j`` alone, on held-out deals that every bot plays (common random
numbers); the mixture's chances maximise its least expected share over the exploiters (the
maximin of a zero-sum matrix game, a linear programme solved by :func:`scipy.optimize.linprog`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from citadels_sim.engine.executor import LOCAL, ChunkExecutor
from citadels_sim.game.config import GameConfig
from citadels_sim.game.strategies import Strategy, mix
from citadels_sim.kernel.layout import MAX_MIX
from . import league as lg

#: a component with a smaller chance is left out of the mixture (the rest scaled up)
MIN_CHANCE = 0.02


@dataclass(frozen=True)
class Population:
    """Bots, exploiters, the payoff matrix (bots x exploiters: the bot's copies' win share
    against the exploiter alone) and the best mixture's chances over the bots."""

    bots: tuple[Strategy, ...]
    exploiters: tuple[Strategy, ...]
    matrix: np.ndarray
    chances: np.ndarray

    @property
    def worst(self) -> float:
        """The mixture's least expected share over the exploiters."""
        return float((self.chances @ self.matrix).min())

    def strategy(self, name: str, description: str = "") -> Strategy:
        """The mixture as one strategy: the bots with a chance of at least MIN_CHANCE (the
        MAX_MIX likeliest at most), or the one bot when only one is left."""
        order = [i for i in np.argsort(-self.chances) if self.chances[i] >= MIN_CHANCE]
        kept = order[:MAX_MIX] or [int(np.argmax(self.chances))]
        if len(kept) == 1:
            return self.bots[kept[0]]
        return mix(name, [self.bots[i] for i in kept], [self.chances[i] for i in kept],
                   description)


def payoffs(bots: Sequence[Strategy], exploiters: Sequence[Strategy], config: GameConfig,
            games: int, seed: int, executor: ChunkExecutor = LOCAL,
            workers: int | None = None) -> np.ndarray:
    """``M[i, j]``: bot ``i``'s copies' win share against exploiter ``j`` alone in every seat
    in turn, over about ``games`` deals per exploiter shared by every bot."""
    out = np.zeros((len(bots), len(exploiters)))
    for j, x in enumerate(exploiters):
        tables = lg.schedule([x], config.players, games, seed, "population", j, copies=True)
        for i, shares in enumerate(lg.evaluate(bots, tables, config, executor, workers)):
            out[i, j] = shares.mean()
    return out


def equilibrium(matrix: np.ndarray) -> np.ndarray:
    """The chances over the rows that maximise the least expected payoff over the columns
    (the row player's maximin strategy of the zero-sum game ``matrix``)."""
    from scipy.optimize import linprog  # here: scipy's optimiser takes a quarter second to import
    rows, cols = matrix.shape
    # variables: the chances p (rows) and the guaranteed value v; maximise v subject to
    # p @ matrix[:, j] >= v for every column, sum(p) = 1, p >= 0
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    bound = np.hstack([-matrix.T, np.ones((cols, 1))])
    found = linprog(cost, A_ub=bound, b_ub=np.zeros(cols),
                    A_eq=np.append(np.ones(rows), 0.0)[None, :], b_eq=[1.0],
                    bounds=[(0.0, 1.0)] * rows + [(None, None)], method="highs")
    if not found.success:  # cannot happen for a finite matrix; kept as a clear failure
        raise RuntimeError(f"the population's equilibrium was not found: {found.message}")
    chances = np.clip(found.x[:rows], 0.0, None)
    return chances / chances.sum()


def solve(bots: Sequence[Strategy], exploiters: Sequence[Strategy], config: GameConfig,
          games: int, seed: int, executor: ChunkExecutor = LOCAL,
          workers: int | None = None) -> Population:
    """The population's payoff matrix and its best mixture."""
    matrix = payoffs(bots, exploiters, config, games, seed, executor, workers)
    return Population(tuple(bots), tuple(exploiters), matrix, equilibrium(matrix))
