"""Every analysis number against small hand-built tables whose answers are known."""

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from citadels_sim.engine.summary import Summary, chunk_tables
from citadels_sim.stats import analysis


def seats_frame():
    """Two 3-player games: game 0 won by seat 0 (A) 10-7-5; game 1 shared by seats 1 (B)
    and 2 (A) at 9, seat 0 (A) 4."""
    return pl.DataFrame({
        "game": [0, 0, 0, 1, 1, 1], "seat": [0, 1, 2, 0, 1, 2],
        "strategy": ["A", "B", "A", "A", "B", "A"],
        "score": [10, 7, 5, 4, 9, 9], "won": [True, False, False, False, True, True],
        "rounds": [6, 6, 6, 8, 8, 8], "capped": [False] * 3 + [True] * 3})


def characters_frame():
    return pl.DataFrame({"batch": [0, 0], "character": ["X", "Y"], "rank": [1, 2],
                         "strategy": ["A", "A"],
                         "seat_games": [0, 0], "rounds_held": [10, 30], "games_held": [8, 20],
                         "wins_held": [2, 10], "final_held": [4, 6], "final_wins": [1, 3],
                         "killed": [1, 6], "robbed": [0, 3], "gold_gained": [18, 48],
                         "districts_built": [9, 12], "winners_held": [8, 24],
                         "offered": [20, 40], "picked": [10, 30]})


def test_summary_of_a_chunk():
    t = chunk_tables({"seats": seats_frame(), "characters": characters_frame()})
    out = t["outcomes"].sort("seat", "score")
    assert out["count"].sum() == 6 and out.filter(pl.col("won"))["count"].sum() == 3
    games = t["games"].sort("rounds")
    assert games["margin"].to_list() == [3, 5] and games["capped"].to_list() == [False, True]
    pairs = t["pairs"].sort("diff")
    # game 0: A 1 of 2 seats won, B 0 of 1 -> +0.5; game 1: A 1/2, B 1/1 -> -0.5
    assert pairs["a"].to_list() == ["A", "A"] and pairs["diff"].to_list() == [-0.5, 0.5]


def test_a_chunk_counts_the_same_whether_its_rows_come_game_by_game_or_not():
    """Rows a game at a time take the reshaped path; shuffled, the group-by path: equal
    tables, with a null margin for a game every seat won."""
    every = pl.DataFrame({"game": [2, 2, 2], "seat": [0, 1, 2], "strategy": ["A", "B", "A"],
                          "score": [6, 6, 6], "won": [True] * 3, "rounds": [7] * 3,
                          "capped": [False] * 3})
    seats = pl.concat([seats_frame(), every])
    frames = {"seats": seats, "characters": characters_frame()}
    ordered = chunk_tables(frames)
    shuffled = chunk_tables(frames | {"seats": seats.sample(fraction=1.0, shuffle=True,
                                                            seed=3)})
    assert ordered["games"].sort("rounds")["margin"].to_list() == [3, None, 5]
    for name in ("outcomes", "games", "wins", "pairs"):
        table = ordered[name]
        assert shuffled[name].sort(table.columns).equals(table.sort(table.columns)), name


def test_summary_sums_chunks():
    s = Summary()
    frames = {"seats": seats_frame(), "characters": characters_frame()}
    s.add(frames)
    s.add(frames)
    assert s.games == 4
    assert s.tables["characters"]["wins_held"].to_list() == [4, 20]
    assert s.tables["pairs"]["count"].to_list() == [2, 2]


def test_summary_sums_chunks_added_beyond_those_it_holds_unsummed(monkeypatch):
    monkeypatch.setattr(Summary, "PENDING", 2)
    s = Summary()
    frames = {"seats": seats_frame(), "characters": characters_frame()}
    for _ in range(5):
        s.add(frames)
        assert all(len(parts) < 2 for parts in s._pending.values())
    assert s.games == 10
    assert s.tables["characters"]["wins_held"].to_list() == [10, 50]
    assert s.tables["pairs"]["count"].to_list() == [5, 5]


def outcomes_frame():
    """2 players: seat 0 won 60 of 100, seat 1 won 40 of 100 (no ties)."""
    return pl.DataFrame({"seat": [0, 0, 1, 1], "strategy": ["A", "A", "B", "B"],
                         "score": [20, 10, 20, 10], "won": [True, False, True, False],
                         "winners": [1, 1, 1, 1], "count": [60, 40, 40, 60],
                         "players": [2, 2, 2, 2]})


def test_win_rates_with_wilson_interval_and_fair_share():
    t = analysis.win_rates(outcomes_frame(), "seat")
    assert t["n"].to_list() == [100, 100] and t["wins"].to_list() == [60, 40]
    assert t["win_rate"].to_list() == [0.6, 0.4] and t["fair"].to_list() == [0.5, 0.5]
    lo, hi = proportion_confint(60, 100, method="wilson")
    assert t["win_rate_low"][0] == pytest.approx(lo) and t["win_rate_high"][0] == pytest.approx(hi)


@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.01])
def test_wilson_intervals_are_statsmodels_own(alpha):
    """``intervals.wilson`` writes out statsmodels' Wilson interval (to spare every run its
    import): the same bounds for whole and fractional counts (design effects), 0 and all
    successes, and NaN where there are no trials."""
    from citadels_sim.stats.intervals import wilson
    rng = np.random.default_rng(3)
    trials = np.concatenate([rng.integers(1, 5000, 50), rng.uniform(0.5, 300.0, 50), [7, 7, 0]])
    successes = np.concatenate([np.floor(rng.uniform(0, 1, 100) * trials[:100]), [0, 7, 0]])
    lo, hi = wilson(successes, trials, alpha)
    ok = trials > 0
    slo, shi = proportion_confint(successes[ok], trials[ok], alpha=alpha, method="wilson")
    assert lo[ok] == pytest.approx(slo, rel=1e-12, abs=1e-15)
    assert hi[ok] == pytest.approx(shi, rel=1e-12, abs=1e-15)
    assert np.isnan(lo[~ok]).all() and np.isnan(hi[~ok]).all()


def test_fair_share_averages_over_player_counts():
    o = pl.DataFrame({"strategy": ["A", "A"], "won": [True, False], "count": [30, 10],
                      "players": [2, 4], "winners": [1, 1]})
    t = analysis.win_rates(o, "strategy")
    assert t["fair"][0] == pytest.approx((30 / 2 + 10 / 4) / 40)


def test_fair_share_counts_shared_wins():
    """4 players, 100 games, 10 of them a two-way tie: 110 wins over 400 seat-games, so an
    average player wins 0.275 of the time, not 1/N = 0.25 (each sharer counts as a winner)."""
    o = pl.DataFrame({"seat": [0, 0, 0, 0], "strategy": ["A"] * 4,
                      "won": [True, False, True, False], "winners": [1, 1, 2, 2],
                      "count": [22, 68, 5, 5], "players": [4] * 4})
    t = analysis.win_rates(o, "strategy")
    assert t["fair"][0] == pytest.approx((90 * 1 + 10 * 2) / (100 * 4))
    # the summary records the winners of each game: game 1 of seats_frame is shared by two
    out = chunk_tables({"seats": seats_frame(), "characters": characters_frame()})["outcomes"]
    by_score = dict(zip(out["score"].to_list(), out["winners"].to_list()))
    assert by_score == {10: 1, 7: 1, 5: 1, 9: 2, 4: 2}


ORDER_FREE = [
    lambda o, c, g: analysis.win_rates(o, ["cell", "seat"]),
    lambda o, c, g: analysis.seat_uniformity(o, "cell"),
    lambda o, c, g: analysis.character_table(c, g, ["cell"]),
    lambda o, c, g: analysis.character_balance(c, ["cell"]),
    lambda o, c, g: analysis.balance_test(c, ["cell"]),
    lambda o, c, g: analysis.distribution(g, "rounds", "cell"),
    lambda o, c, g: analysis.histogram(g, "rounds", "cell"),
    lambda o, c, g: analysis.capped_share(g, "cell"),
]


@pytest.mark.parametrize("fn", ORDER_FREE)
def test_tables_do_not_depend_on_the_order_of_their_input_rows(fn):
    """Every table is byte-identical whatever order its input rows come in (two `citadels
    report` runs on the same data wrote different last digits)."""
    rng = np.random.default_rng(0)
    o = pl.concat([outcomes_frame().with_columns(pl.lit(c).alias("cell"),
                                                 pl.col("count") * (i + 1) + 7)
                   for i, c in enumerate("xyz")])
    chars = pl.DataFrame({
        "cell": np.repeat(list("xyz"), 36), "batch": np.tile(np.repeat(np.arange(4), 9), 3),
        "character": np.tile(list("ABCDEFGHI"), 12), "rank": np.tile(np.arange(1, 10), 12),
        "strategy": "S", "players": 5,
        "games_held": rng.integers(500, 900, 108), "rounds_held": rng.integers(900, 2000, 108),
        "final_held": rng.integers(100, 400, 108), "killed": rng.integers(0, 90, 108),
        "robbed": rng.integers(0, 90, 108), "gold_gained": rng.integers(0, 9000, 108),
        "districts_built": rng.integers(0, 900, 108),
        "offered": rng.integers(2000, 4000, 108)}).with_columns(
        (pl.col("rounds_held") - 5).alias("picked"),
        (pl.col("games_held") * 0.3).cast(pl.Int64).alias("wins_held"),
        (pl.col("final_held") * 0.2).cast(pl.Int64).alias("final_wins"),
        (pl.col("games_held") * 1.1).cast(pl.Int64).alias("winners_held"))
    g = pl.DataFrame({"cell": np.repeat(list("xyz"), 20), "rounds": np.tile(np.arange(20), 3),
                      "capped": np.tile(np.arange(20) > 17, 3), "margin": np.tile(
                          np.arange(20) % 7, 3), "count": rng.integers(1, 50, 60)})
    expected = fn(o, chars, g)
    for seed in range(5):
        shuffled = [f.sample(fraction=1.0, shuffle=True, seed=seed) for f in (o, chars, g)]
        assert fn(*shuffled).equals(expected)


def test_seat_uniformity_chi_square():
    t = analysis.seat_uniformity(outcomes_frame().with_columns(pl.lit("c").alias("cell")),
                                 "cell")
    assert t["chi2"][0] == pytest.approx(4.0)  # (60-50)^2/50 + (40-50)^2/50
    assert t["p"][0] == pytest.approx(sps.chi2.sf(4.0, 1))
    assert t["best_seat"][0] == 0 and t["worst_seat"][0] == 1 and t["p_holm"][0] == t["p"][0]


def test_character_table_rates():
    chars = characters_frame().with_columns(pl.lit(4).alias("players"))
    games = pl.DataFrame({"rounds": [5, 10], "capped": [False, False], "margin": [1, 2],
                          "count": [4, 3]})  # 50 rounds played
    t = analysis.character_table(chars, games, [])
    x, y = t.row(0, named=True), t.row(1, named=True)
    assert x["held_rate"] == pytest.approx(10 / 50) and y["held_rate"] == pytest.approx(30 / 50)
    assert x["win_held"] == pytest.approx(2 / 8) and y["win_final"] == pytest.approx(3 / 6)
    assert y["killed_rate"] == pytest.approx(6 / 30) and y["robbed_rate"] == pytest.approx(0.1)
    assert x["fair"] == pytest.approx(0.25)
    lo, _ = proportion_confint(10, 50, method="wilson")
    assert x["held_rate_low"] == pytest.approx(lo)
    # per turn played (held rounds less killed ones): X 9 turns, Y 24 turns
    assert x["gold_per_turn"] == pytest.approx(2.0) and y["gold_per_turn"] == pytest.approx(2.0)
    assert x["districts_per_turn"] == pytest.approx(1.0) and y["districts_per_turn"] == 0.5


def cluster_diff(w1, n1, w2, n2):
    """Reference: difference of two ratios of per-batch totals, its cluster-robust standard
    error (linearisation, factor B / (B - 1)) and two-sided p-value, written out in numpy."""
    w1, n1, w2, n2 = (np.asarray(x, float) for x in (w1, n1, w2, n2))
    r1, r2 = w1.sum() / n1.sum(), w2.sum() / n2.sum()
    e = (w1 - r1 * n1) / n1.sum() - (w2 - r2 * n2) / n2.sum()
    se = np.sqrt(len(e) / (len(e) - 1) * (e ** 2).sum())
    return r1 - r2, se, 2 * sps.norm.sf(abs(r1 - r2) / se)


def test_district_table():
    """Keep: batches 0-3, strategies A and B; Library: A only."""
    rows = []
    for b, (sg, built, wb, wn) in enumerate([(50, 12, 6, 9), (50, 8, 3, 12), (50, 11, 7, 8),
                                             (50, 9, 4, 11)]):
        rows.append(("Keep", "A", b, sg, built, wb, wn))
        rows.append(("Keep", "B", b, 10, 2, 1, 2))
    for b, (sg, built, wb, wn) in enumerate([(50, 10, 9, 3), (50, 14, 10, 6), (50, 13, 9, 4),
                                             (50, 13, 12, 7)]):
        rows.append(("Library", "A", b, sg, built, wb, wn))
    d = pl.DataFrame(rows, orient="row", schema=["district", "strategy", "batch", "seat_games",
                                                 "built", "wins_built", "wins_not_built"])
    t = analysis.district_table(d, []).sort("district")
    keep, lib = t.row(0, named=True), t.row(1, named=True)
    assert keep["built_rate"] == pytest.approx(48 / 240)
    assert keep["win_built"] == pytest.approx(24 / 48)
    assert keep["win_not_built"] == pytest.approx(48 / 192)
    lb = d.filter(pl.col("district") == "Library")
    diff, se, p = cluster_diff(lb["wins_built"], lb["built"], lb["wins_not_built"],
                               lb["seat_games"] - lb["built"])
    assert lib["diff"] == pytest.approx(diff) and lib["diff_se"] == pytest.approx(se)
    assert lib["p"] == pytest.approx(p)
    assert lib["p_holm"] == pytest.approx(min(1, 2 * min(p, keep["p"])) if p < keep["p"]
                                          else max(p, min(1, 2 * keep["p"])))


def test_character_balance_against_the_set_average():
    """X wins 30 of 100 held games, Y 70 of 100, over 4 batches; the tests use the
    cluster-robust standard error of rate - set average (the same games feed both)."""
    xw, xn, yw, yn = [6, 9, 7, 8], [25] * 4, [18, 16, 19, 17], [25] * 4
    chars = pl.DataFrame({"batch": [0, 1, 2, 3] * 2, "character": ["X"] * 4 + ["Y"] * 4,
                          "rank": [1] * 4 + [2] * 4, "wins_held": xw + yw,
                          "games_held": xn + yn, "final_wins": [0] * 8, "final_held": [1] * 8})
    t = analysis.character_balance(chars, [])
    assert t["set_rate"].to_list() == [0.5, 0.5] and t["ratio"].to_list() == [0.6, 1.4]
    sw, sn = np.add(xw, yw), np.add(xn, yn)
    diff, se, p = cluster_diff(xw, xn, sw, sn)
    assert diff == pytest.approx(-0.2) and t["p"][0] == pytest.approx(p)
    assert t["p_holm"][0] == pytest.approx(min(1, 2 * max(p, t["p"][1])))
    assert t["verdict"].to_list() == ["under", "over"]
    test = analysis.balance_test(chars, [])
    chi2, pv, dof, _ = sps.chi2_contingency(np.array([[30, 70], [70, 30]]))
    deff = test["deff"][0]
    assert test["chi2"][0] == pytest.approx(chi2 / deff) and test["dof"][0] == dof == 1
    assert 0 < deff < 1  # the holders of the same games are negatively correlated here


def test_distribution_and_histogram():
    f = pl.DataFrame({"g": ["a"] * 3 + ["b"], "rounds": [1, 2, 3, 7], "count": [1, 1, 2, 5]})
    d = analysis.distribution(f, "rounds", "g")
    a = d.row(0, named=True)
    assert a["n"] == 4 and a["mean"] == pytest.approx(9 / 4) and a["median"] == 2.5
    assert a["std"] == pytest.approx(np.std([1, 2, 3, 3], ddof=1))
    assert (a["min"], a["max"]) == (1, 3) and d.row(1, named=True)["mean"] == 7
    h = analysis.histogram(f, "rounds", "g")
    assert h.filter(pl.col("g") == "a")["share"].to_list() == [0.25, 0.25, 0.5]


def test_margin_nulls_are_left_out_and_capped_share():
    games = pl.DataFrame({"rounds": [5, 6, 7], "capped": [False, False, True],
                          "margin": [None, 2, 4], "count": [3, 1, 1]})
    assert analysis.distribution(games, "margin", [])["mean"][0] == 3
    c = analysis.capped_share(games, [])
    assert c["capped_share"][0] == pytest.approx(0.2)


def test_pairwise_z_test_with_holm():
    pairs = pl.DataFrame({"a": ["A", "A", "A", "B", "B"], "b": ["B", "B", "B", "C", "C"],
                          "diff": [-1.0, 0.0, 1.0, -1.0, 1.0], "count": [10, 20, 30, 50, 50]})
    t = analysis.pairwise(pairs, [])
    ab = t.row(0, named=True)
    data = np.repeat([-1.0, 0.0, 1.0], [10, 20, 30])
    assert ab["n"] == 60 and ab["diff"] == pytest.approx(data.mean())
    z = data.mean() / (data.std(ddof=1) / np.sqrt(60))
    assert ab["z"] == pytest.approx(z) and ab["p"] == pytest.approx(2 * sps.norm.sf(z))
    half = 1.959964 * data.std(ddof=1) / np.sqrt(60)
    assert ab["diff_low"] == pytest.approx(data.mean() - half, rel=1e-5)
    bc = t.row(1, named=True)
    assert bc["diff"] == 0 and bc["p"] == pytest.approx(1.0)
    assert ab["p_holm"] == pytest.approx(2 * ab["p"]) and ab["significant"]


def test_identical_play_has_no_difference():
    r = analysis.diff_test(np.array([0.0]), np.array([500]))
    assert r["diff"] == 0 and r["p"] == 1.0


def test_fair_share_of_a_simulated_run_with_ties_is_its_pooled_win_rate():
    """four_color ties often (shared wins): with identical bots, the fair share is the
    pooled win rate (wins / seat-games), above 1/N, both in Results and in the summary."""
    from citadels_sim import GameConfig, simulate
    from citadels_sim.engine.simulate import Run
    config = GameConfig(ruleset="four_color", players=4)
    res = simulate(config, "heuristic", games=3000, seed=4)
    seats = res.win_rates("seat")
    pooled = seats["wins"].sum() / seats["n"].sum()
    assert pooled > 0.25 + 0.005  # ties happen
    assert seats["fair"].to_list() == pytest.approx([pooled] * 4)
    s = Summary()
    for _, frames in Run(config, "heuristic", 3000, seed=4):
        s.add(frames)
    outcomes = s.tables["outcomes"].with_columns(pl.lit(4).alias("players"))
    assert analysis.win_rates(outcomes, "strategy")["fair"][0] == pytest.approx(pooled)


def test_results_character_table_is_cluster_robust_and_survives_save(tmp_path):
    """Results.character_table gives the holders' win rate the same cluster-robust interval
    as the analysis layer, also after save and load (it was plain Wilson)."""
    from citadels_sim import GameConfig, Results, simulate
    res = simulate(GameConfig(players=5), "heuristic", games=3000, seed=8)
    t = res.character_table()
    ref = analysis.character_table(
        res.character_batches.with_columns(pl.lit(5).alias("players")),
        pl.DataFrame({"rounds": [1], "capped": [False], "margin": [1], "count": [10**6]}), [])
    assert t["ci_low"].to_list() == pytest.approx(ref["win_held_low"].to_list())
    assert (t["win_rate_held_deff"] < 1).all()  # holders of one game: negatively correlated
    lo, _ = proportion_confint(t["wins_held"][0], t["games_held"][0], method="wilson")
    assert t["ci_low"][0] > lo  # narrower than the independent-trials interval
    again = Results.load(res.save(tmp_path / "r"))
    assert again.characters.sort("character", "strategy").equals(
        res.characters.sort("character", "strategy"))
    assert again.character_table()["ci_low"].to_list() == pytest.approx(t["ci_low"].to_list())


def test_holm_matches_statsmodels():
    from statsmodels.stats.multitest import multipletests
    rng = np.random.default_rng(5)
    for m in (1, 2, 7, 40):
        p = rng.uniform(0, 0.2, m) ** 2
        assert np.allclose(analysis.holm(p), multipletests(p, method="holm")[1])
    with_nan = analysis.holm(np.array([0.01, np.nan, 0.04]))
    assert np.isnan(with_nan[1]) and np.allclose(with_nan[[0, 2]], [0.02, 0.04])


def test_rows_as_clusters_give_the_interval_of_grouping_by_the_cluster():
    """A seat's rows (one a game) are their own clusters: the closed form equals the
    cluster-robust variance computed over the games, and n / (n - 1) times the binomial."""
    from citadels_sim.stats.intervals import rate_table
    rng = np.random.default_rng(4)
    frame = pl.DataFrame({"seat": np.tile(np.arange(3), 400), "game": np.repeat(np.arange(400), 3),
                          "won": rng.random(1200) < [0.2, 0.3, 0.5] * 400})
    frame = pl.concat([frame, pl.DataFrame({"seat": [7], "game": [0], "won": [True]})])
    closed = rate_table(frame, "seat", "won", cluster="game", row_clusters=True)
    grouped = rate_table(frame, "seat", "won", cluster="game")
    for column in ("deff", "ci_low", "ci_high"):
        assert closed[column].to_numpy() == pytest.approx(grouped[column].to_numpy(), rel=1e-12)
    assert closed["deff"].to_list()[:3] == pytest.approx([400 / 399] * 3)
    assert closed["deff"][3] == 1.0  # one row: no variance to estimate


def test_a_p_value_too_small_for_double_precision_is_not_printed_as_0():
    assert analysis.p_text(0.01234) == "p = 0.0123"
    assert analysis.p_text(0.0) == "p < 1e-15" and analysis.p_text(1e-300) == "p < 1e-15"
