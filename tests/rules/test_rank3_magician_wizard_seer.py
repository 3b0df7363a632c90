"""The rank-3 characters (docs/rules.md §3 Rank 3; checklist rules 75-79): the Magician's swap and
redraw; the Wizard's immediate build (outside his limit, paid in gold and never by a
sacrifice) and his duplicates; the 2016 Seer.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    M, cset, empty_state as setup, gold_conserved, play_turn_events as play, types_in,
)
from citadels_sim.kernel import characters, layout as L, rules


def wizard_setup(city, hand_of_1, gold):
    st, tb = setup("2016", 4, "builder", cset("2016", "Wizard"))
    assert tb.cfg[L.G_RANK_CHAR + M] == L.CH_WIZARD
    h.set_holders(st, {M: 0})
    h.set_city(st, 0, city)
    h.set_hand(st, 1, hand_of_1)  # the only card he can take
    h.set_deck(st, [])  # he gathers gold (+2)
    h.set_gold(st, 0, gold)
    return st, tb


def test_rule_075_magician_swap_with_empty_hands():
    """75. The Magician's swap works when either hand is empty."""
    # the Magician's hand is empty
    st, tb = setup("classic", 3, "heuristic")
    h.set_holders(st, {M: 0})
    five = h.kinds(["Manor", "Castle", "Temple", "Market", "Prison"])
    h.set_hand(st, 1, five)
    characters.before_gather(st, tb, L.CH_MAGICIAN, 0, M)
    assert sorted(h.hand_list(st, 0)) == sorted(five) and h.hand_list(st, 1) == []
    # the other hand is empty (random Magician until it chooses the swap)
    st0, tb = setup("classic", 2, "random")
    h.set_holders(st0, {M: 0})
    three = h.kinds(["Palace", "Church", "Docks"])
    h.set_hand(st0, 0, three)
    swapped = 0
    for seed in range(40):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        characters.before_gather(st, tb, L.CH_MAGICIAN, 0, M)
        if h.hand_list(st, 0) == []:
            swapped += 1
            assert sorted(h.hand_list(st, 1)) == sorted(three)
    assert swapped > 0


def test_rule_076_magician_redraw_bottom_first():
    """76. The Magician's redraw puts the discards on the bottom first, then draws the same
    number from the top."""
    st, tb = setup("classic", 4, "heuristic")
    h.set_holders(st, {M: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Manor", "Manor"])  # both useless: redraw both
    h.set_deck(st, ["Palace"])  # one card: the second draw takes back a Manor
    characters.before_gather(st, tb, L.CH_MAGICIAN, 0, M)
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Palace", "Manor"]))
    assert h.deck_list(st) == [h.kind("Manor")]
    # a longer deck: the two Manors end at the bottom
    st, tb = setup("classic", 4, "heuristic")
    h.set_holders(st, {M: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Manor", "Manor", "Cathedral"])
    h.set_deck(st, ["Palace", "Castle", "Temple"])
    characters.before_gather(st, tb, L.CH_MAGICIAN, 0, M)
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Cathedral", "Palace", "Castle"]))
    assert h.deck_list(st) == h.kinds(["Temple", "Manor", "Manor"])


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_077_wizard_build_outside_limit(ruleset):
    """77. The Wizard's immediately built card does not count toward his limit; he may still
    make a normal build."""
    st, tb = setup(ruleset, 4, "builder", cset(ruleset, "Wizard"))
    assert tb.cfg[L.G_RANK_CHAR + M] == L.CH_WIZARD
    h.set_holders(st, {M: 0})
    h.set_hand(st, 1, ["Manor"])  # the only card he can take
    h.set_hand(st, 0, ["Tavern", "Temple"])
    h.set_gold(st, 0, 10)
    evs = play(st, tb, M, 0)
    (wz,) = h.of_type(evs, "wizard")
    assert (wz.a, h.key(wz.b), wz.c) == (1, "manor", 1)
    builds = h.of_type(evs, "build")
    assert h.key(builds[0].a) == "manor"
    assert len(builds) == 2  # the Wizard's build + exactly one normal build (limit 1)
    assert types_in(evs).index("wizard") < evs.index(builds[0])
    assert h.hand_list(st, 1) == [] and len(h.hand_list(st, 0)) == 1
    assert h.gold(st, 0) == 10 + 2 - 3 - 1 and gold_conserved(st)


@pytest.mark.parametrize("city, card", [(["Watchtower", "Temple"], "Necropolis"),
                                        (["Framework", "Temple"], "Palace")])
def test_wizard_immediate_build_is_never_paid_by_a_sacrifice(city, card):
    """§3 Wizard: he 'must immediately pay to build' the card he takes.  Destroying the
    Framework or a district for the Necropolis is building 'instead of paying', so he keeps
    the card when he cannot pay for it, and no district is destroyed for it."""
    st, tb = wizard_setup(city, [card], 0)  # 2 gold after gathering: he cannot pay 5
    evs = play(st, tb, M, 0)
    (wz,) = h.of_type(evs, "wizard")
    assert (wz.a, h.key(wz.b), wz.c) == (1, card.lower(), 0)  # taken, not built at once
    before = types_in(evs)[:evs.index(wz) + 1]
    assert "sacrifice" not in before and "build" not in before
    for b in h.of_type(evs, "build"):  # a later normal build may still sacrifice
        assert evs.index(b) > evs.index(wz)
    assert h.kinds_consistent(st) and h.gold_conserved(st)


def test_wizard_immediate_build_paid_with_gold():
    """The immediate build happens when he can pay it, and he pays its cost in gold."""
    st, tb = wizard_setup(["Watchtower", "Temple"], ["Necropolis"], 3)  # 5 after gathering
    evs = play(st, tb, M, 0)
    (wz,) = h.of_type(evs, "wizard")
    assert wz.c == 1
    build = evs[evs.index(wz) + 1]
    assert build.type == "build" and h.key(build.a) == "necropolis"
    assert (build.b, build.c, build.d) == (5, 5, 0)  # cost 5, paid 5 gold, 0 cards
    assert "sacrifice" not in types_in(evs)
    assert h.city_list(st, 0)[:2] == h.kinds(["Watchtower", "Temple"])


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_078_wizard_duplicates(ruleset):
    """78. During the Wizard's turn, any build may duplicate a name already in his city."""
    st, tb = setup(ruleset, 4, "builder", cset(ruleset, "Wizard"))
    h.set_holders(st, {M: 0})
    h.set_city(st, 0, ["Manor", "Castle"])
    h.set_hand(st, 1, ["Manor"])
    h.set_hand(st, 0, ["Castle"])
    h.set_deck(st, [])  # he takes gold
    h.set_gold(st, 0, 10)
    evs = play(st, tb, M, 0)
    assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["manor", "castle"]
    assert Counter(h.city_list(st, 0)) == Counter(h.kinds(["Manor", "Manor", "Castle",
                                                           "Castle"]))
    assert h.kinds_consistent(st)
    # outside his turn the duplicate is forbidden again
    h.set_hand(st, 0, ["Manor"])
    assert not rules.can_build(st, tb, 0, h.kind("Manor"))


SEEDS = 60


def all_cards(st) -> Counter:
    """Every card in the deck, the hands and the cities."""
    n = h.n_players(st)
    out = Counter(h.deck_list(st))
    for s in range(n):
        out.update(h.hand_list(st, s))
        out.update(h.city_list(st, s))
    return out


def test_rule_079_seer():
    """79. Seer: she takes 1 random card from each other player with cards, gives exactly 1
    back to each of them, and has build limit 2."""
    st, tb = setup("2016", 4, "builder", cset("2016", "Seer"))
    assert tb.cfg[L.G_RANK_CHAR + M] == L.CH_SEER
    h.set_holders(st, {M: 0})
    h.set_hand(st, 0, ["Tavern", "Temple", "Watchtower", "Market"])
    h.set_hand(st, 1, ["Manor"])
    h.set_hand(st, 2, ["Church", "Prison"])
    h.set_deck(st, ["Docks", "Harbor", "Fortress"])
    h.set_gold(st, 0, 10)
    before = all_cards(st)
    evs = play(st, tb, M, 0)
    (sr,) = h.of_type(evs, "seer")
    assert sr.a == 2  # seats 1 and 2; seat 3 has no cards
    assert types_in(evs).index("gather_gold") < evs.index(sr)
    assert sr.hand_n[1:] == (1, 2, 0)
    assert [len(h.hand_list(st, s)) for s in (1, 2, 3)] == [1, 2, 0]
    assert len(h.of_type(evs, "build")) == 2  # limit 2 with more affordable cards
    assert all_cards(st) == before and gold_conserved(st)
    # the card taken is random: over many seeds she takes each of seat 2's cards
    st0, tb = setup("2016", 4, "random", cset("2016", "Seer"))
    h.set_holders(st0, {M: 0})
    h.set_hand(st0, 2, ["Church", "Prison", "Castle"])
    taken = Counter()
    for seed in range(SEEDS):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        characters.after_gather(st, tb, L.CH_SEER, 0, M)
        (sr,) = h.of_type(h.events(st), "seer")
        assert sr.a == 1 and len(h.hand_list(st, 2)) == 3 and h.hand_list(st, 0) == []
        # she had no card: what she gives back is what she took
        assert Counter(h.hand_list(st, 2)) == Counter(h.hand_list(st0, 2))
        taken[h.hand_list(st, 2)[-1]] += 1
    assert set(taken) == set(h.kinds(["Church", "Prison", "Castle"]))
