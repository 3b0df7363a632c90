"""The Thief (docs/rules.md §3 Rank 2; checklist rules 41, 63-66): the robbery first on reveal,
the characters he may not name (rank 1, the killed, the Witch and the bewitched), the whole
stash taken but never the gold on beautified districts, and robbing a character not in
play.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    A, AR, B, K, M, ME, R9, T, W, all_base_games, cset, draft_rounds, empty_state as setup,
    gold_conserved, keys, play_turn_events as play, reseeded, types_in,
)
from citadels_sim.kernel import layout as L, scoring


def test_rule_041_theft_first_on_reveal():
    """41. On reveal, the Thief's robbery resolves before any other effect, including F's
    automatic income and the C Emperor's tribute."""
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {T: 1, ME: 0})
    h.rob(st, ME, 1)
    h.set_city(st, 0, ["Market"])
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, ME, 0)
    assert types_in(evs)[:4] == ["call", "theft", "income", "bonus_gold"]
    assert h.of_type(evs, "theft")[0].b == 3
    assert h.gold(st, 1) == 3
    assert h.gold(st, 0) == 0 + 1 + 1 + 2
    # classic King: the theft comes before the crown
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 1, K: 0})
    h.rob(st, K, 1)
    h.set_gold(st, 0, 5)
    evs = play(st, tb, K, 0)
    assert types_in(evs)[:3] == ["call", "theft", "crown"]
    assert h.gold(st, 1) == 5


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_063_thief_forbidden_targets(ruleset):
    """63. The Thief cannot name rank 1, the killed character or the bewitched character
    (F: only ranks 3-8, not the killed one)."""
    st, tb = setup(ruleset, 4, "random")
    h.set_holders(st, {T: 0})
    h.kill(st, B)
    seen = Counter()
    for seed in range(400):
        h.reseed(st, seed)
        st.g[L.G_ROBBED] = -1
        play(st, tb, T, 0)
        seen[int(st.g[L.G_ROBBED])] += 1
        assert st.g[L.G_ROBBER] == 0
    assert set(seen) == {M, K, ME, AR, W}
    for rs, players, evs, st, tb in all_base_games():
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            killed = [e.a for e in es if e.type == "kill"]
            for e in es:
                if e.type == "rob":
                    assert e.a not in (A, T) and e.a not in killed, (rs, rnd)


SEEDS = 80


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_063_thief_never_names_the_witch_or_the_bewitched(ruleset):
    """63. The Thief cannot name rank 1, the killed character or the bewitched character
    (F: only ranks 3-8, not the killed one)."""
    st0, tb = setup(ruleset, 4, "random", cset(ruleset, "Witch"))
    h.set_holders(st0, {A: 0, T: 1, K: 2})
    st0.g[L.G_BEWITCHED] = K
    st0.g[L.G_WITCH] = 0
    seen = Counter()
    for seed in range(SEEDS * 2):
        st = reseeded(st0, seed)
        evs = play(st, tb, T, 1)
        (rob,) = h.of_type(evs, "rob")
        seen[rob.a] += 1
    assert set(seen) == {M, B, ME, AR, W}
    # whole games with a Witch: never the Witch, never the character she bewitched
    for evs, st, tb in h.played_games(ruleset, 4, cset(ruleset, "Witch"), 4, 20):
        bewitched = {}
        for e in evs:
            if e.type == "bewitch":
                bewitched[e.round] = e.a
            elif e.type == "rob":
                assert e.a not in (A, T) and e.a != bewitched.get(e.round, -1)


def test_rule_064_robbery_on_reveal_takes_whole_stash():
    """64. The robbery happens on reveal, before gathering: the whole stash moves to the
    Thief's holder."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 1, K: 0})
    h.set_gold(st, 1, 1)
    h.set_gold(st, 0, 7)
    h.rob(st, K, 1)
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Cathedral"])
    evs = play(st, tb, K, 0)
    names = types_in(evs)
    assert names.index("theft") < names.index("gather_gold")
    theft = h.of_type(evs, "theft")[0]
    assert theft.seat == 1 and theft.a == 0 and theft.b == 7
    assert h.gold(st, 1) == 8
    assert h.gold(st, 0) == 0 + 2 + 1  # gathered and earned after the theft: kept
    # in played games the victim's stash is exactly what moves
    for rs, players, evs, st, tb in all_base_games():
        for i, e in enumerate(evs):
            if e.type == "theft":
                prev = evs[i - 1]
                assert prev.type == "call" and prev.gold[e.a] == e.b
                assert e.gold[e.a] == 0 or e.a == e.seat


def test_rule_065_gold_on_beautified_districts_is_never_stolen():
    """65. Gold on beautified districts is never stolen."""
    st, tb = setup("2016", 4, "builder", cset("2016", "Artist"))
    h.set_holders(st, {R9: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Temple"])
    h.set_gold(st, 0, 20)
    h.set_deck(st, [])  # she gathers gold, and builds nothing
    evs = play(st, tb, R9, 0)
    beaut = h.of_type(evs, "beautify")
    assert sorted(keys(e.a for e in beaut)) == ["castle", "manor"]
    assert h.gold(st, 0) == 20 + 2 - 2 and gold_conserved(st)
    assert int(h.beautified(st, 0)[:3].sum()) == 2
    # next round she is the King, robbed: the Thief takes the stash, not the 2 gold on cards
    h.start_round(st, 2)
    h.set_holders(st, {T: 1, K: 0})
    h.rob(st, K, 1)
    value = scoring.score_seat(st, tb, 0)[1]
    evs = play(st, tb, K, 0)
    (theft,) = h.of_type(evs, "theft")
    assert (theft.seat, theft.a, theft.b) == (1, 0, 20)
    assert h.gold(st, 1) == 20 and int(h.beautified(st, 0)[:3].sum()) == 2
    assert scoring.score_seat(st, tb, 0)[1] == value == 3 + 4 + 1 + 2
    assert gold_conserved(st)


def test_rule_066_robbing_character_not_in_play():
    """66. Robbing a character not in play has no effect."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 1, K: 0, ME: 2, W: 3})
    for s in range(4):
        h.set_gold(st, s, 5)
    h.rob(st, B, 1)
    for r, s in ((K, 0), (ME, 2), (W, 3)):
        evs = play(st, tb, r, s)
        assert not h.of_type(evs, "theft")
    assert h.gold(st, 1) == 5
