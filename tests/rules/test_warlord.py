"""The Warlord (docs/rules.md §3 Rank 8; checklist rules 89, 102-107): the price of a
destruction, his own districts, a complete city, when he destroys, the Keep and the Great
Wall, and the destructions of played games.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    B, W, all_base_games, destroy_targets, draft_rounds, empty_state as setup,
    play_turn_events as play, types_in,
)
from citadels_sim.kernel import characters, layout as L, rules


def test_rule_102_warlord_pays_cost_minus_one():
    """102. The Warlord pays cost - 1 to the bank (a cost-1 district is free); the destroyed
    card goes to the bottom of the deck."""
    # free: the builder Warlord destroys only free districts
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Tavern"])
    h.set_gold(st, 0, 3)
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_WARLORD, 0, W)
    assert h.city_list(st, 1) == [] and h.gold(st, 0) == 3
    assert h.deck_list(st)[-1] == h.kind("Tavern")
    # paid: the aggressive Warlord hits the leader's Castle for 3
    st, tb = setup("classic", 4, "aggressive")
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Castle", "Manor"])
    h.set_gold(st, 0, 10)
    bank_in = int(st.g[L.G_BANK_IN])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_WARLORD, 0, W)
    d = h.of_type(h.events(st), "destroy")
    assert len(d) == 1 and d[0].a == 1 and d[0].b == h.kind("Castle") and d[0].c == 3
    assert h.gold(st, 0) == 7 and st.g[L.G_BANK_IN] == bank_in + 3
    assert h.city_list(st, 1) == [h.kind("Manor")]
    assert h.deck_list(st)[-1] == h.kind("Castle")
    assert h.gold_conserved(st)
    # played games: every destruction costs cost - 1
    for rs, players, evs, st, tb in all_base_games():
        for i, e in enumerate(evs):
            if e.type == "destroy":
                wall = tb.kinds[L.K_COUNT][L.D_GREAT_WALL] > 0  # may add 1 (rule 107)
                assert e.c == tb.kinds[L.K_COST, e.b] - 1 or (
                    wall and e.c == tb.kinds[L.K_COST, e.b])
                assert e.gold[e.seat] == evs[i - 1].gold[e.seat] - e.c


def test_rule_103_warlord_may_destroy_own_district():
    """103. The Warlord may destroy a district in his own city."""
    st, tb = setup("classic", 4, "random")
    h.set_holders(st, {W: 0})
    h.set_city(st, 0, ["Temple", "Church"])
    h.set_gold(st, 0, 5)
    assert rules.destroyable(st, tb, 0, 0)
    hits = destroy_targets(st, tb, 0)
    assert hits and all(seat == 0 for seat, _ in hits)


@pytest.mark.parametrize("ruleset,players", [("classic", 4), ("2016", 4), ("2016", 2),
                                             ("four_color", 4)])
def test_rule_104_complete_city_protected(ruleset, players):
    """104. No district in a complete city can be destroyed, exchanged away by another player,
    or seized."""
    st, tb = setup(ruleset, players, "random")
    n = int(st.g[L.G_N_COMPLETE])
    city = ["Manor", "Castle", "Palace", "Temple", "Church", "Tavern", "Market", "Prison"][:n]
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, city)
    h.set_gold(st, 0, 100)
    assert rules.is_complete(st, 1)
    assert not any(rules.destroyable(st, tb, 1, i) for i in range(n))
    assert destroy_targets(st, tb, 0) == Counter()
    # his own complete city too
    h.clear_city(st, 1)
    h.set_city(st, 0, city)
    assert destroy_targets(st, tb, 0) == Counter()
    # one district fewer: destroyable
    h.set_city(st, 0, city[:-1])
    assert all(rules.destroyable(st, tb, 0, i) for i in range(n - 1))


@pytest.mark.parametrize("ruleset", ["classic", "four_color"])
def test_rule_105_warlord_timing(ruleset):
    """105. C: the Warlord destroys only at the end of his turn. F: only after gathering."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {W: 0})
    h.set_city(st, 0, ["Watchtower"])
    h.set_hand(st, 0, ["Prison"])
    h.set_gold(st, 0, 5)
    h.set_city(st, 1, ["Tavern"])
    evs = play(st, tb, W, 0)
    names = types_in(evs)
    assert "destroy" in names and "build" in names
    gi = min(i for i, n in enumerate(names) if n.startswith("gather"))
    assert names.index("destroy") > gi
    if ruleset == "classic":
        assert names[-1] == "destroy"
    for rs, players, evs, st, tb in all_base_games():
        if rs != ruleset:
            continue
        for t in h.turns(evs):
            names = types_in(t)
            if "destroy" in names:
                i = names.index("destroy")
                gi = min(j for j, n in enumerate(names) if n.startswith("gather"))
                assert i > gi
                if ruleset == "classic":
                    assert set(names[i + 1:]) <= {"graveyard"}


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_106_keep_cannot_be_destroyed(ruleset):
    """106. The Keep cannot be destroyed by the Warlord; P: the rank-8 character cannot
    affect it at all; C: the Diplomat cannot exchange it."""
    st, tb = setup(ruleset, 4, "random")
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Keep", "Temple"])
    h.set_gold(st, 0, 100)
    assert not rules.destroyable(st, tb, 1, 0) and rules.destroyable(st, tb, 1, 1)
    hits = destroy_targets(st, tb, 0)
    assert hits and all(kind == h.kind("Temple") for _, kind in hits)


def test_rule_107_great_wall():
    """107. Great Wall: C, the Warlord pays +1 for the owner's other districts; P, the rank-8
    character pays +1 for any district in that city."""
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 1, ["Great Wall", "Manor", "Tavern"])
    assert [rules.warlord_cost(st, tb, 1, i) for i in range(3)] == [5, 3, 1]
    h.set_city(st, 2, ["Manor", "Tavern"])
    assert [rules.warlord_cost(st, tb, 2, i) for i in range(2)] == [2, 0]
    st, tb = setup("2016", 4, "builder")
    h.set_city(st, 1, ["Great Wall", "Manor", "Tavern"])
    assert [rules.warlord_cost(st, tb, 1, i) for i in range(3)] == [6, 3, 1]


def test_rule_089_104_106_destructions_in_played_games():
    """89, 104, 106. (whole games) The Warlord never destroys a district of a complete city,
    a Keep, or a district of the living Bishop's holder."""
    n = 0
    for ruleset, players, evs, st, tb in all_base_games():
        n_complete = int(tb.cfg[L.G_N_COMPLETE])
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            held = dict((r, s) for s, r in picks)
            killed = [e.a for e in es if e.type == "kill"]
            protected = held.get(B, -1) if B not in killed else -1
            for prev, e in zip(es, es[1:]):
                if e.type != "destroy":
                    continue
                n += 1
                target_city = h.city_at(prev, e.a)
                size = len(target_city) + (L.D_MONUMENT in target_city)
                assert size < n_complete, (ruleset, e)
                assert e.b != L.D_KEEP and e.b in target_city
                assert e.a != protected, (ruleset, rnd, e)
    assert n > 50
