"""The numba game kernel (see :mod:`citadels_sim.kernel.layout` for the state layout).

Rule citations in the kernel's docstrings (a section such as §2.3, a decision such as D12 or
K3) refer to docs/rules.md, the rules as implemented.

Numba's on-disk cache does not notice edits to functions in other modules, so the cache
lives in a directory keyed by a hash of every kernel source file (bots included): any edit to the kernel
starts a fresh cache instead of reusing stale machine code.  ``NUMBA_CACHE_DIR`` set by the
user is respected.
"""

import hashlib
import os
from pathlib import Path

import numba


def source_digest(kernel: Path) -> str:
    """A hash of every kernel source file under ``kernel`` (its bots included), their paths
    and contents."""
    digest = hashlib.sha256()
    for path in sorted(kernel.rglob("*.py")):
        digest.update(path.relative_to(kernel).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_dir() -> str:
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "citadels_sim", "numba", SOURCE_DIGEST)


#: the hash of the kernel's sources (names its cache directory and its compile's marker)
SOURCE_DIGEST = source_digest(Path(__file__).parent)

if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()
