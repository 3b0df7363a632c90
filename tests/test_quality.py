"""Game-quality measures (issue 20 item 4): the kernel's per-round counters in exact
situations, their reading into lead changes, decisiveness and comebacks, and the measures of
a run with their intervals."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import kernel_helpers as h
from kernel_helpers import empty_state as setup
from citadels_sim import GameConfig, simulate
from citadels_sim.engine.results import Results
from citadels_sim.engine.summary import chunk_tables, quality_tables
from citadels_sim.kernel import game, layout as L
from citadels_sim.stats import quality


def test_the_seat_ahead_alone_gets_the_round_and_the_others_their_deficit():
    st, tb = setup("classic", 3, "builder")
    h.set_city(st, 0, ["Palace", "Castle"])  # 5 + 4 = 9
    h.set_city(st, 1, ["Manor", "Temple", "Tavern", "Watchtower", "Keep"])  # 3+1+1+1+3 = 9, +3
    h.set_city(st, 2, ["Manor"])  # 3
    st.g[L.G_ROUND] = 2
    game.track_lead(st, False)
    assert [int(st.p[s, L.P_LED]) for s in range(3)] == [0, 0b10, 0]
    assert [int(st.p[s, L.P_BEHIND]) for s in range(3)] == [3, 0, 9]
    # a tie in front: nobody leads this round, the deficits keep their maximum
    h.set_city(st, 0, ["Palace", "Castle", "Manor", "Temple"])  # 13, as much as seat 2
    h.add_city(st, 2, ["Cathedral", "Fortress"])  # 3 + 5 + 5 = 13
    st.g[L.G_ROUND] = 3
    game.track_lead(st, False)
    assert [int(st.p[s, L.P_LED]) for s in range(3)] == [0, 0b10, 0]
    assert [int(st.p[s, L.P_BEHIND]) for s in range(3)] == [3, 1, 9]


def _seats(masks, won, behind, rounds):
    """A chunk's seats frame for games given as per-seat lists."""
    n = len(masks[0])
    return pl.DataFrame({
        "game": np.repeat(np.arange(len(masks)), n), "seat": np.tile(np.arange(n), len(masks)),
        "strategy": "x", "score": 0, "won": np.ravel(won), "rounds": np.repeat(rounds, n),
        "led": np.ravel(masks), "behind": np.ravel(behind),
        "first_crown": np.tile(np.arange(n) == 0, len(masks)), "capped": False})


def test_lead_changes_decisiveness_and_comebacks_from_the_counters():
    # game 0, 5 rounds: leaders 0, -, 1, 0, 0 (seat 0 wins, from round 4 for good)
    # game 1, 4 rounds: leaders 1, 1, 1, 1 (seat 1 wins from round 1); game 2: a shared win
    masks = [[0b11001, 0b00100], [0, 0b1111], [0, 0]]
    won = [[True, False], [False, True], [True, True]]
    behind = [[5, 6], [7, 0], [2, 2]]
    seats = _seats(masks, won, behind, [5, 4, 3])
    t = chunk_tables({"seats": seats, "characters": pl.DataFrame(
        {"character": ["c"], "rank": [1], "strategy": ["x"], "seat_games": [1]})})
    q = t["quality"].sort("rounds").to_dicts()
    assert [(r["rounds"], r["lead_changes"], r["decided"], r["comeback"]) for r in q] == [
        (3, 0, None, None), (4, 0, 1, 0), (5, 2, 4, 5)]
    leaders = {(r["round"], r["won"]): r["count"] for r in t["leaders"].to_dicts()}
    assert leaders == {(1, True): 2, (2, True): 1, (3, True): 1, (3, False): 1, (4, True): 1}
    m = {r["key"]: r for r in quality.measures(t).to_dicts()}
    assert m["lead_changes"]["value"] == pytest.approx(2 / 3)
    assert m["decided"]["value"] == pytest.approx(2.5) and m["decided"]["n"] == 2
    assert m["comeback_5"]["value"] == pytest.approx(100 / 3)  # 5 won, 6 and 7 lost
    assert m["winner_trailed"]["value"] == pytest.approx(2.5)
    assert m["first_crown"]["n"] == 3


def test_a_run_reports_every_measure_with_an_interval():
    r = simulate(GameConfig(players=5), "reference", games=3000, progress=False)
    m = r.quality()
    assert m["key"].to_list() == ["length", "lead_changes", "decided", "halfway_leader_wins",
                                  "comeback_5", "comeback_10", "winner_trailed", "first_crown"]
    assert (m["low"] <= m["value"]).all() and (m["value"] <= m["high"]).all()
    length = m.filter(pl.col("key") == "length")["value"][0]
    assert length == pytest.approx(r.seats["rounds"].mean())
    assert m.filter(pl.col("key") == "decided")["value"][0] <= length
    # the winner leads after the last round: every sole winner's bit of that round is set
    s = r.seats.filter(pl.col("won") & (pl.col("won").sum().over("game") == 1))
    led, rounds = s["led"].to_numpy(), s["rounds"].to_numpy().astype(int)
    assert ((led >> (rounds - 1)) & 1 == 1).all()
    assert "lead changes per game" in r.summary()


def test_the_counts_summed_chunk_by_chunk_as_played_equal_those_of_the_whole_run():
    r = simulate(GameConfig(players=4), "heuristic", games=2500, chunk_size=700, progress=False)
    assert r.quality_counts is not None
    whole = quality.measures(quality_tables(r.seats))
    assert r.quality().equals(whole)
    assert Results.from_parts({"seats": [r.seats], "characters": [r.characters]},
                              r.meta).quality().equals(whole)  # counted from the seats


def test_games_without_a_seat_ahead_alone_give_an_empty_typed_leaders_table():
    seats = _seats([[0, 0], [0, 0]], [[True, True], [True, False]], [[0, 0], [0, 1]], [2, 3])
    t = quality_tables(seats)
    assert t["leaders"].is_empty()
    assert t["leaders"].schema == pl.Schema({"round": pl.Int16, "won": pl.Boolean,
                                             "count": pl.Int64})
    assert t["quality"]["count"].sum() == 2


def test_rows_in_any_order_give_the_tables_of_rows_in_game_order():
    r = simulate(GameConfig(players=3), "heuristic", games=400, progress=False)
    ordered = quality_tables(r.seats)
    shuffled = quality_tables(r.seats.sample(fraction=1.0, shuffle=True, seed=5))
    for name, table in ordered.items():
        keys = [c for c in table.columns if c != "count"]
        assert shuffled[name].sort(keys).equals(table.sort(keys)), name
