"""The report of a sweep (:mod:`citadels_sim.studies.sweep`): the verdict over the values,
each character's value and each game-quality measure against the swept number, the tables,
and the command that reproduces it."""

from __future__ import annotations

import shlex
from pathlib import Path

import polars as pl

from citadels_sim.game import house_rules, variants as card_variants
from citadels_sim.studies.sweep import SweepResult
from . import figures
from .document import Report
from .quality import COLUMNS


def command(result: SweepResult) -> str:
    """The ``citadels sweep`` command that plays this sweep."""
    s = result.spec
    joined = (lambda x: x if isinstance(x, str) else ",".join(x))  # noqa: E731
    args = ["citadels", "sweep", *s.names, "--values", ",".join(map(str, s.values))]
    if s.parameter2 is not None:
        args += ["--values", ",".join(map(str, s.values2))]
    args += ["--characters", joined(s.characters), "--ruleset", s.ruleset,
            "--players", ",".join(map(str, s.players)), "--strategies", ",".join(s.strategies),
            "--games", str(s.games), "--deals", str(s.deals), "--seed", str(s.seed)]
    if s.districts is not None:
        args += ["--districts", joined(s.districts)]
    if s.removed:
        args += ["--removed", ",".join(s.removed)]
    for k, v in s.rules:
        args += ["--rule", f"{k}={v}"]
    if s.variants is not None:
        args += ["--variants", str(s.variants)]
    if result.target is not None:
        args += ["--target", result.target.spec()]
    return shlex.join(args)


def _sentence(text: str) -> str:
    """``text`` with its first letter capitalised (names inside keep their capitals)."""
    return text[:1].upper() + text[1:]


def build(result: SweepResult) -> Report:
    """Lay out the report."""
    s = result.spec
    rep = Report(f"Sweep of {' and '.join(s.names)} ({s.ruleset}, {result.label()} set)")
    text = result.text().splitlines()
    for k, values in zip(s.names, (s.values, s.values2)):
        p = house_rules.PARAMETERS[k]
        rep.text(f"`{k}`: {p.meaning} ({p.unit}; published: "
                 + ", ".join(f"{s.official(n, k)} at {n} players" for n in s.players)
                 + f"), swept over {', '.join(map(str, values))}.")
    if s.parameter2 is not None:
        rep.text("Every pair of the two rules' values is played.")
    if s.variants is not None:
        rep.text(f"Card variants (`{Path(s.variants).name}`): " + "; ".join(
            f"{v.name}: the {v.base} with " + ", ".join(
                f"{k} = {x}" for k, x in v.to_dict().items() if k != "base")
            for v in card_variants.load(s.variants)) + ".")
    rep.text(text[1].capitalize() + ".")
    rep.heading("Verdict")
    rep.text(" ".join(_sentence(line.split(" — ", 1)[-1]) for line in text
                      if line.startswith(("TARGET", "VERDICT", "Values marked", "Next"))))
    rep.text(f"Reproduce with `{command(result)}`.")
    rep.heading("Character values")
    rep.text("Each character's value by restricted play (how much more a seat free to pick "
             "him wins than a seat barred from him) against the set's mean, as the balance "
             "verdict reads it, at each value, with 95% intervals (Holm-adjusted); shaded: "
             f"within the smallest difference that matters (±{s.sdm * 100:g} win-rate points).")
    chars = result.characters
    rep.figure("characters", figures.sweep_characters(chars, s.names, s.sdm * 100),
               "Character values against the swept number"
               + (f", one panel per value of {s.parameter2}." if s.parameter2 else "."))
    swept = ["swept"] + (["swept2"] if s.parameter2 else [])
    names = dict(zip(swept, s.names))
    table = chars.select(*swept, "players", "population", "character", "effect",
                         "effect_low", "effect_high", "value", "verdict").with_columns(
        pl.col("effect", "effect_low", "effect_high", "value").round(1))
    rep.tables["characters"] = table
    rep.table(table.rename({**names, "effect": "value - set's mean",
                            "effect_low": "low", "effect_high": "high",
                            "value": "value (raw)"}),
              "characters", (table["effect"].abs()).to_numpy(), "furthest from 0")
    if result.quality.height:
        rep.heading("Game quality")
        rep.figure("quality", figures.sweep_measures(result.quality, s.names, COLUMNS),
                   "Game-quality measures against the swept number, with 95% intervals "
                   "(definitions: docs/statistics.md, Game quality).")
        q = result.quality.select(*swept, "players", "lineup", "measure", "value", "low",
                                  "high", "unit").with_columns(
            pl.col("value", "low", "high").round(2)).rename(names)
        rep.tables["quality"] = q
        rep.table(q, "quality")
    untuned = [v for v in result.played if not all(result.tuned(v, n) for n in s.players)]
    if untuned:
        rep.text("Bots not tuned for the value: " + "; ".join(s.point_text(v)
                                                              for v in untuned)
                 + ". Their readings may be about the bots (docs/house_rules.md).")
    return rep


def write(result: SweepResult, path: str | Path) -> Path:
    """Write the report into directory ``path``; returns it."""
    return build(result).save(path)
