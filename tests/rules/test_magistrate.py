"""The 2016 Magistrate (docs/rules.md §3 Rank 1; checklist rules 57-62): three warrants, one
signed; only the first paid build confiscated, never a free one nor a name he has; the
Stables; the confiscated district free for him and taxed.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    A, AR, B, K, ME, P14, R9, city_keys, cset, empty_state as setup, gold_conserved, hand_keys,
    play_turn_events as play, put_city, sorted_keys, tax_pile as pile, types_in,
)
from citadels_sim.kernel import layout as L, rules, state as S


P_MAG = cset("2016", "Magistrate")


def warrant(st, signed, magistrate=0, unsigned=()):
    """The Magistrate of seat ``magistrate`` has placed his warrants: ``signed`` is the
    signed one (a rank index), ``unsigned`` the others."""
    st.g[L.G_WARRANT] = signed
    st.g[L.G_WARRANTS] = sum(1 << r for r in (signed, *unsigned))
    st.g[L.G_MAGISTRATE] = magistrate


SEEDS = 80


@pytest.mark.parametrize("family", ["random", "builder", "heuristic"])
def test_rule_057_magistrate_three_warrants_one_signed(family):
    """57. Magistrate: 3 warrants go on 3 distinct characters, exactly one signed; unsigned
    warrants do nothing."""
    signed_seen, marked_seen = Counter(), Counter()
    for seed in range(SEEDS):
        st, tb = setup("2016", 4, family, P_MAG, seed=seed)
        h.set_holders(st, {A: 0, K: 1, ME: 2})  # ranks 2, 3, 6, 7, 8 are not in play
        h.reseed(st, seed)
        evs = play(st, tb, A, 0)
        (e,) = h.of_type(evs, "warrants")
        signed, a, b = e.a, e.b, e.c
        assert len({signed, a, b}) == 3 and A not in (signed, a, b)  # never on himself
        assert all(0 <= r < 8 for r in (signed, a, b))
        assert st.g[L.G_WARRANT] == signed and st.g[L.G_MAGISTRATE] == 0
        assert st.g[L.G_WARRANTS] == (1 << signed) | (1 << a) | (1 << b)
        signed_seen[signed] += 1
        marked_seen.update((signed, a, b))
        # the warrants stay for the round and are removed at its end
        S.clear_round(st)
        assert st.g[L.G_WARRANTS] == 0 and st.g[L.G_WARRANT] == -1
    assert set(marked_seen) == set(range(1, 8))  # characters not in play are allowed (D33)
    if family == "random":
        assert set(signed_seen) == set(range(1, 8))

    # only the signed warrant has an effect: each marked character builds a Manor
    st0, tb = setup("2016", 4, "builder", P_MAG, log=True)
    h.set_holders(st0, {A: 0})
    evs = play(st0, tb, A, 0)  # no gold: he builds nothing himself
    (e,) = h.of_type(evs, "warrants")
    assert st0.p[0, L.P_CITY_N] == 0
    h.set_hand(st0, 0, [])
    for r in (e.a, e.b, e.c):
        st = h.copy_state(st0)
        h.set_holders(st, {A: 0, r: 1})
        h.set_hand(st, 1, ["Manor"])
        h.set_gold(st, 1, 3)
        h.set_deck(st, ["Temple", "Temple", "Temple", "Temple"])
        before = h.total_cards(st)
        evs = play(st, tb, r, 1)
        conf = h.of_type(evs, "confiscate")
        if r == e.a:
            assert len(conf) == 1 and h.key(conf[0].b) == "manor"
            assert "manor" in city_keys(st, 0) and "manor" not in city_keys(st, 1)
        else:
            assert not conf and "manor" in city_keys(st, 1) and "manor" not in city_keys(st, 0)
        assert h.total_cards(st) == before and gold_conserved(st)


def test_rule_058_only_first_paid_build_confiscated():
    """58. Only the target's first paid build that turn can be confiscated; the target gets
    his gold back (not cards) and the build counts toward his limit."""
    # the Architect (limit 3): the Palace is confiscated, the Castle and Manor are his; the
    # confiscated Palace used up one of his three builds
    st, tb = setup("2016", 4, "builder", P_MAG, districts=P14)
    h.set_holders(st, {A: 0, AR: 1})
    warrant(st, AR, unsigned=(K, B))
    h.set_hand(st, 1, ["Palace", "Castle", "Manor", "Market"])
    h.set_deck(st, ["Tavern", "Tavern"])
    h.set_gold(st, 1, 20)
    before = h.total_cards(st)
    evs = play(st, tb, AR, 1)
    (c,) = h.of_type(evs, "confiscate")
    assert (c.seat, c.a, h.key(c.b), c.c, c.d) == (1, 0, "palace", 5, 0)
    assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["castle", "manor"]
    assert types_in(evs).index("confiscate") < types_in(evs).index("build")
    assert city_keys(st, 0) == ["palace"] and city_keys(st, 1) == ["castle", "manor"]
    assert hand_keys(st, 1) == ["market", "tavern", "tavern"]  # a 4th district: over the limit
    assert h.gold(st, 1) == 20 + 2 - 4 - 3 and h.gold(st, 0) == 0  # the Palace cost nothing
    assert h.total_cards(st) == before and gold_conserved(st)

    # limit 1: the confiscated build was his only one
    st, tb = setup("2016", 4, "builder", P_MAG, districts=P14)
    h.set_holders(st, {A: 0, ME: 1})
    warrant(st, ME, unsigned=(K, B))
    h.set_hand(st, 1, ["Palace", "Manor"])
    h.set_deck(st, [])
    h.set_gold(st, 1, 10)
    evs = play(st, tb, ME, 1)
    assert len(h.of_type(evs, "confiscate")) == 1 and not h.of_type(evs, "build")
    assert city_keys(st, 1) == [] and hand_keys(st, 1) == ["manor"] and h.gold(st, 1) == 13
    assert city_keys(st, 0) == ["palace"] and gold_conserved(st)

    # Thieves' Den paid partly with cards: the gold comes back, the cards do not
    st, tb = setup("2016", 4, "builder", P_MAG, districts=P14)
    h.set_holders(st, {A: 0, ME: 1})
    warrant(st, ME, unsigned=(K, B))
    h.set_city(st, 1, ["Temple"])
    h.set_hand(st, 1, ["Thieves' Den", "Temple", "Temple", "Temple"])  # 3 useless cards
    h.set_deck(st, [])
    h.set_gold(st, 1, 4)  # 7 after gathering and the Merchant's +1
    before = h.total_cards(st)
    evs = play(st, tb, ME, 1)
    (c,) = h.of_type(evs, "confiscate")
    assert h.key(c.b) == "thieves_den" and c.d >= 1 and c.c + c.d == 6
    assert h.gold(st, 1) == 7  # every gold paid is back
    assert hand_keys(st, 1) == ["temple"] * (3 - c.d)  # the cards paid are gone ...
    assert sorted_keys(h.deck_list(st)) == ["temple"] * c.d  # ... to the bottom of the deck
    assert city_keys(st, 0) == ["thieves_den"] and city_keys(st, 1) == ["temple"]
    assert h.total_cards(st) == before and gold_conserved(st)


@pytest.mark.parametrize("how", ["framework", "necropolis"])
def test_rule_059_free_builds_not_confiscated(how):
    """59. A district built by destroying the Framework, or a Necropolis built by
    destruction, cannot be confiscated; the next paid build can."""
    st, tb = setup("2016", 4, "builder", P_MAG, districts=P14)
    h.set_holders(st, {A: 0, AR: 1})
    warrant(st, AR, unsigned=(K, B))
    if how == "framework":
        put_city(st, 1, ["Framework", "Temple"])
        free = "palace"
        h.set_hand(st, 1, ["Palace", "Manor"], from_deck=True)
        h.set_deck(st, ["Temple", "Temple"])  # the Architect's 2 cards: nothing to build
    else:
        put_city(st, 1, ["Temple", "Castle"])
        free = "necropolis"
        h.set_hand(st, 1, ["Necropolis", "Manor"], from_deck=True)
        h.set_deck(st, ["Castle", "Castle"])
    h.set_gold(st, 1, 1)  # 3 after gathering: the 5-cost district cannot be paid
    before = h.total_cards(st)
    evs = play(st, tb, AR, 1)
    sac, b, c = (h.of_type(evs, t) for t in ("sacrifice", "build", "confiscate"))
    assert [h.key(e.a) for e in b] == [free] and b[0].c == 0  # built free, kept
    assert [h.key(e.a) for e in sac] == (["framework"] if how == "framework" else ["temple"])
    assert len(c) == 1 and h.key(c[0].b) == "manor" and c[0].c == 3  # the next paid build
    t = types_in(evs)
    assert t.index("sacrifice") < t.index("build") < t.index("confiscate")
    assert city_keys(st, 0) == ["manor"]
    assert city_keys(st, 1) == sorted([free, "temple" if how == "framework" else "castle"])
    assert h.gold(st, 1) == 3 and h.total_cards(st) == before and gold_conserved(st)
    assert sorted_keys(h.deck_list(st))[-1:] == [h.key(sac[0].a)]  # destroyed: deck bottom


def test_rule_060_no_confiscation_of_a_name_he_has():
    """60. No confiscation if the Magistrate's city already has a district of that name
    (even with the Quarry)."""
    st, tb = setup("2016", 4, "builder", P_MAG, districts=P14)
    h.set_holders(st, {A: 0, AR: 1})
    warrant(st, AR, unsigned=(K, B))
    put_city(st, 0, ["Manor", "Quarry"])
    h.set_hand(st, 1, ["Manor", "Temple"])
    h.set_deck(st, [])
    h.set_gold(st, 1, 10)
    assert rules.duplicate_allowed(st, 0, h.kind("Manor"))  # he could build a 2nd Manor
    evs = play(st, tb, AR, 1)
    assert not h.of_type(evs, "confiscate")
    # the Manor is built by its owner, and the warrant is spent: the Temple is his too
    assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["manor", "temple"]
    assert city_keys(st, 0) == ["manor", "quarry"] and city_keys(st, 1) == ["manor", "temple"]
    assert h.gold(st, 1) == 12 - 3 - 1 and gold_conserved(st)
    # D33: nor a Monument into a city of 5 or more (with 4 he takes it)
    for size, taken in ((5, False), (4, True)):
        st, tb = setup("2016", 4, "builder", P_MAG, districts=P14)
        h.set_holders(st, {A: 0, ME: 1})
        warrant(st, ME, unsigned=(K, B))
        put_city(st, 0, ["Manor", "Castle", "Temple", "Church", "Market"][:size])
        h.set_hand(st, 1, ["Monument"])
        h.set_deck(st, [])
        h.set_gold(st, 1, 10)
        evs = play(st, tb, ME, 1)
        assert bool(h.of_type(evs, "confiscate")) is taken
        assert (("monument" in city_keys(st, 0)) is taken
                and ("monument" in city_keys(st, 1)) is not taken)


def test_rule_061_confiscated_stables_frees_the_limit():
    """61. A confiscated Stables still leaves the target free to build another district."""
    for signed in (True, False):
        st, tb = setup("2016", 4, "builder", P_MAG, districts=P14)
        h.set_holders(st, {A: 0, ME: 1})
        if signed:
            warrant(st, ME, unsigned=(K, B))
        h.set_hand(st, 1, ["Stables", "Temple"])  # the builder builds the dearer first
        h.set_deck(st, [])
        h.set_gold(st, 1, 10)
        evs = play(st, tb, ME, 1)
        if signed:
            (c,) = h.of_type(evs, "confiscate")
            assert h.key(c.b) == "stables" and c.c == 2
            assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["temple"]
            assert city_keys(st, 0) == ["stables"] and city_keys(st, 1) == ["temple"]
            assert h.gold(st, 1) == 13 - 1
        else:
            assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["stables", "temple"]
            assert city_keys(st, 1) == ["stables", "temple"] and h.gold(st, 1) == 13 - 3
        assert hand_keys(st, 1) == [] and gold_conserved(st)


P_MAG_TC = cset("2016", "Magistrate", "Tax Collector")


def test_rule_062_confiscated_district_free_magistrate_taxed():
    """62. The confiscated district enters the Magistrate's city for free, and the
    Magistrate pays the P tax on it."""
    for mag_gold in (2, 0):
        st, tb = setup("2016", 4, "builder", P_MAG_TC, districts=P14)
        assert tb.cfg[L.G_RANK_CHAR + R9] == L.CH_TAX_COLLECTOR
        h.set_holders(st, {A: 0, ME: 1})
        warrant(st, ME, unsigned=(K, B))
        h.set_gold(st, 0, mag_gold)
        h.set_hand(st, 1, ["Manor"])
        h.set_deck(st, [])
        h.set_gold(st, 1, 5)
        evs = play(st, tb, ME, 1)
        (c,) = h.of_type(evs, "confiscate")
        assert (c.a, h.key(c.b), c.c) == (0, "manor", 3)
        assert city_keys(st, 0) == ["manor"] and city_keys(st, 1) == []
        assert h.gold(st, 1) == 5 + 2 + 1  # paid 3, got 3 back, no tax
        taxes = h.of_type(evs, "tax")
        if mag_gold:
            assert [(e.seat, e.a) for e in taxes] == [(0, 1)]
            assert types_in(evs).index("confiscate") < types_in(evs).index("tax")
            assert h.gold(st, 0) == mag_gold - 1 and pile(st) == 1
        else:  # no gold, no tax
            assert not taxes and h.gold(st, 0) == 0 and pile(st) == 0
        assert gold_conserved(st)
    # without the warrant the builder himself is taxed
    st, tb = setup("2016", 4, "builder", P_MAG_TC, districts=P14)
    h.set_holders(st, {A: 0, ME: 1})
    h.set_gold(st, 0, 2)
    h.set_hand(st, 1, ["Manor"])
    h.set_deck(st, [])
    h.set_gold(st, 1, 5)
    evs = play(st, tb, ME, 1)
    assert [(e.seat, e.a) for e in h.of_type(evs, "tax")] == [(1, 1)]
    assert h.gold(st, 1) == 8 - 3 - 1 and h.gold(st, 0) == 2 and gold_conserved(st)
