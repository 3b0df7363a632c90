"""The last picker's choice with 7 players and 8 characters or 8 players and 9, and no special
rule with 7 players and 9 characters (docs/rules.md §2.3.2; checklist rules 20-21).
"""

from __future__ import annotations

import pytest

import kernel_helpers as h
from kernel_helpers import C_QUEEN, K, P_QUEEN, P_TC, draft_events, draft_once, king_lovers
from citadels_sim.kernel import layout as L


# strategies with fixed tastes in the draft
HATERS = h.custom("builder", base=[0, 0, 0, -1000, 0, 0, 0, 0, 0])   # never the rank-4 card
LOVERS = h.custom("builder", base=[0, 0, 0, 1000, 0, 0, 0, 0, 0])    # always the rank-4 card


def test_rule_020_seventh_player_takes_face_down_card():
    """20. 7 players with 8 characters, and 8 players with 9: the last picker chooses between
    the last card and the initial face-down card, and discards the other face down.

    Seats 0-5 never keep the King while they have another card; seat 6 always wants it.
    Seat 6 gets the King every round, also when it was the initial face-down card (1/8)."""
    haters = h.custom("builder", base=[0, 0, 0, -1000, 0, 0, 0, 0, 0])
    st, tb = h.make_state("classic", 7, (haters,) * 6 + king_lovers(1), seed=20, log=True)
    for _ in range(400):
        draft_once(st, tb)
        assert st.g[L.G_HOLDER + K] == 6
        evs = h.events(st)
        assert len([e for e in evs if e.type == "pick"]) == 7
        downs = [e.a for e in evs if e.type == "discard_face_down"]
        assert len(downs) == 1 and st.g[L.G_HOLDER + downs[0]] < 0
        assert not any(e.type == "discard_face_up" for e in evs)
    # four_color follows classic (D2)
    st, tb = h.make_state("four_color", 7, "random", seed=21, log=True)
    for _ in range(300):
        draft_once(st, tb)
        evs = h.events(st)
        assert len([e for e in evs if e.type == "discard_face_down"]) == 1
        assert sum(st.g[L.G_HOLDER:L.G_HOLDER + 8] >= 0) == 7


@pytest.mark.parametrize("ruleset,chars", [("classic", C_QUEEN), ("2016", P_TC)])
def test_rule_020_eighth_player_takes_face_down_card(ruleset, chars):
    """20. 7 players with 8 characters, and 8 players with 9: the last picker chooses between
    the last card and the initial face-down card, and discards the other face down.

    Seats 0-6 never keep the rank-4 card while they have another; seat 7 always wants it.
    Seat 7 gets it every round, also when it was the initial face-down card (1/9)."""
    st, tb = h.make_state(ruleset, 8, (HATERS,) * 7 + (LOVERS,), seed=20, log=True,
                          characters=chars)
    assert st.g[L.G_N_FACEUP] == 0
    for _ in range(400):
        draft_once(st, tb)
        assert st.g[L.G_HOLDER + K] == 7
        evs = draft_events(st)
        picks = [e for e in evs if e.type == "pick"]
        assert [e.seat for e in picks] == [(int(st.g[L.G_CROWN]) + i) % 8 for i in range(8)]
        downs = [e.a for e in evs if e.type == "discard_face_down"]
        assert len(downs) == 1 and st.g[L.G_HOLDER + downs[0]] < 0
        assert not any(e.type == "discard_face_up" for e in evs)
        assert sum(st.g[L.G_HOLDER:L.G_HOLDER + 9] >= 0) == 8


@pytest.mark.parametrize("ruleset,chars", [("classic", C_QUEEN), ("2016", P_QUEEN)])
def test_rule_021_seven_players_nine_characters_no_special_rule(ruleset, chars):
    """21. 7 players with 9 characters: no special rule; the last picker chooses from the 2
    cards passed to him.

    Seats 0-5 never keep the rank-4 card while they have another; seat 6 always wants it.
    He gets it unless it was the initial face-down card (1/9): he is never offered that."""
    st, tb = h.make_state(ruleset, 7, (HATERS,) * 6 + (LOVERS,), seed=21, log=True,
                          characters=chars)
    n = 1200
    missing = 0
    for _ in range(n):
        draft_once(st, tb)
        holder = int(st.g[L.G_HOLDER + K])
        assert holder in (6, -1)
        missing += holder < 0
        evs = draft_events(st)
        assert len([e for e in evs if e.type == "pick"]) == 7
        downs = [e.a for e in evs if e.type == "discard_face_down"]
        assert len(downs) == 2 and not any(e.type == "discard_face_up" for e in evs)
        assert all(st.g[L.G_HOLDER + r] < 0 for r in downs)
    assert abs(missing / n - 1 / 9) < 0.03, missing / n
