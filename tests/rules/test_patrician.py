"""The 2016 Patrician (docs/rules.md §3 Rank 4; checklist rules 46, 81, 87): a killed Patrician's
heir, the crown taken in his turn, and his income in cards.
"""

from __future__ import annotations

import kernel_helpers as h
from kernel_helpers import (
    A, K, P_NOBLES_TC, P_PATRICIAN, empty_state as setup, play_turn_events as play, roster_games,
    types_in,
)
from citadels_sim.kernel import game, layout as L


def test_rule_046_killed_patrician_heir():
    """46. A killed King or Patrician gives its holder the crown at the end of the round."""
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    assert st.g[L.G_RANK_CHAR + K] == L.CH_PATRICIAN
    h.set_holders(st, {A: 0, K: 2})
    st.g[L.G_CROWN] = 1
    h.only_target(st, K, A)
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == K and st.g[L.G_CROWN] == 1
    h.clear_log(st)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 2
    assert st.p[2, L.P_REVEALED] == 4  # revealed at the end of the round (2016 tie-break)
    assert types_in(h.events(st)) == ["heir", "crown", "round_end"]
    assert h.hand_list(st, 2) == [] and h.gold(st, 2) == 0  # the heir takes no income


def test_rule_081_patrician_takes_the_crown():
    """81. C, F: the King takes the crown on reveal; P: the King (or Patrician) must take it
    during his turn."""
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    h.set_holders(st, {K: 2})
    st.g[L.G_CROWN] = 0
    evs = play(st, tb, K, 2)
    assert st.g[L.G_CROWN] == 2
    crowns = h.of_type(evs, "crown")
    assert len(crowns) == 1 and crowns[0].seat == 2 and crowns[0].a == 0
    # he takes it even when he already holds it, and in every played Patrician turn
    evs = play(st, tb, K, 2)
    assert st.g[L.G_CROWN] == 2
    n = 0
    for evs, st, tb in roster_games("2016", 4, P_NOBLES_TC) + roster_games("2016", 3, P_NOBLES_TC):
        for t in h.turns(evs):
            if t[0].rank == K:
                assert [e.seat for e in t if e.type == "crown"] == [t[0].seat]
                n += 1
    assert n > 20


def test_rule_087_patrician_income_in_cards():
    """87. The Patrician gains 1 card per noble district.

    (A School of Magic counts as noble; with a short deck he takes what is left, D5.)"""
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "School of Magic", "Temple", "Market"])
    h.set_hand(st, 0, ["Dragon Gate"])  # useful and unaffordable: gold, no build
    h.set_deck(st, ["Palace", "Cathedral", "Fortress", "Harbor", "Watchtower"])
    evs = play(st, tb, K, 0)
    inc = h.of_type(evs, "income")
    assert len(inc) == 1 and inc[0].a == 0 and inc[0].b == L.T_NOBLE and inc[0].c == 3
    assert h.gold(st, 0) == 2  # the gather only
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Dragon Gate", "Palace", "Cathedral",
                                                         "Fortress"]))
    assert h.deck_list(st) == h.kinds(["Harbor", "Watchtower"])
    assert not h.of_type(evs, "build")
    # short deck: he takes what is left (D5)
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Palace"])
    h.set_hand(st, 0, ["Dragon Gate"])
    h.set_deck(st, ["Cathedral"])
    evs = play(st, tb, K, 0)
    assert h.of_type(evs, "income")[0].c == 1 and st.g[L.G_DECK_N] == 0
    assert h.gold(st, 0) == 2
