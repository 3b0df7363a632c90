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

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from citadels_sim.engine import store
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
            workers: int | None = None, kept: Path | None = None) -> np.ndarray:
    """``M[i, j]``: bot ``i``'s copies' win share against exploiter ``j`` alone in every seat
    in turn, over about ``games`` deals per exploiter shared by every bot.  An entry depends
    on its bot, its exploiter and ``j`` alone (each bot plays the column's deals by itself):
    with ``kept``, a JSON file of entries played before (by :meth:`.Strategy.digest`), only
    the missing ones are played, and each column is written back as it comes (a hardening's
    rounds add bots and exploiters to the same matrix; a rerun plays none again)."""
    known = json.loads(kept.read_text()) if kept is not None and kept.exists() else {}
    game = hashlib.sha256(json.dumps(config.to_dict(), sort_keys=True).encode()).hexdigest()
    out = np.zeros((len(bots), len(exploiters)))
    for j, x in enumerate(exploiters):
        keys = [f"{game[:8]}|{games}|{seed}|{j}|{x.digest()}|{bot.digest()}" for bot in bots]
        missing = [i for i, key in enumerate(keys) if key not in known]
        if missing:
            tables = lg.schedule([x], config.players, games, seed, "population", j,
                                 copies=True)
            played = lg.evaluate([bots[i] for i in missing], tables, config, executor, workers)
            known.update({keys[i]: float(shares.mean()) for i, shares in zip(missing, played)})
            if kept is not None:
                store.write_json(kept, known)
        out[:, j] = [known[key] for key in keys]
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
          workers: int | None = None, kept: Path | None = None) -> Population:
    """The population's payoff matrix (``kept``: see :func:`payoffs`) and its best
    mixture."""
    matrix = payoffs(bots, exploiters, config, games, seed, executor, workers, kept)
    return Population(tuple(bots), tuple(exploiters), matrix, equilibrium(matrix))
