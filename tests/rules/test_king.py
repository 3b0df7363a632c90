"""The King (docs/rules.md §3 Rank 4; checklist rules 46, 80-82): the crown taken (on reveal or in
his turn), a killed King's heir, noble income with a School of Magic, and a crown that stays
without a rank-4 character.
"""

from __future__ import annotations

import pytest

import kernel_helpers as h
from kernel_helpers import (
    A, B, K, T, W, all_base_games, draft_rounds, empty_state as setup, play_turn_events as play,
    types_in,
)
from citadels_sim.kernel import game, layout as L


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_046_killed_king_heir(ruleset):
    """46. A killed King or Patrician gives its holder the crown at the end of the round."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {A: 0, K: 2})
    st.g[L.G_CROWN] = 1
    h.only_target(st, K, A)
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == K and st.g[L.G_CROWN] == 1
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 2
    assert st.p[2, L.P_REVEALED] == 4  # revealed at the end of the round (2016 tie-break)
    heirs = 0
    for rs, players, evs, st, tb in all_base_games():
        if rs != ruleset:
            continue
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            held = dict((r, s) for s, r in picks)
            if K in held and K in [e.a for e in es if e.type == "kill"]:
                heirs += 1
                heir = [e for e in es if e.type == "heir"]
                assert len(heir) == 1 and heir[0].seat == held[K]
                end = [e for e in es if e.type == "round_end"][0]
                assert end.crown == held[K]
    assert heirs > 0


def test_rule_080_noble_income_with_school_of_magic():
    """80. Income counts noble districts, including a School of Magic counted as noble."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "School of Magic", "Temple", "Library"])
    h.set_hand(st, 0, ["Dragon Gate"])  # useful, unaffordable: gold, no build
    evs = play(st, tb, K, 0)
    assert h.of_type(evs, "income")[0].a == 3
    assert h.gold(st, 0) == 2 + 3
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Palace", "Temple"])
    evs = play(st, tb, K, 0)
    assert h.of_type(evs, "income")[0].a == 3


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_081_king_takes_the_crown(ruleset):
    """81. C, F: the King takes the crown on reveal; P: the King (or Patrician) must take it
    during his turn."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {K: 2})
    st.g[L.G_CROWN] = 0
    evs = play(st, tb, K, 2)
    assert st.g[L.G_CROWN] == 2
    names = types_in(evs)
    assert names.count("crown") == 1
    if ruleset != "2016":
        gi = min(i for i, n in enumerate(names) if n.startswith("gather"))
        assert names.index("crown") < gi
    for rs, players, evs, st, tb in all_base_games():
        if rs == ruleset:
            for t in h.turns(evs):
                if t[0].rank == K:
                    assert [e.seat for e in t if e.type == "crown"] == [t[0].seat]


def test_rule_082_crown_stays_without_rank_4():
    """82. If no rank-4 character is revealed or killed, the crown does not move."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {A: 0, T: 1, B: 2, W: 3})
    st.g[L.G_CROWN] = 1
    for r, s in ((A, 0), (T, 1), (B, 2), (W, 3)):
        play(st, tb, r, s)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 1
    # in played games the crown moves only with a crown or heir event
    for rs, players, evs, st, tb in all_base_games():
        for prev, e in zip(evs, evs[1:]):
            if e.crown != prev.crown:
                assert e.type in ("crown", "heir"), (rs, e)
                assert e.crown == e.seat
