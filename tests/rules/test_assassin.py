"""The Assassin (docs/rules.md §3 Rank 1; checklist rules 44-45): any other character may be
named, one not in play to no effect; four_color's ranks 2-8.  A killed King's heir is in
``test_king.py``.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
from kernel_helpers import (
    A, B, K, ME, all_base_games, base_games, empty_state as setup, play_turn_events as play,
)
from citadels_sim.kernel import game, layout as L


def test_rule_044_assassin_names_any_other_character():
    """44. The Assassin may name any other character; naming one not in play has no
    effect."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {A: 0, ME: 1, K: 2})
    st.g[L.G_CROWN] = 3
    h.only_target(st, B, A)  # the Bishop is not in play
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == B
    g1 = h.gold(st, 1)
    evs = play(st, tb, ME, 1)
    assert evs[0].type == "call" and h.gold(st, 1) > g1
    play(st, tb, K, 2)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 2
    # random Assassins name every other rank, never their own
    targets = Counter()
    for ruleset, players, evs, st, tb in all_base_games():
        targets.update(e.a for e in evs if e.type == "kill")
    assert set(targets) == set(range(1, 8))


def test_rule_045_four_color_assassin_targets_rank_2_to_8():
    """45. F: the Assassin's target must be rank 2-8."""
    targets = Counter()
    for players in range(2, 8):
        for evs, st, tb in base_games("four_color", players):
            targets.update(e.a for e in evs if e.type == "kill")
    assert set(targets) == set(range(1, 8))
    st, tb = setup("four_color", 4, "random")
    h.set_holders(st, {A: 0})
    for seed in range(200):
        h.reseed(st, seed)
        play(st, tb, A, 0)
        assert 1 <= st.g[L.G_KILLED] <= 7
