"""The Abbot (docs/rules.md §3 Rank 5; checklist rules 91-93): who pays him (the classic single
richest, the 2016 one of the richest) and the 2016 mix of gold and cards.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
from kernel_helpers import (
    B, C_ABBOT, P_ABBOT, empty_state as setup, play_turn_events as play, types_in,
)
from citadels_sim.game.config import GameConfig
from citadels_sim.kernel import layout as L


def _abbot(ruleset, golds, chars, abbot=0, seed=0):
    """The Abbot's turn at seat ``abbot`` with stashes ``golds``: (events, state)."""
    st, tb = setup(ruleset, len(golds), "builder", chars)
    h.set_holders(st, {B: abbot})
    for s, g in enumerate(golds):
        h.set_gold(st, s, g)
    h.set_hand(st, abbot, ["Dragon Gate"] if ruleset == "2016" else ["Great Wall"])
    h.reseed(st, seed)
    return play(st, tb, B, abbot), st


def test_rule_091_classic_abbot_single_richest_pays():
    """91. C Abbot: the single richest player (if not the Abbot) pays 1 gold; a tie for
    richest gives nothing."""
    assert GameConfig(ruleset="classic", players=4,
                      characters=C_ABBOT).character_ids[B] == L.CH_ABBOT
    evs, st = _abbot("classic", [2, 5, 3, 1], C_ABBOT)
    trib = h.of_type(evs, "tribute")
    assert len(trib) == 1 and trib[0].seat == 0 and trib[0].a == 1 and trib[0].b == 1
    assert types_in(evs).index("tribute") < types_in(evs).index("gather_gold")
    assert h.gold(st, 1) == 4 and h.gold(st, 0) == 2 + 1 + 2
    assert h.gold_conserved(st)
    # a tie for richest: nothing (also when the Abbot is poorer than both)
    for golds in ([2, 5, 5, 1], [5, 5, 3, 1], [0, 0, 0, 0]):
        evs, st = _abbot("classic", golds, C_ABBOT)
        assert not h.of_type(evs, "tribute"), golds
        assert [h.gold(st, s) for s in (1, 2, 3)] == golds[1:]
    # the Abbot is the single richest: nothing
    evs, st = _abbot("classic", [6, 5, 3, 1], C_ABBOT)
    assert not h.of_type(evs, "tribute") and h.gold(st, 1) == 5
    # another seat as the Abbot, richest player to his right
    evs, st = _abbot("classic", [1, 0, 9, 4], C_ABBOT, abbot=3)
    assert [(e.seat, e.a) for e in h.of_type(evs, "tribute")] == [(3, 2)]
    assert h.gold(st, 2) == 8


def test_rule_092_2016_abbot_one_of_the_richest_pays():
    """92. P Abbot: if anyone is strictly richer, the Abbot picks one of the richest to pay
    him 1 gold; if the Abbot is tied for richest, nothing."""
    evs, st = _abbot("2016", [2, 5, 3, 1], P_ABBOT)
    assert [(e.seat, e.a, e.b) for e in h.of_type(evs, "tribute")] == [(0, 1, 1)]
    assert h.gold(st, 1) == 4
    # two richest players: one of them pays (each can be chosen)
    payers = Counter()
    for seed in range(60):
        evs, st = _abbot("2016", [2, 5, 5, 1], P_ABBOT, seed=seed)
        trib = h.of_type(evs, "tribute")
        assert len(trib) == 1 and trib[0].a in (1, 2)
        payers[trib[0].a] += 1
        assert sorted([h.gold(st, 1), h.gold(st, 2)]) == [4, 5]
        assert h.gold_conserved(st)
    assert set(payers) == {1, 2}
    # the Abbot tied for richest, or the single richest: nothing
    for golds in ([5, 5, 3, 1], [6, 5, 3, 1], [0, 0, 0, 0]):
        evs, st = _abbot("2016", golds, P_ABBOT)
        assert not h.of_type(evs, "tribute"), golds
        assert [h.gold(st, s) for s in (1, 2, 3)] == golds[1:]
    # 1 gold is enough to be strictly richer than a broke Abbot
    evs, st = _abbot("2016", [0, 1, 0, 0], P_ABBOT)
    assert [e.a for e in h.of_type(evs, "tribute")] == [1] and h.gold(st, 1) == 0


def test_rule_093_2016_abbot_income_mix():
    """93. P Abbot: his income is a declared mix of gold and cards totalling his religious
    districts.

    (A School of Magic gives 1 resource of choice; the classic Abbot takes gold only.)"""
    city = ["Temple", "Church", "Monastery", "School of Magic", "Manor", "Market"]
    splits = Counter()
    for seed in range(150):
        st, tb = setup("2016", 4, "random", P_ABBOT)
        h.set_holders(st, {B: 0})
        h.set_city(st, 0, city)
        h.set_gold(st, 0, 3)
        h.reseed(st, seed)
        evs = play(st, tb, B, 0)
        inc = h.of_type(evs, "income")
        assert len(inc) == 1
        e = inc[0]
        assert e.b == L.T_RELIGIOUS and e.a + e.c == 4
        prev = evs[evs.index(e) - 1]
        assert e.gold[0] - prev.gold[0] == e.a and e.hand_n[0] - prev.hand_n[0] == e.c
        splits[e.c] += 1
    assert set(splits) == {0, 1, 2, 3, 4}
    # the builder declares 1 card (no useful card in hand) and 3 gold
    st, tb = setup("2016", 4, "builder", P_ABBOT)
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, city)
    h.set_hand(st, 0, ["Manor"])  # useless: he draws two more useless Manors
    h.set_deck(st, ["Manor", "Manor", "Palace", "Harbor"])
    evs = play(st, tb, B, 0)
    e = h.of_type(evs, "income")[0]
    assert (e.a, e.c) == (3, 1)
    # classic: 4 gold, no card
    st, tb = setup("classic", 4, "random", C_ABBOT)
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, city)
    for seed in range(20):
        h.reseed(st, seed)
        e = h.of_type(play(st, tb, B, 0), "income")[0]
        assert (e.a, e.c) == (4, 0)
