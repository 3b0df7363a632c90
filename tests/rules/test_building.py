"""Building (docs/rules.md §2.5.1, §2.5.2; checklist rules 33-37): no build before gathering, the
build limit of every character (the table of §2.5.1, and in played games), no duplicate
names, paying the build cost without credit (the Factory discount, the Thieves' Den's cards),
and building beyond N districts.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    A, AR, B, C_ABBOT, C_ALCHEMIST, C_NAVIGATOR, C_QUEEN, K, M, ME, P_ABBOT, P_ALCHEMIST_TC,
    P_NAVIGATOR, P_PATRICIAN, P_QUEEN, P_SCHOLAR, P_TC, P_TRADER, R9, ROSTER_GAME_CONFIGS, T, W,
    all_base_games, empty_state as setup, play_turn_events as play, roster_games, types_in,
)
from citadels_sim.kernel import layout as L, rules


def test_rule_033_no_build_before_gathering():
    """33. No district can be built before gathering."""
    for ruleset, players, evs, st, tb in all_base_games():
        for t in h.turns(evs):
            names = types_in(t)
            gi = [i for i, n in enumerate(names) if n in ("gather_gold", "gather_cards")][0]
            assert "build" not in names[:gi]
    # with no gold, the 2 gold of the gather pay the Market
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_hand(st, 0, ["Market"])
    evs = play(st, tb, T, 0)
    names = types_in(evs)
    assert names.index("gather_gold") < names.index("build")
    assert h.city_list(st, 0) == [h.kind("Market")] and h.gold(st, 0) == 0


@pytest.mark.parametrize("rank", [A, T, M, K, B, ME, W])
def test_rule_034_default_build_limit_one(rank):
    """34. The default build limit is 1 per turn."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {rank: 0})
    h.set_hand(st, 0, ["Temple", "Tavern", "Watchtower", "Manor", "Church", "Market"])
    h.set_gold(st, 0, 50)
    evs = play(st, tb, rank, 0)
    assert len(h.of_type(evs, "build")) == 1


NON_TRADE = ["Temple", "Church", "Watchtower", "Prison", "Manor", "Monastery", "Castle"]
LIMITS = [
    ("classic", C_ABBOT, B, L.CH_ABBOT, 1),
    ("classic", C_ALCHEMIST, ME, L.CH_ALCHEMIST, 1),
    ("classic", C_NAVIGATOR, AR, L.CH_NAVIGATOR, 0),
    ("classic", C_QUEEN, R9, L.CH_QUEEN, 1),
    ("2016", P_PATRICIAN, K, L.CH_PATRICIAN, 1),
    ("2016", P_ABBOT, B, L.CH_ABBOT, 1),
    ("2016", P_ALCHEMIST_TC, ME, L.CH_ALCHEMIST, 1),
    ("2016", P_TRADER, ME, L.CH_TRADER, 1),
    ("2016", P_NAVIGATOR, AR, L.CH_NAVIGATOR, 0),
    ("2016", P_SCHOLAR, AR, L.CH_SCHOLAR, 2),
    ("2016", P_QUEEN, R9, L.CH_QUEEN, 1),
    ("2016", P_TC, R9, L.CH_TAX_COLLECTOR, 1),
]


@pytest.mark.parametrize("ruleset,chars,rank,char,limit", LIMITS,
                         ids=[f"{x[0]}-{L.CHARACTER_KEYS[x[3]]}" for x in LIMITS])
def test_build_limit_table(ruleset, chars, rank, char, limit):
    """§2.5.1 Build limit: default 1; Seer, Scholar 2; Navigator 0 (no build of any kind);
    Trader: trade districts do not count (his limit for the others is 1)."""
    players = 5 if char == L.CH_QUEEN else 4
    st, tb = setup(ruleset, players, "builder", chars)
    assert rules.build_limit(st, rank) == limit
    assert st.g[L.G_RANK_CHAR + rank] == char
    h.set_holders(st, {rank: 0})
    h.set_hand(st, 0, NON_TRADE)
    h.set_gold(st, 0, 100)
    evs = play(st, tb, rank, 0)
    assert len(h.of_type(evs, "build")) == limit
    # a trade district counts for everyone but the Trader, and the Navigator never builds
    st.g[L.G_TURN_CHAR] = char
    st.g[L.G_BUILDS_LEFT] = 0
    assert rules.counts_toward_limit(st, tb, h.kind("Market")) == (char != L.CH_TRADER)
    assert rules.counts_toward_limit(st, tb, h.kind("Manor"))
    st.g[L.G_TURN_CHAR] = -1


def test_build_limits_in_played_games():
    """§2.5.1 in played games: the Navigator never builds, the Scholar builds at most 2, the
    Trader at most 1 non-trade district, every other roster character at most 1."""
    seen = Counter()
    for ruleset, players, chars in ROSTER_GAME_CONFIGS:
        for evs, st, tb in roster_games(ruleset, players, chars):
            for t in h.turns(evs):
                ch = int(tb.cfg[L.G_RANK_CHAR + t[0].rank])
                builds = h.of_type(t, "build")
                non_trade = [e for e in builds if tb.kinds[L.K_TYPE, e.a] != L.T_TRADE]
                if ch == L.CH_NAVIGATOR:
                    assert not builds
                elif ch == L.CH_SCHOLAR:
                    assert len(builds) <= 2
                elif ch == L.CH_TRADER:
                    assert len(non_trade) <= 1
                    seen["trader_multi"] += len(builds) > 1
                elif ch == L.CH_ARCHITECT:
                    assert len(builds) <= 3
                else:
                    assert len(builds) <= 1
                seen[ch] += 1
    for ch in (L.CH_PATRICIAN, L.CH_ABBOT, L.CH_ALCHEMIST, L.CH_TRADER, L.CH_NAVIGATOR,
               L.CH_SCHOLAR, L.CH_QUEEN, L.CH_TAX_COLLECTOR):
        assert seen[ch] > 5, L.CHARACTER_KEYS[ch]
    assert seen["trader_multi"] > 0


def test_rule_035_no_duplicate_names():
    """35. A district cannot be built if one with the same name is already in the builder's
    city (except the Quarry and the Wizard's turn)."""
    for ruleset in ("classic", "2016", "four_color"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_holders(st, {K: 0})
        h.set_city(st, 0, ["Manor"])
        h.set_hand(st, 0, ["Manor"])
        h.set_deck(st, ["Manor"] * 4)  # nothing useful: he draws Manors
        h.set_gold(st, 0, 10)
        assert not rules.can_build(st, tb, 0, h.kind("Manor"))
        evs = play(st, tb, K, 0)
        assert not h.of_type(evs, "build")
        assert h.city_list(st, 0) == [h.kind("Manor")]
    # 2016 Quarry: duplicates allowed, any number
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Quarry", "Manor", "Castle"])
    h.set_hand(st, 0, ["Manor"])
    h.set_deck(st, ["Temple"] * 4)
    h.set_gold(st, 0, 10)
    assert rules.can_build(st, tb, 0, h.kind("Manor"))
    play(st, tb, K, 0)
    assert st.p[0, L.P_KINDS + h.kind("Manor")] == 2
    h.set_hand(st, 0, ["Castle"])
    assert rules.can_build(st, tb, 0, h.kind("Castle"))
    # no duplicates at the end of any played game without a Quarry
    for ruleset, players, evs, st, tb in all_base_games():
        for s in range(players):
            if not st.p[s, L.P_KINDS + L.D_QUARRY]:
                city = h.city_list(st, s)
                assert len(city) == len(set(city)), (ruleset, city)


def test_rule_036_build_cost_no_credit():
    """36. A build requires paying its build cost (Factory discount, Thieves' Den cards ...)
    -- no credit; the stash never goes negative."""
    # 4 gold cannot pay a Palace (5)
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 2)
    evs = play(st, tb, T, 0)
    assert not h.of_type(evs, "build") and h.gold(st, 0) == 4
    # 2016 Factory: the Library costs 5
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Factory"])
    h.set_hand(st, 0, ["Library"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, T, 0)
    b = h.of_type(evs, "build")
    assert [e.a for e in b] == [h.kind("Library")] and b[0].c == 5 and h.gold(st, 0) == 0
    # no gold in any played game goes negative; gold is conserved
    for ruleset, players, evs, st, tb in all_base_games():
        assert min(min(e.gold) for e in evs) >= 0
        assert h.gold_conserved(st)


def test_rule_036_thieves_den_paid_with_cards_never_credit():
    """36. (Thieves' Den) Any part of its cost may be paid with cards from hand, 1 card =
    1 gold; the stash never goes negative.

    The seat has 0 gold after gathering cards and exactly 6 other cards: it can pay the
    Thieves' Den (6) with 6 cards and no gold."""
    st, tb = setup("2016", 4, "heuristic")
    h.set_holders(st, {T: 0})
    useless = ["Manor", "Castle", "Palace", "Temple", "Church"]
    h.set_city(st, 0, useless)
    h.set_hand(st, 0, ["Thieves' Den"] + useless)  # 1 useful card: the heuristic draws
    h.set_deck(st, ["Monastery", "Cathedral", "Tavern", "Market"] * 3)
    evs = play(st, tb, T, 0)
    assert h.of_type(evs, "gather_cards")
    builds = h.of_type(evs, "build")
    assert [e.a for e in builds] == [h.kind("Thieves' Den")]
    assert builds[0].c + builds[0].d == 6  # gold paid + cards paid = cost
    assert builds[0].c == 0 and builds[0].d == 6
    assert h.gold(st, 0) == 0
    assert h.gold_conserved(st)


def test_rule_035_036_builds_in_played_games():
    """35, 36. (whole games) No build duplicates a name already in the city (2016 Quarry
    excepted); every build pays its build cost (Factory: other uniques 1 less) in gold and
    Thieves' Den cards, from what the builder has."""
    n = 0
    for ruleset, players, evs, st, tb in all_base_games():
        for prev, e in zip(evs, evs[1:]):
            if e.type != "build":
                continue
            n += 1
            before = h.city_at(prev, e.seat)
            kind = e.a
            if kind in before:
                assert ruleset == "2016" and L.D_QUARRY in before, (ruleset, e)
            cost = int(tb.kinds[L.K_COST, kind])
            if (tb.kinds[L.K_TYPE, kind] == L.T_UNIQUE and kind != L.D_FACTORY
                    and L.D_FACTORY in before):
                cost -= 1
            assert e.b == cost and e.c + e.d == cost and e.c >= 0 and e.d >= 0
            assert e.d == 0 or kind == L.D_THIEVES_DEN
            assert e.c <= prev.gold[e.seat] and e.gold[e.seat] == prev.gold[e.seat] - e.c
            assert e.hand_n[e.seat] == prev.hand_n[e.seat] - 1 - e.d
    assert n > 1000


def test_rule_037_build_beyond_n():
    """37. Building beyond N districts is allowed."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Temple", "Church", "Tavern", "Market", "Prison",
                       "Watchtower"])
    assert rules.is_complete(st, 0)
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 10)
    play(st, tb, K, 0)
    assert st.p[0, L.P_CITY_N] == 9 and h.kind("Palace") in h.city_list(st, 0)
