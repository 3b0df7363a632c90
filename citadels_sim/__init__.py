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
from citadels_sim.versions import KERNEL_VERSION, __version__

__all__ = ["ConfigError", "GameConfig", "Results", "Strategy", "Sweep", "exploit", "harden",
           "prepare", "replay", "simulate", "sweep", "tune", "__version__", "KERNEL_VERSION"]


#: the studies' entry points, imported on first use (the balance and tuning machinery behind
#: them, with scipy's optimiser, would double the package's import time):
#: name -> (module in citadels_sim.studies, attribute)
_LAZY = {"Sweep": ("sweep", "Sweep"), "sweep": ("sweep", "run"),
         "exploit": ("exploit", "exploit"), "harden": ("harden", "harden"),
         "prepare": ("prepare", "prepare"), "tune": ("tune", "tune")}


def __getattr__(name: str):
    """The studies' entry points (:data:`_LAZY`), imported on first use."""
    if name in _LAZY:
        import importlib
        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(f"citadels_sim.studies.{module}"), attribute)
    raise AttributeError(f"module 'citadels_sim' has no attribute {name!r}")
