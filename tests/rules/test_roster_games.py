"""Whole played games with the characters beyond the base eight: cards and gold are conserved
and every power event (Navigator, Alchemist, Abbot, Scholar, Queen, both Tax Collectors,
Emperor, Spy, Marshal) is what its character's rule gives (docs/rules.md §3).
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import A, B, K, R9, ROSTER_GAME_CONFIGS, T, cset, gold_conserved, roster_games
from citadels_sim.kernel import layout as L


@pytest.mark.parametrize("ruleset,players,chars", ROSTER_GAME_CONFIGS)
def test_roster_games_conserve_and_follow_powers(ruleset, players, chars):
    """Whole games with the roster characters: cards and gold (stashes + tax pile) are
    conserved; every power event is what its character's rule gives (Navigator 4 and 4,
    Alchemist refund = build gold of the turn, tax right after a build exactly when due,
    Queen +3 only next to the rank-4 holder, tribute from a richest other player)."""
    for evs, st, tb in roster_games(ruleset, players, chars):
        assert st.g[L.G_OVER] == 1
        assert h.total_cards(st) == tb.kinds[L.K_COUNT].sum()
        assert gold_conserved(st) and h.kinds_consistent(st)
        assert (st.p[:players, L.P_GOLD] >= 0).all()
        has_tc = tb.cfg[L.G_RANK_CHAR + R9] == L.CH_TAX_COLLECTOR
        for t in h.turns(evs):
            ch = int(tb.cfg[L.G_RANK_CHAR + t[0].rank])
            seat = t[0].seat
            for i, e in enumerate(t):
                if e.type == "build":
                    due = has_tc and ch != L.CH_TAX_COLLECTOR and e.gold[seat] >= 1
                    nxt = t[i + 1].type if i + 1 < len(t) else None
                    assert (nxt == "tax") == bool(due), (ch, e)
                elif e.type == "navigator":
                    assert ch == L.CH_NAVIGATOR
                    assert (e.a, e.b) in ((4, 0), (0, 4)) or (e.a == 0 and e.deck_n == 0)
                elif e.type == "refund":
                    assert ch == L.CH_ALCHEMIST and i == len(t) - 1
                    assert e.a == sum(b.c for b in h.of_type(t, "build")) > 0
                elif e.type == "tribute":
                    prev = t[i - 1]
                    others = [prev.gold[o] for o in range(players) if o != seat]
                    assert ch == L.CH_ABBOT and prev.gold[e.a] == max(others) > prev.gold[seat]
                    if ruleset == "classic":
                        assert others.count(max(others)) == 1
                elif e.type == "scholar":
                    assert ch == L.CH_SCHOLAR and 1 <= e.a <= 7
            if ch == L.CH_ALCHEMIST and any(b.c > 0 for b in h.of_type(t, "build")):
                assert h.of_type(t, "refund")
        # the Queen: +3 only with the rank-4 holder next to her
        for es in h.rounds(evs).values():
            picks = {e.a: e.seat for e in es if e.type == "pick"}
            for e in es:
                if e.type == "queen":
                    k = picks.get(K)
                    assert e.seat == picks[R9] and k is not None and e.a == 3
                    assert (e.seat - k) % players in (1, players - 1)


EMPEROR_SPY_MARSHAL_CONFIGS = [
    ("classic", 4, cset("classic", "Tax Collector", "Emperor", "Alchemist")),
    ("classic", 5, cset("classic", "Tax Collector", "Emperor", "Queen")),
    ("classic", 3, cset("classic", "Tax Collector", "Emperor")),
    ("2016", 4, cset("2016", "Spy", "Emperor", "Marshal")),
    ("2016", 5, cset("2016", "Spy", "Emperor", "Marshal", "Queen")),
    ("2016", 3, cset("2016", "Spy", "Emperor", "Marshal", "Tax Collector")),
]
GAMES = 6


def _emperor_spy_marshal_games(ruleset, players, chars):
    return h.played_games(ruleset, players, chars, 4242, GAMES)


@pytest.mark.parametrize("ruleset,players,chars", EMPEROR_SPY_MARSHAL_CONFIGS)
def test_emperor_spy_marshal_classic_tax_games_conserve_and_follow_powers(ruleset, players, chars):
    """Whole games with the Emperor, Spy, Marshal and classic Tax Collector: cards and gold
    are conserved; every crown move, tribute, spy look, seizure and classic tax is what the
    rules give (rules 67, 72-74, 83-86, 89, 104, 106, 107, 111)."""
    n_complete = None
    counts = Counter()
    for evs, st, tb in _emperor_spy_marshal_games(ruleset, players, tuple(chars)):
        n_complete = int(tb.cfg[L.G_N_COMPLETE])
        assert st.g[L.G_OVER] == 1
        assert h.total_cards(st) == tb.kinds[L.K_COUNT].sum()
        assert gold_conserved(st) and h.kinds_consistent(st)
        assert (st.p[:players, L.P_GOLD] >= 0).all()
        for es in h.rounds(evs).values():
            picks = {e.a: e.seat for e in es if e.type == "pick"}
            killed = [e.a for e in es if e.type == "kill"]
            killed = killed[0] if killed else -1
            tc = picks.get(T, -1) if tb.cfg[L.G_RANK_CHAR + T] == L.CH_TAX_COLLECTOR_CLASSIC \
                else -1
            bishop = picks.get(B, -1) if killed != B else -1
            built = Counter()  # builds per call (index of the call event)
            call = None
            for i, e in enumerate(es):
                prev = es[i - 1] if i else None
                if e.type == "call":
                    call = e
                elif e.type == "build":
                    built[id(call)] += 1
                elif e.type == "crown_given":
                    counts["crown_given"] += 1
                    crown_ev = prev
                    assert crown_ev.type == "crown" and crown_ev.seat == e.a
                    assert e.a != e.seat and (e.a != crown_ev.a or crown_ev.a == e.seat)
                    assert picks.get(K) == e.seat
                    before = es[i - 2]  # the state before the crown moved
                    had = before.gold[e.a] > 0 or before.hand_n[e.a] > 0
                    heir = any(x.type == "heir" for x in es[max(0, i - 3):i])
                    if heir and ruleset == "2016":
                        assert (e.b, e.c) == (0, -1)
                    else:
                        assert not heir  # the classic killed Emperor moves nothing
                        assert (e.b == 1) + (e.c >= 0) == (1 if had else 0)
                        assert e.gold[e.a] == before.gold[e.a] - e.b
                elif e.type == "spy":
                    counts["spy"] += 1
                    assert e.d == min(e.c, prev.gold[e.a])
                    assert e.gold[e.a] == prev.gold[e.a] - e.d
                    assert e.hand_n[e.seat] - prev.hand_n[e.seat] == e.c or e.deck_n == 0
                elif e.type == "seize":
                    counts["seize"] += 1
                    target_city = h.city_at(prev, e.a)
                    own = h.city_at(prev, e.seat)
                    wall = L.D_GREAT_WALL in target_city
                    assert e.a != e.seat and e.b in target_city and e.b not in own
                    assert e.b != L.D_KEEP and tb.kinds[L.K_COST, e.b] <= 3
                    assert len(target_city) + (L.D_MONUMENT in target_city) < n_complete
                    assert e.a != bishop
                    assert e.c == tb.kinds[L.K_COST, e.b] + (1 if wall else 0)
                    assert e.gold[e.a] == prev.gold[e.a] + e.c
                elif e.type == "classic_tax":
                    counts["classic_tax"] += 1
                    assert tc >= 0 and killed != T and e.a == tc and e.seat != tc
                    assert e.b == 1 and e.gold[e.seat] == prev.gold[e.seat] - 1
                    if call.rank == T:  # retroactive: the rank-1 holder built
                        assert e.seat == picks.get(A)
                    else:
                        assert call.seat == e.seat and built[id(call)] >= 1 and call.rank > T
            # every turn after the Tax Collector's, by another seat, with a build: the tax is
            # paid exactly when he has gold at the end of the turn (before Poor House, Park
            # and the refund)
            if tc >= 0 and killed != T:
                for t in h.turns(es):
                    if t[0].rank <= T or t[0].seat == tc or not h.of_type(t, "build"):
                        continue
                    body = [x for x in t if x.type not in ("poor_house", "park", "refund")]
                    paid = h.of_type(t, "classic_tax")
                    assert len(paid) <= 1
                    if paid:
                        assert body[-1] is paid[0]
                        assert body[-2].gold[t[0].seat] >= 1
                    else:
                        assert body[-1].gold[t[0].seat] == 0
                    counts["taxed turns"] += 1
    if ruleset == "2016":
        assert counts["crown_given"] > 0 and counts["spy"] > 0 and counts["seize"] > 0
    else:
        assert counts["crown_given"] > 0 and counts["classic_tax"] > 0
        assert counts["taxed turns"] > 0
