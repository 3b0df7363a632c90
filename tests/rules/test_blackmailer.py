"""The 2016 Blackmailer (docs/rules.md §3 Rank 2; checklist rules 68-71): two distinct threats,
the threatened player gathers and then resolves the threat, the bribe of half the stash, and
what a revealed flower or plain marker takes.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    A, AR, B, GATHERS, K, M, ME, T, W, cset, empty_state as setup, gold_conserved,
    play_turn_events as play, reseeded, types_in,
)
from citadels_sim.kernel import characters, layout as L


SEEDS = 80


def _threat(st, rank, real=True, blackmailer=1, bluff=None):
    st.g[L.G_BLACKMAILER] = blackmailer
    other = bluff if bluff is not None else (W if rank != W else AR)
    st.g[L.G_THREAT] = rank if real else other
    st.g[L.G_THREATS] = (1 << rank) | (1 << other)


@pytest.mark.parametrize("witch", [False, True])
def test_rule_068_blackmailer_two_distinct_threats(witch):
    """68. Blackmailer: 2 threats go on 2 distinct characters, neither rank 1, killed nor
    bewitched."""
    chars = cset("2016", *(("Witch",) if witch else ()), "Blackmailer")
    st0, tb = setup("2016", 4, "random", chars)
    assert tb.cfg[L.G_RANK_CHAR + T] == L.CH_BLACKMAILER
    h.set_holders(st0, {A: 0, T: 1})
    if witch:
        st0.g[L.G_BEWITCHED] = K
        st0.g[L.G_WITCH] = 0
    else:
        h.kill(st0, K)
    seen = Counter()
    for seed in range(SEEDS * 2):
        st = reseeded(st0, seed)
        evs = play(st, tb, T, 1)
        (thr,) = h.of_type(evs, "threats")
        assert thr.a != thr.b and {thr.a, thr.b}.isdisjoint({A, T, K})
        assert st.g[L.G_THREATS] == (1 << thr.a) | (1 << thr.b)
        assert st.g[L.G_THREAT] == thr.a and st.g[L.G_BLACKMAILER] == 1
        seen.update((thr.a, thr.b))
    assert set(seen) == {M, B, ME, AR, W}
    # whole games
    for evs, st, tb in h.played_games("2016", 4, chars, 5, 16):
        out = {}
        for e in evs:
            if e.type in ("kill", "bewitch"):
                out[e.round] = e.a
            elif e.type == "threats":
                assert e.a != e.b and A not in (e.a, e.b) and T not in (e.a, e.b)
                assert out.get(e.round, -1) not in (e.a, e.b)
        assert gold_conserved(st)


def test_rule_069_threatened_player_gathers_then_resolves_first():
    """69. A threatened player gathers first and resolves the threat before any ability or
    build."""
    chars = cset("2016", "Blackmailer")
    st, tb = setup("2016", 4, ("heuristic", "builder", "builder", "builder"), chars)
    h.set_holders(st, {T: 1, ME: 0})
    h.set_city(st, 0, ["Gold Mine", "Market", "Smithy"])
    h.set_hand(st, 0, ["Tavern", "Temple"])  # 2 useful cards: the heuristic takes gold
    h.set_gold(st, 0, 4)
    _threat(st, ME)
    evs = play(st, tb, ME, 0)
    names = types_in(evs)
    assert names[:3] == ["call", "gather_gold", "bribe"]
    assert evs[1].a == 3  # the Gold Mine works before the threat
    assert evs[2].a == 1 and evs[2].b == (4 + 3) // 2 == 3
    assert {"bonus_gold", "income", "build"} <= set(names[3:])
    assert not st.g[L.G_THREATS] >> ME & 1 and gold_conserved(st)
    # a threatened Magician: the threat comes before his swap or redraw, over seeds
    st0, tb = setup("2016", 4, "random", chars)
    h.set_holders(st0, {T: 1, M: 0})
    h.set_hand(st0, 0, ["Tavern", "Temple"])
    h.set_hand(st0, 2, ["Manor", "Castle", "Palace"])
    h.set_gold(st0, 0, 5)
    _threat(st0, M)
    magic = 0
    for seed in range(SEEDS):
        st = reseeded(st0, seed)
        names = types_in(play(st, tb, M, 0))
        assert names[0] == "call" and names[1] in GATHERS
        assert names[2] in ("bribe", "blackmail")
        magic += bool({"swap_hands", "redraw", "build"} & set(names[3:]))
        assert gold_conserved(st)
    assert magic > 0


def test_rule_070_bribe_is_half_the_stash():
    """70. The bribe is floor(stash / 2) (0 with 0 or 1 gold) and removes the marker
    unrevealed."""
    chars = cset("2016", "Blackmailer")
    for stash in range(10):
        for real in (True, False):
            st, tb = setup("2016", 4, "heuristic", chars)
            h.set_holders(st, {T: 1, K: 0})
            h.set_gold(st, 0, stash)
            h.set_gold(st, 1, 3)
            _threat(st, K, real)
            h.clear_log(st)
            characters.resolve_threat(st, tb, 0, K)
            evs = h.events(st)
            assert types_in(evs) == ["bribe"]
            assert (evs[0].seat, evs[0].a, evs[0].b) == (0, 1, stash // 2)
            assert h.gold(st, 0) == stash - stash // 2 and h.gold(st, 1) == 3 + stash // 2
            assert st.g[L.G_THREATS] == 1 << W  # his marker is gone, the other stays
            assert gold_conserved(st)
    # with 0 or 1 gold the bribe is 0, which even the gambling builder pays
    for stash in (0, 1):
        st, tb = setup("2016", 4, "builder", chars)
        h.set_holders(st, {T: 1, K: 0})
        h.set_gold(st, 0, stash)
        _threat(st, K)
        h.clear_log(st)
        characters.resolve_threat(st, tb, 0, K)
        assert [(e.type, e.b) for e in h.events(st)] == [("bribe", 0)]
        assert h.gold(st, 0) == stash
    # in a played turn: the stash after gathering (cards: 1 gold stays 1) counts
    st, tb = setup("2016", 4, "heuristic", chars)
    h.set_holders(st, {T: 1, K: 0})
    h.set_gold(st, 0, 1)
    _threat(st, K)
    evs = play(st, tb, K, 0)
    assert types_in(evs)[:3] == ["call", "gather_cards", "bribe"] and evs[2].b == 0


def test_rule_071_refused_flower_takes_all_plain_nothing():
    """71. Unbribed and revealed: the flower takes the whole stash; a plain marker takes
    nothing."""
    chars = cset("2016", "Blackmailer")
    # the builder refuses; the heuristic Blackmailer reveals exactly the flower
    for real in (True, False):
        st, tb = setup("2016", 4, ("builder", "heuristic", "builder", "builder"), chars)
        h.set_holders(st, {T: 1, K: 0})
        h.set_gold(st, 0, 7)
        _threat(st, K, real)
        h.clear_log(st)
        characters.resolve_threat(st, tb, 0, K)
        (e,) = h.events(st)
        assert e.type == "blackmail" and e.a == 1
        assert (e.b, e.c, e.d) == ((1, 1, 7) if real else (0, 0, 0))
        assert h.gold(st, 0) == (0 if real else 7) and h.gold(st, 1) == (7 if real else 0)
        assert not (st.g[L.G_THREATS] >> K) & 1 and gold_conserved(st)
    # random Blackmailer: a revealed plain marker takes nothing; an unrevealed flower neither
    seen = Counter()
    for real in (True, False):
        st0, tb = setup("2016", 4, ("builder", "random", "builder", "builder"), chars)
        h.set_holders(st0, {T: 1, K: 0})
        h.set_gold(st0, 0, 5)
        _threat(st0, K, real)
        for seed in range(40):
            st = reseeded(st0, seed)
            h.clear_log(st)
            characters.resolve_threat(st, tb, 0, K)
            (e,) = h.events(st)
            assert e.type == "blackmail" and e.c == int(real)
            assert e.d == (5 if (real and e.b) else 0) and h.gold(st, 1) == e.d
            seen[(real, e.b)] += 1
    assert set(seen) == {(True, 0), (True, 1), (False, 0), (False, 1)}
    # in a played turn: the builder King refuses after gathering; the flower takes it all
    st, tb = setup("2016", 4, ("builder", "heuristic", "builder", "builder"), chars)
    h.set_holders(st, {T: 1, K: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Tavern"])
    h.set_gold(st, 0, 3)
    _threat(st, K)
    evs = play(st, tb, K, 0)
    assert types_in(evs)[:3] == ["call", "gather_gold", "blackmail"] and evs[2].d == 5
    # what he earns after the threat stays with him: noble income 1 (then maybe a build)
    assert h.gold(st, 1) == 5 and gold_conserved(st)
