"""Balance-testing a character set against its own average and against the base set.

:func:`experiment_text` writes the experiment (the set and the base eight, at each player
count); the experiment runs and reports as any other, and :func:`text` sets the verdicts of
the two sets side by side, rank by rank.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import polars as pl

from . import analysis
from .config import GameConfig
from .experiment import LABELS, RunRecord


def experiment_text(characters: str | Sequence[str], ruleset: str, players: Sequence[int],
                    games: int, seed: int, lineup: str = "heuristic",
                    chunk_size: int = 100_000) -> str:
    """The TOML of a balance experiment: ``characters`` (names or a preset) and the base
    set, for every player count (counts the rules refuse are listed as skipped)."""
    GameConfig(ruleset=ruleset, players=max(players), characters=characters)  # fail early
    named = "" if isinstance(characters, str) else (
        f"[characters]\ncustom = {json.dumps(list(characters))}\n")
    label = characters if isinstance(characters, str) else "custom"
    sets = [label] + (["base"] if label != "base" else [])
    return (f'title = "Balance of the {label} character set ({ruleset})"\n'
            f"seed = {seed}\ngames = {games}\nchunk_size = {chunk_size}\n"
            "skip_invalid = true\n\n[grid]\n"
            f"ruleset = {json.dumps([ruleset])}\nplayers = {json.dumps(list(players))}\n"
            f"characters = {json.dumps(sets)}\nlineup = {json.dumps([lineup])}\n\n" + named)


def text(record: RunRecord) -> str:
    """Per player count: each rank's character in the tested set and in the base set, with
    holders' win rate relative to the set's own average and the Holm-corrected verdict,
    and each set's chi-square test of equal win rates."""
    t = record.tables()
    bal = analysis.character_balance(t["characters"], LABELS)
    tests = analysis.balance_test(t["characters"], LABELS)
    label = record.experiment.cells[0].characters
    out = []
    for players in sorted(bal["players"].unique()):
        sets = bal.filter(pl.col("players") == players)
        mine = sets.filter(pl.col("characters") == label)
        base = sets.filter(pl.col("characters") == "base")
        out.append(f"\n{players} players — holders' win rate / the set's average "
                   "(95% interval), verdict after Holm correction")
        for row in mine.iter_rows(named=True):
            line = (f"  {row['rank']}. {row['character']:<12} {row['ratio']:.3f} "
                    f"[{row['rate_low'] / row['set_rate']:.3f}, "
                    f"{row['rate_high'] / row['set_rate']:.3f}] {row['verdict']:<5}")
            ref = base.filter(pl.col("rank") == row["rank"])
            if label != "base" and ref.height:
                r = ref.row(0, named=True)
                line += f"   base {r['character']:<10} {r['ratio']:.3f} {r['verdict']}"
            out.append(line)
        for row in tests.filter(pl.col("players") == players).iter_rows(named=True):
            out.append(f"  set {row['characters']}: chi-square {row['chi2']:.1f} on "
                       f"{row['dof']} dof, p = {row['p']:.3g} (equal win rates for all "
                       "characters?)")
    return "\n".join(out)
