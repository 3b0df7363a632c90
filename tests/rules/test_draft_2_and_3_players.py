"""The 2- and 3-player drafts (docs/rules.md §2.3.3, §2.3.4; checklist rules 22-25): the order
of keeps and discards, the 2016 3-player draft's random discard, and two characters each
with no face-up discard.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import kernel_helpers as h
from kernel_helpers import (
    P_ALCHEMIST_TC, P_TC, base_games, draft_events, draft_once, lineup, roster_games,
)
from citadels_sim.kernel import layout as L


ORDERED = h.custom("builder", base=[80, 70, 60, 50, 40, 30, 20, 10, 0])  # prefers low ranks


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_022_two_player_draft(ruleset):
    """22. 2 players: A keeps 1 of 7; B keeps 1 and discards 1 of 6; A keeps 1 and discards
    1 of 4; B keeps 1 and discards 1 of 2."""
    st, tb = h.make_state(ruleset, 2, (ORDERED, ORDERED), seed=22, log=True)
    for crown in (0, 1, 0, 1) * 25:
        st.g[L.G_CROWN] = crown
        a, b = crown, 1 - crown
        draft_once(st, tb)
        evs = [e for e in h.events(st) if e.type in ("pick", "discard_face_down",
                                                       "discard_face_up")]
        assert [(e.type, e.seat) for e in evs] == [
            ("discard_face_down", -1), ("pick", a), ("pick", b), ("discard_face_down", -1),
            ("pick", a), ("discard_face_down", -1), ("pick", b), ("discard_face_down", -1)]
        first_down = evs[0].a
        rest = [r for r in range(8) if r != first_down]  # the 7 cards A sees, best first
        assert [e.a for e in evs[1:]] == [rest[0], rest[1], rest[6], rest[2], rest[5],
                                          rest[3], rest[4]]
        assert sorted(np.flatnonzero(st.g[L.G_HOLDER:L.G_HOLDER + 8] == a)) == [rest[0], rest[2]]
        assert sorted(np.flatnonzero(st.g[L.G_HOLDER:L.G_HOLDER + 8] == b)) == [rest[1], rest[3]]


@pytest.mark.parametrize("ruleset", ["classic", "four_color"])
def test_rule_023_three_player_draft(ruleset):
    """23. 3 players, C and F: 1 face-down discard, then picks A, B, C, A, B, C; the last card
    is discarded face down."""
    st, tb = h.make_state(ruleset, 3, (ORDERED,) * 3, seed=23, log=True)
    for crown in (0, 1, 2) * 30:
        st.g[L.G_CROWN] = crown
        draft_once(st, tb)
        evs = [e for e in h.events(st) if e.type in ("pick", "discard_face_down",
                                                       "discard_face_up")]
        order = [crown, (crown + 1) % 3, (crown + 2) % 3] * 2
        assert [(e.type, e.seat) for e in evs] == (
            [("discard_face_down", -1)] + [("pick", s) for s in order]
            + [("discard_face_down", -1)])
        rest = [r for r in range(8) if r != evs[0].a]
        assert [e.a for e in evs[1:]] == rest
        for i, s in enumerate(order[:3]):
            assert sorted(np.flatnonzero(st.g[L.G_HOLDER:L.G_HOLDER + 8] == s)) == [
                rest[i], rest[i + 3]]


def test_rule_024_three_player_2016_draft():
    """24. 3 players, P: 1 face-down discard; A, B, C pick; C discards 1 of the 5 at random;
    A, B, C pick; the last card is discarded face down."""
    st, tb = h.make_state("2016", 3, (ORDERED,) * 3, seed=24, log=True, characters=P_TC)
    assert st.g[L.G_NRANKS] == 9 and st.g[L.G_N_FACEUP] == 0
    first_down = Counter()
    mid_down = Counter()
    n = 1500
    for i in range(n):
        crown = i % 3
        st.g[L.G_CROWN] = crown
        draft_once(st, tb)
        evs = draft_events(st)
        order = [crown, (crown + 1) % 3, (crown + 2) % 3]
        assert [(e.type, e.seat) for e in evs] == (
            [("discard_face_down", -1)] + [("pick", s) for s in order]
            + [("discard_face_down", -1)] + [("pick", s) for s in order]
            + [("discard_face_down", -1)])
        ranks = [e.a for e in evs]
        assert sorted(ranks) == list(range(9))
        rest = [r for r in range(9) if r != ranks[0]]  # sorted: the picks go lowest first
        assert ranks[1:4] == rest[:3]
        five = rest[3:]
        assert ranks[4] in five
        left = [r for r in five if r != ranks[4]]
        assert ranks[5:8] == left[:3] and ranks[8] == left[3]
        first_down[ranks[0]] += 1
        mid_down[five.index(ranks[4])] += 1
        for j, s in enumerate(order):
            held = sorted(np.flatnonzero(st.g[L.G_HOLDER:L.G_HOLDER + 9] == s))
            assert held == sorted([ranks[1 + j], ranks[5 + j]])
    # the first discard can be any card (the rank-4 one too); C's discard is random, not
    # his least wanted card
    assert set(first_down) == set(range(9))
    for j in range(5):
        assert abs(mid_down[j] / n - 0.2) < 0.045, mid_down


@pytest.mark.parametrize("ruleset,players", [("classic", 2), ("classic", 3), ("2016", 2),
                                             ("four_color", 2), ("four_color", 3)])
def test_rule_025_two_characters_each_no_face_up(ruleset, players):
    """25. In 2-3-player games each player holds exactly 2 characters and there are no
    face-up discards."""
    st, tb = h.make_state(ruleset, players, lineup(players), seed=25, log=True)
    assert st.g[L.G_N_FACEUP] == 0
    for _ in range(300):
        draft_once(st, tb)
        assert st.g[L.G_FACEUP] == 0
        held = Counter(int(x) for x in st.g[L.G_HOLDER:L.G_HOLDER + 8] if x >= 0)
        assert held == {s: 2 for s in range(players)}
        assert not any(e.type == "discard_face_up" for e in h.events(st))
    for evs, _, _ in base_games(ruleset, players):
        assert not any(e.type == "discard_face_up" for e in evs)


def test_rule_025_three_player_2016_two_characters_each():
    """25. In 2-3-player games each player holds exactly 2 characters and there are no
    face-up discards (2016, 3 players, 9 characters)."""
    st, tb = h.make_state("2016", 3, ("random", "builder", "heuristic"), seed=25, log=True,
                          characters=P_TC)
    for _ in range(300):
        draft_once(st, tb)
        assert st.g[L.G_FACEUP] == 0
        held = Counter(int(x) for x in st.g[L.G_HOLDER:L.G_HOLDER + 9] if x >= 0)
        assert held == {0: 2, 1: 2, 2: 2}
        evs = draft_events(st)
        assert not any(e.type == "discard_face_up" for e in evs)
        assert len([e for e in evs if e.type == "discard_face_down"]) == 3
    for evs, st, tb in roster_games("2016", 3, P_ALCHEMIST_TC):
        assert not any(e.type == "discard_face_up" for e in evs)
        for rnd, es in h.rounds(evs).items():
            calls = Counter(e.seat for e in es if e.type in ("call", "skip_killed"))
            if rnd > 0:
                assert calls == {0: 2, 1: 2, 2: 2}
