"""The bot families: one module each in this folder, a family's id being its place in
:data:`FAMILIES`.

The rules never call a family: they call the decisions of :mod:`.dispatch` (``choose_*``),
each of which switches on the seat's family (``p[s, P_FAMILY]``) to that family's code.  A
family module writes the decisions where it differs and names in ``BASE`` the family it takes
the others from (only ``heuristic`` writes them all); its parameters are ``Tables.params``
columns (layout ``PR_*``).  Shared pieces (the best option with random ties, the seat's own
random draws, the leader ...) are in :mod:`.common`.

Adding a family (docs/strategies.md, "Adding a family"):

1. write ``bots/NAME.py`` with ``BASE = "heuristic"`` (or another family) and the
   ``choose_*`` decisions it changes, with the same parameters as the heuristic's;
2. add ``"NAME"`` at the end of :data:`FAMILIES`;
3. run ``python -m citadels_sim.kernel.bots.generate``, which rewrites :mod:`.dispatch`
   (a test fails while it is out of date), and give the family a preset in
   ``game/data/strategies.toml`` and the parameters it reads in ``game/strategies.py``.
"""

#: the families, in id order (a strategy's ``family``; layout ``P_FAMILY``)
FAMILIES = ("random", "builder", "aggressive", "heuristic", "reference")
