"""The Artist (docs/rules.md §3 Rank 9; checklist rule 113): up to two districts beautified per
turn, the cost raised by 1 for points, the rank-8 characters and the Basilica, and in played
games.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    R9, W, cset, empty_state as setup, gold_conserved, play_turn_events as play, reseeded,
)
from citadels_sim.kernel import layout as L, rules, scoring


SEEDS = 80


def _artist_turns(st0, tb, tries=SEEDS):
    """Over seeds, the Artist's (seat 0) turn: (events, state), one at a time (a state with
    its log is about 9 MB)."""
    for seed in range(tries):
        st = reseeded(st0, seed)
        yield play(st, tb, R9, 0), st


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_113_artist_beautifies(ruleset):
    """113. Artist: up to 2 districts per turn, 1 stash gold each, each district once per
    game; the cost rises by 1 (points, Warlord cost, Marshal test, Basilica)."""
    chars = cset(ruleset, "Artist")
    st0, tb = setup(ruleset, 4, "random", chars)
    assert tb.cfg[L.G_RANK_CHAR + R9] == L.CH_ARTIST
    h.set_holders(st0, {R9: 0})
    h.set_city(st0, 0, ["Manor", "Castle", "Temple", "Market"])
    h.set_gold(st0, 0, 10)
    h.set_deck(st0, [])  # she gathers gold, holds no card and builds nothing
    counts = Counter()
    for evs, st in _artist_turns(st0, tb):
        beaut = h.of_type(evs, "beautify")
        counts[len(beaut)] += 1
        assert len(beaut) <= 2 and len({e.a for e in beaut}) == len(beaut)
        for e in beaut:  # 1 stash gold each, onto a district of her own city
            prev = evs[evs.index(e) - 1]
            assert e.seat == 0 and e.gold[0] == prev.gold[0] - 1
            assert e.a in h.city_list(st, 0)
        assert int(h.beautified(st, 0).sum()) == len(beaut) and gold_conserved(st)
    assert set(counts) == {0, 1, 2}
    # once per game: two already beautified, only the other two can be; all four: none
    st1 = h.copy_state(st0)
    h.beautify(st1, 0, range(2))
    for evs, st in _artist_turns(st1, tb):
        assert {h.key(e.a) for e in h.of_type(evs, "beautify")} <= {"temple", "market"}
    h.beautify(st1, 0, range(4))
    for evs, st in _artist_turns(st1, tb, 30):
        assert not h.of_type(evs, "beautify")
    # only stash gold pays: with 0 after the gather and an empty hand, nothing; with 1, one
    st1 = h.copy_state(st0)
    h.set_gold(st1, 0, 0)
    h.set_deck(st1, ["Palace"] * 40)
    for evs, st in _artist_turns(st1, tb, 40):
        gathered = evs[1].a if evs[1].type == "gather_gold" else 0
        assert len(h.of_type(evs, "beautify")) <= gathered
        assert h.gold(st, 0) >= 0
    # cost + 1: points, district value, Warlord cost, Basilica, Marshal, Diplomat
    st, tb = setup(ruleset, 4, "builder", chars)
    names = ["Manor", "Temple", "Church"] + (["Basilica"] if ruleset == "2016" else [])
    h.set_city(st, 0, names)
    plain = scoring.score_seat(st, tb, 0)
    wl = [rules.warlord_cost(st, tb, 0, i) for i in range(3)]
    h.beautify(st, 0, range(3))  # Manor 4, Temple 2, Church 3
    after_ = scoring.score_seat(st, tb, 0)
    assert after_[1] == plain[1] + 3 and after_[0] == plain[0] + 3 + (
        (1 - 2) if ruleset == "2016" else 0)  # Basilica: odd costs were 3, 1; now 3
    assert [rules.slot_cost(st, tb, 0, i) for i in range(3)] == [4, 2, 3]
    assert [rules.warlord_cost(st, tb, 0, i) for i in range(3)] == [c + 1 for c in wl]


def test_rule_113_artist_and_the_rank_8_characters_d21():
    """113, D21. The beautified cost counts for the Warlord (paid, the gold on the card goes
    to the bank), the Marshal (<= 3 test and payment; the beautification moves with the
    district) and the Diplomat (the difference)."""
    # Warlord: a beautified Manor costs 4 - 1 = 3 to destroy
    st0, tb = setup("2016", 4, "random", cset("2016", "Artist"))
    h.set_holders(st0, {W: 1})
    h.set_city(st0, 0, ["Manor"])
    h.beautify(st0, 0, [0])
    h.set_gold(st0, 1, 3)
    destroyed = 0
    for seed in range(SEEDS):
        st = reseeded(st0, seed)
        evs = play(st, tb, W, 1)
        for e in h.of_type(evs, "destroy"):
            assert (e.a, h.key(e.b), e.c) == (0, "manor", 3)
            assert h.gold(st, 0) == 0 and h.beautified(st, 0)[0] == 0 and gold_conserved(st)
            destroyed += 1
    assert destroyed > 0
    # Marshal: a beautified Tavern (2) may be seized and costs 2; a beautified Manor (4) not
    st0, tb = setup("2016", 4, "random", cset("2016", "Marshal", "Artist"))
    h.set_holders(st0, {W: 1})
    h.set_city(st0, 0, ["Tavern", "Manor", "Church"])
    h.beautify(st0, 0, range(2))
    h.set_gold(st0, 1, 10)
    assert not rules.seizable(st0, tb, 1, 0, 1)
    assert rules.seizable(st0, tb, 1, 0, 0) and rules.marshal_cost(st0, tb, 0, 0) == 2
    seized = Counter()
    for seed in range(SEEDS):
        st = reseeded(st0, seed)
        evs = play(st, tb, W, 1)
        for e in h.of_type(evs, "seize"):
            seized[(h.key(e.b), e.c)] += 1
            i = h.city_list(st, 1).index(e.b)
            assert h.beautified(st, 1)[i] == (1 if h.key(e.b) == "tavern" else 0)
            assert h.gold(st, 0) == e.c and gold_conserved(st)
    assert set(seized) == {("tavern", 2), ("church", 2)}
    # Diplomat: the difference uses the beautified costs
    st, tb = setup("2016", 4, "random", cset("2016", "Diplomat", "Artist"))
    h.set_city(st, 0, ["Tavern"])  # 1
    h.set_city(st, 1, ["Manor"])  # 3, beautified: 4
    assert rules.exchange_cost(st, tb, 0, 0, 1, 0) == 2
    h.beautify(st, 1, [0])
    assert rules.exchange_cost(st, tb, 0, 0, 1, 0) == 3
    h.beautify(st, 0, [0])
    assert rules.exchange_cost(st, tb, 0, 0, 1, 0) == 2


def _marks(e, s) -> int:
    """Beautified slots of seat ``s`` in the snapshot of event ``e``."""
    return int(e.row[L.L_BEAUTIFIED + s * L.CITY_CAP:L.L_BEAUTIFIED + (s + 1) * L.CITY_CAP].sum())


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_113_artist_in_played_games(ruleset):
    """113. In played games: at most 2 beautifications per Artist turn, each costing 1 stash
    gold and marking one more district of her city; gold is conserved."""
    chars = cset(ruleset, "Artist")
    total = 0
    for evs, st, tb in h.played_games(ruleset, 4, chars, 6, 16):
        for t in h.turns(evs):
            beaut = h.of_type(t, "beautify")
            assert len(beaut) <= 2
            assert all(e.rank == R9 for e in beaut)
            total += len(beaut)
        for i, e in enumerate(evs):
            if e.type == "beautify":
                prev, s = evs[i - 1], e.seat
                assert e.gold[s] == prev.gold[s] - 1
                assert _marks(e, s) == _marks(prev, s) + 1
        assert gold_conserved(st)
        n = h.n_players(st)
        for s in range(n):  # never more marks than districts
            assert int(h.beautified(st, s).sum()) <= int(st.p[s, L.P_CITY_N])
    assert total > 0
