"""citadels_sim: a numba-compiled Monte Carlo simulator and analytics toolkit for Citadels.

Main entry points: :func:`simulate` (many games -> :class:`Results`), :func:`replay` (one
game's events), :func:`tune` (a strategy family's parameters by CMA-ES) and
:class:`GameConfig` (a validated game description).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("citadels-sim")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0"

#: bumped whenever the kernel's behaviour changes; recorded with every result
KERNEL_VERSION = 5

from .config import ConfigError, GameConfig  # noqa: E402
from .replay import replay  # noqa: E402
from .results import Results  # noqa: E402
from .simulate import simulate  # noqa: E402
from .strategies import Strategy  # noqa: E402
from .tune import tune  # noqa: E402
from .harden import harden  # noqa: E402

__all__ = ["ConfigError", "GameConfig", "Results", "Strategy", "harden", "replay", "simulate",
           "tune", "__version__", "KERNEL_VERSION"]
