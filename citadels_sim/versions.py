"""The package's version and the kernel's: recorded with every result, checked on resume."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("citadels-sim")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0"

#: bumped whenever the kernel's behaviour changes; recorded with every result
KERNEL_VERSION = 9
#: bumped whenever the columns of a run's tables change (a run is resumed only by the same)
RESULTS_VERSION = 2
