"""The report of a tuning run (``reports/NAME/``): report.md, a self-contained report.html
with the learning curve, the tuned strategy as a strategy file (``strategy.toml``, the
format of ``citadels_sim/game/data/strategies.toml``), the tables as CSV and metadata.json.
"""

from __future__ import annotations

import platform
import shlex
from pathlib import Path

import numba
import polars as pl

from citadels_sim.game.strategies import Strategy, presets, to_toml
from citadels_sim.stats import analysis
from citadels_sim.studies.tune import Tuning
from citadels_sim.versions import KERNEL_VERSION, __version__
from . import figures
from .document import Report

STRATEGY_FILE = "strategy.toml"

HOW_TO_READ = [
    "Fitness is the mean win share of a strategy against the league: in each game it "
    "sits in one seat (every seat in turn), league members fill the others, and a first "
    "place shared by k players counts 1/k, so the fair share is exactly 1/N. A run with "
    "--copies turns it round: the strategy fills every seat but one, each league member "
    "sits alone in the last, and fitness is the copies' share together (fair (N-1)/N).",
    "The learning curve is training fitness: every candidate of a generation plays the "
    "same deals (common random numbers), fresh deals each generation. The search mean is "
    "the centre CMA-ES samples around and the strategy that is deployed; the best "
    "candidate's curve is biased upwards (it is the maximum of noisy estimates, selected on "
    "the very games it is measured on), so read the search mean. A curve that is still "
    "climbing at the end says a larger budget would gain more.",
    "The held-out validation replays the deployed strategy, and the start strategy, on "
    "deals from a seed stream the search never used: this, not the curve, is the estimate "
    "of the tuned strategy's strength. Its interval is 95%, the game the unit (Wilson at the "
    "effective sample size); the difference tuned - start is paired deal by deal. Against "
    "a league of copies of the start strategy, the gain over the fair share measures how "
    "exploitable the start strategy is.",
    "Whole-number parameters (thresholds the kernel compares with whole numbers, marked "
    "'whole') are searched and deployed at whole values, so the validated strategy is "
    "exactly the one written to strategy.toml. A parameter at one of its bounds "
    "('at_bound') may want a wider range (citadels_sim/game/strategies.py).",
    "The SPRT plays the tuned strategy against the champion head to head (line-up A, B, A, "
    "B, ... rotated over the seats, common deals; citadels compare): H1 accepted means the "
    "tuned strategy's per-seat win rate exceeds the champion's by about delta1 or more.",
]


def command(t: Tuning) -> str:
    """The ``citadels tune`` command that reproduces the run."""
    p = t.plan
    args = ["citadels", "tune", "--family", p.family, *p.config.to_args()]
    args += ["--league", ",".join(s.name for s in p.league), "--start", p.start.name,
             "--champion", p.champion.name, "--budget", str(p.budget),
             "--games", str(p.games), "--popsize", str(p.popsize), "--sigma", str(p.sigma),
             "--seed", str(p.seed), "--name", p.name] + (["--copies"] if p.copies else [])
    return shlex.join(args)


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"


def build(t: Tuning) -> Report:
    """Lay out a tuning run's report."""
    p, c = t.plan, t.plan.config
    rep = Report(f"Tuning {p.name}")
    files = [s.name for s in (*p.league, p.start, p.champion) if s.name not in presets()]
    rep.text(f"Family {p.family}, {c.ruleset}, {c.players} players, characters "
             f"{', '.join(c.character_names)}. League: {', '.join(s.name for s in p.league)}; "
             f"start: {p.start.name}; champion: {p.champion.name}. CMA-ES over "
             f"{len(p.space)} parameters: population {p.popsize} (+ the search mean), "
             f"{p.games:,} games per candidate per generation, {p.generations} generations, "
             f"{t.timing['tuning_games']:,} games, sigma {p.sigma}, seed {p.seed}.")
    rep.text(f"Reproduce with `{command(t)}`"
             + (f" (with --strategies-file for {', '.join(sorted(set(files)))})"
                if files else "") + ".")
    tm = t.timing
    rep.text(f"Search: {tm['tuning_games']:,} games in {tm['tuning_seconds']:,} s "
             f"({tm['tuning_games_per_second']:,.0f} games/s, every candidate's games and "
             f"CMA-ES included); validation {tm['validation_seconds']} s, SPRT "
             f"{tm['sprt_seconds']} s; this session's wall time {tm['wall_seconds']} s.")
    if t.validation:
        v = t.validation
        rep.heading("Held-out validation")
        rows = [{"strategy": f"{name} ({key})", "games": v[key]["games"],
                 "win share": f"{v[key]['share']:.4f} [{v[key]['low']:.4f}, "
                              f"{v[key]['high']:.4f}]",
                 "fair": round(v["fair"], 4),
                 "gain over fair (points)": f"{_points(v[key]['share'] - v['fair'])} "
                                            f"[{_points(v[key]['low'] - v['fair'])}, "
                                            f"{_points(v[key]['high'] - v['fair'])}]"}
                for key, name in (("tuned", t.strategy.name), ("start", p.start.name))]
        rep.table(pl.DataFrame(rows))
        d = v["difference"]
        rep.text(f"Tuned - start on the same held-out deals: {_points(d['diff'])} points "
                 f"[{_points(d['diff_low'])}, {_points(d['diff_high'])}] (95%, paired per "
                 f"deal, {analysis.p_text(d['p'])}).")
    if t.comparison is not None:
        cmp = t.comparison
        rep.heading(f"SPRT against the champion ({p.champion.name})")
        s = cmp.sprt
        verdict = {"H1": "H1 accepted: the tuned strategy is stronger",
                   "H0": "H0 accepted: not stronger by delta1",
                   None: "no decision within the deals allowed"}[cmp.verdict]
        rep.table(pl.DataFrame([{
            "deals": cmp.deals, "line-ups": len(cmp.line_ups),
            "difference A - B": f"{cmp.test['diff']:+.4f} [{cmp.test['diff_low']:+.4f}, "
                                f"{cmp.test['diff_high']:+.4f}]",
            "delta0, delta1": f"{s.delta0:+.3f}, {s.delta1:+.3f}",
            "LLR": f"{cmp.llr:.2f} in [{s.bounds[0]:.2f}, {s.bounds[1]:.2f}]",
            "verdict": verdict}]))
        rep.text(f"A = {t.strategy.name}, B = {p.champion.name}: per-seat win-rate "
                 "difference, line-ups " + " / ".join(
                     "".join("A" if n == cmp.a else "B" for n in lu) for lu in cmp.line_ups)
                 + f", alpha {s.alpha}, beta {s.beta}.")
    rep.heading("Learning curve")
    rep.figure("learning_curve", figures.learning_curve(
        t.history, t.fair, t.validation.get("tuned") if t.validation else None),
        "Training win share per generation against the games played: the search mean "
        "(deployed), the population's average and its best candidate (biased up); dotted: "
        "the fair share (1/N; (N-1)/N with --copies); diamond: the deployed strategy on "
        "held-out deals, 95% interval.")
    rep.tables["history"] = t.history
    rep.heading("Parameters")
    params = t.parameters().with_columns(
        ((pl.col("tuned") <= pl.col("low")) | (pl.col("tuned") >= pl.col("high")))
        .alias("at_bound"))
    rep.tables["parameters"] = params
    rep.table(params)
    rep.text(f"The tuned strategy is in {STRATEGY_FILE}: use it anywhere a preset name "
             f"goes, as `{STRATEGY_FILE}:{t.strategy.name}` or with "
             f"`--strategies-file {STRATEGY_FILE}` and `{t.strategy.name}`.")
    rep.heading("How to read this report")
    for line in HOW_TO_READ:
        rep.text(line)
    rep.meta = {"name": p.name, "package_version": __version__,
                "kernel_version": KERNEL_VERSION, "python": platform.python_version(),
                "numba": numba.__version__, "polars": pl.__version__,
                "settings": p.settings(), "timing": t.timing, "validation": t.validation,
                "sprt": None if t.comparison is None else {
                    "deals": t.comparison.deals, "llr": t.comparison.llr,
                    "verdict": t.comparison.verdict, **t.comparison.test},
                "command": command(t)}
    return rep


def write(t: Tuning, path: str | Path) -> Path:
    """Write the report of a tuning run and its ``strategy.toml`` into directory ``path``;
    returns it."""
    return write_with_strategy(build(t), t.strategy, path, "citadels tune", command(t))


def write_with_strategy(rep: Report, strategy: Strategy, path: str | Path, by: str,
                        how: str) -> Path:
    """Write ``rep`` into directory ``path`` with ``strategy`` as ``strategy.toml``, headed
    by who wrote it (``by``) and the command that reproduces it (``how``)."""
    path = rep.save(path)
    (path / STRATEGY_FILE).write_text(to_toml([strategy], f"{strategy.name}: written by "
                                                          f"{by}\n{how}"))
    return path
