"""One test per checklist rule (RULES.md §6) for the last part of the roster the kernel
plays: the 2016 Magistrate (warrants and confiscation, lines 57-62), the classic bonus
purples (Armory, Museum, Lighthouse, Bell Tower, Hospital, Throne Room) and the 2016 unique
districts Framework, Necropolis and Theater (lines 128-140).

Like ``test_rules_roster3.py``, each test puts the kernel into an exact situation with the
``kernel_helpers`` and strategies whose choice is forced there, or checks the property over
many seeds.  Tests named ``test_rule_NNN_*`` carry the checklist text in their docstring.
Every situation also checks that no gold and no card appeared or vanished
(``gold_conserved``; ``total_cards`` counts the cards under the Museum).
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
import pytest

from citadels_sim.kernel import characters, districts, draft, game, rules, scoring, turn
from citadels_sim.kernel import layout as L
from citadels_sim.kernel import state as S


setup = h.roster_setup  # an exact situation, 2016 by default


cset, play, types_in = h.cset, h.play_turn_events, h.types_in
gold_conserved, golds, pile = h.gold_conserved, h.golds, h.tax_pile

A, T, M, K, B, ME, AR, W, R9 = range(9)  # rank indices (rank 9 = index 8)
SEEDS = 80

#: 14 unique districts holding every 2016 district these tests play
P14 = ["Armory", "Museum", "Framework", "Necropolis", "Stables", "Theater", "Quarry",
       "Monument", "Keep", "Great Wall", "Thieves' Den", "Library", "Dragon Gate", "Gold Mine"]
#: classic bonus purples these tests play (k = 6: three base purple cards out, the Graveyard
#: among them so that the Diplomat may be in the set)
C_BONUS = ("Lighthouse", "Armory", "Museum", "Bell Tower", "Hospital", "Throne Room")
C_REMOVED = ("Graveyard", "Dragon Gate", "University")

P_MAG = cset("2016", "Magistrate")
P_MAG_TC = cset("2016", "Magistrate", "Tax Collector")
P_TC = cset("2016", "Tax Collector")


def deck_kw(ruleset):
    """The district deck holding every district of these tests."""
    if ruleset == "classic":
        return {"districts": C_BONUS, "removed": C_REMOVED}
    return {"districts": P14}


def rsetup(ruleset, players=4, families="builder", chars=None, **kw):
    return setup(ruleset, players, families, chars, **deck_kw(ruleset), **kw)


def put_city(st, s, names):
    """``set_city`` taking each district out of the deck when a copy is there, so that the
    number of cards in the game stays the deck's."""
    for k in h.kinds(names):
        h.take_from_deck(st, k)
    h.set_city(st, s, names)


def names(kinds) -> list[str]:
    return sorted(h.key(k) for k in kinds)


def city(st, s) -> list[str]:
    return names(h.city_list(st, s))


def hand(st, s) -> list[str]:
    return names(h.hand_list(st, s))


def warrant(st, signed, magistrate=0, unsigned=()):
    """The Magistrate of seat ``magistrate`` has placed his warrants: ``signed`` is the
    signed one (a rank index), ``unsigned`` the others."""
    st.g[L.G_WARRANT] = signed
    st.g[L.G_WARRANTS] = sum(1 << r for r in (signed, *unsigned))
    st.g[L.G_MAGISTRATE] = magistrate


# =============================================================================================
# Rank 1: Magistrate (2016)
# =============================================================================================
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
            assert "manor" in city(st, 0) and "manor" not in city(st, 1)
        else:
            assert not conf and "manor" in city(st, 1) and "manor" not in city(st, 0)
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
    assert city(st, 0) == ["palace"] and city(st, 1) == ["castle", "manor"]
    assert hand(st, 1) == ["market", "tavern", "tavern"]  # a 4th district: over the limit
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
    assert city(st, 1) == [] and hand(st, 1) == ["manor"] and h.gold(st, 1) == 13
    assert city(st, 0) == ["palace"] and gold_conserved(st)

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
    assert hand(st, 1) == ["temple"] * (3 - c.d)  # the cards paid are gone ...
    assert names(h.deck_list(st)) == ["temple"] * c.d  # ... to the bottom of the deck
    assert city(st, 0) == ["thieves_den"] and city(st, 1) == ["temple"]
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
    assert city(st, 0) == ["manor"]
    assert city(st, 1) == sorted([free, "temple" if how == "framework" else "castle"])
    assert h.gold(st, 1) == 3 and h.total_cards(st) == before and gold_conserved(st)
    assert names(h.deck_list(st))[-1:] == [h.key(sac[0].a)]  # destroyed: deck bottom


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
    assert city(st, 0) == ["manor", "quarry"] and city(st, 1) == ["manor", "temple"]
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
        assert ("monument" in city(st, 0)) is taken and ("monument" in city(st, 1)) is not taken


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
            assert city(st, 0) == ["stables"] and city(st, 1) == ["temple"]
            assert h.gold(st, 1) == 13 - 1
        else:
            assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["stables", "temple"]
            assert city(st, 1) == ["stables", "temple"] and h.gold(st, 1) == 13 - 3
        assert hand(st, 1) == [] and gold_conserved(st)


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
        assert city(st, 0) == ["manor"] and city(st, 1) == []
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


# =============================================================================================
# Districts: Armory, Museum (classic and 2016)
# =============================================================================================
def _complete(n):
    return ["Castle", "Palace", "Church", "Monastery", "Cathedral", "Market", "Docks",
            "Harbor"][:n]


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_128_armory(ruleset):
    """128. Armory: destroying it destroys one district (C: in another player's city); never
    in a complete city; ignores the Keep, Bishop and Great Wall."""
    st0, tb = rsetup(ruleset, 4, "random")
    n = int(st0.g[L.G_N_COMPLETE])
    h.set_holders(st0, {B: 1, ME: 0})  # seat 1's Bishop is alive: the Warlord could not
    put_city(st0, 0, ["Armory", "Tavern"])
    put_city(st0, 1, ["Keep", "Manor"])
    put_city(st0, 2, ["Great Wall", "Temple"])
    put_city(st0, 3, _complete(n))
    assert rules.bishop_protects(st0, tb, 1) and rules.is_complete(st0, 3)
    before = h.total_cards(st0)
    seen = Counter()
    for seed in range(3 * SEEDS):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        districts.turn_actions(st, tb, 0, ME)
        evs = h.of_type(h.events(st), "armory")
        if not evs:
            assert h.city_list(st, 0) == h.city_list(st0, 0)
            continue
        (e,) = evs
        seen[(e.a, h.key(e.b))] += 1
        assert "armory" not in city(st, 0)  # it destroyed itself ...
        assert h.key(e.b) not in city(st, e.a) or e.a == 0  # ... and the target
        assert names(h.deck_list(st)[-2:]) == sorted([h.key(e.b), "armory"])  # deck bottom
        assert golds(st) == golds(st0) and h.total_cards(st) == before
    expected = {(1, "keep"), (1, "manor"), (2, "great_wall"), (2, "temple")}
    if ruleset == "2016":
        expected.add((0, "tavern"))  # 2016: his own city too (never the Armory itself)
    assert set(seen) == expected  # never the complete city of seat 3
    # his own city complete: the Armory cannot be destroyed, so it is not used (D24)
    st, tb = rsetup(ruleset, 4, "random")
    put_city(st, 0, ["Armory"] + _complete(n)[:n - 1])
    put_city(st, 1, ["Manor"])
    assert rules.is_complete(st, 0)
    assert not any(rules.armory_target(st, tb, 0, o, i)
                   for o in range(4) for i in range(st.p[o, L.P_CITY_N]))
    for seed in range(SEEDS // 2):
        h.reseed(st, seed)
        h.clear_log(st)
        districts.turn_actions(st, tb, 0, ME)
        assert not h.of_type(h.events(st), "armory") and "armory" in city(st, 0)
    # a played turn: the builder blows up the Keep of the protected leader, his dearest
    st, tb = rsetup(ruleset, 4, "builder")
    h.set_holders(st, {ME: 0, B: 1})
    put_city(st, 0, ["Armory"])
    put_city(st, 1, ["Keep", "Temple", "Tavern", "Watchtower", "Church", "Market"])
    h.set_deck(st, [])
    before = h.total_cards(st)
    evs = play(st, tb, ME, 0)
    (e,) = h.of_type(evs, "armory")
    assert (e.a, h.key(e.b)) == (1, "keep")
    assert city(st, 0) == [] and "keep" not in city(st, 1)
    assert names(h.deck_list(st)) == ["armory", "keep"]
    assert h.total_cards(st) == before and gold_conserved(st)


def _score_extras(st, tb, s):
    return int(scoring.score_seat(st, tb, s)[4])


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_129_museum(ruleset):
    """129. Museum: tuck 1 card once per turn for +1 point each; destroyed → the cards go to
    the bottom of the deck; moved → the cards go with it."""
    # once per turn: a second use in the same turn does nothing; the next turn tucks again
    st, tb = rsetup(ruleset, 4, "builder")
    put_city(st, 0, ["Museum"])
    h.set_hand(st, 0, ["Tavern", "Temple", "Market", "Manor", "Castle", "Watchtower",
                       "Church"], from_deck=True)
    before = h.total_cards(st)
    tucked = []
    for turn_no in (1, 2):
        st.g[L.G_TURN_USED] = 0  # a new turn
        h.clear_log(st)
        for _ in range(3):
            districts.turn_actions(st, tb, 0, ME)
        evs = h.of_type(h.events(st), "museum")
        assert len(evs) == 1 and st.g[L.G_PILE_N] == turn_no
        tucked.append(evs[0].a)
        assert h.pile(st)[:turn_no] == tucked
        assert h.total_cards(st) == before  # the pile is counted
    assert st.p[0, L.P_HAND_N] == 5
    assert Counter(h.hand_list(st, 0)) + Counter(tucked) == Counter(
        h.kinds(["Tavern", "Temple", "Market", "Manor", "Castle", "Watchtower", "Church"]))
    # random choices in played turns: never more than one card per turn
    for seed in range(SEEDS // 2):
        st, tb = rsetup(ruleset, 4, "random", seed=seed)
        h.set_holders(st, {ME: 0})
        put_city(st, 0, ["Museum"])
        h.set_hand(st, 0, ["Tavern", "Temple", "Market", "Manor", "Castle"], from_deck=True)
        h.reseed(st, seed)
        before = h.total_cards(st)
        evs = play(st, tb, ME, 0)
        assert len(h.of_type(evs, "museum")) == st.g[L.G_PILE_N] <= 1
        assert h.total_cards(st) == before and gold_conserved(st)
    # +1 point per card under it, for its owner only
    st, tb = rsetup(ruleset, 4, "builder")
    put_city(st, 0, ["Museum"])
    put_city(st, 1, ["Manor"])
    assert _score_extras(st, tb, 0) == 0
    for k in h.kinds(["Tavern", "Temple", "Palace"]):
        h.take_from_deck(st, k)
        S.tuck(st, k)
    assert _score_extras(st, tb, 0) == 3 and _score_extras(st, tb, 1) == 0
    total = int(scoring.score_seat(st, tb, 0)[0])
    assert total == 4 + 3  # its cost, +1 per card
    # destroyed by the Warlord: the cards go to the bottom of the deck with it
    st1 = h.copy_state(st)
    h.set_deck(st1, ["Docks"])
    before = h.total_cards(st1)
    h.clear_log(st1)
    districts.destroy_district(st1, tb, 2, W, 0, 0, 3)
    assert st1.g[L.G_PILE_N] == 0 and city(st1, 0) == []
    assert names(h.deck_list(st1)[1:4]) == ["palace", "tavern", "temple"]
    assert h.key(h.deck_list(st1)[-1]) == "museum" and h.total_cards(st1) == before
    assert _score_extras(st1, tb, 0) == 0
    # moved by the Diplomat: the cards go with it
    kw = deck_kw(ruleset)
    for seed in range(SEEDS):
        st2, tb2 = setup(ruleset, 4, "random", cset(ruleset, "Diplomat"), seed=seed, **kw)
        h.set_holders(st2, {W: 1})
        put_city(st2, 0, ["Museum"])
        put_city(st2, 1, ["Tavern"])
        for k in h.kinds(["Tavern", "Temple", "Palace"]):
            h.take_from_deck(st2, k)
            S.tuck(st2, k)
        h.set_gold(st2, 1, 10)
        h.reseed(st2, seed)
        before = h.total_cards(st2)
        h.clear_log(st2)
        characters.end_of_turn(st2, tb2, L.CH_DIPLOMAT, 1, W)
        if h.of_type(h.events(st2), "exchange"):
            break
    else:
        pytest.fail("the Diplomat never exchanged")
    assert city(st2, 1) == ["museum"] and city(st2, 0) == ["tavern"]
    assert st2.g[L.G_PILE_N] == 3 and h.total_cards(st2) == before
    assert _score_extras(st2, tb2, 1) == 3 and _score_extras(st2, tb2, 0) == 0
    assert h.gold(st2, 1) == 10 - 3 and h.gold(st2, 0) == 3 and gold_conserved(st2)


# =============================================================================================
# Districts: classic Lighthouse, Bell Tower, Hospital, Throne Room
# =============================================================================================
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
    assert city(st, 0) == ["lighthouse"] and hand(st, 0) == [h.key(e.a)]
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


def test_rule_132_bell_tower():
    """132. C Bell Tower: an optional announcement when built sets N = 7; destroying the
    Bell Tower restores 8."""
    # built as his own 7th district: N = 7 and his city is complete at once
    st, tb = rsetup("classic", 4, "builder")
    assert st.g[L.G_N_COMPLETE] == 8
    h.set_holders(st, {ME: 0})
    put_city(st, 0, ["Manor", "Castle", "Temple", "Church", "Market", "Docks"])
    put_city(st, 1, ["Palace", "Monastery", "Tavern", "Harbor", "Prison", "Watchtower"])
    h.set_hand(st, 0, ["Bell Tower"], from_deck=True)
    h.set_deck(st, [])
    h.set_gold(st, 0, 5)
    evs = play(st, tb, ME, 0)
    (e,) = h.of_type(evs, "bell_tower")
    assert e.a == 7 and st.g[L.G_N_COMPLETE] == 7 and st.g[L.G_BELL] == 1
    assert types_in(evs).index("build") < types_in(evs).index("bell_tower")
    assert rules.is_complete(st, 0) and not rules.is_complete(st, 1)
    # a city already at 7 is complete once it is announced; destroying it restores 8
    st, tb = rsetup("classic", 4, "builder")
    h.set_holders(st, {ME: 0})
    put_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Bell Tower"], from_deck=True)
    put_city(st, 1, ["Palace", "Monastery", "Tavern", "Harbor", "Prison", "Watchtower",
                     "Temple"])
    h.set_gold(st, 0, 5)
    h.set_deck(st, [])
    # the builder announces only when no opponent's city is larger than his
    evs = play(st, tb, ME, 0)
    assert not h.of_type(evs, "bell_tower") and st.g[L.G_N_COMPLETE] == 8
    h.clear_city(st, 0, to_deck=True)
    put_city(st, 0, ["Manor", "Castle", "Church", "Market", "Docks", "Cathedral"])
    h.set_city(st, 0, h.city_list(st, 0) + [h.kind("Bell Tower")])  # 7 with the tower
    st.g[L.G_BELL] = 0
    districts.build_triggers(st, tb, 0, ME, h.kind("Bell Tower"), False)
    assert st.g[L.G_N_COMPLETE] == 7 and rules.is_complete(st, 1)
    # a complete city cannot lose it; from an incomplete one the Warlord may destroy it
    i = h.city_list(st, 0).index(h.kind("Bell Tower"))
    assert not rules.destroyable(st, tb, 0, i)
    h.set_city(st, 0, ["Bell Tower", "Manor"])
    assert rules.destroyable(st, tb, 0, 0)
    before = h.total_cards(st)
    districts.destroy_district(st, tb, 2, W, 0, 0, 4)
    assert st.g[L.G_N_COMPLETE] == 8 and st.g[L.G_BELL] == 0
    assert not rules.is_complete(st, 1) and h.total_cards(st) == before
    # the announcement is optional (random choices: both), and without one nothing changes
    announced = Counter()
    for seed in range(SEEDS):
        st, tb = rsetup("classic", 4, "random")
        h.reseed(st, seed)
        h.clear_log(st)
        districts.build_triggers(st, tb, 0, ME, h.kind("Bell Tower"), False)
        ann = bool(h.of_type(h.events(st), "bell_tower"))
        announced[ann] += 1
        assert st.g[L.G_N_COMPLETE] == (7 if ann else 8) and st.g[L.G_BELL] == int(ann)
    assert announced[True] and announced[False]
    # quick game (N = 7 already): nothing to announce; destroying it leaves N at 7
    st, tb = setup("classic", 4, "builder", quick=True, **deck_kw("classic"))
    districts.build_triggers(st, tb, 0, ME, h.kind("Bell Tower"), False)
    assert st.g[L.G_N_COMPLETE] == 7 and st.g[L.G_BELL] == 0


def test_rule_133_hospital():
    """133. C Hospital: a killed holder still reveals and gathers, and does nothing else."""
    # the turn itself: a killed King with the Hospital
    st, tb = rsetup("classic", 4, "builder")
    st.g[L.G_CROWN] = 0
    h.set_holders(st, {K: 1})
    h.kill(st, K)
    put_city(st, 1, ["Hospital", "Manor", "Castle"])
    h.set_hand(st, 1, ["Palace"], from_deck=True)
    h.set_gold(st, 1, 10)
    h.clear_log(st)
    turn.gather_only_turn(st, tb, K, 1)
    evs = h.events(st)
    assert types_in(evs) == ["call", "gather_gold"]  # no crown, no income, no build
    assert h.gold(st, 1) == 12 and city(st, 1) == ["castle", "hospital", "manor"]
    assert st.g[L.G_CROWN] == 0 and gold_conserved(st)
    # whole rounds: seat 0 owns the Hospital; whenever his character is killed he reveals
    # it and gathers, nothing more; other killed characters stay silent
    cases = 0
    for seed in range(300):
        st, tb = h.make_state("classic", 4, "random", seed=seed, log=True, max_rounds=1,
                              **deck_kw("classic"))
        put_city(st, 0, ["Hospital"])
        h.set_gold(st, 0, 8)
        h.play_game(st, tb)
        evs = h.events(st)
        kills = h.of_type(evs, "kill")
        if not kills:
            continue
        killed = kills[0].a
        holder = [e.seat for e in h.of_type(evs, "pick") if e.a == killed]
        if not holder:
            continue  # nobody held it
        for tn in h.turns(evs):
            if tn[0].rank != killed:
                continue
            assert tn[0].seat == holder[0] == 0
            assert [e.type for e in tn][1:] in (["gather_gold"], ["gather_cards"])
            cases += 1
        skips = h.of_type(evs, "skip_killed")
        if holder[0] == 0:
            assert not skips
        else:
            assert [(e.seat, e.rank) for e in skips] == [(holder[0], killed)]
    assert cases >= 8


def test_rule_134_throne_room():
    """134. C Throne Room: +1 gold each time the crown changes holder."""
    # the King takes the crown from another seat: +1 to the Throne Room's owner (seat 2)
    for king, crown, gain in ((1, 0, 1), (0, 0, 0), (2, 0, 1), (1, 1, 0)):
        st, tb = rsetup("classic", 4, "builder")
        st.g[L.G_CROWN] = crown
        put_city(st, 2, ["Throne Room"])
        h.set_holders(st, {K: king})
        h.set_deck(st, [])
        evs = play(st, tb, K, king)
        tr = h.of_type(evs, "throne_room")
        assert st.g[L.G_CROWN] == king
        assert [(e.seat, e.a) for e in tr] == [(2, 1)] * gain
        assert types_in(evs).index("crown") < (types_in(evs).index("throne_room")
                                               if tr else 99)
        assert h.gold(st, 2) == gain + (2 if king == 2 else 0)  # (+2: his own gather)
        assert gold_conserved(st)
    # a killed King's heir at the end of the round: the crown moves, +1
    st, tb = rsetup("classic", 4, "builder")
    st.g[L.G_CROWN] = 0
    put_city(st, 2, ["Throne Room"])
    h.set_holders(st, {K: 3})
    h.kill(st, K)
    h.clear_log(st)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 3 and h.gold(st, 2) == 1
    assert [(e.seat, e.a) for e in h.of_type(h.events(st), "throne_room")] == [(2, 1)]
    # the classic Emperor always moves the crown to someone else: +1
    for seed in range(10):
        st, tb = rsetup("classic", 4, "random", cset("classic", "Emperor"), seed=seed)
        st.g[L.G_CROWN] = 1
        put_city(st, 2, ["Throne Room"])
        h.set_holders(st, {K: 0})
        h.set_deck(st, [])
        h.reseed(st, seed)
        evs = play(st, tb, K, 0)
        assert st.g[L.G_CROWN] not in (0, 1)
        assert len(h.of_type(evs, "throne_room")) == 1 and gold_conserved(st)
    # whole games: the owner gains exactly 1 per change of crown holder
    for seed in range(6):
        st, tb = h.make_state("classic", 4, "random", seed=seed, log=True,
                              **deck_kw("classic"))
        put_city(st, 1, ["Throne Room"])
        h.play_game(st, tb)
        evs = h.events(st)
        changes = [e for e in h.of_type(evs, "crown") if e.a != e.seat]
        owned = [any(h.kind("Throne Room") in h.city_at(e, s) for s in range(4))
                 for e in changes]
        assert changes and len(h.of_type(evs, "throne_room")) == sum(owned)


# =============================================================================================
# Districts: 2016 Framework, Necropolis, Theater
# =============================================================================================
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
    assert city(st, 1) == ["palace", "temple"]
    assert hand(st, 1) == ["manor"]  # affordable, but the limit is spent
    assert names(h.deck_list(st)) == ["framework"]  # destroyed: bottom of the deck
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
    assert city(st, 1) == ["manor", "necropolis"] and names(h.deck_list(st)) == ["temple"]
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
        assert "necropolis" in city(st, 1) and city(st, 2) == ["castle"]
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


def _theater_rounds(players, chars, seeds):
    """Deal ``seeds`` rounds with seat 0 owning the Theater: yields (before, after, event)
    with the holders (rank -> seat) before and after the exchange."""
    for seed in range(seeds):
        st, tb = h.make_state("2016", players, "random", seed=seed, log=True,
                              characters=chars, districts=P14)
        put_city(st, 0, ["Theater"])
        h.start_round(st, 1)
        h.clear_log(st)
        draft.draft(st, tb)
        evs = h.events(st)
        before = {e.a: e.seat for e in h.of_type(evs, "pick")}
        after = {r: int(st.g[L.G_HOLDER + r]) for r in range(int(st.g[L.G_NRANKS]))
                 if st.g[L.G_HOLDER + r] >= 0}
        th = h.of_type(evs, "theater")
        assert len(th) <= 1
        if th:
            assert types_in(evs)[-1] == "theater"  # after the whole selection
        yield before, after, (th[0] if th else None)


@pytest.mark.parametrize("players,chars", [(4, None), (5, None), (3, P_TC), (2, None)])
def test_rule_140_theater(players, chars):
    """140. P Theater: after the selection phase, a blind exchange with an opponent's
    character; 2–3 players: give a chosen card, take a random one of the opponent's."""
    partners, gave, took_low, swaps = Counter(), Counter(), Counter(), 0
    for before, after, e in _theater_rounds(players, chars, 2 * SEEDS):
        if e is None:
            assert after == before
            continue
        swaps += 1
        o, give, take = e.a, e.b, e.c
        assert e.seat == 0 and o != 0
        assert before[give] == 0 and before[take] == o  # his card for one of the opponent's
        expect = dict(before)
        expect[give], expect[take] = o, 0
        assert after == expect
        partners[o] += 1
        mine = sorted(r for r, s in before.items() if s == 0)
        theirs = sorted(r for r, s in before.items() if s == o)
        if players >= 4:
            assert len(mine) == len(theirs) == 1
        else:
            assert len(mine) == len(theirs) == 2
            gave[mine.index(give)] += 1
            took_low[theirs.index(take)] += 1
    assert swaps >= 2 * SEEDS // 4 and set(partners) == set(range(1, players))
    if players <= 3:
        assert set(gave) == {0, 1}  # either of his two
        # the opponent's card taken at random: both of his two, about half each
        assert set(took_low) == {0, 1} and min(took_low.values()) >= swaps // 5
    # a whole round: the calls follow the exchanged characters
    for seed in range(SEEDS):
        st, tb = h.make_state("2016", players, "random", seed=seed, log=True,
                              characters=chars, districts=P14, max_rounds=1)
        put_city(st, 0, ["Theater"])
        h.play_game(st, tb)
        evs = h.events(st)
        th = h.of_type(evs, "theater")
        if not th:
            continue
        t = types_in(evs)
        at = t.index("theater")
        assert "pick" not in t[at + 1:] and t.index("call") > at  # before rank 1 is called
        (e,) = th
        calls = {c.rank: c.seat for c in h.of_type(evs, "call")}
        skipped = {c.rank: c.seat for c in h.of_type(evs, "skip_killed")}
        calls.update(skipped)
        if e.b in calls:
            assert calls[e.b] == e.a
        if e.c in calls:
            assert calls[e.c] == 0
        break
    else:
        pytest.fail("no Theater exchange in a whole round")
