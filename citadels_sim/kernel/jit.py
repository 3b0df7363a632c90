"""The kernel's JIT decorators.

``hot`` compiles a function with numba's reference counting switched off (``_nrt=False``):
such functions may not allocate arrays, and in exchange every array access through the
``State``/``Tables`` tuples is free of the atomic reference-count updates that otherwise
cost more than the game logic itself.  Only the entry points (``state.new_state``,
``run.*``) allocate, and they use ``alloc``.  Both cache their machine code.
"""

from numba import njit

hot = njit(cache=True, _nrt=False)
hot_inline = njit(cache=True, inline="always", _nrt=False)
alloc = njit(cache=True)
