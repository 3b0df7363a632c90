"""The end of the game and scoring (docs/rules.md §5; checklist rules 148-156): the last round
played to its end, the complete-city size N, the colour and completion bonuses, the
tie-breaks of each ruleset, the Haunted City's best type, and scoring after the end-of-round
crown.  ``test_scoring_cross_check.py`` checks the kernel's scoring against an independent
scorer; the districts that score have ``test_districts_scoring.py``.
"""

from __future__ import annotations

import kernel_helpers as h
from kernel_helpers import (
    A, K, all_base_games, empty_state as setup, independent_scores, kernel_scores,
)
from citadels_sim.game.config import GameConfig
from citadels_sim.kernel import game, layout as L, rules, scoring


def test_rule_148_game_ends_after_the_round():
    """148. The game ends after the round in which any city became complete; every remaining
    rank of that round is still played."""
    for rs, players, evs, st, tb in all_base_games():
        n = int(tb.cfg[L.G_N_COMPLETE])
        done = next((e for e in evs if max(e.city_n) >= n), None)
        end = evs[-1]
        assert end.type == "game_end"
        if done is None:
            assert st.g[L.G_CAP_HIT] == 1
            continue
        assert done.round == end.round == st.g[L.G_ROUND], (rs, players)
        # every held rank of the final round was called (or skipped if killed)
        last = h.rounds(evs)[end.round]
        held = sorted(e.a for e in last if e.type == "pick")
        called = [e.rank for e in last if e.type in ("call", "skip_killed")]
        assert called == held
        assert [e.type for e in last if e.type == "round_end"] == ["round_end"]


def test_rule_149_complete_size():
    """149. N: C 8 (quick game 7), P 7 with 4-8 players and 8 with 2-3, F 8; the P Monument
    counts as 2."""
    cases = {("classic", 4, False): 8, ("classic", 2, False): 8, ("classic", 5, True): 7,
             ("2016", 2, False): 8, ("2016", 4, False): 7, ("2016", 7, False): 7,
             ("four_color", 4, False): 8, ("four_color", 2, False): 8}
    for (ruleset, players, quick), n in cases.items():
        kw = {"quick": True} if quick else {}
        assert GameConfig(ruleset=ruleset, players=players, **kw).complete_size == n
        st, tb = setup(ruleset, players, "builder", **kw)
        assert st.g[L.G_N_COMPLETE] == n
        city = ["Manor", "Castle", "Palace", "Temple", "Church", "Tavern", "Market", "Prison"]
        h.set_city(st, 0, city[:n - 1])
        assert not rules.is_complete(st, 0)
        h.add_city(st, 0, city[n - 1:n])
        assert rules.is_complete(st, 0)
    st, tb = setup("2016", 4, "builder")
    h.set_city(st, 0, ["Monument", "Manor", "Castle", "Palace", "Temple", "Church"])
    assert rules.is_complete(st, 0)


def test_rule_150_colour_bonus():
    """150. The colour bonus requires all 5 colours (C), all 5 types (P) or all 4 colours (F);
    +3."""
    four = ["Manor", "Temple", "Tavern", "Watchtower"]
    assert kernel_scores("four_color", 4, [four, [], [], []])[0][0] == 6 + 3
    assert kernel_scores("classic", 4, [four, [], [], []])[0][0] == 6
    assert kernel_scores("2016", 4, [four, [], [], []])[0][0] == 6
    assert kernel_scores("classic", 4, [four + ["Keep"], [], [], []])[0][0] == 9 + 3
    assert kernel_scores("2016", 4, [four + ["Keep"], [], [], []])[0][0] == 9 + 3
    assert kernel_scores("four_color", 4, [four[:3] + ["Castle"], [], [], []])[0][0] == 9


def test_rule_151_completion_bonus():
    """151. The first completer gets +4 and every other complete city +2; incomplete cities
    get 0."""
    city = ["Manor", "Castle", "Palace", "Temple", "Church", "Tavern", "Market", "Prison"]
    scores, _, _ = kernel_scores("four_color", 4, [city, city, city[:7], []], first=1)
    value = 3 + 4 + 5 + 1 + 2 + 1 + 2 + 2
    assert scores[:3] == [value + 3 + 2, value + 3 + 4, value - 2]  # no red, incomplete
    # in played games the first completer is the first city to reach N
    for rs, players, evs, st, tb in all_base_games():
        n = int(tb.cfg[L.G_N_COMPLETE])
        first = next((e for e in evs if max(e.city_n) >= n), None)
        if first is not None:
            seats = [s for s in range(players) if first.city_n[s] >= n]
            assert seats == [first.seat] == [st.g[L.G_FIRST]]
            assert evs[-1].a == st.g[L.G_FIRST]


def test_rule_152_classic_tie_break():
    """152. C tie-break: district value, then stash; otherwise shared."""
    # equal scores 8: Dragon Gate (value 6, +2) vs Manor + Palace (value 8)
    scores, places, _ = kernel_scores("classic", 4, [["Dragon Gate"], ["Manor", "Palace"], [], []])
    assert scores[:2] == [8, 8] and places[:2] == [2, 1]
    # equal scores and values: the stash decides
    scores, places, _ = kernel_scores("classic", 4, [["Manor"], ["Manor"], [], []],
                                      gold=[3, 1, 0, 0])
    assert places[:2] == [1, 2]
    # all equal: shared
    scores, places, _ = kernel_scores("classic", 4, [["Manor"], ["Manor"], ["Castle"], []],
                               gold=[2, 2, 0, 0])
    assert places == [2, 2, 1, 4]


def test_rule_153_2016_tie_break():
    """153. P tie-break: highest rank revealed in the final round; otherwise shared."""
    scores, places, _ = kernel_scores("2016", 4, [["Manor"], ["Manor"], ["Manor"], []],
                               revealed=[7, 8, 7, 0])
    assert places == [2, 1, 2, 4]
    scores, places, _ = kernel_scores("2016", 4, [["Manor"], ["Manor"], [], []],
                                      revealed=[0, 4, 0, 0],
                               gold=[9, 0, 0, 0])
    assert places[:2] == [2, 1]  # the stash does not count in 2016


def test_rule_154_four_color_shared_ranks():
    """154. F: tied scores share the rank (competition ranking)."""
    scores, places, _ = kernel_scores("four_color", 4, [["Manor"], ["Castle"], ["Tavern", "Prison"],
                                                 ["Temple"]], gold=[5, 0, 0, 0])
    assert scores == [3, 4, 3, 1] and places == [2, 1, 2, 4]


def test_rule_155_haunted_type_maximises_score():
    """155. The Haunted City/Quarter type is chosen to maximise the owner's score."""
    # 2016: kept unique (Wishing Well counts it) rather than filling a type already there
    city = ["Manor", "Temple", "Market", "Watchtower", "Haunted Quarter", "Wishing Well"]
    scores, _, _ = kernel_scores("2016", 4, [city, [], [], []])
    assert scores[0] == 3 + 1 + 2 + 1 + 2 + 5 + 3 + 2
    # 2016: counted as the missing military type
    city = ["Manor", "Temple", "Market", "Keep", "Haunted Quarter"]
    assert kernel_scores("2016", 4, [city, [], [], []])[0][0] == 3 + 1 + 2 + 3 + 2 + 3
    # classic: as the missing blue colour; the Wishing Well then loses 1 but the bonus wins
    city = ["Manor", "Tavern", "Watchtower", "Haunted City", "Wishing Well"]
    assert kernel_scores("classic", 4, [city, [], [], []])[0][0] == 3 + 1 + 1 + 2 + 5 + 3 + 0
    assert independent_scores("classic", [city, [], [], []])[0][0] == 15


def test_rule_156_scoring_after_end_of_round_crown():
    """156. Scoring uses the final state after the end-of-round crown moves (Statue)."""
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {A: 0, K: 1})
    st.g[L.G_CROWN] = 0
    h.set_city(st, 1, ["Statue", "Manor"])
    h.set_city(st, 0, ["Castle", "Palace"])
    h.kill(st, K)
    st.p[0, L.P_REVEALED] = 1
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 1
    scoring.score_game(st, tb)
    assert st.p[1, L.P_SCORE] == 3 + 3 + 5
    # 11 vs 9: the heir wins; his King counts as revealed (rank 4 > 1)
    assert st.p[1, L.P_PLACE] == 1 and st.p[1, L.P_REVEALED] == 4
