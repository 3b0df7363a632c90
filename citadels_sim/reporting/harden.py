"""The report of a hardening run (``reports/NAME/``): report.md, a self-contained
report.html with the exploitability per round, the hardened strategy as a strategy file
(``strategy.toml``), the rounds table as CSV and metadata.json."""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
import polars as pl

from citadels_sim.studies.harden import Hardening
from citadels_sim.versions import KERNEL_VERSION, __version__
from . import figures
from .document import Report
from .tune import STRATEGY_FILE, write_with_strategy


def command(h: Hardening) -> str:
    """The ``citadels harden`` command that reproduces the run."""
    s = h.settings
    return shlex.join(["citadels", "harden", "--start", s["start"], *h.config.to_args(),
                       "--rounds", str(s["rounds"]), "--exploit-family", s["exploit_family"],
                       "--extra", ",".join(s["extra"]), "--budget", str(s["budget"]),
                       "--exploit-budget", str(s["exploit_budget"]),
                       "--validate-games", str(s["validate_games"]), "--seed", str(s["seed"]),
                       "--name", s["name"],
                       *(["--until", f"{s['until']:g}"] if s.get("until") is not None else []),
                       *(["--mix"] if s.get("mix") else []),
                       *(["--confirm", str(s["confirm_rounds"]), "--confirm-budget",
                          str(s["confirm_budget"])] if s.get("confirm_rounds") else [])])


def build(h: Hardening) -> Report:
    """Lay out a hardening run's report."""
    c, first = h.config, h.exploits[0]
    rep = Report(f"Hardening {h.strategy.name}")
    rep.text(f"{first.plan.league[0].name} hardened for {c.ruleset}, {c.players} players, "
             f"characters {', '.join(c.character_names)}, in {len(h.tunings)} rounds. Each "
             f"round tunes the strategy so that its copies, in every seat but one, hold down "
             f"every exploiter found so far sitting alone in the last (tune --copies), then "
             f"searches a new exploiter of each family ({h.settings['exploit_family']}) "
             f"against it ({first.plan.budget:,} games each) and measures it on held-out "
             "deals; the strongest exploiter of each round is shown.")
    rounds = h.rounds()
    rep.heading("Exploitability per round")
    rep.figure("exploitability", figures.exploit_curve(rounds),
               "What a freshly tuned exploiter wins over the fair share against each round's "
               "strategy, on held-out deals, 95% intervals; round 0 is the start.")
    shown = rounds.select(
        "round", pl.when(rounds["deployed"]).then(rounds["strategy"] + " (deployed)")
        .otherwise(rounds["strategy"]).alias("strategy"),
        (rounds["exploit_share"].round(4).cast(str) + " [" + rounds["exploit_low"].round(4)
         .cast(str) + ", " + rounds["exploit_high"].round(4).cast(str) + "]")
        .alias("exploiter's win share [95%]"), rounds["exploit_family"].alias("its family"),
        rounds["gain_points"].round(1).alias("gain over fair (points)"),
        rounds["copies_share"].round(4).cast(str).fill_null(
            pl.when(rounds["round"] == 0).then(pl.lit("(start)")).otherwise(
                pl.lit("(mixture)"))).alias(
            f"copies' share vs its league (fair {(c.players - 1) / c.players:.2f})"))
    rep.table(shown)
    rep.tables["rounds"] = rounds
    if h.populations:
        last = h.populations[-1]
        rep.heading("Mixing")
        rep.text("With --mix, after each round's tuning every bot so far played against "
                 "every exploiter found (its copies against the exploiter alone, "
                 f"{h.settings['mix_games']:,} deals per exploiter), and the bots were mixed "
                 "to keep the most against the strongest of them (a seat playing the mixture "
                 "plays one bot per game, drawn by these chances); the round's exploiters were "
                 "searched against that mixture. The last round's population:")
        mixing = pl.DataFrame({
            "bot": [b.name for b in last.bots],
            "chance in the mixture": np.round(last.chances, 3),
            "least share vs an exploiter": last.matrix.min(axis=1).round(4)})
        rep.table(mixing)
        rep.tables["mixing"] = mixing
        rep.text(f"The mixture's least expected share over those {len(last.exploiters)} "
                 f"exploiters: {last.worst:.4f} (fair {(c.players - 1) / c.players:.2f}).")
    if h.confirmed:
        s = h.settings
        rep.heading("The exploit test of the least exploited rounds")
        rep.text(f"A round's own searches read its gain roughly, and the least of them is "
                 f"optimistic: the {len(h.confirmed)} rounds whose searches gained least were "
                 f"each given the exploit test (heuristic, reference and self searches of "
                 f"{s['confirm_budget']:,} games on deals of seed {s['confirm_seed']}, "
                 f"{s['validate_games']:,} held-out games); the least exploited is deployed.")
        tested = pl.DataFrame([{
            "round": r["round"], "strongest exploiter": r["exploit_family"],
            "gain over fair (points)": f"{r['gain_points']:+.1f}",
            "95% interval": f"[{r['gain_low']:+.1f}, {r['gain_high']:+.1f}]"}
            for r in h.confirmed])
        rep.table(tested)
        rep.tables["confirmed"] = tested
    how = "in the exploit test" if h.confirmed else "by its searches"
    rep.text(f"The deployed strategy is round {h.deployed}'s, the least exploited {how}; it "
             f"is in {STRATEGY_FILE} as {h.strategy.name}. Reproduce with `{command(h)}`.")
    rep.meta = {"name": h.strategy.name, "package_version": __version__,
                "kernel_version": KERNEL_VERSION, "config": c.to_dict(),
                "settings": h.settings, "command": command(h), "rounds": rounds.to_dicts(),
                "confirmed": h.confirmed,
                "searches": [t.plan.settings() for t in (*h.tunings, *h.exploits)]}
    return rep


def write(h: Hardening, path: str | Path) -> Path:
    """Write the report of a hardening run and its ``strategy.toml`` into directory
    ``path``; returns it."""
    return write_with_strategy(build(h), h.strategy, path, "citadels harden", command(h))
