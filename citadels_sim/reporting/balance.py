"""The report of a balance test: the verdict first, then the restricted-play values, the set
against the base set on common deals, and the full experiment report of both sets."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import polars as pl

from citadels_sim.game.strategies import presets
from citadels_sim.studies.balance import (BOT_LIMITED, CHECK_TEXT, NOT_PICKED,
                                          UNCONFIRMED, preparation_of,
                                          STRATEGIES_FILE, UNIT, WIN_RATE, BalanceResult)
from citadels_sim.studies import regret
from citadels_sim.studies.prepare import REPAIR_SLACK, Prepared
from . import experiment, figures
from .document import Report, with_ci

METHOD = [
    ("Character value (restricted play)", "the deal (all restricted runs of one deal)",
     "mean per-deal difference between the baseline's win share per seat and the barred "
     "player's win, normal interval over deals (exact: deals are independent)"),
    ("Verdict", "the deal",
     "value minus the set's mean value; H0 |effect| <= the smallest difference that matters, "
     "Holm step-down within a set, player count and population; intervals at each test's "
     "Holm level"),
    ("Set against the base set", "the deal (common deals)",
     "paired per-deal differences, normal interval over deals"),
]


def _pct(frame: pl.DataFrame, *names: str) -> pl.DataFrame:
    """Each named rate (with ``_low``/``_high``) as one text column in win-rate points."""
    cols = [f"{n}{suffix}" for n in names for suffix in ("", "_low", "_high")]
    return with_ci(frame.with_columns(pl.col(cols) * 100), *names, digits=1)


def build(result: BalanceResult) -> Report:
    """Lay out the report of :func:`citadels_sim.studies.balance.run`."""
    spec = result.spec
    rep = Report(f"Balance of the {spec.label} character set ({spec.ruleset})")
    rep.text(f"Bots: {', '.join(spec.strategies)} (each population plays every seat). "
             f"Districts: {spec.districts_text()}. "
             + ("House rules: " + ", ".join(f"`{k} = {v}`" for k, v in spec.rules) + ". "
                if spec.rules else "")
             + "; ".join(result.basis())
             + f". Unit: {UNIT}. Smallest difference that matters: {spec.sdm * 100:g} win-rate "
             "points.")
    files = [p for p in spec.strategies if preparation_of(p) is None
             and ".toml" not in p and p.partition(":")[0] not in presets()]
    rep.text(f"Reproduce with `{spec.command(result.root)}`"
             + (f" (with --strategies-file for {', '.join(files)})" if files else "") + ".")
    rep.text(result.bots_text(STRATEGIES_FILE, markdown=True))
    for w in result.warnings():
        rep.text(f"**{w}**")
    rep.heading("Verdict")
    decided = result.verdict_table()
    if decided.height:
        rep.text("Characters whose value (the win-rate points a player loses when he may "
                 "never pick it) differs from the set's mean by more than "
                 f"{spec.sdm * 100:g} win-rate points, Holm-corrected:")
        multi = len(spec.strategies) > 1
        if len(spec.prepared_populations) > 1:  # what the other preparations read
            decided = decided.with_columns(pl.Series("other preparations", [
                result.elsewhere(r).removeprefix("; ") for r in decided.iter_rows(named=True)]))
        rep.table(_pct(decided.select(
            "players", *(["population"] if multi else []), "rank", "character", "effect",
            "effect_low", "effect_high", "verdict", *(["bot_dependent"] if multi else []),
            *(["other preparations"] if "other preparations" in decided.columns else [])),
            "effect").rename({"effect": "vs the set's mean (win-rate points)"}))
    for line in result.nothing_decided():
        rep.text(f"{line}.")
    for line in result.check_lines():
        rep.text(line)
    rep.text(f"**Next:** {result.next_step()}")
    rep.text("A negative value means the bots do better without the character: they take it "
             "when they should not, which says as much about the bots as about the card."
             + (f" `{NOT_PICKED}`: the bots (almost) never take the character, so barring "
                "him costs nothing and his value is about 0 by construction: it says what "
                "these bots do without him, not what he is worth to a player who takes him."
                if (result.values["verdict"] == NOT_PICKED).any() else "")
             + "".join(f" {x[0].upper()}{x[1:]}." for x in result.populations_note())
             + (f" `{UNCONFIRMED}`: another preparation of the bots did not read the "
                "character so; a reading that moves with the preparation is about the bots."
                if (result.values["verdict"] == UNCONFIRMED).any() else ""))
    values = result.values.join(
        result.holders, on=["players", "population", "set", "character", "rank"], how="left")
    rep.tables.update(values=values, against_base=result.against_base, games_paired=result.games)
    figs = figures.effects(values.filter(pl.col("set") == spec.label).with_columns(
                               pl.lit(spec.sdm).alias("sdm")),
                           f"{spec.label}: value against the set's mean")
    rep.figure("values", figs, "Each character's value minus the set's mean value "
               "(win-rate points; restricted play), intervals at the Holm level; the band is the "
               "smallest difference that matters.")
    if result.checks is not None:
        _bot_check(rep, result)
    if result.prepared:
        _prepared(rep, result)
    rep.heading("Character values (restricted play)")
    rep.text("value: win-rate points a player loses when he may never pick the character; "
             "vs mean: value minus the set's mean (win-rate points); forced: share of his "
             "offers in which the draft left him only that character; holders: holders' win "
             "rate minus the fair share, in win-rate points (an association, not a verdict); "
             "picked: share of the draft picks offering it that took it; held: share of "
             "rounds someone held it.")
    table = values.with_columns((pl.col("holders_vs_fair") * 100).round(1).alias("holders"),
                                pl.col("forced_share").round(3).alias("forced"),
                                pl.col("picked_when_offered").round(2).alias("picked"),
                                pl.col("held_rate").round(2).alias("held"))
    rep.table(_pct(table.select("players", "population", "set", "rank", "character", "value",
                                "value_low", "value_high", "effect", "effect_low",
                                "effect_high", "verdict",
                                *(["bot_dependent"] if len(spec.strategies) > 1 else []),
                                "forced",
                                "holders", "picked", "held"), "value", "effect")
              .rename({"effect": "vs mean"}))
    if result.against_base.height:
        rep.heading("The set against the base set (common deals)")
        own = result.spec.base_shipped(result.players)
        rep.text("Rank by rank, the set's character's value minus the base character's "
                 "(win-rate points, paired by deal)" + (
                     f"; for {spec.prepared_text()} each set is played by bots made for "
                     "it, the base set by " + ", ".join(f"`{b}` ({n}p)" for n, b in own.items())
                     if own else "") + ":")
        rep.table(_pct(result.against_base.select(
            "players", "population", "rank", "character", "base_character", "diff",
            "diff_low", "diff_high"), "diff").rename({"diff": "set - base"}))
        rep.text("Whole games, set minus base, paired by deal (a win rate in %, its "
                 "difference in win-rate points):")
        rate = pl.col("unit") == WIN_RATE
        shown = result.games.with_columns(
            pl.when(rate).then(pl.col(c) * 100).otherwise(pl.col(c)).round(2)
            for c in ("set", "base", "diff", "diff_low", "diff_high")).with_columns(
            pl.when(rate).then(pl.lit("%; set - base in win-rate points"))
            .otherwise(pl.col("unit")).alias("unit"))
        rep.table(with_ci(shown.select("players", "population", "measure", "unit", "set",
                                       "base", "diff", "diff_low", "diff_high"), "diff",
                          digits=2).rename({"diff": "set - base"}))
    rep.heading("The set in detail" if result.alone else "Both sets in detail")
    rep.text("The experiment behind the verdict: every table of an experiment report, for "
             "the set" + ("." if result.alone else " and the base set."))
    detail = experiment.build(result.record, part=True)
    rep.blocks += [_detail_block(b) for b in detail.blocks if b[0] != "h1"]
    rep.tables.update({f"detail_{k}": v for k, v in detail.tables.items()})
    rep.figures.update(detail.figures)
    rep.meta = {**detail.meta, "balance": spec.key(),
                "command": spec.command(result.root)}
    for table, unit, method in METHOD[:2] if result.alone else METHOD:
        rep.text(f"{table} — unit of independence: {unit}; {method}.")
    return rep


def _bot_check(rep: Report, result: BalanceResult) -> None:
    """The bot check: per player count and population, the exploiter's gain and the share
    of the set's characters whose value is significantly below -1 win-rate point."""
    rep.heading("Bot check")
    searched = result.check_searched()
    rep.text(f"{CHECK_TEXT[0].upper()}{CHECK_TEXT[1:]}. A population that fails reads "
             f"`{BOT_LIMITED}` instead of strong or weak."
             + (f" Exploit searches: {searched}." if searched else ""))
    rep.tables["bot_check"] = result.checks
    rep.table(result.check_rows())


def _prepared(rep: Report, result: BalanceResult) -> None:
    """The prepared bots: per player count the hardening's curve, and the time split."""
    rep.heading("Bots prepared for the set")
    starts = ", ".join(sorted({f"`{p.start}`" for p in result.prepared}))
    rep.text(f"The `prepared` population: at each player count the shipped bot made for the "
             f"set ({starts}), hardened for the set and that player count against tuned "
             "exploiters of both families and from the bot itself (the gains below were "
             "found while preparing; the least exploited rounds were given the exploit "
             "test, on deals of their own, and the one it found least exploited was "
             "deployed; the bot check searches again, on other deals). Prepared bots are "
             f"kept and reused by every later test of the same game. Time: "
             f"{result.time_text()}.")
    rows = pl.DataFrame([{"players": p.config.players, "start": p.start, **r,
                          **_tested(p, r["round"]),
                          "deployed": "deployed" if r["round"] == p.deployed else ""}
                         for p in result.prepared for r in p.rounds])
    rep.tables["prepared"] = rows
    shown = rows.drop("start").rename({"gain_points": "gain",
                                       "exploit_family": "strongest exploiter"})
    rep.table(with_ci(shown, "gain", digits=1)
              .rename({"gain": "its gain over fair (win-rate points)"}))
    _repairs(rep, result)


def _repairs(rep: Report, result: BalanceResult) -> None:
    """The repairs of the deployed bots (:func:`.prepare.repair`): per player count and
    character how much less the bot wants him, his restricted-play value before and after,
    and the repaired bot's exploit test; one line when none needed one."""
    rows = [{"players": p.config.players, "character": c["character"],
             "lowered": c["lowered"], "before": round(c["before"], 1),
             "after": round(c["after"], 1), "exploit test":
             f"{p.repair['gain_points']:+.1f} [{p.repair['gain_low']:+.1f}, "
             f"{p.repair['gain_high']:+.1f}] {p.repair['exploit_family']}",
             "unrepaired": f"{p.repair['before']:+.1f}",
             "deployed": "deployed" if p.repair["deployed"] else "not deployed"}
            for p in result.prepared if p.repair for c in p.repair["changes"]]
    if not rows:
        rep.text("No prepared bot needed a repair: none won more when barred from a "
                 f"character (restricted play, significantly below -{regret.REGRET:g} "
                 "win-rate points).")
        return
    steps = ", ".join(f"{x:g}" for x in regret.STEPS)
    rep.text("Repaired: a bot that wins more when it may never pick a character is making a "
             "mistake with him, so the deployed bot wants such a character less (by the "
             f"first of {steps} gold after which barring him no longer pays); the repaired "
             "bot is deployed unless the exploit test finds it conceding more than "
             f"{REPAIR_SLACK:g} win-rate point{'s' * (REPAIR_SLACK != 1)} beyond the bot it "
             "repaired (unrepaired), on the same deals. Values (restricted play) and tests "
             "in win-rate points.")
    frame = pl.DataFrame(rows).rename({"lowered": "wanted less (gold)",
                                       "before": "value before", "after": "value after"})
    rep.tables["repairs"] = frame
    rep.table(frame)


def _tested(p: Prepared, k: int) -> dict:
    """Round ``k``'s exploit test before deploying (:func:`.harden.confirm`), in a row of
    the prepared bots' table: the gain with its interval, or blank for a round not tested."""
    r = next((r for r in p.confirmed if r["round"] == k), None)
    return {"exploit test (win-rate points)":
            f"{r['gain_points']:+.1f} [{r['gain_low']:+.1f}, {r['gain_high']:+.1f}] "
            f"{r['exploit_family']}" if r else ""}


def _detail_block(block: tuple) -> tuple:
    """A block of the experiment's report, its table's CSV link renamed as its CSV is
    (``detail_NAME``)."""
    if block[0] == "table" and block[1].csv:
        return ("table", replace(block[1], csv=f"detail_{block[1].csv}"))
    return block


def write(result: BalanceResult, path: str | Path) -> Path:
    """Write the report of a balance test, and the strategy file of its bots
    (``strategies.toml``), into directory ``path``; returns it."""
    path = build(result).save(path)
    if (path / STRATEGIES_FILE).resolve() != result.strategies_file.resolve():
        shutil.copyfile(result.strategies_file, path / STRATEGIES_FILE)
    return path
