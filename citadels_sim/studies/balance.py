"""Balance-testing a character set: is it right, and which characters should a designer change?

:class:`Balance` describes the test: a character set (names, one per rank, or a named set),
the ruleset, the player counts, the districts, and one or more *populations* of bots (each
plays every seat; by default :data:`PREPARED`, at each player count the bot
:func:`.prepare.prepare` hardens for the set, kept and reused by later tests of the same
game).  :func:`run` prepares those bots, then plays the test as a paired experiment and
returns a :class:`BalanceResult`:

- **the set and the base set on common deals**: at each player count and population both
  sets play the same seeds (``common_deals``), as cells of an ordinary experiment (for the
  prepared population the base set is played by the shipped bots made for it,
  :meth:`Balance.base_bots`: each set by bots made for it), so every
  table of the experiment report exists for both; game-level measures (game length, score
  spread, the first crown's seat) are compared deal by deal, set minus base, with intervals
  over deals (a set identical to the base set, as ``first_game`` in 2016, is played once,
  alone);
- **restricted play** (:mod:`.restricted`): each character's value — the win-rate points a
  player loses when he may never pick it — with the set's characters compared to the set's
  mean value and, rank by rank, to the base set's character;
- **a verdict** (:mod:`.verdict`): per player count and population, the characters whose
  value differs from the set's mean by more than the smallest difference that matters,
  Holm-corrected, with an interval and a one-line reading; a verdict whose direction changes
  between populations is marked bot-dependent; judged under two or more preparations of the
  bots (``prepared``, ``prepared2`` ...: the same hardening on other deals), a strong or weak
  reading that not every preparation gives reads ``unconfirmed`` (:func:`unconfirmed`);
- **a bot check** (:func:`bot_check`): per player count and population, whether these bots
  can judge the set — no character's value significantly below -1 win-rate point (bots that
  win more without a character misplay it) and, with ``check_budget``, no exploiter gaining more
  than :data:`CHECK_GAIN` win-rate points against them.  A population that fails reads
  ``bot-limited`` instead of strong or weak.

Every win-rate difference is in win-rate points (percentage points of games won).  The
bots of every population, as judged under, are written into the run directory as a
strategy file (:data:`STRATEGIES_FILE`), and :meth:`Balance.command` is the command that
plays the test again.

Everything is checked before a game is played: a player count the rules refuse for the set
is an error (or, with ``skip_invalid``, skipped and said).  A run lives in one directory
(``out``; by default named from the set and every option, so two different tests never
share one), resumes there after an interruption, and refuses a directory holding another
test.  A 2016 named set brings its own unique districts unless ``districts`` says otherwise,
any other 2016 set the first_game ones.
The base set plays the set's deck; when that deck is not legal for it (a classic set with
the Diplomat has the Graveyard removed, which the base set may not do) it plays the deck
without that removal, and the result says so.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl
from tqdm.auto import tqdm

from citadels_sim.engine import store
from citadels_sim.engine.executor import ChunkExecutor, resolve
from citadels_sim.engine.simulate import check_memory, play_in_step
from citadels_sim.game import cards, house_rules, variants as card_variants
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import Strategy, default_for, get, start_for, to_toml
from citadels_sim.stats import analysis, verdict
from citadels_sim.stats.verdict import BOT_LIMITED, DECIDED, UNCONFIRMED, UNDECIDED, relabel
from citadels_sim.stats.intervals import DealMoments, Z95
from . import experiment
from . import exploit as exploiting, prepare as preparing
from .exploit import (DEFAULT_BUDGET, DEFAULT_FAMILIES, DEFAULT_SEARCHES, check_gain,
                      harden_options)
from . import restricted
from .restricted import Design
from .tune import check_budget

BASE = "base"
#: the population of bots prepared for the set (:mod:`.prepare`): at each player count the
#: shipped bot made for the set, hardened for the set and that player count
PREPARED = preparing.PREPARED
preparation_of = preparing.preparation_of
#: the run directory's strategy file: the bots of every population, as judged
STRATEGIES_FILE = "strategies.toml"
#: the verdict of a character that the bots (almost) never pick, whatever his value read:
#: it is about 0 by construction (a player barred from him loses a pick he would not make)
NOT_PICKED = "not picked"
#: ... below this share of the draft picks offering him
PICKED_AT_LEAST = 0.005
#: the verdicts the verdict lists: decided, or decided by bots that failed their check, that
#: never pick the character or whose other preparation did not read the same
LISTED = DECIDED + (BOT_LIMITED, UNCONFIRMED, NOT_PICKED)
#: a population fails its bot check when an exploiter gains more than this many win-rate
#: points over the fair share against it
CHECK_GAIN = 5.0
#: ... or when a character's value is significantly below minus this (a fraction: 1 point)
CHECK_NEGATIVE = 0.01
#: what the bot check asks, in words
CHECK_TEXT = (f"can these bots judge the set? A population passes when no exploiter gains "
              f"more than {CHECK_GAIN:g} win-rate points over the fair share against it and "
              f"no character's value is significantly below -{CHECK_NEGATIVE * 100:g} "
              "win-rate point (bots that win more without a character misplay it)")
#: an exploiter's held-out gain over the fair share against a population's bots in a game,
#: in win-rate points, with its 95% interval: ``gain(population, config) -> (gain, low, high)``
Gain = Callable[[str, GameConfig], tuple[float, float, float]]
#: the unit of every win-rate difference, in words: said where it first appears
UNIT = ("win-rate points (percentage points of games won: winning 27% of games instead of 25% "
        "is +2 win-rate points; victory points are always called so)")
#: the unit of a whole-game measure that is a win rate (a fraction; shown in %, its
#: differences in win-rate points)
WIN_RATE = "win rate"
#: a warning is printed and the results marked when more than this share of games hit the cap
CAPPED_WARNING = 0.5


def set_label(characters: str | Sequence[str]) -> str:
    """A character set's name in tables: a named set's, or "custom"."""
    return characters if isinstance(characters, str) else "custom"


@dataclass(frozen=True)
class Balance:
    """What a balance test plays (see the module docstring)."""

    characters: str | tuple[str, ...]
    ruleset: str = "classic"
    players: tuple[int, ...] = (4, 5)
    games: int = 100_000  # games per set, player count and population (the experiment)
    deals: int = 20_000  # restricted-play deals per set, player count and population
    seed: int = 0
    #: populations of bots, each playing every seat: verdicts that change direction between
    #: them are bot-dependent; ``prepared2`` ... are further preparations (:func:`unconfirmed`)
    strategies: tuple[str, ...] = (PREPARED,)
    districts: str | tuple[str, ...] | None = None  # None: a 2016 named set's own, or default
    removed: tuple[str, ...] | None = None
    sdm: float = verdict.SDM
    skip_invalid: bool = False
    chunk_size: int = 20_000
    #: games of an exploit search of each family against each population for the bot check
    #: (0: none; the check then reads the restricted-play values only): the exploit test's,
    #: as a check of 200,000 reads bots 1-3 win-rate points better (docs/balance.md)
    check_budget: int = DEFAULT_BUDGET
    #: house rules for every game, the set's and the base set's (GameConfig ``rules``)
    rules: tuple[tuple[str, int], ...] | dict = ()
    #: a variants file whose characters the set may name (GameConfig ``variants``)
    variants: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", house_rules.pairs(self.rules))
        if self.variants is not None:
            try:
                card_variants.load(self.variants)
            except card_variants.VariantError as err:
                raise ConfigError(str(err)) from None
        for name in ("games", "deals", "chunk_size", "check_budget"):
            value, zero = getattr(self, name), name == "check_budget"  # 0: no search
            if not isinstance(value, int) or isinstance(value, bool) or value < 1 - zero:
                raise ConfigError(f"{name} must be a {'non-negative' if zero else 'positive'} "
                                  f"integer, got {value!r}.")
        if not isinstance(self.skip_invalid, bool):
            raise ConfigError(f"skip_invalid must be true or false, got {self.skip_invalid!r}.")
        if not 0 <= self.sdm < 1:
            raise ConfigError(f"the smallest difference that matters must be from 0 to under "
                              f"100 win-rate points (sdm 0 to under 1: 0.02 is 2 points), got "
                              f"{self.sdm * 100:g} points (sdm {self.sdm!r}).")
        if not self.players or len(set(self.players)) != len(self.players):
            raise ConfigError(f"players must list distinct player counts, got "
                              f"{list(self.players)}.")
        if not self.strategies:
            raise ConfigError("give at least one strategy (population).")
        if len(set(self.strategies)) != len(self.strategies):
            raise ConfigError(f"strategies must list distinct populations, got "
                              f"{list(self.strategies)}.")
        for s in self.strategies:
            if s.startswith(PREPARED) and preparation_of(s) is None:
                raise ConfigError(f"no population {s!r}: the prepared bots are {PREPARED!r} "
                                  f"and, prepared again on other deals, {PREPARED}2 to "
                                  f"{PREPARED}{preparing.MOST_PREPARATIONS}.")
            if preparation_of(s) is None:
                get(s)  # unknown names fail here, with the list of presets

    @property
    def label(self) -> str:
        """The set's name in tables: the named set's, or "custom"."""
        return set_label(self.characters)

    @property
    def own_districts(self) -> str | tuple[str, ...] | None:
        """The districts played: as given, else a 2016 named set's own, else the default."""
        if self.districts is not None:
            return self.districts
        if (self.ruleset == "2016" and isinstance(self.characters, str)
                and self.characters in cards.named_sets()):
            return self.characters
        return None

    def districts_text(self) -> str:
        """Which districts are played, in words."""
        d = self.own_districts
        if d is None:
            return ("the first_game unique districts" if self.ruleset == "2016" else
                    "the base deck's purple districts" if self.ruleset == "classic" else
                    "no purple districts")
        origin = ("the named set's own" if self.districts is None else
                  "named set" if isinstance(d, str) else "as given")
        text = d if isinstance(d, str) else ", ".join(d)
        removed = f"; removed: {', '.join(self.removed)}" if self.removed else ""
        return f"{text} ({origin}){removed}"

    def key(self) -> str:
        """The canonical text of every option: what makes two tests the same test."""
        doc = asdict(self)
        if not self.check_budget:  # as before the option: the runs made then stay the same
            del doc["check_budget"]
        if not self.rules:  # likewise
            del doc["rules"]
        if self.variants is None:
            del doc["variants"]
        else:  # the variants themselves, not only their file's name
            doc["variants"] = [v.to_dict() | {"name": v.name}
                               for v in card_variants.load(self.variants)]
        if self.prepared_populations:  # bots prepared otherwise are other bots
            doc["prepare"] = preparing.hardening()
            doc["base_bots"] = "the base set's own"  # before: the set's prepared bots
        doc["characters"] = (self.characters if isinstance(self.characters, str)
                             else list(self.characters))
        return json.dumps(doc, sort_keys=True, default=list)

    @property
    def prepared_populations(self) -> list[str]:
        """The populations of prepared bots judged under (``prepared``, ``prepared2`` ...)."""
        return [p for p in self.strategies if preparation_of(p) is not None]

    def prepared_text(self) -> str:
        """"the prepared population", "the prepared and prepared2 populations"."""
        prepared = self.prepared_populations
        return f"the {_and(prepared)} population{'s' * (len(prepared) > 1)}"

    def to_prepare(self, bots_dir: str | Path | None = None) -> list[int]:
        """The player counts whose prepared bots :func:`run` must still harden (not kept in
        ``bots_dir``, default :data:`.prepare.BOTS_DIR`, for some preparation judged
        under); none unless a prepared population is judged under."""
        return [n for n in self.plan()[0]
                if any(not preparing.kept(self._config(self.characters, n, self.removed),
                                          bots_dir, preparation_of(p))
                       for p in self.prepared_populations)]

    def default_out(self) -> Path:
        """``runs/balance-<set>-<ruleset>-<players>p-<strategies>-<hash of all options>``."""
        digest = hashlib.sha256(self.key().encode()).hexdigest()[:8]
        players = "-".join(map(str, self.players))
        strategies = "+".join(s.replace(":", "_").replace("=", "") for s in self.strategies)
        return Path("runs") / (f"balance-{self.label}-{self.ruleset}-{players}p-"
                               f"{strategies}-{digest}")

    def command(self, out: str | Path | None = None) -> str:
        """The ``citadels balance`` command that plays this test (into ``out``, when that is
        not the default directory)."""
        def joined(x: str | tuple[str, ...]) -> str:
            return x if isinstance(x, str) else ",".join(x)
        args = ["citadels", "balance", "--characters", joined(self.characters),
                "--ruleset", self.ruleset, "--players", ",".join(map(str, self.players)),
                "--strategies", ",".join(self.strategies), "--games", str(self.games),
                "--deals", str(self.deals), "--seed", str(self.seed),
                "--sdm", f"{self.sdm * 100:g}", "--chunk-size", str(self.chunk_size),
                "--check-budget", str(self.check_budget)]
        if self.districts is not None:
            args += ["--districts", joined(self.districts)]
        if self.removed:
            args += ["--removed", ",".join(self.removed)]
        if self.skip_invalid:
            args.append("--skip-invalid")
        for name, value in self.rules:
            args += ["--rule", f"{name}={value}"]
        if self.variants is not None:
            args += ["--variants", str(self.variants)]
        if out is not None and Path(out) != self.default_out():
            args += ["--out", str(out)]
        return shlex.join(args)

    def start_bot(self, population: str, players: int) -> str:
        """The strategy a population plays at ``players`` before any preparation (the
        prepared population's start: the shipped bot made for the set)."""
        if preparation_of(population) is not None:
            return start_for(self._config(self.characters, players, self.removed))
        return population

    def bots(self, players: Sequence[int], prepared: Sequence[preparing.Prepared] = ()
             ) -> dict[tuple[str, int], Strategy]:
        """Per population and player count, the bots judged under, named as in the run's
        strategy file (:func:`judged_name`), every parameter as played (``prepared``: the
        prepared populations' bots, one per preparation and player count)."""
        mine = {(p.preparation, p.config.players): p for p in prepared}
        out = {}
        for p in self.strategies:
            for n in players:
                if (k := preparation_of(p)) is not None:
                    made = mine[(k, n)]
                    bot, name = made.strategy, judged_name(p, made.directory.name)
                    again = f", preparation {k}" if k > 1 else ""
                    what = f"prepared for this set at {n} players{again} ({bot.description})"
                else:
                    bot, name, what = get(p), judged_name(p), f"population {p!r}"
                out[(p, n)] = replace(bot, name=name,
                                      description=f"the bots of a balance test: {what}")
        return out

    def base_shipped(self, players: Sequence[int]) -> dict[int, str]:
        """Per player count where the set is compared with the base set, the shipped bot
        that plays the base set's games for the prepared population: the one made for the
        base set at that count (:func:`.default_for`).  Each set is so played by bots made
        for it; the set's prepared bots misread the base set (at 2 players the base King
        -38.1 win-rate points, +15.2 under its own bot)."""
        if not self.prepared_populations:
            return {}
        return {n: default_for(self._config(None, n, self.base_removed(n)))
                for n in players if self.compared(n)}

    def base_bots(self, players: Sequence[int]) -> dict[int, Strategy]:
        """:meth:`base_shipped`'s bots, named as in the run's strategy file."""
        return {n: replace(get(shipped), name=judged_name(BASE, shipped),
                           description=f"the bots of a balance test: the base set's own at "
                                       f"{n} players ({shipped})")
                for n, shipped in self.base_shipped(players).items()}

    def _config(self, characters, players: int, removed) -> GameConfig:
        return GameConfig(ruleset=self.ruleset, players=players, characters=characters,
                          districts=self.own_districts, removed=removed, rules=self.rules,
                          variants=self.variants)

    def base_removed(self, players: int) -> tuple[str, ...] | None:
        """The base set's removals: the set's, less the Graveyard when only the Diplomat
        needed it out."""
        try:
            self._config(None, players, self.removed)
            return self.removed
        except ConfigError:
            if self.removed and "Graveyard" in self.removed:
                rest = tuple(x for x in self.removed if x != "Graveyard") or None
                self._config(None, players, rest)  # raises if that is no deck either
                return rest
            raise

    def base_refused(self, players: int) -> str | None:
        """Why the rules refuse the base set at ``players`` (the 2016 base set has no rank 9,
        which 3 and 8 players need; the classic base set none for 8), or None."""
        try:
            self.base_removed(players)
            return None
        except ConfigError as err:
            return str(err)

    def compared(self, players: int) -> bool:
        """Whether the set is compared with the base set at ``players``: the base set can be
        played there and is not the set itself (the same characters on the same deck)."""
        return (self.base_refused(players) is None
                and not (self.base_removed(players) == self.removed
                         and self._config(self.characters, players, self.removed).character_names
                         == self._config(None, players, self.removed).character_names))

    def is_base(self, players: Sequence[int]) -> bool:
        """Whether the set is the base set at every count of ``players`` where the base set
        can be played (as ``first_game`` in 2016): then it is played once, alone."""
        return not any(self.compared(n) for n in players) and any(
            self.base_refused(n) is None for n in players)

    def sets(self, players: Sequence[int]) -> list[str]:
        """The sets played: the set, and the base set where it is compared with it."""
        return [self.label] + ([BASE] if any(self.compared(n) for n in players) else [])

    def plan(self) -> tuple[list[int], list[dict]]:
        """(player counts played, counts skipped with the reason); raises for a refused
        count unless ``skip_invalid``."""
        played, skipped = [], []
        for n in self.players:
            try:
                self._config(self.characters, n, self.removed)
                played.append(n)
            except ConfigError as err:
                if not self.skip_invalid:
                    raise ConfigError(f"the {self.label} set cannot be played at {n} players: "
                                      f"{err} (give other --players, or --skip-invalid to "
                                      "leave such counts out)") from None
                skipped.append({"players": n, "reason": str(err)})
        if not played:
            raise ConfigError(f"the {self.label} set cannot be played at any of the player "
                              f"counts {list(self.players)}.")
        return played, skipped

    def experiment_text(self, players: Sequence[int],
                        bots: dict[tuple[str, int], Strategy] | None = None) -> str:
        """The TOML of the experiment part: the set and the base set on common deals
        (``bots``: :meth:`bots`, which names the prepared population's per player count; the
        base set's games of that population play :meth:`base_bots`)."""
        sets = self.sets(players)
        named = ("" if isinstance(self.characters, str) else
                 f"[characters]\ncustom = {json.dumps(list(self.characters))}\n\n")
        own = self.own_districts
        if own is None and self.ruleset == "2016":
            own = "first_game"  # GameConfig's default, by name: an empty list is no 2016 deck
        deck = {"districts": list(own) if isinstance(own, tuple) else [] if own is None else own}
        decks = {"deck": {**deck, "removed": list(self.removed or ())}}
        base_counts = [n for n in players if self.compared(n)]
        if any(self.base_removed(n) != self.removed for n in base_counts):
            decks["deck_base"] = {**deck, "removed": list(self.base_removed(base_counts[0])
                                                          or ())}
        refused = len(base_counts) < len(players) and BASE in sets  # base cells skipped
        by_name = isinstance(deck["districts"], str)  # a named set's districts
        lines = [f'title = "Balance of the {self.label} character set ({self.ruleset})"',
                 f"seed = {self.seed}", f"games = {self.games}",
                 f"chunk_size = {self.chunk_size}", "common_deals = true",
                 f"skip_invalid = {'true' if len(decks) > 1 or refused else 'false'}", "",
                 "[grid]",
                 f"ruleset = {json.dumps([self.ruleset])}",
                 f"players = {json.dumps(list(players))}",
                 f"characters = {json.dumps(sets)}",
                 f"districts = {json.dumps([deck['districts']] if by_name else list(decks))}",
                 f"lineup = {json.dumps(list(self.strategies))}", "", named]
        if self.prepared_populations:  # their bots differ by player count
            if bots is None:
                raise ValueError("the prepared population's line-ups need its bots")
            base = self.base_bots(players)
            lines.append("[lineups]")
            for p in self.prepared_populations:
                per_count = ", ".join(
                    f'{n} = ["{bots[(p, n)].name}"]' if n not in base else
                    f'{n} = {{ {json.dumps(self.label)} = ["{bots[(p, n)].name}"], '
                    f'{BASE} = ["{base[n].name}"] }}' for n in players)
                lines.append(f"{p} = {{ {per_count} }}")
            lines.append("")
        if self.rules:
            lines += ["[rules]"] + [f"{name} = {value}" for name, value in self.rules] + [""]
        if self.variants is not None:
            lines.insert(1, f"variants_file = {json.dumps(str(Path(self.variants).resolve()))}")
        if not by_name:
            for name, table in decks.items():
                lines += [f"[districts.{name}]", f"districts = {json.dumps(table['districts'])}",
                          f"removed = {json.dumps(table['removed'])}", ""]
        return "\n".join(lines)


@dataclass
class BalanceResult:
    """What :func:`run` found; ``text()`` is the console report."""

    spec: Balance
    record: experiment.RunRecord
    values: pl.DataFrame  # per players, population, set, character: restricted-play value
    against_base: pl.DataFrame  # per players, population, rank: set minus base
    games: pl.DataFrame  # per players, population, measure: set minus base, per deal
    holders: pl.DataFrame  # per players, population, set, character: holders' rates
    skipped: list[dict] = field(default_factory=list)
    capped: pl.DataFrame | None = None
    #: per players and population, can these bots judge the set (:func:`bot_check`)
    checks: pl.DataFrame | None = None
    #: the prepared population's bots, one per player count (:mod:`.prepare`)
    prepared: list[preparing.Prepared] = field(default_factory=list)
    #: wall seconds of preparing the bots (this run's share: none when reused) and of
    #: judging (the games, restricted play and the bot check)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        """The run's directory (the experiment part is its ``games/``)."""
        return self.record.root.parent

    @property
    def strategies_file(self) -> Path:
        """The strategy file of the bots judged under (:data:`STRATEGIES_FILE`)."""
        return self.root / STRATEGIES_FILE

    @property
    def bots(self) -> dict[tuple[str, int], Strategy]:
        """Per population and player count, the bots judged under (:meth:`Balance.bots`)."""
        return self.spec.bots(self.players, self.prepared)

    @property
    def base_bots(self) -> dict[int, Strategy]:
        """Per player count, the bot the prepared population's base-set games are played
        by (:meth:`Balance.base_bots`)."""
        return self.spec.base_bots(self.players)

    @property
    def players(self) -> list[int]:
        """The player counts played."""
        return sorted(self.values["players"].unique())

    @property
    def alone(self) -> bool:
        """Whether the set is the base set, played once with nothing to compare it with."""
        return self.spec.is_base(self.players)

    def basis(self) -> list[str]:
        """What was played, in words: the games, and what the set is compared with."""
        s = self.spec
        if self.alone:
            return [f"{s.games:,} games per player count and population; the {s.label} set "
                    f"is the base set of the {s.ruleset} rules, so it is played once and "
                    "there is no base set to compare it with",
                    f"{s.deals:,} restricted-play deals per character and seat"]
        alone = [f"at {n} players the rules refuse the base set ({why.rstrip('.')}), so the "
                 "set is played alone there"
                 for n in self.players if (why := s.base_refused(n))]
        shipped = s.base_shipped(self.players)
        own = ([f"the base set played, for {s.prepared_text()}, by the bots made for it ("
                + ", ".join(f"{name} at {n}p" for n, name in shipped.items())
                + "), so that each set is played by bots made for it"] if shipped else [])
        return [f"{s.games:,} games per set, player count and population (on deals common "
                f"to the set and the base set)",
                f"{s.deals:,} restricted-play deals per character and seat", *own, *alone]

    def verdict_table(self) -> pl.DataFrame:
        """The set's characters whose value differs from the set's mean by more than the
        smallest difference that matters (strong or weak; bot-limited where the population
        failed its bot check), by player count."""
        return self.values.filter((pl.col("set") == self.spec.label)
                                  & pl.col("verdict").is_in(LISTED))

    def check_lines(self) -> list[str]:
        """One line per population that failed its bot check: why, and what to do."""
        if self.checks is None:
            return []
        out = []
        for r in self.checks.filter(~pl.col("passed")).iter_rows(named=True):
            passing = self.checks.filter(pl.col("passed")
                                         & (pl.col("players") == r["players"]))["population"]
            why = []
            if r["negative_share"] > 0:
                below = self.values.filter(
                    (pl.col("set") == self.spec.label) & (pl.col("players") == r["players"])
                    & (pl.col("population") == r["population"])
                    & (pl.col("value_high") < -CHECK_NEGATIVE))
                why.append(f"they win more without {_and(below['character'].to_list())} "
                           f"(a value significantly below -{CHECK_NEGATIVE * 100:g} "
                           "win-rate point: they misplay "
                           + ("it" if below.height == 1 else "them") + ")")
            if r["gain_points"] is not None and r["gain_points"] > CHECK_GAIN:
                why.append(f"an exploiter gains {r['gain_points']:+.1f} win-rate points "
                           f"[{r['gain_low']:+.1f}, {r['gain_high']:+.1f}] over the fair "
                           f"share against them (more than {CHECK_GAIN:g})")
            other = (f"judge with the bots that pass (--strategies {','.join(passing)}) or "
                     if passing.len() else "judge with stronger bots, or ")
            bot = self.bots.get((r["population"], r["players"]))
            options = " ".join(harden_options(r["players"], DEFAULT_SEARCHES,
                                              bool(bot and bot.mixture)))
            more = ("harden them further for this set (citadels harden --start "
                    f"{self.strategies_file}:{bot.name} "
                    f"--players {r['players']} {options}, with this test's --ruleset and "
                    "--characters, then --strategies-file with --strategies)"
                    if preparation_of(r["population"]) is not None else
                    f"harden these for this set (citadels harden --start {r['population']} "
                    f"--players {r['players']} {options}, with this test's --ruleset and "
                    "--characters)")
            out.append(f"{r['population']} bots at {r['players']}p are bot-limited: "
                       f"{'; '.join(why)}, so their strong and weak readings say more about "
                       f"the bots than about the cards. Next: {other}{more}.")
        return out

    def check_rows(self) -> pl.DataFrame:
        """The bot check as shown: per player count and population, the exploiter's gain
        over fair (win-rate points, 95%), the characters whose value is significantly below
        zero ("3 of 8") and the outcome."""
        counts = self.values.filter(pl.col("set") == self.spec.label).group_by(
            "players", "population").agg(pl.len().alias("n"))
        gain = pl.format("{} [{}, {}]", *[pl.col(c).round(1) for c in
                                          ("gain_points", "gain_low", "gain_high")])
        return self.checks.join(counts, on=["players", "population"], how="left",
                                maintain_order="left").select(
            "players", pl.col("population").alias("bots"),
            gain.fill_null("not searched (check budget 0)").alias(
                "exploiter's gain over fair (win-rate points)"),
            pl.format("{} of {}", (pl.col("negative_share") * pl.col("n")).round(0)
                      .cast(pl.Int64), "n").alias("characters with a value below -1 point"),
            pl.when("passed").then(pl.lit("passed")).otherwise(pl.lit("FAILED"))
            .alias("check"))

    def check_searched(self) -> str:
        """How long the bot check's exploiters searched, in words ("" without searches)."""
        if not self.spec.check_budget:
            return ""
        return (f"each exploiter tuned for {self.spec.check_budget:,} games against the bots, "
                f"then measured on {exploiting.CHECK_VALIDATE:,} held-out games")

    def check_table(self) -> list[str]:
        """The bot check as console lines (empty without one)."""
        if self.checks is None:
            return []
        rows = self.check_rows()
        widths = [max(len(c), *(len(str(x)) for x in rows[c])) for c in rows.columns]
        return ["  " + "  ".join(f"{str(x):<{w}}" for x, w in zip(row, widths)).rstrip()
                for row in [rows.columns, *rows.iter_rows()]]

    def _by_population(self):
        """The set's rows per player count and population, in the order played."""
        return self.values.filter(pl.col("set") == self.spec.label).group_by(
            ["players", "population"], maintain_order=True)

    def readings(self) -> list[str]:
        """The verdict line by line, per player count and population: each decided
        character ("Wizard: +6.1 win-rate points [4.9, 7.3] at 5p — strong"), or one line
        saying that it decided none."""
        multi = len(self.spec.strategies) > 1
        out = []
        for (players, population), sub in self._by_population():
            where = f"at {players}p" + (f" ({population})" if multi else "")
            out += [verdict.reading(r["character"], r, where) + self.elsewhere(r) for r in
                    sub.filter(pl.col("verdict").is_in(LISTED)).iter_rows(named=True)
                    ] or [_nothing_decided(players, population, sub, self.spec.sdm)]
        return out

    def elsewhere(self, row: dict) -> str:
        """For an unconfirmed reading, what the other preparations read ("; prepared2: +2.0
        [1.6, 2.3], unclear"); else nothing."""
        if row["verdict"] != UNCONFIRMED:
            return ""
        others = self.values.filter(
            (pl.col("players") == row["players"]) & (pl.col("set") == row["set"])
            & (pl.col("character") == row["character"])
            & pl.col("population").is_in(self.spec.prepared_populations)
            & (pl.col("population") != row["population"]))
        return "".join(f"; {r['population']}: {verdict.points(r['effect'])} "
                       f"[{r['effect_low'] * 100:.1f}, {r['effect_high'] * 100:.1f}], "
                       f"{r['verdict']}" for r in others.iter_rows(named=True))

    def nothing_decided(self) -> list[str]:
        """One line per player count and population that decided no character."""
        return [_nothing_decided(players, population, sub, self.spec.sdm)
                for (players, population), sub in self._by_population()
                if not sub["verdict"].is_in(LISTED).any()]

    def warnings(self) -> list[str]:
        """Loud notes: player counts skipped, cells whose games mostly hit the round cap."""
        out = [f"SKIPPED {s['players']} players: {s['reason']}" for s in self.skipped]
        if self.capped is not None:
            for r in self.capped.filter(pl.col("capped_share") > CAPPED_WARNING).iter_rows(
                    named=True):
                out.append(f"WARNING: {r['capped_share']:.0%} of the games of {r['cell']} hit "
                           "the round cap: its results describe stalled games, not real ones.")
        return out

    def text(self) -> str:
        """The console report: the verdict first, then each player count's tables."""
        s = self.spec
        sdm = s.sdm * 100
        out = [f"Balance of the {s.label} character set · {s.ruleset} · "
               f"players {', '.join(map(str, self.players))} · "
               f"bots: {', '.join(s.strategies)}",
               f"districts: {s.districts_text()}"]
        if s.rules:
            out.append("house rules: " + ", ".join(f"{k} = {v}" for k, v in s.rules))
        out += ["; ".join(self.basis()), f"unit: {UNIT}"]
        out += self.warnings()
        out.append("")
        out.append(f"VERDICT — characters whose value differs from the set's mean by more "
                   f"than {sdm:g} win-rate points (Holm-corrected, 95%):")
        out += [f"  {x}" for x in self.readings()]
        out += [f"  {x}" for x in self.check_lines()]
        out += [f"  ({x})" for x in self.populations_note()]
        if self.checks is not None:
            out += ["", f"BOT CHECK — {CHECK_TEXT}:", *self.check_table()]
            if searched := self.check_searched():
                out.append(f"  ({searched})")
        if self.prepared:
            out += ["", "BOTS PREPARED — the shipped bot made for the set, hardened for it at "
                    "each player count against tuned exploiters of both families and from "
                    "the bot itself (the "
                    "exploit gains found while preparing; the bot check above searches "
                    "again, on other deals):", *[f"  {p.text()}" for p in self.prepared]]
        if self.seconds:
            out.append(f"time: {self.time_text()}")
        for (players, population), sub in self.values.group_by(
                ["players", "population"], maintain_order=True):
            out.append("")
            out.append(f"{players} players, {population} bots — value = win-rate points a "
                       "player loses when he may never pick the character (restricted play); "
                       "vs mean: value - the set's mean value, interval at its Holm level")
            mine = sub.filter(pl.col("set") == s.label)
            base = _rows_of(self.against_base, players, population)
            hold = self.holders.filter((pl.col("players") == players)
                                       & (pl.col("population") == population)
                                       & (pl.col("set") == s.label))
            out.append(f"  {'rank':<4} {s.label + ' character':<22} {'value':>6} "
                       f"{'vs mean [interval]':>24} {'verdict':<12} {'holders':>8} "
                       f"{'picked':>7}" + ("" if not base.height else
                                           "   base character     value   set - base"))
            for r in mine.iter_rows(named=True):
                h = hold.filter(pl.col("character") == r["character"]).row(0, named=True)
                b = base.filter(pl.col("rank") == r["rank"]) if base.height else base
                line = (f"  {r['rank']:<4} {r['character']:<22} {r['value'] * 100:>+6.1f} "
                        f"{verdict.points(r['effect']):>7} [{r['effect_low'] * 100:+.1f}, "
                        f"{r['effect_high'] * 100:+.1f}]".ljust(63)
                        + f" {r['verdict'] + ('*' if r.get('bot_dependent') else ''):<12} "
                        + _num(h["holders_vs_fair"] * 100, "+7.1f") + " "
                        + _num(h["picked_when_offered"], "7.2f"))
                if b.height:
                    x = b.row(0, named=True)
                    line += (f"   {x['base_character']:<16} {x['base_value'] * 100:>+6.1f}   "
                             f"{verdict.points(x['diff'])} [{x['diff_low'] * 100:+.1f}, "
                             f"{x['diff_high'] * 100:+.1f}]")
                out.append(line)
            out.append("  holders: holders' win rate - fair share, in win-rate points (an "
                       "association, not a verdict: who picks what when is not random); "
                       "picked: share of the draft picks offering it that took it")
            g = _rows_of(self.games, players, population)
            if g.height:
                out.append("  set - base, deal by deal: " + "; ".join(
                    _measure_text(r) for r in g.iter_rows(named=True)))
        if self.values["bot_dependent"].any():
            out.append("* bot-dependent: the direction of this verdict changes between the "
                       "populations of bots")
        out += ["", self.bots_text(self.strategies_file), f"NEXT: {self.next_step()}"]
        return "\n".join(out)

    def populations_note(self) -> list[str]:
        """What the populations judged under mean for the verdict, and how to judge under
        more, in a sentence (none with several populations and no preparation)."""
        prepared = self.spec.prepared_populations
        if len(prepared) > 1:
            return [f"judged under {len(prepared)} preparations of the bots on independent "
                    f"deals ({_and(prepared)}): a strong or weak reading stands only where "
                    f"every one reads it, else it reads {UNCONFIRMED}"]
        if len(self.spec.strategies) > 1:
            return []
        if prepared:
            return ["one preparation of the bots: a reading of a few points may depend on "
                    "it; --strategies prepared,prepared2 judges again under bots prepared on "
                    "other deals and keeps only the verdicts both read"]
        return ["one population of bots: a verdict may depend on the bots; --strategies A,B "
                "judges each under several"]

    def next_step(self) -> str:
        """What a designer does next, in one sentence."""
        v = self.verdict_table()
        if v["verdict"].is_in(DECIDED).any():
            return ("change (or watch) the strong and weak characters, then test the changed "
                    "set with another run; the report shows why each reads so.")
        if v.height:
            if not v["verdict"].is_in([BOT_LIMITED, NOT_PICKED]).any():
                return ("no verdict stands: the preparations of the bots disagree on every "
                        "strong or weak reading, so those are about the bots; the characters "
                        "read so are the ones to watch, and more --deals will not settle "
                        "them.")
            return ("no verdict stands: every strong or weak reading came from bots that "
                    "failed the bot check, never pick the character or were not confirmed "
                    "by another preparation; judge with bots that pass it" +
                    ("" if self.checks["passed"].any() else
                     " (none did here: harden these for the set, citadels harden, or bring "
                     "stronger ones, and run again)") + ".")
        unclear = self.values.filter((pl.col("set") == self.spec.label)
                                     & (pl.col("verdict") == "unclear"))
        if unclear.height:
            named = ", ".join(f"{r['character']} at {r['players']}p"
                              for r in unclear.iter_rows(named=True))
            return (f"no character reads strong or weak, but some are unclear ({named}): "
                    f"raise --deals (now {self.spec.deals:,}) to settle them; the others "
                    f"are within {self.spec.sdm * 100:g} win-rate points of the set's mean.")
        return ("leave the set alone: every character is within "
                f"{self.spec.sdm * 100:g} win-rate points of the set's mean.")

    def time_text(self) -> str:
        """The run's wall time, split between preparing bots and judging."""
        prep = self.seconds.get("prepare", 0.0)
        reused = [p for p in self.prepared if p.reused]
        said = (f"preparing bots {preparing.duration(prep)}"
                + (f" ({len(reused)} of {len(self.prepared)} player counts reused, prepared "
                   f"earlier in {preparing.duration(sum(p.seconds for p in reused))})"
                   if reused else "") if self.prepared else "no bots prepared")
        return f"{said}, judging {preparing.duration(self.seconds.get('judge', 0.0))}"

    def bots_text(self, path: str | Path, markdown: bool = False) -> str:
        """Where the bots judged under are (the strategy file ``path``), and how to use
        them; ``markdown``: the file linked, the names as code."""
        code = "`{}`" if markdown else "{}"
        named, first = [], None
        for p in self.spec.strategies:
            mine = [(n, b.name) for (q, n), b in self.bots.items() if q == p]
            first = first or mine[0][1]
            named.append(f"{p} as " + (", ".join(f"{code.format(name)} ({n}p)"
                                                for n, name in mine)
                                       if preparation_of(p) is not None
                                       else code.format(mine[0][1])))
        if base := self.base_bots:
            named.append("the base set's games as " + ", ".join(
                f"{code.format(b.name)} ({n}p)" for n, b in base.items()))
        named = "; ".join(named)
        where = f"[{path}]({path})" if markdown else path
        use = code.format(f"{path}:{first}")
        return (f"The bots judged under are in {where} ({named}): re-check them, or play "
                f"them anywhere as {use}.")


def bot_check(spec: Balance, values: pl.DataFrame, gain: Gain | None = None) -> pl.DataFrame:
    """Per player count and population of ``values`` (:attr:`BalanceResult.values`): can
    these bots judge the set?  ``gain_points``, ``gain_low``, ``gain_high``: an exploiter's
    held-out gain over the fair share against them, in win-rate points (``gain``; null
    without it); ``negative_share``: the share of the set's characters whose value is
    significantly below -:data:`CHECK_NEGATIVE` (``value_high`` below it: the bots win
    more without it);
    ``passed``: no gain above :data:`CHECK_GAIN` and no such character."""
    rows = []
    for (players, population), sub in values.filter(pl.col("set") == spec.label).group_by(
            ["players", "population"], maintain_order=True):
        found = (None,) * 3 if gain is None else gain(
            population, spec._config(spec.characters, players, spec.removed))
        rows.append({"players": players, "population": population,
                     **dict(zip(("gain_points", "gain_low", "gain_high"), found)),
                     "negative_share": float((sub["value_high"] < -CHECK_NEGATIVE).mean())})
    frame = pl.DataFrame(rows, schema={"players": pl.Int64, "population": pl.String,
                                       "gain_points": pl.Float64, "gain_low": pl.Float64,
                                       "gain_high": pl.Float64, "negative_share": pl.Float64})
    return frame.with_columns(((pl.col("gain_points").fill_null(0.0) <= CHECK_GAIN)
                               & (pl.col("negative_share") == 0)).alias("passed"))


def bot_limited(values: pl.DataFrame, checks: pl.DataFrame) -> pl.DataFrame:
    """``values`` with the strong and weak verdicts (of every set) read ``bot-limited``
    where the population failed its bot check (``checks``, of :func:`bot_check`)."""
    failed = checks.filter(~pl.col("passed"))
    return relabel(values, failed, ["players", "population"], DECIDED, BOT_LIMITED)


def unconfirmed(spec: Balance, values: pl.DataFrame) -> pl.DataFrame:
    """``values`` with the strong and weak verdicts of the prepared populations read
    ``unconfirmed`` where another preparation of the same game (two or more judged under)
    did not give the character the same verdict at that player count (it read him
    otherwise, or its bots failed their check)."""
    prepared = spec.prepared_populations
    if len(prepared) < 2:
        return values
    mine = pl.col("population").is_in(prepared)
    same = (pl.when(mine).then(pl.col("verdict")).drop_nulls().n_unique()
            .over(["players", "set", "character"]))
    return values.with_columns(
        pl.when(mine & pl.col("verdict").is_in(DECIDED) & (same > 1))
        .then(pl.lit(UNCONFIRMED)).otherwise(pl.col("verdict")).alias("verdict"))


def not_picked(values: pl.DataFrame, holders: pl.DataFrame) -> pl.DataFrame:
    """``values`` with every verdict read ``not picked`` where the population took the
    character in fewer than :data:`PICKED_AT_LEAST` of the draft picks offering him
    (``holders``, of :func:`_holders`): an ``even`` there would read as balanced."""
    rare = holders.filter(pl.col("picked_when_offered") < PICKED_AT_LEAST)
    return relabel(values, rare, ["players", "population", "set", "character"],
                   DECIDED + (BOT_LIMITED,) + UNDECIDED, NOT_PICKED)


def _check_budgets(spec: Balance, players: list[int]) -> None:
    """Refuse, before any game, a check budget too small for an exploit search."""
    if spec.check_budget:
        for n in players:
            for family in DEFAULT_FAMILIES:
                check_budget(spec.check_budget, family, n, "check_budget (--check-budget)",
                             f"an exploit search of the {family} family")


def _exploit_gain(spec: Balance, bots: dict[tuple[str, int], Strategy], root: Path,
                  workers: int | None, executor: ChunkExecutor) -> Gain | None:
    """The exploiter's gain against each population's ``bots`` for the bot check (none
    without a check budget): the exploit test (:func:`.exploit.exploit`: both exploiter
    families and the search from the bot itself, ``check_budget`` games each,
    :data:`.exploit.CHECK_VALIDATE` held-out games), the largest search's gain with its interval;
    each search a resumable run under
    ``root/bot-check``."""
    if not spec.check_budget:
        return None

    def gain(population: str, config: GameConfig) -> tuple[float, float, float]:
        bot = (bots[(population, config.players)] if preparation_of(population) is not None
               else population)
        found = check_gain(bot, config, spec.check_budget, spec.seed,
                           f"{config.players}p-{judged_name(population)}",
                           root / "bot-check", workers, executor)
        return found["gain"], found["gain_low"], found["gain_high"]
    return gain


def _and(names: list[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def judged_name(population: str, preparation: str | None = None) -> str:
    """A population's name in the run's strategy file: ``balance_`` and its name in letters,
    digits, ``_`` and ``-`` (a shipped preset's own name may not be redefined), and for a
    prepared bot ``_`` and its preparation's directory name (``classic-4p-custom-<hash>``:
    unique to the game and the preparation)."""
    return ("balance_" + re.sub(r"[^A-Za-z0-9_-]+", "_", population).strip("_")
            + (f"_{preparation}" if preparation is not None else ""))


def write_strategies(spec: Balance, bots: Sequence[Strategy], path: Path) -> Path:
    """Write ``bots`` (:meth:`Balance.bots` and :meth:`Balance.base_bots`), each once, as a
    strategy file ``path``."""
    unique = {b.name: b for b in bots}
    path.write_text(to_toml(unique.values(), "The bots this balance test judged under, one "
                            "table per population (and player count, where they differ), "
                            "and those that played the base set for the prepared population."
                            f"\n{spec.command()}"))
    return path


def _rows_of(frame: pl.DataFrame, players: int, population: str) -> pl.DataFrame:
    """The rows of one player count and population (none from an empty table: the base
    set tested alone has nothing to compare with)."""
    if not frame.height:
        return frame
    return frame.filter((pl.col("players") == players) & (pl.col("population") == population))


def _nothing_decided(players: int, population: str, rows: pl.DataFrame, sdm: float) -> str:
    """"reference bots at 4p: no character differs ... (3 even, 5 unclear)"."""
    counts = [f"{(rows['verdict'] == v).sum()} {v}" for v in UNDECIDED
              if (rows["verdict"] == v).any()]
    return (f"{population} bots at {players}p: no character differs from the set's mean by "
            f"more than {sdm * 100:g} win-rate points ({', '.join(counts)})")


def _measure_text(r: dict) -> str:
    """A whole-game measure, set against base, in its unit: "rounds per game 8.94 vs 11.53
    (-2.59 [-2.67, -2.51])"; a win rate in % and its difference in win-rate points."""
    if r["unit"] == WIN_RATE:
        return (f"{r['measure']} {r['set']:.1%} vs {r['base']:.1%} ({verdict.points(r['diff'])} "
                f"win-rate points [{verdict.points(r['diff_low'])}, "
                f"{verdict.points(r['diff_high'])}])")
    return (f"{r['measure']} in {r['unit']} {r['set']:.2f} vs {r['base']:.2f} "
            f"({r['diff']:+.2f} [{r['diff_low']:+.2f}, {r['diff_high']:+.2f}])")


def _num(x: float, fmt: str) -> str:
    """A number in ``fmt``, or a dash where it is undefined (a character never held)."""
    return format(x, fmt) if x == x else "—".rjust(int(fmt.lstrip("+").split(".")[0]))


# ---- running ----------------------------------------------------------------------------
def _game_measures(record: experiment.RunRecord, cells: list[experiment.Cell],
                   keys: dict) -> list[dict]:
    """Game length, score spread and the first crown's seat's win, set minus base, deal by
    deal over the experiment's common deals."""
    root = record.root
    runs = [experiment.cell_runs(c, record.experiment, root, None)[0] for c in cells]
    moments = DealMoments(6)
    names = (("game length", "rounds"), ("score spread", "victory points"),
             ("first crown's seat's win rate", WIN_RATE))
    for _, chunk in play_in_step(runs, resolve()):
        parts = []
        for played in chunk:
            seats = played.frames["seats"].sort("game", "seat")
            n = seats["seat"].n_unique()
            score = seats["score"].to_numpy().reshape(-1, n).astype(float)
            won = seats["won"].to_numpy().reshape(-1, n)
            parts.append(np.stack([seats["rounds"].to_numpy()[::n].astype(float),
                                   score.max(1) - score.min(1), won[:, 0]], axis=1))
        moments.add(np.hstack(parts))
    out = []
    for j, (name, unit) in enumerate(names):
        w = np.zeros(6)
        w[j], w[3 + j] = 1.0, -1.0
        diff, se = moments.contrast(w)
        out.append({**keys, "measure": name, "unit": unit, "set": moments.total[j] / moments.n,
                    "base": moments.total[3 + j] / moments.n, "diff": diff, "diff_se": se})
    return out


def _with_interval(frame: pl.DataFrame, name: str) -> pl.DataFrame:
    """Add a plain 95% normal interval ``name_low``/``name_high`` from ``name_se``."""
    half = Z95 * pl.col(f"{name}_se")
    return frame.with_columns((pl.col(name) - half).alias(f"{name}_low"),
                              (pl.col(name) + half).alias(f"{name}_high"))


def run(spec: Balance, out: str | Path | None = None, workers: int | None = None,
        progress: bool = True, *, executor: ChunkExecutor | Executor | None = None,
        client=None, bots_dir: str | Path | None = None,
        on_prepare: Callable[[list[int]], None] | None = None) -> BalanceResult:
    """Play (or resume) a balance test into ``out`` (default :meth:`Balance.default_out`);
    ``executor`` / ``client``: where the chunks are played (see :func:`.simulate.simulate`);
    ``bots_dir``: where the prepared population's bots are kept (default
    :data:`.prepare.BOTS_DIR`), shared by every test of the same game; ``on_prepare`` is
    called, once the options are checked, with the player counts whose bots must be
    prepared first (:meth:`Balance.to_prepare`), when there are any."""
    executor = resolve(executor, client)
    players, skipped = spec.plan()
    root = Path(out) if out is not None else spec.default_out()
    _check_budgets(spec, players)
    if bots_dir is not None:
        preparing.check_bots_dir(bots_dir, "bots_dir (--bots-dir)")
    for n in players:  # before anything is written
        config = spec._config(spec.characters, n, spec.removed)
        for population in spec.strategies:
            check_memory(max(spec.games, spec.deals), spec.chunk_size, config,
                         [spec.start_bot(population, n)] * n, False,
                         here=executor.sequential, held=False)
    experiment.claim(root, "balance.json", spec.key())
    todo = spec.to_prepare(bots_dir) if on_prepare is not None else []
    if todo:
        on_prepare(todo)
    t0 = time.perf_counter()
    prepared = [preparing.prepare(spec._config(spec.characters, n, spec.removed), bots_dir,
                                  preparation=preparation_of(p), workers=workers,
                                  progress=progress, executor=executor)
                for p in spec.prepared_populations for n in players]
    t1 = time.perf_counter()
    bots = spec.bots(players, prepared)
    write_strategies(spec, [*bots.values(), *spec.base_bots(players).values()],
                     root / STRATEGIES_FILE)
    with store.on_interrupt(lambda: f"{store.chunks_written(root)} chunks written to {root}"):
        record, values, against, games = _play(spec, players, bots, root, workers, progress,
                                               executor)
    value_frame = verdict.mark_bot_dependent(
        verdict.decide(_with_interval(pl.DataFrame(values), "value"),
                       ["players", "population", "set"], sdm=spec.sdm),
        ["players", "set", "character"])
    checks = bot_check(spec, value_frame, _exploit_gain(spec, bots, root, workers, executor))
    tables = record.tables()
    holders = _holders(tables)
    seconds = {"prepare": t1 - t0, "judge": time.perf_counter() - t1}
    return BalanceResult(
        spec, record, not_picked(unconfirmed(spec, bot_limited(value_frame, checks)), holders),
        _with_interval(pl.DataFrame(against), "diff") if against else pl.DataFrame(),
        _with_interval(pl.DataFrame(games), "diff") if games else pl.DataFrame(),
        holders, skipped, analysis.capped_share(tables["games"], ["cell"]), checks,
        prepared, seconds)


def _play(spec: Balance, players: list[int], bots: dict[tuple[str, int], Strategy], root: Path,
          workers: int | None, progress: bool, executor: ChunkExecutor
          ) -> tuple[experiment.RunRecord, list, list, list]:
    """Play (or read back) the experiment part, then restricted play at each player count
    and population under ``bots``: the record, and the rows of the values, of set minus
    base, and of the game measures."""
    exp = experiment.parse(spec.experiment_text(players, bots), "games",
                           strategies_file=root / STRATEGIES_FILE)
    record = experiment.run(exp, root, workers=workers, progress=progress, executor=executor)
    per_cell = {(c.players, c.lineup, c.characters): c for c in exp.cells}
    labels = {n: [lab for lab in spec.sets(players) if (n, spec.strategies[0], lab) in per_cell]
              for n in players}  # the base set only where the rules let it be played
    values, against, games = [], [], []
    base = spec.base_bots(players)  # the prepared population's base-set bots
    total = sum(spec.deals * n * (1 + len(per_cell[(n, p, lab)].config.character_names) * n)
                for n in players for p in spec.strategies for lab in labels[n])
    with tqdm(total=total, unit="game", disable=not progress, desc="restricted play") as bar:
        for n in players:
            for p in spec.strategies:
                keys = {"players": n, "population": p}
                cells = [per_cell[(n, p, lab)] for lab in labels[n]]
                designs = [Design(c.config, base[n] if preparation_of(p) and lab == BASE
                                  and n in base else bots[(p, n)], spec.deals,
                                  c.seed(exp.seed, 0))
                           for c, lab in zip(cells, labels[n])]
                moments, forced = restricted.play(designs, root / "restricted" / f"{n}p-{p}",
                                           spec.chunk_size, workers, bar, executor)
                rows, diffs = restricted.value_rows(designs, labels[n], moments, forced, keys)
                values += rows
                against += diffs
                if len(cells) == 2:
                    games += _game_measures(record, cells, keys)
    return record, values, against, games


def _holders(t: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Per cell and character (from the experiment's tables): holders' win rate against
    the fair share, in points, and the share of offers picked."""
    table = analysis.character_table(t["characters"], t["games"], experiment.LABELS)
    return table.select(pl.col("players"), pl.col("lineup").alias("population"),
                        pl.col("characters").alias("set"), "character", "rank",
                        (pl.col("win_held") - pl.col("fair")).alias("holders_vs_fair"),
                        "held_rate", "picked_when_offered")

