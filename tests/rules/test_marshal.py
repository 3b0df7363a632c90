"""The 2016 Marshal (docs/rules.md §3 Rank 8; checklist rules 89, 104, 106-107, 111): what he may
seize and what he pays, the Bishop, a complete city, the Keep and the Great Wall.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
from kernel_helpers import (
    B, W, cset, empty_state as setup, gold_conserved, play_turn_events as play,
)
from citadels_sim.kernel import characters, layout as L, rules


P_MARSHAL = cset("2016", "Marshal")


def _seize_targets(st0, tb, seat, tries=60):
    """(target seat, district kind) seized by a random-family Marshal over many seeds."""
    out = Counter()
    for seed in range(tries):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        characters.end_of_turn(st, tb, L.CH_MARSHAL, seat, W)
        for e in h.of_type(h.events(st), "seize"):
            out[(e.a, e.b)] += 1
            assert e.c == rules.marshal_cost(st0, tb, e.a, h.city_list(st0, e.a).index(e.b))
            assert h.gold(st, seat) == h.gold(st0, seat) - e.c
            assert h.gold(st, e.a) == h.gold(st0, e.a) + e.c
            assert e.b in h.city_list(st, seat) and h.kinds_consistent(st)
            assert gold_conserved(st)
    return out


def _marshal(players=4, families="random"):
    st, tb = setup("2016", players, families, P_MARSHAL)
    assert tb.cfg[L.G_RANK_CHAR + W] == L.CH_MARSHAL
    h.set_holders(st, {W: 0})
    h.set_gold(st, 0, 100)
    return st, tb


def test_rule_111_marshal_seize():
    """111. The Marshal seizes cost ≤ 3 (after the Artist's +1) and pays the owner the cost;
    not from a complete city; not a name he already has."""
    st, tb = _marshal()
    h.set_city(st, 0, ["Tavern", "Prison"])
    h.set_city(st, 1, ["Manor", "Castle", "Tavern", "Temple", "Cathedral"])
    h.set_city(st, 2, ["Market", "Palace"])
    hits = _seize_targets(st, tb, 0)
    assert set(hits) == {(1, h.kind("Manor")), (1, h.kind("Temple")), (2, h.kind("Market"))}
    # cost <= 3, whatever the district (the Keep aside: rule 106)
    for k in range(L.N_KINDS):
        if k in (L.D_KEEP, L.D_GREAT_WALL):
            continue
        h.set_city(st, 1, [k])
        h.clear_city(st, 0)
        assert rules.seizable(st, tb, 0, 1, 0) == (tb.kinds[L.K_COST, k] <= 3), h.key(k)
        assert rules.marshal_cost(st, tb, 1, 0) == tb.kinds[L.K_COST, k]
    # a name he already has, even with a Quarry
    h.set_city(st, 0, ["Quarry", "Manor"])
    h.set_city(st, 1, ["Manor"])
    assert not rules.seizable(st, tb, 0, 1, 0)
    # never from himself
    assert not rules.seizable(st, tb, 0, 0, 1)
    # a forced seizure: pays its owner its cost, the district changes city
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 3)
    h.set_city(st, 1, ["Manor", "Palace"])
    out0, in0 = int(st.g[L.G_BANK_OUT]), int(st.g[L.G_BANK_IN])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_MARSHAL, 0, W)
    (e,) = h.of_type(h.events(st), "seize")
    assert (e.seat, e.a, e.b, e.c) == (0, 1, h.kind("Manor"), 3)
    assert h.gold(st, 0) == 0 and h.gold(st, 1) == 3
    assert h.city_list(st, 0) == [h.kind("Manor")] and h.city_list(st, 1) == [h.kind("Palace")]
    assert (int(st.g[L.G_BANK_OUT]), int(st.g[L.G_BANK_IN])) == (out0, in0)
    assert h.kinds_consistent(st) and st.p[0, L.P_TYPES + L.T_NOBLE] == 1
    # no credit: 2 gold cannot seize a cost-3 district
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 2)
    h.set_city(st, 1, ["Manor"])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_MARSHAL, 0, W)
    assert not h.of_type(h.events(st), "seize") and h.city_list(st, 1) == [h.kind("Manor")]
    # in a played turn (2016: any time; the kernel seizes at the end)
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 1)
    h.set_hand(st, 0, ["Dragon Gate"])
    h.set_city(st, 1, ["Market"])
    evs = play(st, tb, W, 0)
    assert h.of_type(evs, "seize") and h.city_list(st, 0) == [h.kind("Market")]
    assert h.gold(st, 1) == 2


def test_rule_089_bishop_protects_against_the_marshal():
    """89. The protected Bishop's districts cannot be destroyed by the Warlord (C, P, F),
    exchanged by the Diplomat (C, P) or seized by the Marshal (P)."""
    st, tb = _marshal()
    h.set_holders(st, {W: 0, B: 1})
    h.set_city(st, 1, ["Temple", "Manor"])
    h.set_city(st, 2, ["Tavern", "Market"])
    assert not rules.seizable(st, tb, 0, 1, 0) and not rules.seizable(st, tb, 0, 1, 1)
    hits = _seize_targets(st, tb, 0)
    assert hits and {s for s, _ in hits} == {2}
    # the killed Bishop protects nothing
    h.kill(st, B)
    hits = _seize_targets(st, tb, 0)
    assert {s for s, _ in hits} == {1, 2}


def test_rule_104_no_seizing_from_a_complete_city():
    """104. No district in a complete city can be destroyed, exchanged away by another player,
    or seized."""
    st, tb = _marshal()
    n = int(st.g[L.G_N_COMPLETE])
    city = ["Manor", "Tavern", "Temple", "Market", "Prison", "Watchtower", "Church",
            "Docks"][:n]
    h.set_city(st, 1, city)
    assert rules.is_complete(st, 1)
    assert not any(rules.seizable(st, tb, 0, 1, i) for i in range(n))
    assert _seize_targets(st, tb, 0) == Counter()
    # one district fewer: every one is seizable
    h.set_city(st, 1, city[:-1])
    assert all(rules.seizable(st, tb, 0, 1, i) for i in range(n - 1))
    assert len(_seize_targets(st, tb, 0)) > 1


def test_rule_106_keep_cannot_be_seized():
    """106. The Keep cannot be destroyed by the Warlord; P: the rank-8 character cannot
    affect it at all; C: the Diplomat cannot exchange it."""
    st, tb = _marshal()
    assert tb.kinds[L.K_COST, L.D_KEEP] <= 3  # cheap enough: only its own rule protects it
    h.set_city(st, 1, ["Keep", "Temple"])
    assert not rules.seizable(st, tb, 0, 1, 0) and rules.seizable(st, tb, 0, 1, 1)
    hits = _seize_targets(st, tb, 0)
    assert set(hits) == {(1, h.kind("Temple"))}


def test_rule_107_great_wall_and_the_marshal():
    """107. Great Wall: C, the Warlord pays +1 for the owner's other districts; P, the rank-8
    character pays +1 for any district in that city (the Marshal pays it to the owner, D20)."""
    st, tb = _marshal(families="builder")
    h.set_city(st, 1, ["Great Wall", "Manor", "Tavern"])
    assert [rules.marshal_cost(st, tb, 1, i) for i in range(3)] == [7, 4, 2]
    assert not rules.seizable(st, tb, 0, 1, 0)  # the Great Wall itself costs 6
    # a Great Wall in the Marshal's own city changes nothing
    h.set_city(st, 0, ["Great Wall"])
    h.set_city(st, 2, ["Manor"])
    assert rules.marshal_cost(st, tb, 2, 0) == 3
    # the forced seizure: the owner receives cost + 1
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 4)
    h.set_city(st, 1, ["Great Wall", "Manor"])
    out0, in0 = int(st.g[L.G_BANK_OUT]), int(st.g[L.G_BANK_IN])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_MARSHAL, 0, W)
    (e,) = h.of_type(h.events(st), "seize")
    assert (e.a, e.b, e.c) == (1, h.kind("Manor"), 4)
    assert h.gold(st, 0) == 0 and h.gold(st, 1) == 4
    assert (int(st.g[L.G_BANK_OUT]), int(st.g[L.G_BANK_IN])) == (out0, in0)
    # 3 gold is not enough there
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 3)
    h.set_city(st, 1, ["Great Wall", "Manor"])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_MARSHAL, 0, W)
    assert not h.of_type(h.events(st), "seize")
