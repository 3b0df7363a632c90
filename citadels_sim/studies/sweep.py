"""Sweeps: one or two house rules over lists of values, a balance test of the set at each.

The designer's question after a verdict is what to change a number to.  A :class:`Sweep`
plays, at each value of one rule number (:mod:`citadels_sim.game.house_rules`), or at each
pair of values of two, the balance
test of the set (:mod:`.balance`: restricted-play character values, game-quality measures)
on the same deals (the same seed: common random numbers across values), each value's test in
its own resumable directory under the sweep's.  The result says, per value and player count,
each character's value and the game's measures, with intervals; which values keep every
character within the smallest difference that matters; and whether the bots were tuned
for that value (only the ``prepared`` population is: it prepares a bot per value).
"""

from __future__ import annotations

import hashlib
import itertools
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
from .target import Target, grid_order, search_order

#: the marker file of a sweep's directory
MARKER = "sweep.json"
#: the verdicts that put a value outside the limit (``unclear``: more games would tell)
OUTSIDE = ("strong", "weak", "bot-limited", "not picked")


@dataclass(frozen=True)
class Sweep:
    """A house rule ``parameter`` swept over ``values``, and optionally a second,
    ``parameter2`` over ``values2``: every pair is played (the other options as in
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
    parameter2: str | None = None
    values2: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        fixed = house_rules.pairs(self.rules)
        object.__setattr__(self, "rules", fixed)
        if self.parameter2 is None and self.values2:
            raise ConfigError("values2 given without parameter2: name the second rule.")
        if self.parameter2 == self.parameter:
            raise ConfigError(f"{self.parameter} is swept twice; name two different rules.")
        for name, attr in ((self.parameter, "values"), (self.parameter2, "values2")):
            if name is None:
                continue
            try:
                house_rules.check_name(name)
            except house_rules.HouseRuleError as err:
                raise ConfigError(str(err)) from None
            values = tuple(getattr(self, attr))
            if not values or len(set(values)) != len(values):
                raise ConfigError(f"give distinct values to sweep {name} over, got "
                                  f"{list(values)}.")
            object.__setattr__(self, attr, values)
            if any(k == name for k, _ in fixed):
                raise ConfigError(f"{name} is the rule swept; do not also fix it (--rule).")
        if not self.strategies:
            start = start_for(GameConfig(ruleset=self.ruleset, players=self.players[0],
                                         characters=self.characters, variants=self.variants,
                                         districts=self.districts, removed=self.removed))
            object.__setattr__(self, "strategies", (start,))
        for n in self.players:  # every value's games are valid, before anything is written
            game = self.game(n)
            GameConfig(**game, rules=self.rules)  # the game's own errors, whatever the value
            for point in self.points():
                try:
                    GameConfig(**game, rules=dict(self.rules) | self.at(point))
                except ConfigError as err:
                    raise ConfigError(f"cannot sweep {self.point_text(point, ' to ')}: "
                                      f"{err}") from None
        for point in self.points():
            self.balance(point).plan()

    def game(self, players: int) -> dict:
        """The game's options at ``players``, but for the house rules."""
        return dict(ruleset=self.ruleset, players=players, characters=self.characters,
                    districts=self.districts, removed=self.removed, variants=self.variants)

    @property
    def names(self) -> tuple[str, ...]:
        """The rules swept: one or two."""
        return (self.parameter,) if self.parameter2 is None else (self.parameter,
                                                                   self.parameter2)

    def points(self) -> list[tuple[int, ...]]:
        """Every value (one rule) or pair of values (two rules) played."""
        if self.parameter2 is None:
            return [(v,) for v in self.values]
        return list(itertools.product(self.values, self.values2))

    def at(self, point: int | tuple[int, ...]) -> dict[str, int]:
        """The swept rules' values at ``point`` (a value, or a pair with two rules)."""
        return dict(zip(self.names, point if isinstance(point, tuple) else (point,)))

    def key_of(self, point: tuple[int, ...]) -> int | tuple[int, ...]:
        """How results name ``point``: the value itself with one rule, the pair with two."""
        return point[0] if self.parameter2 is None else point

    def point_text(self, point: int | tuple[int, ...], join: str = " = ") -> str:
        """``thief_share = 50`` or ``thief_share = 50, merchant_gold = 2``."""
        return ", ".join(f"{k}{join}{v}" for k, v in self.at(point).items())

    def balance(self, point: int | tuple[int, ...]) -> balance.Balance:
        """The balance test at ``point`` (no exploit search: the bot check reads the
        restricted-play values)."""
        return balance.Balance(
            characters=self.characters, ruleset=self.ruleset, players=self.players,
            games=self.games, deals=self.deals, seed=self.seed, strategies=self.strategies,
            districts=self.districts, removed=self.removed, sdm=self.sdm,
            chunk_size=self.chunk_size, check_budget=0, variants=self.variants,
            rules=dict(self.rules) | self.at(point))

    def official(self, players: int, parameter: str | None = None) -> int:
        """The published value of ``parameter`` (default: the first rule swept) at
        ``players``."""
        return house_rules.default(house_rules.PARAMETERS[parameter or self.parameter],
                                   self.ruleset, players, False)

    def order(self) -> list[tuple[int, ...]]:
        """The points in a target search's order: nearest the published values first."""
        n = self.players[0]
        if self.parameter2 is None:
            return [(v,) for v in search_order(self.values, self.official(n))]
        return grid_order(search_order(self.values, self.official(n)),
                          search_order(self.values2, self.official(n, self.parameter2)))

    def key(self) -> str:
        d = asdict(self)
        if self.parameter2 is None:  # one-rule sweeps keep the keys they always had
            del d["parameter2"], d["values2"]
        return json.dumps(d, sort_keys=True, default=list)

    def default_out(self) -> Path:
        digest = hashlib.sha256(self.key().encode()).hexdigest()[:8]
        label = balance.set_label(self.characters)
        return Path("runs") / (f"sweep-{'-'.join(self.names)}-{label}-{self.ruleset}-"
                               f"{'-'.join(map(str, self.players))}p-{digest}")


@dataclass
class SweepResult:
    """What :func:`run` found: per value played (``swept``; with two rules, ``swept2`` the
    second's), player count and population each character's value and its value against the
    set's mean (``characters``: ``value``, ``effect``, in win-rate points, with
    ``verdict``) and the game-quality measures (``quality``), each value's balance result
    (``results``, keyed by the value, or the pair with two rules), and the ``target``
    searched for (None: every value played)."""

    spec: Sweep
    characters: pl.DataFrame
    quality: pl.DataFrame
    results: dict[int | tuple[int, int], balance.BalanceResult]
    root: Path
    target: Target | None = None

    @property
    def played(self) -> list:
        """The values (or pairs) played, in ascending order (a target search stops at the
        first that meets the target)."""
        return sorted(self.results)

    def _rows(self, frame: pl.DataFrame, point) -> pl.DataFrame:
        """``frame``'s rows at ``point`` (a value, or a pair)."""
        if frame.is_empty():
            return frame
        cols = ("swept", "swept2")
        return frame.filter(*[pl.col(c) == v for c, v in zip(
            cols, point if isinstance(point, tuple) else (point,))])

    def within(self) -> list:
        """The values (pairs) at which, at every player count and population, no
        character's value differs from the set's mean by more than the smallest difference
        that matters."""
        return [v for v in self.played if self._rows(self.characters, v).filter(
            pl.col("verdict").is_in(OUTSIDE)).is_empty()]

    def meeting(self) -> list:
        """The values (pairs) played that meet the target (none without a target)."""
        t = self.target
        return [] if t is None else [v for v in self.played if t.met(
            self._rows(self.characters, v), self._rows(self.quality, v))]

    def _shown(self, points: list) -> str:
        s = self.spec
        if s.parameter2 is None:
            return ", ".join(map(str, points))
        return "; ".join(s.point_text(p) for p in points)

    def target_text(self) -> str:
        """The target search's outcome in one line, with the next step."""
        s, t = self.spec, self.target
        found = self.meeting()
        total = len(s.points())
        skipped = total - len(self.played)
        rest = (f"; {skipped} farther value{'s' * (skipped != 1)} not played" if skipped
                else "")
        published = ", ".join(str(s.official(s.players[0], k)) for k in s.names)
        if found:
            return (f"TARGET — {t.text()}: met at {s.point_text(found[0])}, the nearest "
                    f"value to the published {published} that meets it "
                    f"({len(self.played)} of {total} values played{rest}).")
        return (f"TARGET — {t.text()}: no value of {self._swept()} meets it. "
                "Next: widen the values, or aim at a nearer band.")

    def _swept(self) -> str:
        """The values swept, in words."""
        s = self.spec
        if s.parameter2 is None:
            return ", ".join(map(str, s.values))
        return (f"{s.parameter} {', '.join(map(str, s.values))} x {s.parameter2} "
                f"{', '.join(map(str, s.values2))}")

    def text(self) -> str:
        """The console report: per value the characters beyond the limit and the game's
        measures; then the values that keep the set within it, and the next step."""
        s = self.spec
        sdm = s.sdm * 100
        meaning = "; ".join(f"{k}: {house_rules.PARAMETERS[k].meaning}" for k in s.names)
        over = (f"over {self._swept()}" if s.parameter2 is None
                else f"over every pair of {self._swept()}")
        out = [f"Sweep of {' and '.join(s.names)} ({meaning}) {over} "
               f"· {s.ruleset} · {self.label()} set · players "
               f"{', '.join(map(str, s.players))} · bots: {', '.join(s.strategies)}",
               f"unit: win-rate points; {s.games:,} games and {s.deals:,} restricted-play deals "
               "per value, player count and population, the same deals at every value"]
        if s.rules:
            out.append("house rules held fixed: "
                       + ", ".join(f"{k} = {v}" for k, v in s.rules))
        for n in s.players:
            published = ", ".join(f"{k} {s.official(n, k)}" for k in s.names)
            out += ["", f"{n} players (published: {published}):"]
            for v in self.played:
                rows = self._rows(self.characters, v).filter(pl.col("players") == n)
                off = rows.filter(pl.col("verdict").is_in(OUTSIDE))
                beyond = "; ".join(f"{r['character']} {r['effect']:+.1f} ({r['verdict']})"
                                   for r in off.iter_rows(named=True)) or \
                    f"no character beyond ±{sdm:g}"
                unclear = rows.filter(pl.col("verdict") == "unclear").height
                if unclear:
                    beyond += f" ({unclear} unclear: more games would tell)"
                quality_rows = self._rows(self.quality, v)
                q = {r["key"]: r for r in quality_rows.filter(
                    pl.col("players") == n).iter_rows(named=True)} if quality_rows.height \
                    else {}
                facts = (f"{q['length']['value']:.1f} rounds, "
                         f"{q['lead_changes']['value']:.1f} lead changes, "
                         f"halfway leader wins {q['halfway_leader_wins']['value']:.0f}%"
                         if q else "")
                tuned = "" if self.tuned(v, n) else " [bots not tuned for this value]"
                out.append(f"  {s.point_text(v)}{tuned}: {beyond}"
                           + (f" · {facts}" if facts else ""))
        good = self.within()
        out.append("")
        if self.target is not None:
            out.append(self.target_text())
        if good:
            out.append(f"VERDICT — values keeping every character within ±{sdm:g} win-rate "
                       f"points: {self._shown(good)}.")
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

    def tuned(self, value: int | tuple[int, ...], players: int) -> bool:
        """Were the bots tuned for the game at ``value`` (a pair with two rules)?  The
        prepared population is (one bot per value); a shipped bot only at the published
        values of a published game (no other house rule, no variant)."""
        s = self.spec
        return PREPARED in s.strategies or (
            all(v == s.official(players, k) for k, v in s.at(value).items())
            and not s.rules and s.variants is None)


def run(spec: Sweep, out: str | Path | None = None, workers: int | None = None,
        progress: bool = True, *, executor: ChunkExecutor | Executor | None = None,
        client=None, bots_dir: str | Path | None = None,
        target: Target | str | None = None) -> SweepResult:
    """Play (or resume) the sweep into ``out`` (default :meth:`Sweep.default_out`): each
    value's balance test in ``out/<parameter>=<value>`` (two rules:
    ``out/<parameter>=<value>,<parameter2>=<value2>``).  With a ``target``
    (:class:`.target.Target` or its text, e.g. ``"characters<=2"``) the values are played
    nearest the published ones first, and the sweep stops at the first that meets it."""
    executor = resolve(executor, client)
    if isinstance(target, str):
        target = Target.parse(target)
    if target is not None:
        target = target.check(GameConfig(**spec.game(spec.players[0])).character_names)
    root = Path(out) if out is not None else spec.default_out()
    experiment.claim(root, MARKER, spec.key())
    results, characters, measures = {}, [], []
    for point in (spec.points() if target is None else spec.order()):
        if progress:
            print(f"{spec.point_text(point)} ...", flush=True)
        bal = spec.balance(point)
        r = balance.run(bal, root / spec.point_text(point, "=").replace(", ", ","), workers,
                        progress=False, executor=executor, bots_dir=bots_dir)
        results[spec.key_of(point)] = r
        swept = [pl.lit(v).alias(c) for c, v in zip(("swept", "swept2"), point)]
        points = [f"{c}{end}" for c in ("value", "effect") for end in ("", "_low", "_high")
                  if f"{c}{end}" in r.values.columns]
        characters.append(r.values.filter(pl.col("set") == bal.label).with_columns(
            *swept, *[pl.col(c) * 100 for c in points]))
        tables = r.record.tables()
        own = {k: t.filter(pl.col("characters") == bal.label) if "characters" in t.columns
               else t for k, t in tables.items()}
        m = quality.measures(own, ["players", "lineup"])
        if m.height:
            measures.append(m.with_columns(*swept))
        if target is not None and target.met(characters[-1], measures[-1] if m.height
                                             else pl.DataFrame()):
            break
    order = [c for c in ("swept", "swept2") if spec.parameter2 or c == "swept"]
    by_value = dict(by=order, maintain_order=True)
    return SweepResult(spec, pl.concat(characters, how="diagonal_relaxed").sort(**by_value),
                       pl.concat(measures).sort(**by_value) if measures else pl.DataFrame(),
                       results, root, target)
