"""Districts that change building (docs/rules.md §4.2-§4.4; checklist rules 124, 126, 131,
135-138): the Factory, the two classic Keeps, the classic Lighthouse, the 2016 Monument,
Stables, Framework and Necropolis.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
from kernel_helpers import (
    AR, B, K, ME, P14, P_TC, T, base_games, city_keys, cost, cset, empty_state as setup,
    gold_conserved, hand_keys, play_turn_events as play, put_city, rsetup, sorted_keys,
    tax_pile as pile, types_in,
)
from citadels_sim.kernel import districts, layout as L, rules, scoring


SEEDS = 80


def test_rule_124_factory():
    """124. Factory: other purple/unique districts cost 1 less to build; their cost for
    scoring and the Warlord is unchanged."""
    st, tb = setup("2016", 4, "builder")
    h.set_city(st, 0, ["Factory"])
    assert rules.build_cost(st, tb, 0, h.kind("Library")) == 5
    assert rules.build_cost(st, tb, 0, h.kind("Keep")) == 2
    assert rules.build_cost(st, tb, 0, h.kind("Manor")) == 3
    assert rules.build_cost(st, tb, 1, h.kind("Library")) == 6
    h.set_holders(st, {T: 0})
    h.set_hand(st, 0, ["Library"])
    h.set_gold(st, 0, 3)
    play(st, tb, T, 0)
    assert h.city_list(st, 0) == h.kinds(["Factory", "Library"]) and h.gold(st, 0) == 0
    assert rules.warlord_cost(st, tb, 0, 1) == 5
    scoring.score_game(st, tb)
    assert st.p[0, L.P_VALUE] == 5 + 6


def test_rule_126_two_keeps_never_in_one_city():
    """126. C: the two Keep cards can never both be in one city (without the Quarry)."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Keep"])
    h.set_hand(st, 0, ["Keep"])
    h.set_gold(st, 0, 10)
    assert not rules.can_build(st, tb, 0, h.kind("Keep"))
    play(st, tb, K, 0)
    assert st.p[0, L.P_KINDS + h.kind("Keep")] == 1
    for players in range(2, 8):
        for evs, st, tb in base_games("classic", players):
            assert (st.p[:players, L.P_KINDS + h.kind("Keep")] <= 1).all()


DECK8 = ["Tavern", "Temple", "Palace", "Market", "Watchtower", "Church", "Castle", "Docks"]


def test_rule_131_lighthouse():
    """131. C Lighthouse: when built, its owner takes any 1 card from the deck, then the deck
    is shuffled."""
    st, tb = rsetup("classic", 4, "builder")
    h.set_holders(st, {ME: 0, K: 0})
    h.set_hand(st, 0, ["Lighthouse"], from_deck=True)
    h.set_deck(st, DECK8)
    h.set_gold(st, 0, 1)  # 4 after gathering and the Merchant's +1
    before = h.total_cards(st)
    evs = play(st, tb, ME, 0)
    t = types_in(evs)
    assert t.index("build") + 1 == t.index("lighthouse")  # right after the build
    (e,) = h.of_type(evs, "lighthouse")
    assert city_keys(st, 0) == ["lighthouse"] and hand_keys(st, 0) == [h.key(e.a)]
    assert Counter(h.deck_list(st)) == Counter(h.kinds(DECK8)) - Counter([e.a])
    assert h.total_cards(st) == before and gold_conserved(st)
    # only when it is built: a later turn searches nothing
    h.set_hand(st, 0, ["Manor"])
    evs = play(st, tb, K, 0)
    assert h.of_type(evs, "build") and not h.of_type(evs, "lighthouse")

    # any card of the deck, not only the top one; then the deck is shuffled
    taken, reordered = Counter(), 0
    for seed in range(2 * SEEDS):
        st, tb = rsetup("classic", 4, "random")
        h.set_deck(st, DECK8)
        h.reseed(st, seed)
        h.clear_log(st)
        districts.build_triggers(st, tb, 0, ME, h.kind("Lighthouse"), False)
        (e,) = h.of_type(h.events(st), "lighthouse")
        taken[h.key(e.a)] += 1
        assert h.hand_list(st, 0) == [e.a]
        rest = [k for k in h.kinds(DECK8)]
        rest.remove(e.a)
        assert Counter(h.deck_list(st)) == Counter(rest)
        reordered += h.deck_list(st) != rest
    assert set(taken) == {h.key(k) for k in h.kinds(DECK8)}
    assert reordered >= 2 * SEEDS * 0.9
    # an empty deck: nothing to take
    st, tb = rsetup("classic", 4, "random")
    h.set_deck(st, [])
    districts.build_triggers(st, tb, 0, ME, h.kind("Lighthouse"), False)
    assert st.p[0, L.P_HAND_N] == 0


def test_rule_135_monument():
    """135. P Monument: cannot be built with ≥5 districts in the city; counts as 2 districts
    for completion only."""
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Palace", "Tavern"])
    h.set_hand(st, 0, ["Monument"])
    h.set_gold(st, 0, 10)
    assert rules.can_build(st, tb, 0, h.kind("Monument"))
    evs = play(st, tb, B, 0)
    assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["monument"]
    assert int(st.p[0, L.P_CITY_N]) == 5
    # 5 districts: not buildable
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Palace", "Tavern", "Market"])
    h.set_hand(st, 0, ["Monument"])
    h.set_gold(st, 0, 10)
    assert not rules.can_build(st, tb, 0, h.kind("Monument"))
    assert not h.of_type(play(st, tb, B, 0), "build")
    # 5 districts + the Monument complete a 7-district city; in points the Monument counts
    # once, at its cost
    st, tb = setup("2016", 4, "builder")
    assert int(st.g[L.G_N_COMPLETE]) == 7
    city = ["Manor", "Castle", "Palace", "Tavern", "Market", "Monument"]
    h.set_city(st, 0, city)
    assert rules.is_complete(st, 0)
    st.g[L.G_FIRST] = 0
    _, value, _, complete, _ = scoring.score_seat(st, tb, 0)
    assert value == sum(cost(tb, n) for n in city) and complete == 4
    h.set_city(st, 0, city[:4] + ["Monument"])
    assert not rules.is_complete(st, 0)


def test_rule_136_stables():
    """136. P Stables: does not count toward the build limit (the Navigator builds nothing)."""
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {B: 0})
    h.set_hand(st, 0, ["Manor", "Stables", "Castle"])
    h.set_gold(st, 0, 10)
    evs = play(st, tb, B, 0)
    assert Counter(h.key(e.a) for e in h.of_type(evs, "build")) == Counter(
        {"castle": 1, "stables": 1})
    # the Navigator cannot build the Stables
    st, tb = setup("2016", 4, "builder", cset("2016", "Navigator"))
    assert tb.cfg[L.G_RANK_CHAR + AR] == L.CH_NAVIGATOR
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Stables"])
    h.set_deck(st, ["Docks", "Harbor", "Fortress", "Castle", "Manor", "Palace"])
    h.set_gold(st, 0, 10)
    evs = play(st, tb, AR, 0)
    assert not h.of_type(evs, "build") and h.city_list(st, 0) == []


def test_rule_137_framework():
    """137. P Framework: destroy it to build another district without paying; the build
    counts toward the limit and is taxed."""
    st, tb = setup("2016", 4, "builder", P_TC, districts=P14)
    h.set_holders(st, {ME: 1})
    put_city(st, 1, ["Framework", "Temple"])
    h.set_hand(st, 1, ["Palace", "Manor"], from_deck=True)
    h.set_deck(st, [])
    h.set_gold(st, 1, 0)  # 3 after gathering: the Palace only by the Framework
    before = h.total_cards(st)
    evs = play(st, tb, ME, 1)
    t = types_in(evs)
    assert t.index("sacrifice") < t.index("build") < t.index("tax")
    (b,) = h.of_type(evs, "build")
    (sac,) = h.of_type(evs, "sacrifice")
    assert h.key(sac.a) == "framework" and (h.key(b.a), b.b, b.c, b.d) == ("palace", 5, 0, 0)
    assert city_keys(st, 1) == ["palace", "temple"]
    assert hand_keys(st, 1) == ["manor"]  # affordable, but the limit is spent
    assert sorted_keys(h.deck_list(st)) == ["framework"]  # destroyed: bottom of the deck
    assert h.gold(st, 1) == 3 - 1 and pile(st) == 1  # taxed
    assert h.total_cards(st) == before and gold_conserved(st)
    # never the Framework for itself, nor from a complete city (D24)
    fw, palace = h.kind("Framework"), h.kind("Palace")
    put_city(st, 1, ["Framework", "Temple"])
    assert rules.framework_build(st, 1, palace) and not rules.framework_build(st, 1, fw)
    put_city(st, 1, ["Framework", "Manor", "Castle", "Temple", "Church", "Market", "Docks"])
    assert rules.is_complete(st, 1)
    assert not rules.framework_build(st, 1, palace)
    h.set_gold(st, 1, 0)
    assert not rules.can_build(st, tb, 1, palace)


def test_rule_138_necropolis():
    """138. P Necropolis: can be built by destroying one of your own districts instead of
    paying."""
    st, tb = setup("2016", 4, "builder", None, districts=P14)
    h.set_holders(st, {ME: 1})
    put_city(st, 1, ["Temple", "Manor"])
    h.set_hand(st, 1, ["Necropolis"], from_deck=True)
    h.set_deck(st, [])
    before = h.total_cards(st)
    evs = play(st, tb, ME, 1)  # 3 gold: the cheapest district goes
    (sac,) = h.of_type(evs, "sacrifice")
    (b,) = h.of_type(evs, "build")
    assert h.key(sac.a) == "temple" and (h.key(b.a), b.c) == ("necropolis", 0)
    assert (city_keys(st, 1) == ["manor", "necropolis"]
            and sorted_keys(h.deck_list(st)) == ["temple"])
    assert h.gold(st, 1) == 3 and h.total_cards(st) == before and gold_conserved(st)
    # with the gold, either way (random choices); only his own districts, never itself
    modes = Counter()
    for seed in range(SEEDS):
        st, tb = setup("2016", 4, "random", None, districts=P14, seed=seed)
        h.set_holders(st, {ME: 1})
        put_city(st, 1, ["Temple", "Manor"])
        put_city(st, 2, ["Castle"])
        h.set_hand(st, 1, ["Necropolis"], from_deck=True)
        h.set_deck(st, [])
        h.set_gold(st, 1, 10)
        h.reseed(st, seed)
        before = h.total_cards(st)
        evs = play(st, tb, ME, 1)
        if not h.of_type(evs, "build"):
            continue
        sac = h.of_type(evs, "sacrifice")
        modes["destroy" if sac else "gold"] += 1
        if sac:
            assert h.key(sac[0].a) in ("temple", "manor") and h.gold(st, 1) == 13
        else:
            assert h.gold(st, 1) == 13 - 5
        assert "necropolis" in city_keys(st, 1) and city_keys(st, 2) == ["castle"]
        assert h.total_cards(st) == before and gold_conserved(st)
    assert modes["destroy"] and modes["gold"]
    # nothing to destroy, or a complete city (D24): only by paying
    st, tb = setup("2016", 4, "builder", None, districts=P14)
    nec = h.kind("Necropolis")
    h.set_gold(st, 1, 4)
    assert not rules.can_build(st, tb, 1, nec)
    put_city(st, 1, ["Manor", "Castle", "Temple", "Church", "Market", "Docks", "Palace"])
    assert rules.is_complete(st, 1) and not rules.can_build(st, tb, 1, nec)
    h.set_gold(st, 1, 5)
    assert rules.can_build(st, tb, 1, nec)
