"""Sweeps: one house rule over a list of values, a balance test of the set at each.

The designer's question after a verdict is what to change a number to.  A :class:`Sweep`
plays, at each value of one rule number (:mod:`citadels_sim.game.house_rules`), the balance
test of the set (:mod:`.balance`: restricted-play character values, game-quality measures)
on the same deals (the same seed: common random numbers across values), each value's test in
its own resumable directory under the sweep's.  The result says, per value and player count,
each character's value and the game's measures, with intervals; which values keep every
character within the smallest difference that matters; and whether the bots were tuned
for that value (only the ``prepared`` population is: it prepares a bot per value).
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from pathlib import Path

import polars as pl

from citadels_sim.engine.executor import ChunkExecutor, resolve
from citadels_sim.game import house_rules
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import start_for
from citadels_sim.stats import quality, verdict
from . import balance, experiment
from .prepare import PREPARED
from .target import Target, search_order

#: the marker file of a sweep's directory
MARKER = "sweep.json"
#: the verdicts that put a value outside the limit (``unclear``: more games would tell)
OUTSIDE = ("strong", "weak", "bot-limited", "not picked")


@dataclass(frozen=True)
class Sweep:
    """A house rule ``parameter`` swept over ``values`` (the other options as in
    :class:`.balance.Balance`; ``rules``: house rules held fixed at every value;
    ``strategies`` empty: the set's shipped bot)."""

    parameter: str
    values: tuple[int, ...]
    characters: str | tuple[str, ...] = "base"
    ruleset: str = "classic"
    players: tuple[int, ...] = (4,)
    strategies: tuple[str, ...] = ()
    games: int = 20_000
    deals: int = 5_000
    seed: int = 0
    districts: str | tuple[str, ...] | None = None
    removed: tuple[str, ...] | None = None
    rules: tuple[tuple[str, int], ...] | dict = ()
    variants: str | None = None
    sdm: float = verdict.SDM
    chunk_size: int = 20_000

    def __post_init__(self) -> None:
        try:
            house_rules.check_name(self.parameter)
        except house_rules.HouseRuleError as err:
            raise ConfigError(str(err)) from None
        values = tuple(self.values)
        if not values or len(set(values)) != len(values):
            raise ConfigError(f"give distinct values to sweep {self.parameter} over, got "
                              f"{list(values)}.")
        object.__setattr__(self, "values", values)
        fixed = house_rules.pairs(self.rules)
        if any(k == self.parameter for k, _ in fixed):
            raise ConfigError(f"{self.parameter} is the rule swept; do not also fix it "
                              "(--rule).")
        object.__setattr__(self, "rules", fixed)
        if not self.strategies:
            start = start_for(GameConfig(ruleset=self.ruleset, players=self.players[0],
                                         characters=self.characters, variants=self.variants,
                                         districts=self.districts, removed=self.removed))
            object.__setattr__(self, "strategies", (start,))
        for n in self.players:  # every value's games are valid, before anything is written
            game = dict(ruleset=self.ruleset, players=n, characters=self.characters,
                        districts=self.districts, removed=self.removed, variants=self.variants)
            GameConfig(**game, rules=self.rules)  # the game's own errors, whatever the value
            for v in values:
                try:
                    GameConfig(**game, rules=dict(self.rules) | {self.parameter: v})
                except ConfigError as err:
                    raise ConfigError(f"cannot sweep {self.parameter} to {v}: {err}") from None
        for v in values:
            self.balance(v).plan()

    def balance(self, value: int) -> balance.Balance:
        """The balance test at ``value`` (no exploit search: the bot check reads the
        restricted-play values)."""
        return balance.Balance(
            characters=self.characters, ruleset=self.ruleset, players=self.players,
            games=self.games, deals=self.deals, seed=self.seed, strategies=self.strategies,
            districts=self.districts, removed=self.removed, sdm=self.sdm,
            chunk_size=self.chunk_size, check_budget=0, variants=self.variants,
            rules=dict(self.rules) | {self.parameter: value})

    def official(self, players: int) -> int:
        """The rule's published value at ``players``."""
        return house_rules.default(house_rules.PARAMETERS[self.parameter], self.ruleset,
                                   players, False)

    def key(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, default=list)

    def default_out(self) -> Path:
        digest = hashlib.sha256(self.key().encode()).hexdigest()[:8]
        label = balance.set_label(self.characters)
        return Path("runs") / (f"sweep-{self.parameter}-{label}-{self.ruleset}-"
                               f"{'-'.join(map(str, self.players))}p-{digest}")


@dataclass
class SweepResult:
    """What :func:`run` found: per value played (``swept``), player count and population
    each character's value and its value against the set's mean (``characters``:
    ``value``, ``effect``, in win-rate points, with ``verdict``) and the game-quality
    measures (``quality``), each value's balance result, and the ``target`` searched for
    (None: every value played)."""

    spec: Sweep
    characters: pl.DataFrame
    quality: pl.DataFrame
    results: dict[int, balance.BalanceResult]
    root: Path
    target: Target | None = None

    @property
    def played(self) -> list[int]:
        """The values played, in ascending order (a target search stops at the first that
        meets the target)."""
        return sorted(self.results)

    def within(self) -> list[int]:
        """The values at which, at every player count and population, no character's value
        differs from the set's mean by more than the smallest difference that matters."""
        bad = set(self.characters.filter(pl.col("verdict").is_in(OUTSIDE))["swept"].to_list())
        return [v for v in self.played if v not in bad]

    def meeting(self) -> list[int]:
        """The values played that meet the target (none without a target)."""
        t = self.target
        return [] if t is None else [v for v in self.played if t.met(
            self.characters.filter(pl.col("swept") == v),
            self.quality.filter(pl.col("swept") == v) if self.quality.height else self.quality)]

    def target_text(self) -> str:
        """The target search's outcome in one line, with the next step."""
        s, t = self.spec, self.target
        found = self.meeting()
        skipped = len(s.values) - len(self.played)
        rest = (f"; {skipped} farther value{'s' * (skipped != 1)} not played" if skipped
                else "")
        if found:
            return (f"TARGET — {t.text()}: met at {s.parameter} = {found[0]}, the nearest "
                    f"value to the published {s.official(s.players[0])} that meets it "
                    f"({len(self.played)} of {len(s.values)} values played{rest}).")
        return (f"TARGET — {t.text()}: no value of {', '.join(map(str, s.values))} meets it. "
                "Next: widen the values, or aim at a nearer band.")

    def text(self) -> str:
        """The console report: per value the characters beyond the limit and the game's
        measures; then the values that keep the set within it, and the next step."""
        s = self.spec
        p = house_rules.PARAMETERS[s.parameter]
        sdm = s.sdm * 100
        out = [f"Sweep of {s.parameter} ({p.meaning}) over {', '.join(map(str, s.values))} "
               f"· {s.ruleset} · {self.label()} set · players "
               f"{', '.join(map(str, s.players))} · bots: {', '.join(s.strategies)}",
               f"unit: win-rate points; {s.games:,} games and {s.deals:,} restricted-play deals "
               "per value, player count and population, the same deals at every value"]
        if s.rules:
            out.append("house rules held fixed: "
                       + ", ".join(f"{k} = {v}" for k, v in s.rules))
        for n in s.players:
            out += ["", f"{n} players (published value {s.official(n)}):"]
            for v in self.played:
                rows = self.characters.filter((pl.col("swept") == v) & (pl.col("players") == n))
                off = rows.filter(pl.col("verdict").is_in(OUTSIDE))
                beyond = "; ".join(f"{r['character']} {r['effect']:+.1f} ({r['verdict']})"
                                   for r in off.iter_rows(named=True)) or \
                    f"no character beyond ±{sdm:g}"
                unclear = rows.filter(pl.col("verdict") == "unclear").height
                if unclear:
                    beyond += f" ({unclear} unclear: more games would tell)"
                q = {r["key"]: r for r in self.quality.filter(
                    (pl.col("swept") == v) & (pl.col("players") == n)).iter_rows(named=True)}
                facts = (f"{q['length']['value']:.1f} rounds, "
                         f"{q['lead_changes']['value']:.1f} lead changes, "
                         f"halfway leader wins {q['halfway_leader_wins']['value']:.0f}%"
                         if q else "")
                tuned = "" if self.tuned(v, n) else " [bots not tuned for this value]"
                out.append(f"  {s.parameter} = {v}{tuned}: {beyond}"
                           + (f" · {facts}" if facts else ""))
        good = self.within()
        out.append("")
        if self.target is not None:
            out.append(self.target_text())
        if good:
            out.append(f"VERDICT — values keeping every character within ±{sdm:g} win-rate "
                       f"points: {', '.join(map(str, good))}.")
        else:
            out.append(f"VERDICT — no value swept keeps every character within ±{sdm:g} "
                       "win-rate points.")
        if not all(self.tuned(v, n) for v in self.played for n in s.players):
            out.append("Values marked [bots not tuned for this value] are judged by bots "
                       "tuned under the published rules: their readings may be about the bots. "
                       "Next: rerun with --strategies prepared (a bot hardened per value).")
        else:
            out.append("Next: narrow the values around the best, or sweep another number.")
        return "\n".join(out)

    def label(self) -> str:
        """The set's name in tables (:func:`.balance.set_label`)."""
        return balance.set_label(self.spec.characters)

    def tuned(self, value: int, players: int) -> bool:
        """Were the bots tuned for the game at ``value``?  The prepared population is
        (one bot per value); a shipped bot only at the published value of a published
        game (no other house rule, no variant)."""
        s = self.spec
        return PREPARED in s.strategies or (value == s.official(players) and not s.rules
                                            and s.variants is None)


def run(spec: Sweep, out: str | Path | None = None, workers: int | None = None,
        progress: bool = True, *, executor: ChunkExecutor | Executor | None = None,
        client=None, bots_dir: str | Path | None = None,
        target: Target | str | None = None) -> SweepResult:
    """Play (or resume) the sweep into ``out`` (default :meth:`Sweep.default_out`): each
    value's balance test in ``out/<parameter>=<value>``.  With a ``target``
    (:class:`.target.Target` or its text, e.g. ``"characters<=2"``) the values are played
    nearest the published one first, and the sweep stops at the first that meets it."""
    executor = resolve(executor, client)
    if isinstance(target, str):
        target = Target.parse(target)
    root = Path(out) if out is not None else spec.default_out()
    experiment.claim(root, MARKER, spec.key())
    results, characters, measures = {}, [], []
    order = (spec.values if target is None
             else search_order(spec.values, spec.official(spec.players[0])))
    for v in order:
        if progress:
            print(f"{spec.parameter} = {v} ...", flush=True)
        bal = spec.balance(v)
        r = balance.run(bal, root / f"{spec.parameter}={v}", workers, progress=False,
                        executor=executor, bots_dir=bots_dir)
        results[v] = r
        points = [f"{c}{end}" for c in ("value", "effect") for end in ("", "_low", "_high")
                  if f"{c}{end}" in r.values.columns]
        characters.append(r.values.filter(pl.col("set") == bal.label).with_columns(
            pl.lit(v).alias("swept"), *[pl.col(c) * 100 for c in points]))
        tables = r.record.tables()
        own = {k: t.filter(pl.col("characters") == bal.label) if "characters" in t.columns
               else t for k, t in tables.items()}
        m = quality.measures(own, ["players", "lineup"])
        if m.height:
            measures.append(m.with_columns(pl.lit(v).alias("swept")))
        if target is not None and target.met(characters[-1], measures[-1] if m.height
                                             else pl.DataFrame()):
            break
    by_value = dict(by="swept", maintain_order=True)
    return SweepResult(spec, pl.concat(characters, how="diagonal_relaxed").sort(**by_value),
                       pl.concat(measures).sort(**by_value) if measures else pl.DataFrame(),
                       results, root, target)

