"""The Queen (docs/rules.md §3 Rank 9; checklist rules 7, 112): 5 players or more, and her +3
next to the rank-4 character (the King, the Patrician or the Emperor), revealed or killed.
"""

from __future__ import annotations

import pytest

import kernel_helpers as h
from kernel_helpers import (
    C_QUEEN, K, P_QUEEN, P_TC, R9, cset, empty_state as setup, play_turn_events as play,
)
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.kernel import game, layout as L


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_007_queen_needs_5_players(ruleset):
    """7. The Queen is rejected with fewer than 5 players (C, P)."""
    chars = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
             "Warlord", "Queen"]
    with pytest.raises(ConfigError, match="Queen.*5"):
        GameConfig(ruleset=ruleset, players=4, characters=chars)


def test_rule_007_queen_from_5_to_8_players_never_at_3():
    """7. The Queen is rejected with fewer than 5 players (C, P)."""
    for ruleset in ("classic", "2016"):
        chars = cset(ruleset, "Queen")
        with pytest.raises(ConfigError, match="Queen.*5"):
            GameConfig(ruleset=ruleset, players=4, characters=chars)
        for n in (5, 6, 7, 8):
            assert GameConfig(ruleset=ruleset, players=n, characters=chars).ranks == 9
    # 2016 3 players need a rank-9 character, but not the Queen
    with pytest.raises(ConfigError, match="Queen"):
        GameConfig(ruleset="2016", players=3, characters=P_QUEEN)
    assert GameConfig(ruleset="2016", players=3, characters=P_TC).ranks == 9


def _queen(ruleset, chars, queen, king, killed=None, players=5, crown=0):
    """Queen at seat ``queen``, the rank-4 character at seat ``king`` (None: not in play):
    plays the round's turns from rank 4 and the end of the round; returns the Queen's gold
    gained in her turn and at the end of the round."""
    st, tb = setup(ruleset, players, "builder", chars)
    st.g[L.G_CROWN] = crown
    holders = {R9: queen}
    if king is not None:
        holders[K] = king
    h.set_holders(st, holders)
    if killed is not None:
        h.kill(st, killed)
    for s in range(players):
        h.set_hand(st, s, ["Dragon Gate"] if ruleset == "2016" else ["Great Wall"])
    if king is not None and killed != K:
        play(st, tb, K, king)
    g0 = h.gold(st, queen)
    in_turn = 0
    if killed != R9:
        evs = play(st, tb, R9, queen)
        in_turn = h.gold(st, queen) - g0 - 2  # less the gathered 2 gold
        assert sum(e.a for e in h.of_type(evs, "queen")) == in_turn
    g1 = h.gold(st, queen)
    h.clear_log(st)
    game._end_round(st, tb)
    at_end = h.gold(st, queen) - g1
    assert sum(e.a for e in h.of_type(h.events(st), "queen")) == at_end
    return in_turn, at_end


def test_rule_112_queen():
    """112. The Queen gains +3 if an adjacent seat revealed rank 4; for a killed adjacent
    rank 4 she gains +3 at the end of the round; a killed Queen gains nothing."""
    q = C_QUEEN
    # revealed neighbour, on either side and across the table's end
    assert _queen("classic", q, 2, 1) == (3, 0)
    assert _queen("classic", q, 2, 3) == (3, 0)
    assert _queen("classic", q, 0, 4) == (3, 0)
    assert _queen("classic", q, 4, 0) == (3, 0)
    assert _queen("classic", q, 3, 4, players=8) == (3, 0)
    # not a neighbour, or no rank-4 character in play
    assert _queen("classic", q, 2, 4) == (0, 0)
    assert _queen("classic", q, 2, 0) == (0, 0)
    assert _queen("classic", q, 2, None) == (0, 0)
    # the card counts, not the crown: a neighbour with the crown but no King gives nothing
    assert _queen("classic", q, 2, 4, crown=1) == (0, 0)
    # killed neighbour: +3 at the end of the round; killed non-neighbour: nothing
    assert _queen("classic", q, 2, 1, killed=K) == (0, 3)
    assert _queen("classic", q, 2, 4, killed=K) == (0, 0)
    # the killed Queen gains nothing
    assert _queen("classic", q, 2, 1, killed=R9) == (0, 0)
    # 2016: any rank-4 character (the Patrician here)
    pq = cset("2016", "Patrician", "Queen")
    assert _queen("2016", pq, 2, 1) == (3, 0)
    assert _queen("2016", pq, 2, 3, killed=K) == (0, 3)
    assert _queen("2016", pq, 2, 4) == (0, 0)
    assert _queen("2016", pq, 2, 1, killed=R9) == (0, 0)


C_EMPEROR_QUEEN = cset("classic", "Emperor", "Queen")
P_EMPEROR_QUEEN = cset("2016", "Emperor", "Queen")


def _queen_with_emperor(ruleset, chars, queen, emperor, killed=None, players=5, crown=0):
    """Queen at seat ``queen``, the Emperor at seat ``emperor``: plays the Emperor's turn (if
    alive), the Queen's and the end of the round; returns the Queen's gold gained in her turn
    and at the end of the round."""
    st, tb = setup(ruleset, players, "builder", chars)
    st.g[L.G_CROWN] = crown
    h.set_holders(st, {R9: queen, K: emperor})
    if killed is not None:
        h.kill(st, killed)
    for s in range(players):
        h.set_hand(st, s, ["Dragon Gate"])
    if killed != K:
        play(st, tb, K, emperor)
    g0 = h.gold(st, queen)
    in_turn = 0
    if killed != R9:
        evs = play(st, tb, R9, queen)
        in_turn = sum(e.a for e in h.of_type(evs, "queen"))
        gathered = sum(e.a for e in h.of_type(evs, "gather_gold"))
        assert h.gold(st, queen) - g0 == in_turn + gathered
    g1 = h.gold(st, queen)
    h.clear_log(st)
    game._end_round(st, tb)
    at_end = h.gold(st, queen) - g1
    assert sum(e.a for e in h.of_type(h.events(st), "queen")) == at_end
    return in_turn, at_end


@pytest.mark.parametrize("ruleset,chars", [("classic", C_EMPEROR_QUEEN),
                                           ("2016", P_EMPEROR_QUEEN)])
def test_rule_112_queen_next_to_the_emperor(ruleset, chars):
    """112. The Queen gains +3 if an adjacent seat revealed rank 4; for a killed adjacent
    rank 4 she gains +3 at the end of the round; a killed Queen gains nothing.
    (C: a seat next to the Emperor's holder counts, and a killed Emperor too, D15.)"""
    # the revealed Emperor next to her, wherever he sends the crown
    assert _queen_with_emperor(ruleset, chars, 2, 1) == (3, 0)
    assert _queen_with_emperor(ruleset, chars, 2, 3, crown=3) == (3, 0)
    assert _queen_with_emperor(ruleset, chars, 0, 4) == (3, 0)
    # not next to her: nothing, even if the crown lands next to her
    assert _queen_with_emperor(ruleset, chars, 2, 4, crown=4) == (0, 0)
    assert _queen_with_emperor(ruleset, chars, 2, 0) == (0, 0)
    # the killed Emperor next to her: +3 at the end of the round (D15 in classic)
    assert _queen_with_emperor(ruleset, chars, 2, 1, killed=K) == (0, 3)
    assert _queen_with_emperor(ruleset, chars, 2, 4, killed=K) == (0, 0)
    # the killed Queen: nothing
    assert _queen_with_emperor(ruleset, chars, 2, 1, killed=R9) == (0, 0)
