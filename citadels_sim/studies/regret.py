"""Regret: a bot that wins more when it may never pick a character is making a mistake with him.

A character's restricted-play value (:mod:`.restricted`) below zero says that a seat of the
bot barred from him beats the bot in its seat: a deviation from the bot's own play that
pays.  An exploit search can miss such a small, one-character deviation (a 700,000-game
search found +1.8 points against ``reference_classic`` at 5 players, restricted play -1.7
[-1.9, -1.5] for the Assassin), restricted play measures it to within a few tenths.

:func:`repair` takes that mistake out of a bot: while some character's value is
significantly below -:data:`REGRET` points, it lowers the bot's desire for the worst of
them (``want_<character>``, in gold; a mixture: in every component) by the first step of
:data:`STEPS` after which barring him no longer pays, on deals of :data:`SEED`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from citadels_sim.engine.executor import ChunkExecutor
from citadels_sim.engine.seeding import derive_seed
from citadels_sim.game.config import GameConfig
from citadels_sim.game.strategies import FAMILY_PARAMS, PARAMS, Strategy
from citadels_sim.kernel.layout import CHARACTER_KEYS
from . import restricted

#: a value significantly below -REGRET win-rate points (its 95% interval's top below) is a
#: mistake to repair; the bot check fails below -1, so a repaired bot keeps a margin
REGRET = 0.5
#: restricted-play deals of every measurement, and the deals' master seed
DEALS = 20_000
SEED = derive_seed(0, "repair")
#: how much lower (gold) a regretted character's desire is tried, in turn
STEPS = (1.0, 2.0, 4.0, 8.0, 16.0)
#: characters repaired at most (each one, then every value measured again)
MOST = 3
#: games per chunk of the restricted-play runs
CHUNK = 5_000


@dataclass(frozen=True)
class Repair:
    """What :func:`repair` did: the bot, per repaired character how much lower it wants him
    and his value before and after (win-rate points), and the values left (per character)."""

    strategy: Strategy
    changes: list[dict]
    values: dict[str, float]

    def text(self) -> str:
        """One line: what was lowered, or that no character was regretted."""
        if not self.changes:
            return "no character's restricted-play value was below -%g points" % REGRET
        return "; ".join(f"wants the {c['character']} {c['lowered']:g} gold less (barring "
                         f"him: {c['before']:+.1f} -> {c['after']:+.1f} points)"
                         for c in self.changes)


def values(strategy: Strategy, config: GameConfig, characters: tuple[str, ...] | None = None,
           *, root: Path | None = None, workers: int | None = None,
           executor: ChunkExecutor) -> list[dict]:
    """Per character of the set (or of ``characters``): his restricted-play value under
    ``strategy`` (``value``, ``value_high``: the 95% interval's top, win-rate points), on
    :data:`DEALS` deals of :data:`SEED` (runs kept in ``root``, None: nowhere)."""
    design = restricted.Design(config, strategy, DEALS, SEED, characters)
    with tqdm(disable=True) as bar:
        moments, forced = restricted.play([design], root, CHUNK, workers, bar, executor)
    rows, _ = restricted.value_rows([design], [""], moments, forced, {})
    return [{"character": r["character"], "value": 100 * r["value"],
             "value_high": 100 * (r["value"] + 1.96 * r["value_se"])} for r in rows]


def lowered(strategy: Strategy, character: str, config: GameConfig, by: float) -> Strategy:
    """``strategy`` wanting ``character`` ``by`` gold less (a mixture: in every component),
    within the desire's allowed range."""
    key = f"want_{CHARACTER_KEYS[config.character_ids[config.character_names.index(character)]]}"
    low, high = PARAMS[key].allowed

    def less(s: Strategy) -> Strategy:
        return replace(s, params={**s.params,
                                  key: round(float(np.clip(s.params[key] - by, low, high)), 4)})

    if strategy.mixture:
        return replace(less(strategy), mixture=tuple((c, less(p)) for c, p in strategy.mixture))
    return less(strategy)


def repair(strategy: Strategy, config: GameConfig, *, root: Path | None = None,
           workers: int | None = None, executor: ChunkExecutor) -> Repair:
    """``strategy`` with its regretted characters' desires lowered (see the module
    docstring); a family without desires is returned as it is.  Its restricted-play runs
    are kept in ``root`` (None: nowhere), so an interrupted repair resumes."""
    def at(name: str) -> dict:
        return {"root": None if root is None else root / name, "workers": workers,
                "executor": executor}

    found = {r["character"]: r for r in values(strategy, config, **at("values0"))}
    changes: list[dict] = []
    if not any(k.startswith("want_") for k in FAMILY_PARAMS.get(strategy.family, PARAMS)):
        return Repair(strategy, changes, {c: r["value"] for c, r in found.items()})
    for _ in range(MOST):
        bad = [r for r in found.values() if r["value_high"] < -REGRET
               and r["character"] not in {c["character"] for c in changes}]
        if not bad:
            break
        worst = min(bad, key=lambda r: r["value"])["character"]
        for by in STEPS:
            trial = lowered(strategy, worst, config, by)
            (after,) = values(trial, config, (worst,), **at(f"{worst}-{by:g}"))
            if after["value_high"] >= -REGRET:
                break
        strategy = trial
        changes.append({"character": worst, "lowered": by,
                        "before": found[worst]["value"], "after": after["value"]})
        found = {r["character"]: r for r in values(strategy, config,
                                                     **at(f"values{len(changes)}"))}
    return Repair(strategy, changes, {c: r["value"] for c, r in found.items()})
