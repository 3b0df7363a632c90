"""The report of an experiment run (``reports/NAME/``, a :class:`.document.Report`): the
verdict, then win rates by strategy and seat, characters, districts, scores and game length,
and the method; metadata.json holds versions, the experiment file, seed, games, wall time and
games/s.
"""

from __future__ import annotations

import platform
from pathlib import Path

import numba
import numpy as np
import polars as pl

from citadels_sim.stats import analysis, verdict
from citadels_sim.stats.intervals import Z95
from citadels_sim.studies import prepare as preparing
from citadels_sim.studies.exploit import CHECK_VALIDATE, LIMIT
from citadels_sim.studies.experiment import LABELS, STRATEGIES_COPY, RunRecord
from citadels_sim.versions import KERNEL_VERSION, __version__
from . import facets, figures, quality
from .document import Report, with_ci

#: per table of the report: (table, the unit that is independent, how intervals and tests
#: use it)
METHOD = [
    ("Win rate by strategy and by seat", "the game",
     "Wilson at the effective sample size n / deff, deff from the cluster-robust variance "
     "over 100 batches of games; seats: chi-square test of uniformity"),
    ("Paired strategy comparisons", "the deal (all rotations of one deal)",
     "mean per-deal difference, normal interval, z-test; Holm within a cell"),
    ("Holders' win rate (any round, final round)", "the game",
     "Wilson at the effective sample size (cluster-robust over batches of games)"),
    ("Balance verdicts", "the game",
     "z-test of rate - set average on its cluster-robust standard error, Holm within a set; "
     "set chi-square divided by the mean design effect (Rao-Scott)"),
    ("Bot check", "the held-out game",
     "each search's exploiter measured on held-out deals: Wilson interval of its win share, "
     "less the fair share"),
    ("Pick, killed and robbed rates", "the round (approximate)",
     "Wilson over rounds (the rounds of a game are not independent: approximate)"),
    ("Districts: built rate, holders against the others", "the game",
     "Wilson at the effective sample size; z-test of the difference on its cluster-robust "
     "standard error, Holm within a cell (an association, not an effect)"),
    ("Game length, scores, margins, capped share", "the game",
     "distributions (no interval); capped share: Wilson over games"),
]

#: the method of the holders' rates against the set's average when they are described, not
#: judged (:func:`build`'s ``part``), in place of METHOD's "Balance verdicts"
DESCRIBED = ("Holders against the set's average", "the game",
             "rate - set average on its cluster-robust standard error, 95% normal interval "
             "(a description: no test, no verdict)")

METHOD_TEXT = ("A shared first place counts as a win for each player sharing it, so the fair "
               "share is the number of winners of each game over N (1/N without ties). "
               "Intervals are 95%; Wilson from statsmodels, tests from scipy and "
               "statsmodels, families of tests Holm-corrected (step-down; checked against "
               "statsmodels' multipletests).")


def short_labels(cells: pl.DataFrame) -> dict[str, str]:
    """Each cell's name from the label columns that vary between cells (the districts left
    out where they always name the same as the characters, as with ``grid.set``)."""
    cols = facets.varying(cells)
    return {row["cell"]: facets.label(row, cols) for row in cells.iter_rows(named=True)}


# ---- excerpts --------------------------------------------------------------------------
FURTHEST = "furthest from the fair share, in standard errors"
FAIR_AXIS = ("0 is the fair share (winners per game / N: a shared first place is a win for "
             "each); one line per cell, at most ten to a panel.")


def _z(frame: pl.DataFrame, diff: str, base: str, se: str) -> np.ndarray:
    """|diff - base| / se per row: how many standard errors a row is from what is
    expected, to pick a long table's excerpt."""
    return ((frame[diff] - frame[base]) / frame[se]).abs().to_numpy()


# ---- content ----------------------------------------------------------------------------
def build(record: RunRecord, part: bool = False) -> Report:
    """Analyse a run and lay out its report.  ``part``: the run is the experiment behind
    another study's report (a balance test's), which gives the verdict and the command to
    reproduce it: no verdict here, and the holders' rates are described, not judged."""
    exp = record.experiment
    t = record.tables()
    cells = exp.cells_frame()
    names = short_labels(cells)
    order = {slug: i for i, slug in enumerate(names)}

    def labelled(frame: pl.DataFrame) -> pl.DataFrame:
        """Add the cell's short label; cells in the experiment's order."""
        return frame.with_columns(pl.col("cell").replace_strict(names).alias("label")).sort(
            pl.col("cell").replace_strict(order), maintain_order=True)
    outcomes, games, chars, pairs = t["outcomes"], t["games"], t["characters"], t.get("pairs")
    multi = outcomes.group_by("cell").agg(pl.col("strategy").n_unique()).filter(
        pl.col("strategy") > 1).height > 0
    rep = Report(exp.title)
    rep.meta = _metadata(record)
    rep.text(exp.description or "")
    reproduce = ("" if part else f" Reproduce with `citadels experiment "
                                 f"experiments/{exp.name}.toml`.")
    rep.text(f"{exp.total_games:,} games in {len(exp.cells)} cells "
             f"({', '.join(sorted({f'{c.games:,}' for c in exp.cells}))} games per cell), "
             f"seed {exp.seed}, seating: {exp.seating}.{reproduce} {_timing_text(record)}")
    holders = verdict.mark_bot_dependent(
        labelled(verdict.holders_verdicts(_one_strategy(chars), LABELS)),
        ["ruleset", "players", "characters", "districts", "character"])
    holders = _bot_limited(holders, record.checks)
    if not part:
        rep.tables["verdict"] = holders
        _verdict(rep, labelled, holders, games, t.get("districts"), record.checks)
        if record.checks is not None:
            _bot_check(rep, labelled, record)
    rep.heading("Cells")
    rep.table(labelled(cells).select("label", *cells.columns[1:]), "cells")
    rep.tables["cells"] = cells
    if record.timing.get("prepared"):
        rep.heading("The prepared bots")
        rep.text("The cells of the `prepared` line-up play, in every seat, the bot prepared "
                 "for their set and player count (as `citadels balance` judges under): "
                 "hardened against exploiters of both families, the least exploited round "
                 f"deployed after the exploit test ({preparing.CONFIRM_BUDGET:,} games a "
                 "search, held-out deals), "
                 "its mistakes repaired; every parameter is in `strategies.toml` beside "
                 "this report. Per game, as the last session found or prepared it (its "
                 "hardening's curve and that exploit test, in win-rate points above the "
                 "fair share):")
        rep.text("\n".join(f"- {line}" for line in record.timing["prepared"]))
    if exp.skipped and not part:  # a study's grid may cross what it never plays together
        rep.text("Cells left out because the rules (or this version of the kernel) refuse them:")
        rep.table(pl.DataFrame(exp.skipped))

    by_cell = LABELS
    if multi:
        rep.heading("Win rate by strategy")
        strat = labelled(analysis.win_rates(outcomes, by_cell + ["strategy"], t["wins"]))
        rep.tables["win_rate_strategy"] = strat
        rep.table(with_ci(strat.select("label", "strategy", "n", "wins", "win_rate",
                                       "win_rate_low", "win_rate_high", "fair"), "win_rate"),
                  "win_rate_strategy", _z(strat, "win_rate", "fair", "win_rate_se"),
                  FURTHEST)
        mixed = strat.filter(pl.col("strategy").n_unique().over("cell") > 1)
        rep.figure("win_rate_strategy", figures.rate_by(
            mixed, "strategy", "Win rate by strategy", "strategy"),
            "Win rate of each strategy in the cells with several strategies, in points "
            f"against the fair share, 95% intervals (cluster-robust over games). {FAIR_AXIS}")
        pw = labelled(analysis.pairwise(pairs, by_cell))
        rep.tables["pairwise"] = pw
        rep.text("Paired comparisons (per game: share of a's seats that won minus b's), "
                 "z-test, Holm-corrected within each cell:")
        rep.table(with_ci(pw.select("label", "a", "b", "n", "diff", "diff_low", "diff_high",
                                    "p", "p_holm", "significant"), "diff"),
                  "pairwise", pw["z"].abs(), "with the largest |z|")

    rep.heading("Seat effect")
    seats = labelled(analysis.win_rates(outcomes, by_cell + ["seat"], t["wins"]))
    tests = labelled(analysis.seat_uniformity(outcomes, by_cell))
    rep.tables.update(win_rate_seat=seats, seat_tests=tests)
    rep.text("Seat 0 holds the first crown (classic, 2016). Line-ups are rotated over the "
             "seats, so the seat effect below is the game's, not a strategy's. Chi-square "
             "test that wins spread over the seats as seat-games do (Holm over cells):")
    rep.table(tests.select("label", "seats", "chi2", "p", "p_holm", "best_seat", "worst_seat"),
              "seat_tests", tests["chi2"], "largest chi-squares")
    rep.figure("win_rate_seat", figures.rate_by(seats, "seat", "Win rate by seat", "seat"),
               "Win rate by seat per cell, in points against the fair share, 95% intervals "
               f"(cluster-robust over games). {FAIR_AXIS}")
    rep.table(with_ci(seats.select("label", "seat", "n", "wins", "win_rate", "win_rate_low",
                                   "win_rate_high", "fair"), "win_rate"),
              "win_rate_seat", _z(seats, "win_rate", "fair", "win_rate_se"), FURTHEST)

    rep.heading("Characters")
    table = labelled(analysis.character_table(chars, games, by_cell))
    table = table.with_columns(((pl.col("win_held") - pl.col("fair")) * 100)
                               .alias("held_vs_fair_points"))
    btests = labelled(analysis.balance_test(chars, by_cell))
    rep.tables.update(characters=table, balance_tests=btests)
    rep.figure("character_heatmap", figures.heatmap(
        table, "held_vs_fair_points", "Holders' win rate - fair share", "points"),
        "Win rate of the players who held each character (any round) minus their fair share "
        "(winners per game / N in the games they held it), in percentage points: above 0 "
        "the character's holders win more than an average player. One image per character "
        "set, all on one colour scale; blank: not in that cell's set, or never held.")
    rep.text("Per character: share of rounds someone held it, share of the draft picks "
             "offering it that took it (picked when offered), win rate of its holders (any "
             "round / final round), and how often its holder was killed or robbed (share of "
             "its held rounds).")
    rep.table(with_ci(table.select(
        "label", "character", "held_rate", "picked_when_offered", "win_held",
        "win_held_low", "win_held_high", "win_final", "win_final_low", "win_final_high",
        "killed_rate", "robbed_rate", "fair"), "win_held", "win_final"),
        "characters", _z(table, "win_held", "fair", "win_held_se"), FURTHEST)
    if part:
        _holders_described(rep, holders)
    else:
        _holders_judged(rep, holders, btests)
    rep.text("Gold and districts the holder gained per turn played with each character:")
    rep.table(table.select("label", "character", "gold_per_turn", "districts_per_turn"),
              "characters")

    districts = t.get("districts")
    if districts is not None and districts.height:
        rep.heading("Purple and unique districts")
        dt = labelled(analysis.district_table(districts, by_cell))
        rep.tables["districts"] = dt
        rep.text("Per district in the deck: share of seat-games ending with it in the city, "
                 "and the win rate of the players who have it against those who do not "
                 "(z-test on the cluster-robust standard error of the difference over batches "
                 "of games, Holm-corrected within each cell). Having a district "
                 "at the end goes with building a lot, so this measures association, not its "
                 "effect.")
        rep.table(with_ci(dt.select("label", "district", "built_rate", "built_rate_low",
                                    "built_rate_high", "win_built", "win_built_low",
                                    "win_built_high", "win_not_built", "diff", "p_holm"),
                          "built_rate", "win_built"),
                  "districts", _z(dt, "win_built", "win_not_built", "diff_se"),
                  "with the largest |z|")

    rep.heading("Scores, game length and margin of victory")
    for value, title, xlabel, source, keys in (
            ("score", "Score distribution", "final score", outcomes,
             by_cell + (["strategy"] if multi else [])),
            ("rounds", "Game length", "rounds", games, by_cell),
            ("margin", "Margin of victory", "winner's score minus best losing score", games,
             by_cell)):
        dist = labelled(analysis.distribution(source, value, keys))
        hist = labelled(analysis.histogram(source, value, by_cell))
        rep.tables[f"{value}_distribution"] = dist
        rep.tables[f"{value}_histogram"] = hist
        rep.figure(f"{value}_distribution", figures.distributions(hist, value, title, xlabel),
                   f"{title}: share of {'seat-games' if value == 'score' else 'games'} "
                   "per value.")
        rep.table(dist.select("label", *dist.columns[len(by_cell):-1]),
                  f"{value}_distribution")
    capped = labelled(analysis.capped_share(games, by_cell))
    rep.tables["capped"] = capped
    if capped["capped"].sum():
        rep.text("Games stopped by the round cap:")
        rep.table(with_ci(capped.select("label", "games", "capped", "capped_share",
                                        "capped_share_low", "capped_share_high"),
                          "capped_share"), "capped", capped["capped_share"], "most often capped")
    quality.section(rep, t, by_cell, labelled)
    rep.heading("Method")
    rep.text("What each table counts as independent (its unit), and how its intervals and "
             "tests use it:")
    for table, unit, method in METHOD:
        if part and table == "Balance verdicts":
            table, unit, method = DESCRIBED
        if table == "Bot check" and record.checks is None:
            continue
        rep.text(f"{table} — unit of independence: {unit}; {method}.")
    rep.text(METHOD_TEXT)
    return rep


def _holders_judged(rep: Report, v: pl.DataFrame, btests: pl.DataFrame) -> None:
    """The holders' win rate against the set's average, judged: the opening verdict's rows
    and the chi-square test that the set's characters are equal."""
    rep.text("Balance within each set: holders' win rate against the set's own average, in "
             f"points, tested against the smallest difference that matters "
             f"({verdict.SDM * 100:g} points; Holm step-down within the set, intervals at "
             "each test's Holm level, cluster-robust over batches of games: the verdicts "
             "of the opening table), and a chi-square test that all characters of the set "
             "are equal (Rao-Scott: divided by the mean design effect):")
    rep.table(btests.select("label", "characters", "chi2", "dof", "p"), "balance_tests",
              btests["chi2"] / btests["dof"], "largest chi-squares per degree of freedom")
    rep.table(with_ci(v.select(
        "label", "character", "n", (pl.col("rate") * 100).alias("holders"),
        (pl.col("set_rate") * 100).alias("set average"),
        (pl.col("effect") * 100).alias("points"), (pl.col("effect_low") * 100).alias(
            "points_low"), (pl.col("effect_high") * 100).alias("points_high"), "verdict"),
        "points", digits=1), "verdict", v["effect"] / v["effect_se"],
        "furthest from their set's average, in standard errors")


def _holders_described(rep: Report, v: pl.DataFrame) -> None:
    """The holders' win rate against the set's average, described (no test, no verdict):
    the experiment is part of a study whose verdict is measured otherwise."""
    half = Z95 * pl.col("effect_se")
    table = v.select("cell", "label", "character", "n", (pl.col("rate") * 100).alias("holders"),
                     (pl.col("set_rate") * 100).alias("set_average"),
                     *[(x * 100).alias(f"holders_vs_set{suffix}") for x, suffix in (
                         (pl.col("effect"), ""), (pl.col("effect") - half, "_low"),
                         (pl.col("effect") + half, "_high"))])
    rep.tables["holders_vs_set"] = table
    rep.text("Holders against their set's average: the win rate of the players who held "
             "each character minus the set's average, in win-rate points, 95% intervals "
             "(cluster-robust over batches of games). This describes who won while holding "
             "what; it is an association, **not a verdict**: who picks what when is not "
             "random, so a character taken from good positions looks strong here whatever "
             "its worth. The verdict above is measured by restricted play.")
    rep.table(with_ci(table.drop("cell").with_columns(pl.col("holders", "set_average").round(1)),
                      "holders_vs_set", digits=1).rename(
        {"holders": "holders' win rate (%)", "set_average": "set average (%)",
         "holders_vs_set": "holders - set average (win-rate points)"}),
        "holders_vs_set", v["effect"] / v["effect_se"],
        "furthest from their set's average, in standard errors")


def _one_strategy(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of the cells whose seats all play one strategy."""
    return frame.filter(pl.col("strategy").n_unique().over("cell") == 1)


def _bot_limited(v: pl.DataFrame, checks: pl.DataFrame | None) -> pl.DataFrame:
    """``v`` with the strong and weak verdicts of the cells that failed the bot check read
    bot-limited."""
    if checks is None:
        return v
    return verdict.relabel(v, checks.filter(~pl.col("passed")), ["cell"], verdict.DECIDED,
                           verdict.BOT_LIMITED)


def _verdict(rep: Report, labelled, v: pl.DataFrame, games: pl.DataFrame,
             districts: pl.DataFrame | None, checks: pl.DataFrame | None) -> None:
    """The report's opening: per cell, the characters whose holders' win rate differs from
    the set's average by more than the smallest difference that matters (``v``: the
    holders' verdicts); cells whose games mostly hit the round cap, loudly.  Only cells
    whose every seat plays one strategy are judged: in a mixed line-up who holds what
    depends on the strategies' strength."""
    rep.heading("Verdict")
    districts = None if districts is None else _one_strategy(districts)
    capped = analysis.capped_share(games, LABELS)
    for row in labelled(capped).filter(pl.col("capped_share") > 0.5).iter_rows(named=True):
        rep.text(f"**WARNING: {row['capped_share']:.0%} of the games of {row['label']} hit "
                 "the round cap; its results describe stalled games.**")
    decided = v.filter(pl.col("verdict").is_in([*verdict.DECIDED, verdict.BOT_LIMITED]))
    limited = int((decided["verdict"] == verdict.BOT_LIMITED).sum())
    sdm = verdict.SDM * 100
    rep.text(f"Characters whose holders' win rate differs from their set's average by more "
             f"than {sdm:g} win-rate points (percentage points of games won; Holm-corrected "
             f"within each cell, 95%): {decided.height} of {v.height}, in the cells where "
             "one strategy plays every seat (a verdict whose direction changes between two "
             "such line-ups of one set is bot-dependent"
             + (f"; {limited} read `{verdict.BOT_LIMITED}`: their cell's bots failed the bot "
                "check below, so they say more about the bots than about the cards"
                if limited else "")
             + "). Holders' rates are associations (who picks "
             "what when is not random); `citadels balance` measures a character's value by "
             "restricted play.")
    if decided.height:
        rep.table(with_ci(decided.select(
            "label", "character", (pl.col("effect") * 100).alias("points"),
            (pl.col("effect_low") * 100).alias("points_low"),
            (pl.col("effect_high") * 100).alias("points_high"), "verdict", "bot_dependent"),
            "points", digits=1), "verdict", decided["effect"].abs(),
            "furthest from their set's average")
    if districts is None or not districts.height:
        return
    d = _bot_limited(labelled(verdict.decide(analysis.district_table(districts, LABELS).rename(
        {"diff": "effect", "diff_se": "effect_se"}).drop("p", "p_holm"), LABELS)), checks)
    rep.tables["district_verdict"] = d
    decided = d.filter(pl.col("verdict").is_in([*verdict.DECIDED, verdict.BOT_LIMITED]))
    limited = int((decided["verdict"] == verdict.BOT_LIMITED).sum())
    rep.text(f"Districts whose owners' win rate differs from the other players' by more than "
             f"{sdm:g} win-rate points (Holm-corrected within each cell): {decided.height} of "
             f"{d.height}" + (f", {limited} of them `{verdict.BOT_LIMITED}`" if limited else "")
             + " — associations too (who builds a district is not random).")
    if decided.height:
        rep.table(with_ci(decided.select(
            "label", "district", (pl.col("effect") * 100).alias("points"),
            (pl.col("effect_low") * 100).alias("points_low"),
            (pl.col("effect_high") * 100).alias("points_high"), "verdict"),
            "points", digits=1), "district_verdict", decided["effect"].abs(),
            "furthest from the other players")


def _bot_check(rep: Report, labelled, record: RunRecord) -> None:
    """The bot check: per checked cell, how much an exploiter gains against its bots."""
    checks = labelled(record.checks)
    rep.tables["bot_check"] = record.checks
    failed = checks.filter(~pl.col("passed"))
    rep.heading("Bot check")
    rep.text(f"Can each judged cell's bots judge it? The exploit test of the strategy in its "
             f"seats (`citadels exploit`): one search from the heuristic preset, one from the "
             f"reference preset and, where the bot has parameters, one from the bot itself, "
             f"{record.experiment.check_budget:,} games each, every exploiter then measured "
             f"on {CHECK_VALIDATE:,} held-out games; the largest gain over the fair share, in "
             f"win-rate points. A cell passes when no exploiter gains more than {LIMIT:g}; "
             f"the strong and weak verdicts of a cell that fails read "
             f"`{verdict.BOT_LIMITED}`. **{checks.height - failed.height} of {checks.height} "
             "cells pass.**"
             + (" Where one fails, judge its set by `citadels balance`, which prepares bots "
                "for the set and player count." if failed.height else ""))
    gain = "exploiter's gain (win-rate points)"
    rep.table(with_ci(checks.select(
        "label", "strategy", pl.col("family").alias("search"),
        pl.col("gain").alias(gain), pl.col("gain_low").alias(f"{gain}_low"),
        pl.col("gain_high").alias(f"{gain}_high"),
        pl.when("passed").then(pl.lit("passed")).otherwise(pl.lit("FAILED")).alias("check")),
        gain, digits=1), "bot_check", checks["gain"], "largest exploiter gains")


def _timing_text(record: RunRecord) -> str:
    tm = record.timing
    if not tm.get("games_played"):
        return ""
    return (f"Last session: {tm['games_played']:,} games played in {tm['wall_seconds']:,} s "
            f"wall ({tm['games_per_second']:,.0f} games/s overall on {tm['workers']} "
            f"threads{_where(tm)}, summarising and writing included).")


def _where(timing: dict) -> str:
    """Where a run played its chunks, unless here (the default)."""
    executor = timing.get("executor", "local")
    return "" if executor == "local" else f" of {executor}"


def _metadata(record: RunRecord) -> dict:
    exp = record.experiment
    return {"name": exp.name, "title": exp.title, "package_version": __version__,
            "kernel_version": KERNEL_VERSION, "python": platform.python_version(),
            "numba": numba.__version__, "polars": pl.__version__, "seed": exp.seed,
            "games_per_cell": {c.slug: c.games for c in exp.cells},
            "total_games": exp.total_games, "chunk_size": exp.chunk_size,
            "seating": exp.seating,
            "cells": [{**c.labels(), "config": c.config.to_dict(),
                       "line_ups": [list(r) for r in c.rotations],
                       "seeds": [c.seed(exp.seed, r) for r in range(len(c.rotations))]}
                      for c in exp.cells],
            "skipped": exp.skipped, "timing": record.timing, "experiment_file": exp.source}


def write(record: RunRecord, path: str | Path) -> Path:
    """Write the report of an experiment run into directory ``path``, with the run's copy
    of the strategies its line-ups took from files or preparations (``strategies.toml``,
    when there is one); returns it."""
    out = build(record).save(path)
    copy = record.root / STRATEGIES_COPY if record.root is not None else None
    if copy is not None and copy.is_file():
        (out / STRATEGIES_COPY).write_bytes(copy.read_bytes())
    return out
