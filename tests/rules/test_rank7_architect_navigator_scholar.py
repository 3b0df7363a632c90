"""The rank-7 characters (docs/rules.md §3 Rank 7; checklist rules 99-101): the Architect's cards
and limit of 3, the Navigator's 4 gold or 4 cards and no build, and the 2016 Scholar's draw of
7.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    AR, C_NAVIGATOR, P_NAVIGATOR, P_SCHOLAR, empty_state as setup, play_turn_events as play,
    types_in,
)
from citadels_sim.kernel import layout as L, rules


def test_rule_099_architect():
    """99. The Architect gains 2 cards and has build limit 3."""
    for ruleset in ("classic", "2016", "four_color"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_holders(st, {AR: 0})
        hand = ["Temple", "Tavern", "Watchtower", "Church", "Market", "Prison"]
        h.set_hand(st, 0, hand)
        h.set_gold(st, 0, 100)
        deck_n = st.g[L.G_DECK_N]
        evs = play(st, tb, AR, 0)
        assert h.of_type(evs, "bonus_cards")[0].a == 2
        assert len(h.of_type(evs, "build")) == 3
        assert st.p[0, L.P_HAND_N] == 6 + 2 - 3
        assert st.g[L.G_DECK_N] == deck_n - 2


@pytest.mark.parametrize("ruleset,chars", [("classic", C_NAVIGATOR), ("2016", P_NAVIGATOR)])
def test_rule_100_navigator_four_gold_or_cards_no_build(ruleset, chars):
    """100. The Navigator gains 4 gold or 4 cards and cannot build at all, even Stables or by
    Framework.

    (C: after his gather action.)"""
    # a useful card in hand: 4 gold; rich, but no build
    st, tb = setup(ruleset, 4, "builder", chars)
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Tavern"])
    h.set_gold(st, 0, 10)
    evs = play(st, tb, AR, 0)
    assert types_in(evs) == ["call", "gather_gold", "navigator"]
    assert (evs[-1].a, evs[-1].b) == (4, 0) and h.gold(st, 0) == 16
    assert h.city_list(st, 0) == []
    # nothing useful: he draws, then takes 4 cards; 4 buildable cards, still no build
    st, tb = setup(ruleset, 4, "builder", chars)
    h.set_holders(st, {AR: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Manor"])
    h.set_deck(st, ["Manor", "Manor", "Tavern", "Temple", "Market", "Docks", "Castle"])
    h.set_gold(st, 0, 10)
    evs = play(st, tb, AR, 0)
    assert types_in(evs) == ["call", "gather_cards", "navigator"]
    assert (evs[-1].a, evs[-1].b) == (0, 4)
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Manor", "Manor", "Tavern", "Temple",
                                                         "Market", "Docks"]))
    assert h.city_list(st, 0) == [h.kind("Manor")] and h.gold(st, 0) == 10
    # random choices: both options, never a build
    seen = set()
    for seed in range(60):
        st, tb = setup(ruleset, 4, "random", chars)
        h.set_holders(st, {AR: 0})
        h.set_hand(st, 0, ["Tavern", "Temple", "Market"])
        h.set_gold(st, 0, 20)
        h.reseed(st, seed)
        evs = play(st, tb, AR, 0)
        nav = h.of_type(evs, "navigator")
        assert len(nav) == 1 and (nav[0].a, nav[0].b) in ((4, 0), (0, 4))
        seen.add((nav[0].a, nav[0].b))
        assert not h.of_type(evs, "build") and h.city_list(st, 0) == []
    assert seen == {(4, 0), (0, 4)}
    if ruleset == "2016":
        # the Stables in hand (it does not count toward a limit) and a Framework in his city,
        # with plenty of gold: still no build of any kind
        for fam in ("builder", "random"):
            for seed in range(20 if fam == "random" else 1):
                st, tb = setup(ruleset, 4, fam, chars, districts="ambitious_aristocrats",
                               seed=seed)
                h.set_holders(st, {AR: 0})
                h.set_city(st, 0, ["Framework"])
                h.set_hand(st, 0, ["Stables", "Palace", "Tavern"])
                h.set_gold(st, 0, 30)
                h.reseed(st, seed)
                assert rules.can_build(st, tb, 0, h.kind("Stables"))
                evs = play(st, tb, AR, 0)
                assert len(h.of_type(evs, "navigator")) == 1
                assert not h.of_type(evs, "build", "sacrifice", "confiscate")
                assert h.city_list(st, 0) == [h.kind("Framework")]
                assert {h.kind("Stables"), h.kind("Palace")} <= set(h.hand_list(st, 0))


def test_rule_101_scholar_draw_7_keep_1_shuffle_limit_2():
    """101. The Scholar draws 7, keeps 1 and shuffles the rest back into the deck; build
    limit 2."""
    drawn = ["Palace", "Cathedral", "Fortress", "Castle", "Harbor", "Town Hall", "Palace"]
    below = ["Manor", "Tavern", "Temple", "Market", "Watchtower", "Church", "Prison"]
    deck = drawn + below
    returned_on_top = 0
    for seed in range(30):
        st, tb = setup("2016", 4, "builder", P_SCHOLAR)
        h.set_holders(st, {AR: 0})
        h.set_hand(st, 0, ["Dragon Gate"])  # useful: gold; 2 gold buy nothing drawn
        h.set_deck(st, deck)
        h.reseed(st, seed)
        evs = play(st, tb, AR, 0)
        sch = h.of_type(evs, "scholar")
        assert len(sch) == 1 and sch[0].a == 7
        assert types_in(evs).index("gather_gold") < types_in(evs).index("scholar")
        kept = sch[0].b
        assert h.hand_list(st, 0) == [h.kind("Dragon Gate"), kept]
        assert kept in h.kinds(drawn)
        after = h.deck_list(st)
        rest = list(h.kinds(deck))
        rest.remove(kept)
        assert Counter(after) == Counter(rest)  # the 6 others are back; nothing lost
        # the whole deck is shuffled, not just the 6 put under the 7 never drawn
        assert after[:7] != h.kinds(below)
        returned_on_top += after[0] in h.kinds(drawn)
    assert returned_on_top > 5
    # fewer than 7 cards: he draws them all and keeps 1 (D5)
    st, tb = setup("2016", 4, "builder", P_SCHOLAR)
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Dragon Gate"])
    h.set_deck(st, ["Palace", "Cathedral", "Castle"])
    evs = play(st, tb, AR, 0)
    assert h.of_type(evs, "scholar")[0].a == 3
    assert st.p[0, L.P_HAND_N] == 2 and st.g[L.G_DECK_N] == 2
    # build limit 2
    st, tb = setup("2016", 4, "builder", P_SCHOLAR)
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Temple", "Tavern", "Watchtower", "Manor", "Church", "Market"])
    h.set_gold(st, 0, 100)
    evs = play(st, tb, AR, 0)
    assert len(h.of_type(evs, "build")) == 2
