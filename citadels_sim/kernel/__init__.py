"""The numba game kernel (see :mod:`citadels_sim.kernel.layout` for the state layout).

Rule citations in the kernel's docstrings (a section such as §2.3, a decision such as D12 or
K3) refer to docs/rules.md, the rules as implemented.

Numba's on-disk cache does not notice edits to functions in other modules, so the cache
lives in a directory keyed by a hash of every kernel source file: any edit to the kernel
starts a fresh cache instead of reusing stale machine code.  ``NUMBA_CACHE_DIR`` set by the
user is respected.
"""

import hashlib
import os
from pathlib import Path

import numba


def _cache_dir() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "citadels_sim", "numba", digest.hexdigest()[:16])


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()
