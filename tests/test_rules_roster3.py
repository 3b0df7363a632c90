"""One test per checklist rule (RULES.md §6) for the third batch of roster characters the
kernel plays: the Diplomat (classic and 2016), the Wizard, the Seer and the Cardinal; plus
the 2016 districts whose effects act during a turn or at the end (Poor House, Park,
Monument, Stables, Secret Vault, Ivory Tower, Capitol, Basilica).

Like ``test_rules_roster2.py``, each test puts the kernel into an exact situation with the
``kernel_helpers`` and strategies whose choice is forced there, or checks the property over
many seeds.  Tests named ``test_rule_NNN_*`` carry the checklist text in their docstring.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
import pytest

from citadels_sim.kernel import characters, rules, scoring
from citadels_sim.kernel import layout as L


setup = h.roster_setup  # an exact situation, 2016 by default


cset, play, types_in = h.cset, h.play_turn_events, h.types_in
gold_conserved, golds = h.gold_conserved, h.golds


A, T, M, K, B, ME, AR, W, R9 = range(9)  # rank indices (rank 9 = index 8)
SEEDS = 60


def cost(tb, name) -> int:
    return int(tb.kinds[L.K_COST, h.kind(name)])


def all_cards(st) -> Counter:
    """Every card in the deck, the hands and the cities."""
    n = h.n_players(st)
    out = Counter(h.deck_list(st))
    for s in range(n):
        out.update(h.hand_list(st, s))
        out.update(h.city_list(st, s))
    return out


def diplomat_kw(ruleset):
    """Classic: the Diplomat needs the Graveyard out of the deck (RULES.md §4.5)."""
    return {"removed": ("Graveyard",)} if ruleset == "classic" else {}


def diplomat_setup(ruleset, players=4, families="random", bishop=None):
    st, tb = setup(ruleset, players, families, cset(ruleset, "Diplomat"), **diplomat_kw(ruleset))
    assert tb.cfg[L.G_RANK_CHAR + W] == L.CH_DIPLOMAT
    holders = {W: 0}
    if bishop is not None:
        holders[B] = bishop
    h.set_holders(st, holders)
    return st, tb


def exchanges(st0, tb, seat=0, tries=SEEDS):
    """{(target, gave, got, paid): count} and the states after a Diplomat's end of turn,
    over many seeds (the random family also has "no exchange" among its options)."""
    out = Counter()
    for seed in range(tries):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        characters.end_of_turn(st, tb, L.CH_DIPLOMAT, seat, W)
        evs = h.of_type(h.events(st), "exchange")
        assert len(evs) <= 1
        if evs:
            e = evs[0]
            out[(e.a, e.b, e.c, e.d)] += 1
            # the swap happened as logged, and the gold went to the other player
            assert h.gold(st, seat) == h.gold(st0, seat) - e.d
            assert h.gold(st, e.a) == h.gold(st0, e.a) + e.d
            assert Counter(h.city_list(st, seat)) == (
                Counter(h.city_list(st0, seat)) - Counter([e.b]) + Counter([e.c]))
            assert Counter(h.city_list(st, e.a)) == (
                Counter(h.city_list(st0, e.a)) - Counter([e.c]) + Counter([e.b]))
            assert h.kinds_consistent(st) and gold_conserved(st)
            for s in range(h.n_players(st)):  # never two districts of one name (rule 110)
                assert max(Counter(h.city_list(st, s)).values(), default=0) <= 1
        else:
            assert golds(st) == golds(st0)
    return out


def swaps(out):
    """{(target, gave name key, got name key): paid} from ``exchanges``."""
    return {(t, h.key(a), h.key(b)): paid for (t, a, b, paid) in out}


# =============================================================================================
# Rank 8: Diplomat
# =============================================================================================
@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_108_diplomat_pays_positive_difference(ruleset):
    """108. The Diplomat pays the positive cost difference to the other player; he receives
    nothing when it is negative."""
    st, tb = diplomat_setup(ruleset)
    h.set_city(st, 0, ["Tavern", "Castle"])  # 1, 4
    h.set_city(st, 1, ["Palace"])  # 5
    h.set_city(st, 2, ["Temple"])  # 1
    h.set_gold(st, 0, 10)
    h.set_gold(st, 1, 1)
    h.set_gold(st, 2, 1)
    out = exchanges(st, tb, tries=120)
    assert swaps(out) == {
        (1, "tavern", "palace"): 4,
        (1, "castle", "palace"): 1,
        (2, "tavern", "temple"): 0,  # equal costs: free
        (2, "castle", "temple"): 0,  # he gives more than he takes: receives nothing
    }
    # the cost function itself, both ways round
    assert rules.exchange_cost(st, tb, 0, 1, 2, 0) == 0  # Castle for Temple
    assert rules.exchange_cost(st, tb, 0, 0, 1, 0) == 4  # Tavern for Palace
    # he cannot pay: only the swaps he can afford are offered
    h.set_gold(st, 0, 1)
    assert set(swaps(exchanges(st, tb, tries=120))) == {
        (1, "castle", "palace"), (2, "tavern", "temple"), (2, "castle", "temple")}
    h.set_gold(st, 0, 0)
    assert set(swaps(exchanges(st, tb, tries=120))) == {
        (2, "tavern", "temple"), (2, "castle", "temple")}
    # a played turn (builder: swaps only with the leader for the cheaper district)
    st, tb = diplomat_setup(ruleset, families="builder")
    h.set_city(st, 0, ["Tavern"])
    h.set_city(st, 1, ["Palace", "Manor"])  # the leader
    h.set_deck(st, [])
    h.set_gold(st, 0, 5)
    evs = play(st, tb, W, 0)
    (e,) = h.of_type(evs, "exchange")
    assert e.a == 1 and h.key(e.b) == "tavern" and e.d == cost(tb, h.key(e.c)) - 1
    assert types_in(evs)[-1] == "exchange"  # at the end of the turn
    assert h.gold(st, 0) == 5 + 2 - e.d and h.gold(st, 1) == e.d and gold_conserved(st)


def _complete(n):
    names = ["Manor", "Castle", "Palace", "Temple", "Church", "Monastery", "Cathedral",
             "Market", "Docks"]
    return names[:n]


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_109_diplomat_own_complete_city(ruleset):
    """109. P Diplomat: he may give from his own complete city. C Diplomat: he may not."""
    st, tb = diplomat_setup(ruleset)
    n = int(st.g[L.G_N_COMPLETE])
    h.set_city(st, 0, _complete(n))
    h.set_city(st, 1, ["Fortress"])
    h.set_gold(st, 0, 10)
    assert rules.is_complete(st, 0)
    out = swaps(exchanges(st, tb))
    legal = {(0, i, 1, 0) for i in range(n)
             if rules.exchangeable(st, tb, 0, i, 1, 0)}
    if ruleset == "2016":
        assert len(legal) == n
        assert out and all(t == 1 and got == "fortress" for (t, _, got) in out)
        assert len(out) >= 3
    else:
        assert not legal and not out
    # nobody takes from a complete city, in either ruleset
    st, tb = diplomat_setup(ruleset)
    h.set_city(st, 0, ["Tavern"])
    h.set_city(st, 1, _complete(n))
    h.set_gold(st, 0, 20)
    assert not any(rules.exchangeable(st, tb, 0, 0, 1, j) for j in range(n))
    assert not exchanges(st, tb)


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_110_no_exchange_leaving_duplicates(ruleset):
    """110. A Diplomat exchange never leaves two same-named districts in one city."""
    st, tb = diplomat_setup(ruleset)
    quarry = ["Quarry"] if ruleset == "2016" else []  # the Quarry does not help
    h.set_city(st, 0, ["Manor", "Tavern"] + quarry)
    h.set_city(st, 1, ["Manor", "Castle"] + quarry)
    h.set_gold(st, 0, 20)
    out = swaps(exchanges(st, tb, tries=150))
    # Tavern for Manor: two Manors with him; Manor for Castle: two Manors with seat 1;
    # Quarry for anything: two Quarries in the other city (2016)
    assert (1, "tavern", "manor") not in out and (1, "manor", "castle") not in out
    assert not any("quarry" in (a, b) and a != b for (_, a, b) in out)
    assert (1, "tavern", "castle") in out
    # swapping two districts of one name leaves no duplicate: allowed
    assert set(out) <= {(1, "tavern", "castle"), (1, "manor", "manor"),
                        (1, "quarry", "quarry")}


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_106_diplomat_never_exchanges_the_keep(ruleset):
    """106. The Keep cannot be destroyed by the Warlord; P: the rank-8 character cannot affect
    it at all; C: the Diplomat cannot exchange it."""
    st, tb = diplomat_setup(ruleset)
    h.set_city(st, 0, ["Keep", "Tavern"])
    h.set_city(st, 1, ["Manor"])
    h.set_city(st, 2, ["Keep"])
    h.set_gold(st, 0, 20)
    assert not rules.exchangeable(st, tb, 0, 0, 1, 0)  # his Keep
    assert not rules.exchangeable(st, tb, 0, 1, 2, 0)  # the other player's Keep
    assert rules.exchangeable(st, tb, 0, 1, 1, 0)
    out = swaps(exchanges(st, tb))
    assert set(out) == {(1, "tavern", "manor")}


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_089_diplomat_and_protected_bishop(ruleset):
    """89. The protected Bishop's districts cannot be destroyed by the Warlord (C, P, F),
    exchanged by the Diplomat (C, P) or seized by the Marshal (P)."""
    st, tb = diplomat_setup(ruleset, bishop=1)
    h.set_city(st, 0, ["Tavern"])
    h.set_city(st, 1, ["Temple", "Manor"])
    h.set_city(st, 2, ["Market", "Castle"])
    h.set_gold(st, 0, 20)
    out = swaps(exchanges(st, tb, tries=100))
    assert out and all(t == 2 for (t, _, _) in out)
    assert {b for (_, _, b) in out} == {"market", "castle"}
    # a killed Bishop protects nothing
    h.kill(st, B)
    out = swaps(exchanges(st, tb, tries=100))
    assert {t for (t, _, _) in out} == {1, 2}
    # 3 players: the Diplomat who is also the Bishop may not give his own districts (D8)
    extra = ("Tax Collector",) if ruleset == "2016" else ()  # 3 players in 2016: a rank 9
    st, tb = setup(ruleset, 3, "random", cset(ruleset, "Diplomat", *extra),
                   **diplomat_kw(ruleset))
    h.set_holders(st, {W: 0, B: 0})
    h.set_city(st, 0, ["Tavern"])
    h.set_city(st, 1, ["Manor"])
    h.set_gold(st, 0, 20)
    assert not rules.exchangeable(st, tb, 0, 0, 1, 0)
    assert not exchanges(st, tb)


def test_rule_107_great_wall_diplomat_2016():
    """107 (D20). Great Wall: C, the Warlord pays +1 for the owner's other districts; P, the
    rank-8 character pays +1 for any district in that city -- the 2016 Diplomat pays the
    other player 1 more, even with no cost difference; a Great Wall in his own city does not
    apply, and the classic Diplomat ignores it."""
    st, tb = diplomat_setup("2016")
    h.set_city(st, 0, ["Castle", "Tavern"])  # 4, 1
    h.set_city(st, 1, ["Great Wall", "Manor"])  # 6, 3
    h.set_gold(st, 0, 20)
    out = swaps(exchanges(st, tb, tries=150))
    assert out == {
        (1, "castle", "manor"): 0 + 1,  # negative difference: only the +1
        (1, "tavern", "manor"): 2 + 1,
        (1, "castle", "great_wall"): 2 + 1,
        (1, "tavern", "great_wall"): 5 + 1,
    }
    # with exactly 1 gold, only the swap that costs nothing but the wall
    h.set_gold(st, 0, 1)
    assert swaps(exchanges(st, tb)) == {(1, "castle", "manor"): 1}
    # a Great Wall in his own city: no extra
    st, tb = diplomat_setup("2016")
    h.set_city(st, 0, ["Great Wall", "Castle"])
    h.set_city(st, 1, ["Temple"])
    h.set_gold(st, 0, 20)
    assert swaps(exchanges(st, tb, tries=100)) == {(1, "great_wall", "temple"): 0,
                                                   (1, "castle", "temple"): 0}
    # classic: the Great Wall names only the Warlord
    st, tb = diplomat_setup("classic")
    h.set_city(st, 0, ["Castle"])
    h.set_city(st, 1, ["Great Wall", "Manor"])
    h.set_gold(st, 0, 20)
    assert swaps(exchanges(st, tb, tries=100)) == {(1, "castle", "manor"): 0,
                                                   (1, "castle", "great_wall"): 2}


# =============================================================================================
# Rank 3: Wizard and Seer
# =============================================================================================
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


# =============================================================================================
# Rank 5: Cardinal
# =============================================================================================
P_CARDINAL = cset("2016", "Cardinal")


def test_rule_094_cardinal_assist():
    """94. Cardinal: he takes exactly the shortfall from one player, gives 1 card per gold,
    and then must build that district (never the card being built; once per turn)."""
    donors = Counter()
    for seed in range(30):
        st, tb = setup("2016", 4, "builder", P_CARDINAL, seed=seed)
        assert tb.cfg[L.G_RANK_CHAR + B] == L.CH_CARDINAL
        h.set_holders(st, {B: 0})
        h.set_hand(st, 0, ["Palace", "Stables", "Tavern", "Temple", "Watchtower", "Market"])
        h.set_deck(st, ["Docks", "Harbor", "Fortress"])
        h.set_gold(st, 1, 2)  # too poor to give 3
        h.set_gold(st, 2, 3)
        h.set_gold(st, 3, 5)
        g0, hand0 = golds(st), Counter(h.hand_list(st, 0))
        evs = play(st, tb, B, 0)
        builds, assists = h.of_type(evs, "build"), h.of_type(evs, "assist")
        # Palace (5) with 2 gold from gathering: shortfall 3 from one player who has it
        assert [h.key(e.a) for e in builds] == ["palace"] and len(assists) == 1
        (a,) = assists
        assert a.b == 3 and a.a in (2, 3)
        donors[a.a] += 1
        assert evs.index(a) == evs.index(builds[0]) + 1
        assert h.gold(st, 0) == 0 and h.gold(st, a.a) == g0[a.a] - 3
        # he gave exactly 3 cards, never the Palace, to the donor
        given = Counter(h.hand_list(st, a.a))
        assert sum(given.values()) == 3 and h.kind("Palace") not in given
        assert given + Counter(h.hand_list(st, 0)) + Counter([h.kind("Palace")]) == hand0
        # once per turn: the Stables (not limited) is not built with a second assist,
        # although seat 1 or 3 still has 2 gold
        assert h.kind("Stables") not in h.city_list(st, 0)
        assert gold_conserved(st)
    assert donors and set(donors) <= {2, 3}  # seat 1 (2 gold) never gives
    # no player has the shortfall: no assist, no build
    st, tb = setup("2016", 4, "builder", P_CARDINAL)
    h.set_holders(st, {B: 0})
    h.set_hand(st, 0, ["Palace", "Tavern", "Temple", "Watchtower"])
    h.set_deck(st, ["Docks"])
    h.set_gold(st, 1, 2)
    h.set_gold(st, 0, 2)  # shortfall 3, three other cards
    st.g[L.G_TURN_CHAR], st.g[L.G_TURN_SEAT], st.g[L.G_TURN_USED] = L.CH_CARDINAL, 0, 0
    assert not rules.can_build(st, tb, 0, h.kind("Palace"))
    h.set_gold(st, 2, 5)
    assert rules.can_build(st, tb, 0, h.kind("Palace"))
    # too few other cards to give: no assist
    h.set_hand(st, 0, ["Palace", "Tavern"])
    assert not rules.can_build(st, tb, 0, h.kind("Palace"))
    st.g[L.G_TURN_CHAR] = L.CH_BISHOP  # only the Cardinal
    h.set_hand(st, 0, ["Palace", "Tavern", "Temple", "Watchtower", "Market", "Manor"])
    assert not rules.can_build(st, tb, 0, h.kind("Palace"))
    st.g[L.G_TURN_CHAR], st.g[L.G_TURN_SEAT], st.g[L.G_TURN_USED] = -1, -1, 0


def test_rule_094_cardinal_income_in_cards():
    """94 (with 93-style income). Cardinal: 1 card (no gold) per religious district."""
    st, tb = setup("2016", 4, "builder", P_CARDINAL)
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, ["Temple", "Church", "Manor"])
    h.set_hand(st, 0, ["Cathedral"])  # useful but unaffordable: the builder takes gold
    h.set_deck(st, ["Docks", "Harbor", "Fortress", "Castle"])
    evs = play(st, tb, B, 0)
    (inc,) = h.of_type(evs, "income")
    assert (inc.a, inc.b, inc.c) == (0, L.T_RELIGIOUS, 2)
    assert h.gold(st, 0) == 2  # gathering only
    assert Counter(h.hand_list(st, 0)) == Counter(h.kinds(["Cathedral", "Docks", "Harbor"]))


# =============================================================================================
# Districts
# =============================================================================================
def test_rule_130_poor_house_and_park():
    """130. Poor House: +1 gold at the end of a turn with 0 stash. Park: +2 cards at the end of
    a turn with an empty hand."""
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, ["Poor House", "Park"])
    h.set_hand(st, 0, ["Palace"])
    h.set_deck(st, ["Tavern", "Temple", "Watchtower"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, B, 0)
    assert types_in(evs)[-2:] == ["poor_house", "park"]
    assert h.gold(st, 0) == 1
    assert Counter(h.hand_list(st, 0)) == Counter(h.kinds(["Tavern", "Temple"]))
    # gold left and a card in hand: neither
    h.set_hand(st, 0, ["Cathedral"])
    h.set_gold(st, 0, 0)
    evs = play(st, tb, B, 0)  # 2 gold, cannot build the Cathedral
    assert not h.of_type(evs, "poor_house", "park")
    assert h.gold(st, 0) == 2 and h.hand_list(st, 0) == h.kinds(["Cathedral"])


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


def test_rule_141_secret_vault():
    """141. P Secret Vault: never buildable; +3 if in hand at the end."""
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {B: 0})
    h.set_hand(st, 0, ["Secret Vault"])
    h.set_deck(st, [])  # he takes gold
    h.set_gold(st, 0, 30)
    assert not rules.can_build(st, tb, 0, h.kind("Secret Vault"))
    assert not h.of_type(play(st, tb, B, 0), "build")
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Secret Vault", "Secret Vault", "Temple"], to_deck=False)
    total, value, _, _, extras = scoring.score_seat(st, tb, 0)
    assert (total, value, extras) == (3 + 6, 3, 6)
    h.set_hand(st, 0, ["Temple"], to_deck=False)
    assert scoring.score_seat(st, tb, 0)[0] == 3


def _score(tb_st, city):
    st, tb = tb_st
    h.set_city(st, 0, city, rnd=1)
    st.g[L.G_ROUND] = 5
    st.g[L.G_FIRST] = -1
    return scoring.score_seat(st, tb, 0)


def test_rule_143_ivory_tower():
    """143. P Ivory Tower: +5 when it is the only unique district (a Haunted Quarter counted as
    another type allows this)."""
    pos = setup("2016", 4, "builder")
    assert _score(pos, ["Ivory Tower", "Manor"])[0] == 5 + 3 + 5
    assert _score(pos, ["Ivory Tower", "Keep", "Manor"])[0] == 5 + 3 + 3
    # the Haunted Quarter counted as a noble district: the Ivory Tower stays the only one
    total, _, colours, _, extras = _score(pos, ["Ivory Tower", "Haunted Quarter", "Manor"])
    assert (total, colours, extras) == (5 + 2 + 3 + 5, 0, 5)
    # counted as the missing military type it gives both all five types and the +5
    total, _, colours, _, extras = _score(
        pos, ["Ivory Tower", "Haunted Quarter", "Manor", "Temple", "Tavern"])
    assert (total, colours, extras) == (5 + 2 + 3 + 1 + 1 + 3 + 5, 3, 5)
    assert _score(pos, ["Manor"])[4] == 0


def test_rule_144_capitol():
    """144. P Capitol: +3 once with ≥3 districts of one type."""
    pos = setup("2016", 4, "builder")
    assert _score(pos, ["Capitol", "Manor", "Castle"])[4] == 0
    assert _score(pos, ["Capitol", "Manor", "Castle", "Palace"])[4] == 3
    # two types with 3: still +3 once
    assert _score(pos, ["Capitol", "Manor", "Castle", "Palace", "Temple", "Church",
                        "Monastery"])[4] == 3
    # the Haunted Quarter may complete the three
    assert _score(pos, ["Capitol", "Manor", "Castle", "Haunted Quarter"])[4] == 3


def test_rule_145_basilica():
    """145. P Basilica: +1 per district with an odd cost (the Artist is not in the kernel's
    roster)."""
    pos = setup("2016", 4, "builder")
    total, value, _, _, extras = _score(pos, ["Basilica", "Manor", "Temple", "Castle"])
    assert (value, extras) == (4 + 3 + 1 + 4, 2) and total == value + 2
    assert _score(pos, ["Basilica", "Castle"])[4] == 0
    assert _score(pos, ["Basilica", "Monastery", "Keep", "Cathedral"])[4] == 3
