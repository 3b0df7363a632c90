"""Gathering and colour income (docs/rules.md §2.5; checklist rules 31-32, 39-40): one gather
per turn, an empty or nearly empty deck, income taken once over the districts present, and
four_color's automatic income on the call.
"""

from __future__ import annotations

import pytest

import kernel_helpers as h
from kernel_helpers import (
    AR, K, ME, all_base_games, empty_state as setup, play_turn_events as play, types_in,
)
from citadels_sim.kernel import districts, layout as L


def test_rule_031_gather_exactly_once():
    """31. Gathering is mandatory and happens exactly once: +2 gold, or draw 2 and keep 1 with
    the other to the bottom of the deck."""
    n_turns = 0
    for ruleset, players, evs, st, tb in all_base_games():
        for t in h.turns(evs):
            gathers = [e for e in t if e.type in ("gather_gold", "gather_cards")]
            assert len(gathers) == 1, (ruleset, players, t[0])
            g = gathers[0]
            if g.type == "gather_gold":
                assert g.a == 2
            else:  # drew 2 (3 with the Observatory), kept 1 (all with the Library)
                assert 1 <= g.a <= 3 and (g.b == 1 or g.b == g.a)
            n_turns += 1
    assert n_turns > 1000
    # gold
    st, tb = setup("classic", 4, "builder")
    h.set_hand(st, 0, ["Palace"])  # a useful card: the builder takes gold
    deck = h.deck_list(st)
    districts.gather(st, tb, 0, K)
    assert h.gold(st, 0) == 2 and h.deck_list(st) == deck
    # cards: draw 2 (Palace, Temple), keep the Palace, the Temple goes to the bottom
    st, tb = setup("classic", 4, "builder")
    h.set_deck(st, ["Palace", "Temple", "Manor", "Castle"])
    districts.gather(st, tb, 0, K)
    assert h.hand_list(st, 0) == [h.kind("Palace")]
    assert h.deck_list(st) == h.kinds(["Manor", "Castle", "Temple"])
    assert h.gold(st, 0) == 0


def test_rule_032_empty_deck_and_last_card():
    """32. The draw option is not offered when the deck is empty; with 1 card left, the
    player keeps it."""
    st, tb = setup("classic", 4, "builder")  # empty hand: the builder wants cards
    h.set_deck(st, [])
    districts.gather(st, tb, 0, K)
    assert h.gold(st, 0) == 2 and h.hand_list(st, 0) == []
    st, tb = setup("classic", 4, "builder")
    h.set_deck(st, ["Castle"])
    districts.gather(st, tb, 0, K)
    assert h.hand_list(st, 0) == [h.kind("Castle")] and h.deck_list(st) == []
    assert h.gold(st, 0) == 0


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_039_income_once_counts_present_districts(ruleset):
    """39. C, P: a colour income is taken once, all at once, and counts the districts present
    at that moment, including one just built."""
    # build first, then the income counts the new Castle
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Castle"])
    h.set_gold(st, 0, 4)
    evs = play(st, tb, K, 0)
    names = types_in(evs)
    assert names.count("income") == 1
    assert names.index("build") < names.index("income")
    assert h.of_type(evs, "income")[0].a == 2
    assert h.gold(st, 0) == 4 + 2 - 4 + 2
    # income first to fund the Palace: it counts 2 nobles, and is not taken again
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle"])
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 2)
    evs = play(st, tb, K, 0)
    names = types_in(evs)
    assert names.count("income") == 1 and names.index("income") < names.index("build")
    assert h.of_type(evs, "income")[0].a == 2
    assert h.gold(st, 0) == 2 + 2 + 2 - 5


def test_rule_039_income_counts_city_in_played_games():
    """39. (whole games) Every colour income pays exactly the districts of its type in the
    city at that moment (a School of Magic counts for every type)."""
    n = 0
    for ruleset, players, evs, st, tb in all_base_games():
        for e in evs:
            if e.type == "income":
                city = h.city_at(e, e.seat)
                want = sum(1 for k in city
                           if tb.kinds[L.K_TYPE, k] == e.b or k == L.D_SCHOOL_OF_MAGIC)
                assert e.a == want, (ruleset, e.round, e.seat, city)
                n += 1
    assert n > 500


def test_rule_040_four_color_automatic_income():
    """40. F: colour income, the Merchant's +1 and the Architect's +2 cards are paid on the
    call; a district built this turn earns no income this turn."""
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {ME: 0})
    h.set_city(st, 0, ["Market"])
    h.set_hand(st, 0, ["Docks"])
    h.set_gold(st, 0, 1)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "income", "bonus_gold", "gather_gold", "build"]
    assert h.of_type(evs, "income")[0].a == 1
    assert h.gold(st, 0) == 1 + 1 + 1 + 2 - 3
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {AR: 0})
    evs = play(st, tb, AR, 0)
    names = types_in(evs)
    assert names[:2] == ["call", "bonus_cards"]
    assert names.index("bonus_cards") < min(i for i, n in enumerate(names)
                                            if n.startswith("gather"))
    # the King takes the crown on the call too
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {K: 2})
    st.g[L.G_CROWN] = 0
    h.set_city(st, 2, ["Manor"])
    evs = play(st, tb, K, 2)
    names = types_in(evs)
    assert set(names[1:3]) == {"income", "crown"} and st.g[L.G_CROWN] == 2
