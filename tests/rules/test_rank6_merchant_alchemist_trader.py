"""The rank-6 characters (docs/rules.md §3 Rank 6; checklist rules 95-98): the Merchant's bonus
gold, the Alchemist's refund of the build gold (after the Poor House), and the 2016 Trader's
trade districts outside his limit.
"""

from __future__ import annotations

import pytest

import kernel_helpers as h
from kernel_helpers import (
    C_ALCHEMIST, K, ME, P_ALCHEMIST_TC, P_TRADER, cset, empty_state as setup, gold_conserved,
    play_turn_events as play, tax_pile as pile, types_in,
)
from citadels_sim.kernel import layout as L


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_095_merchant_bonus_gold(ruleset):
    """95. The Merchant gets +1 gold whatever he gathered (C: after gathering)."""
    st, tb = setup(ruleset, 4, "builder")  # empty hand: he draws
    h.set_holders(st, {ME: 0})
    h.set_deck(st, ["Palace", "Castle", "Cathedral", "Fortress"])
    evs = play(st, tb, ME, 0)
    names = types_in(evs)
    assert "gather_cards" in names
    if ruleset == "classic":
        assert names.index("gather_cards") < names.index("bonus_gold")
    assert h.of_type(evs, "bonus_gold")[0].a == 1 and h.gold(st, 0) == 1
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, ["Cathedral"])
    evs = play(st, tb, ME, 0)
    assert "gather_gold" in types_in(evs) and h.gold(st, 0) == 3


def test_rule_096_alchemist_refund_build_gold_only():
    """96. The Alchemist's refund is the gold paid for builds this turn, minus gold returned
    by a confiscation; never taxes, Smithy payments or cards."""
    # classic: the whole build cost comes back
    st, tb = setup("classic", 4, "builder", C_ALCHEMIST)
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "gather_gold", "build", "refund"]
    assert h.of_type(evs, "refund")[0].a == 5 and h.gold(st, 0) == 5
    # 2016 with the Tax Collector in the set: the tax is not refunded
    st, tb = setup("2016", 4, "builder", P_ALCHEMIST_TC)
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 7)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "gather_gold", "build", "tax", "refund"]
    assert h.of_type(evs, "refund")[0].a == 5
    assert h.gold(st, 0) == 7 + 2 - 5 - 1 + 5 and pile(st) == 1
    assert gold_conserved(st)
    # the Smithy's 2 gold are not refunded
    st, tb = setup("2016", 4, "builder", P_ALCHEMIST_TC)
    h.set_holders(st, {ME: 0})
    h.set_city(st, 0, ["Smithy"])
    h.set_hand(st, 0, ["Palace"])  # one useful card: gold, then the Smithy
    h.set_deck(st, ["Tavern", "Temple", "Watchtower", "Castle"])
    h.set_gold(st, 0, 1)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "gather_gold", "smithy", "build", "refund"]
    assert h.of_type(evs, "build")[0].c == 1
    assert h.of_type(evs, "refund")[0].a == 1 and h.gold(st, 0) == 1
    # Thieves' Den paid partly with cards: only the gold comes back
    st, tb = setup("2016", 4, "builder", P_ALCHEMIST_TC)
    h.set_holders(st, {ME: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Thieves' Den", "Manor", "Manor", "Manor"])
    h.set_gold(st, 0, 2)
    evs = play(st, tb, ME, 0)
    b = h.of_type(evs, "build")[0]
    assert (b.a, b.b, b.c, b.d) == (L.D_THIEVES_DEN, 6, 4, 2)
    assert h.of_type(evs, "refund")[0].a == 4 and h.gold(st, 0) == 4
    # no build, no refund
    st, tb = setup("classic", 4, "builder", C_ALCHEMIST)
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, ["Palace"])
    evs = play(st, tb, ME, 0)
    assert not h.of_type(evs, "refund") and h.gold(st, 0) == 2


def test_rule_097_poor_house_before_alchemist_refund():
    """97. The Poor House resolves before the Alchemist's refund."""
    st, tb = setup("2016", 4, "builder", cset("2016", "Alchemist"))
    assert tb.cfg[L.G_RANK_CHAR + ME] == L.CH_ALCHEMIST
    h.set_holders(st, {ME: 0})
    h.set_city(st, 0, ["Poor House"])
    h.set_hand(st, 0, ["Palace", "Temple"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, ME, 0)
    assert types_in(evs)[-2:] == ["poor_house", "refund"]
    assert h.of_type(evs, "refund")[0].a == 5
    assert h.gold(st, 0) == 0 + 1 + 5 and gold_conserved(st)


def test_rule_098_trader_trade_districts_do_not_count():
    """98. The Trader's trade districts do not count toward his build limit."""
    hand = ["Tavern", "Market", "Trading Post", "Docks", "Harbor", "Manor", "Temple"]
    st, tb = setup("2016", 4, "builder", P_TRADER)
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, hand)
    h.set_gold(st, 0, 100)
    evs = play(st, tb, ME, 0)
    built = [e.a for e in h.of_type(evs, "build")]
    assert sorted(built) == sorted(h.kinds(["Tavern", "Market", "Trading Post", "Docks", "Harbor",
                                            "Manor"]))
    assert h.hand_list(st, 0) == [h.kind("Temple")]
    # trade income counts the 5 trade districts built first; no +1 gold like the Merchant
    assert h.of_type(evs, "income")[0].a == 5 and not h.of_type(evs, "bonus_gold")
    assert h.gold(st, 0) == 100 + 2 - (1 + 2 + 2 + 3 + 4 + 3) + 5
    # the Merchant in the same situation builds one district
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, hand)
    h.set_gold(st, 0, 100)
    assert len(h.of_type(play(st, tb, ME, 0), "build")) == 1
    # the exemption is the Trader's only: other characters' trade builds count
    st, tb = setup("2016", 4, "builder", P_TRADER)
    h.set_holders(st, {K: 0})
    h.set_hand(st, 0, hand)
    h.set_gold(st, 0, 100)
    assert len(h.of_type(play(st, tb, K, 0), "build")) == 1
