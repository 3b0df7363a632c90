"""The selection phase at every player count (docs/rules.md §2.3.1, §2.3.2; checklist rules 13-19,
26): face-up discards with 8 and 9 characters, never a rank-4 card face up, the order of the
face-down and face-up discards, the crowned player first, the leftover card, and every
character back in the deck each round.  The 2-3 and 7-8 player drafts have their own files.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import kernel_helpers as h
from kernel_helpers import (
    C_QUEEN, K, P_QUEEN, P_TC, all_base_games, draft_events, draft_once, draft_rounds, king_lovers,
)
from citadels_sim.kernel import layout as L


def popcount(x: int) -> int:
    return bin(int(x)).count("1")


def _king_face_down_rate(ruleset, n, patch):
    """Fraction of drafts in which nobody holds the King although every seat wants it:
    the King was the initial face-down card (it is never face up, and the first seat that
    sees it keeps it, so it is never the leftover)."""
    st, tb = h.make_state(ruleset, 4, king_lovers(4), seed=16)
    if patch:
        h.set_faceup_count(st)
    down = 0
    for _ in range(n):
        draft_once(st, tb)
        assert not (st.g[L.G_FACEUP] >> K) & 1
        down += st.g[L.G_HOLDER + K] < 0
    return down / n


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
@pytest.mark.parametrize("players,up", [(4, 2), (5, 1), (6, 0), (7, 0)])
def test_rule_013_face_up_discards_with_8_characters(ruleset, players, up):
    """13. Face-up discards with 8 characters: 4p 2, 5p 1, 6p 0, 7p 0."""
    st, tb = h.make_state(ruleset, players, "random", seed=players)
    assert st.g[L.G_N_FACEUP] == up
    for _ in range(50):
        draft_once(st, tb)
        assert popcount(st.g[L.G_FACEUP]) == up


NINE = [("classic", 5, C_QUEEN), ("classic", 6, C_QUEEN), ("classic", 7, C_QUEEN),
        ("classic", 8, C_QUEEN), ("2016", 4, P_TC), ("2016", 5, P_QUEEN), ("2016", 6, P_TC),
        ("2016", 7, P_QUEEN), ("2016", 8, P_TC)]


@pytest.mark.parametrize("ruleset,players,chars", NINE)
def test_rule_014_face_up_discards_with_9_characters(ruleset, players, chars):
    """14. Face-up discards with 9 characters: 4p 3, 5p 2, 6p 1, 7p 0, 8p 0.

    (classic cannot play 4 players with 9 characters yet: its only 4-player rank 9, the
    Artist, is not playable.)"""
    up = {4: 3, 5: 2, 6: 1, 7: 0, 8: 0}[players]
    st, tb = h.make_state(ruleset, players, "random", seed=14, log=True, characters=chars)
    assert st.g[L.G_NRANKS] == 9 and st.g[L.G_N_FACEUP] == up
    for _ in range(60):
        draft_once(st, tb)
        evs = draft_events(st)
        ups = [e.a for e in evs if e.type == "discard_face_up"]
        downs = [e.a for e in evs if e.type == "discard_face_down"]
        picks = [e.a for e in evs if e.type == "pick"]
        assert popcount(st.g[L.G_FACEUP]) == up == len(ups)
        assert K not in ups
        assert len(picks) == players
        # 9 characters = 1 face-down + U + n, plus 1 leftover when n <= 7
        assert len(downs) == 1 + (1 if players <= 7 else 0)
        assert sorted(picks + ups + downs) == list(range(9))


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_015_face_up_never_rank_4_and_uniform(ruleset):
    """15. A rank-4 character is never discarded face up; face-up discards are uniform over
    the non-rank-4 cards."""
    st, tb = h.make_state(ruleset, 4, "random", seed=15)
    h.set_faceup_count(st)
    n = 6000
    counts = np.zeros(8)
    for _ in range(n):
        draft_once(st, tb)
        up = int(st.g[L.G_FACEUP])
        assert popcount(up) == 2
        for r in range(8):
            counts[r] += (up >> r) & 1
    assert counts[K] == 0
    freq = counts / n
    for r in range(8):
        if r != K:
            assert abs(freq[r] - 2 / 7) < 0.035, freq


@pytest.mark.parametrize("ruleset,players,chars", [("2016", 4, P_TC), ("classic", 5, C_QUEEN),
                                                   ("2016", 6, P_TC)])
def test_rule_015_face_up_uniform_with_9_characters(ruleset, players, chars):
    """15. A rank-4 character is never discarded face up; face-up discards are uniform over
    the non-rank-4 cards (9 characters: each of the 8 others is face up with probability
    U/8, in both discard orders)."""
    st, tb = h.make_state(ruleset, players, "random", seed=15, characters=chars)
    up_n = int(st.g[L.G_N_FACEUP])
    n = 6000
    counts = np.zeros(9)
    for _ in range(n):
        draft_once(st, tb)
        up = int(st.g[L.G_FACEUP])
        assert popcount(up) == up_n
        for r in range(9):
            counts[r] += (up >> r) & 1
    assert counts[K] == 0
    freq = counts / n
    for r in range(9):
        if r != K:
            assert abs(freq[r] - up_n / 8) < 0.03, freq


@pytest.mark.parametrize("ruleset", ["classic", "four_color"])
def test_rule_016_face_down_first_classic(ruleset):
    """16. C, F: the face-down discard is drawn before the face-up ones and can be rank 4
    (King face-down = 1/8 with 8 characters)."""
    rate = _king_face_down_rate(ruleset, 12000, patch=False)
    assert abs(rate - 1 / 8) < 0.012, rate


def test_rule_017_face_up_first_2016():
    """17. P: the face-up discards are drawn before the face-down one (4p, 8 characters:
    King face-down = 1/6)."""
    rate = _king_face_down_rate("2016", 12000, patch=False)
    assert abs(rate - 1 / 6) < 0.012, rate


def test_rule_018_crowned_player_picks_first_then_left():
    """18. The crowned player picks first; picking then proceeds to the left in seat order."""
    for players in (2, 3, 4, 5, 7):
        st, tb = h.make_state("classic", players, "random", seed=18, log=True)
        for crown in range(players):
            st.g[L.G_CROWN] = crown
            draft_once(st, tb)
            seats = [e.seat for e in h.events(st) if e.type == "pick"]
            assert seats == [(crown + i) % players for i in range(len(seats))]
    for ruleset, players, evs, st, tb in all_base_games():
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            assert [s for s, _ in picks] == [(crown + i) % players for i in range(len(picks))]


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
@pytest.mark.parametrize("players", [4, 5, 6])
def test_rule_019_leftover_discarded_face_down(ruleset, players):
    """19. After the last pick, the single leftover card is discarded face down."""
    st, tb = h.make_state(ruleset, players, "random", seed=19, log=True)
    up_n = h.RULES_FACE_UP[8][players]
    for _ in range(200):
        draft_once(st, tb)
        evs = h.events(st)
        picks = [e.a for e in evs if e.type == "pick"]
        up = [e.a for e in evs if e.type == "discard_face_up"]
        down = [e.a for e in evs if e.type == "discard_face_down"]
        assert len(picks) == players and len(up) == up_n
        assert len(down) == 2  # the initial face-down card and the leftover
        assert sorted(picks + up + down) == list(range(8))
        assert all(e.type == "discard_face_down" for e in evs[-len(down):])


def test_rule_026_all_characters_return_each_round():
    """26. All character cards return to the character deck before each selection phase."""
    picked_later = Counter()
    for ruleset, players, evs, st, tb in all_base_games():
        rounds = draft_rounds(evs)
        for rnd, es, picks, up, down, crown in rounds:
            ranks = [r for _, r in picks] + up + down
            assert sorted(ranks) == list(range(8)), (ruleset, players, rnd)
            if rnd >= 2:
                picked_later.update(r for _, r in picks)
    # every character is picked again in later rounds
    assert set(picked_later) == set(range(8))
