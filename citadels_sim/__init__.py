"""citadels_sim: a numba-compiled Monte Carlo simulator and analytics toolkit for Citadels.

Main entry points: :func:`simulate` (many games -> :class:`Results`), :func:`replay` (one
game's events), :func:`tune` (a strategy family's parameters by CMA-ES), :func:`harden`
(tune until hard to exploit), :func:`exploit` (how much a tuned exploiter gains against a
bot), :func:`prepare` (the bot hardened for one game, kept and reused) and
:class:`GameConfig` (a validated game description).

The package is layered, each layer importing only from those below it: ``kernel`` (the
numba game kernel) and ``stats`` (intervals and tests), ``game`` (configuration, cards,
strategies), ``engine`` (playing chunks of games, here or on a cluster, and their results),
``studies`` (experiments, comparisons, balance, tuning), ``reporting`` and ``cli``.
"""

from citadels_sim.engine.replay import replay
from citadels_sim.engine.results import Results
from citadels_sim.engine.simulate import simulate
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import Strategy
from citadels_sim.studies.exploit import exploit
from citadels_sim.studies.harden import harden
from citadels_sim.studies.prepare import prepare
from citadels_sim.studies.tune import tune
from citadels_sim.versions import KERNEL_VERSION, __version__

__all__ = ["ConfigError", "GameConfig", "Results", "Strategy", "Sweep", "exploit", "harden",
           "prepare", "replay", "simulate", "sweep", "tune", "__version__", "KERNEL_VERSION"]


def __getattr__(name: str):
    """``Sweep`` and ``sweep`` (:mod:`citadels_sim.studies.sweep`), imported on first use:
    the balance machinery behind them would double the package's import time."""
    if name in ("Sweep", "sweep"):
        from citadels_sim.studies import sweep as module
        return module.Sweep if name == "Sweep" else module.run
    raise AttributeError(f"module 'citadels_sim' has no attribute {name!r}")
