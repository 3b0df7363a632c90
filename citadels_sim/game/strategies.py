"""Strategy presets: a family of decision code plus its parameters (installed as
``citadels_sim.game.strategies``).

A :class:`Strategy` is data, not code: the kernel's decision functions switch on its
family and read its parameter row, so new presets and tuned parameters need no
recompilation.  The shipped presets live in ``data/strategies.toml`` beside this file; a user
can also write ``"heuristic:threat=2,aggression=0.3"`` to tune one on the fly, and keep
presets in files of the same format (``"my.toml:name"``, or :func:`register_file` to make a
file's names known).

Every parameter has search bounds next to its definition (:data:`PARAMS`,
:data:`BASE_BOUNDS`); :func:`tunable` lists what a family reads, so ``citadels tune`` can
search any family, a new one included, without further code.

A value given as text (``name:param=value``, a strategy file) must lie in the parameter's
allowed range, :attr:`Param.allowed`: twice its search range, from 0 (or, for a parameter
whose search goes below 0, twice its search low) to twice its search high (``citadels
list`` prints them).  The range holds every value the tuner can deploy; beyond it lie the
values that stall games (an infinite weight: every game reaches the round cap) or mean the
opposite of the parameter's name (a negative weight).  At both ends of every range, for
every family, in games of 2 to 8 players, at most 5% of the games reach the round cap
(``tests/test_bad_input.py``), but for ``card_need = 0`` (never take cards): the tuner finds
it best at 4 players, and it stalls up to half the games at 2.  A strategy may set only the
parameters its family reads (:data:`FAMILY_PARAMS`), and every value is a finite number.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np

from citadels_sim.kernel import layout
from citadels_sim.kernel.bots import FAMILIES
from . import cards



class Param(NamedTuple):
    """A strategy parameter: where the kernel reads it, its default, and the range a tuner
    searches.  ``integer``: the kernel compares it with whole numbers (a threshold), so
    only whole values are searched and deployed."""

    index: int
    default: float
    low: float
    high: float
    integer: bool = False

    @property
    def allowed(self) -> tuple[float, float]:
        """The values a strategy may give it (see the module docstring)."""
        return allowed_range(self.low, self.high)


def allowed_range(low: float, high: float) -> tuple[float, float]:
    """Twice the search range ``low``-``high``: from 0, or ``2 low`` below 0, to ``2 high``."""
    return min(0.0, 2 * low), 2 * high


#: parameter name -> Param (kernel index, default, search bounds)
PARAMS = {
    "income": Param(layout.PR_W_INCOME, 1.0, 0.0, 3.0),
    "aggression": Param(layout.PR_W_AGGRESSION, 0.0, 0.0, 3.0),
    "threat": Param(layout.PR_W_THREAT, 0.0, 0.0, 4.0),
    "card_need": Param(layout.PR_CARD_NEED, 1.0, 0.0, 6.0, integer=True),
    "gold_reserve": Param(layout.PR_GOLD_RESERVE, 0.0, 0.0, 8.0, integer=True),
    "new_type": Param(layout.PR_W_NEW_TYPE, 0.5, 0.0, 4.0),
    "swap_margin": Param(layout.PR_SWAP_MARGIN, 2.0, 0.0, 8.0, integer=True),
    # the reference family's own (values in gold)
    "card": Param(layout.PR_R_CARD, 1.0, 0.2, 3.0),
    "crown": Param(layout.PR_R_CROWN, 1.0, 0.0, 4.0),
    "urgency": Param(layout.PR_R_URGENCY, 2.0, 0.0, 8.0),
    "draw_need": Param(layout.PR_R_DRAW_NEED, 1.5, 0.0, 5.0),
    "draw_gold": Param(layout.PR_R_DRAW_GOLD, 0.5, 0.0, 3.0),
    "bribe": Param(layout.PR_R_BRIBE, 1.0, 0.0, 3.0),
    "finish": Param(layout.PR_R_FINISH, 4.0, -2.0, 20.0),
    "build": Param(layout.PR_R_BUILD, 1.5, 0.0, 5.0),
    "deny": Param(layout.PR_R_DENY, 0.5, 0.0, 2.0),
    "read": Param(layout.PR_R_READ, 0.0, -1.0, 1.0),
    "memory": Param(layout.PR_R_MEMORY, 0.0, 0.0, 6.0),
}
#: the reference family's desire for each character, whatever its rank: ``want_<key>``
#: (layout.CHARACTER_KEYS); a character outside the game's set is never offered, so its
#: desire is inert there
DESIRES = tuple(f"want_{key}" for key in layout.CHARACTER_KEYS)
PARAMS.update({name: Param(layout.PR_CHAR + ch, 1.0, -3.0, 6.0)
               for ch, name in enumerate(DESIRES)})
N_RANK_PARAMS = 9
#: search bounds of each of the 9 ``base`` rank desires (default 1.0)
BASE_BOUNDS = (-2.0, 6.0)
#: the named parameters each family's decisions read (``base`` is read by every family that
#: reads any); a family not listed reads them all
_SHARED = ("income", "aggression", "threat", "card_need", "gold_reserve", "new_type",
           "swap_margin")
_REFERENCE = ("income", "aggression", "threat", "gold_reserve", "new_type", "swap_margin",
              "card", "crown", "urgency", "draw_need", "draw_gold", "bribe", "finish", "build",
              "deny", "read", "memory") + DESIRES
#: parameters searched only with 2 or 3 players, where every player keeps two characters
#: and an aim reads which of its candidates each pick kept (``read``: by what it is worth;
#: ``memory``: by the ranks the picker revealed in earlier rounds); elsewhere they keep
#: their defaults (the 4-8 player bots were prepared and measured without them)
SMALL_DRAFT = ("read", "memory")
FAMILY_PARAMS: dict[str, tuple[str, ...]] = {"random": (), "builder": _SHARED,
                                             "aggressive": _SHARED, "heuristic": _SHARED,
                                             "reference": _REFERENCE}


class StrategyError(ValueError):
    """An unknown strategy, family or parameter."""


@dataclass(frozen=True)
class Strategy:
    """A named strategy: a decision family and its parameters."""

    name: str
    family: str
    base: tuple[float, ...] = (1.0,) * N_RANK_PARAMS
    params: dict[str, float] = field(default_factory=dict)
    description: str = ""
    #: characters this player may never pick (restricted play): he takes one only when the
    #: draft offers him nothing else
    forbid: tuple[str, ...] = ()
    #: a mixed strategy (:func:`mix`): (chance, plain strategy) pairs, one drawn per game;
    #: ``base`` and ``params`` are then the first component's
    mixture: tuple[tuple[float, Strategy], ...] = ()

    def __post_init__(self) -> None:
        if self.mixture:
            self._check_mixture()
        check_family(self.family)
        if len(self.base) != N_RANK_PARAMS:
            raise StrategyError(f"Strategy {self.name!r}: base needs {N_RANK_PARAMS} values "
                                f"(one per rank 1-9), got {len(self.base)}.")
        reads = FAMILY_PARAMS.get(self.family, tuple(PARAMS))
        bad = [k for k in self.params if k not in reads]
        if not reads and self.base != (1.0,) * N_RANK_PARAMS:
            bad.insert(0, "base")
        if bad:
            what = (f"Unknown parameter {bad[0]!r} for strategy {self.name!r}."
                    f"{cards.did_you_mean(bad[0], reads)} Family {self.family}"
                    if bad[0] not in PARAMS and bad[0] != "base" else
                    f"Strategy {self.name!r}: family {self.family} does not read {bad[0]!r};"
                    " it")
            raise StrategyError(f"{what} reads {_reads_text(reads)}.")
        for key, value in [("base", b) for b in self.base] + list(self.params.items()):
            if not math.isfinite(value):
                raise StrategyError(f"Strategy {self.name!r}: {key} = {value} is not a "
                                    "finite number.")

    def _check_mixture(self) -> None:
        if not 2 <= len(self.mixture) <= layout.MAX_MIX:
            raise StrategyError(f"Mixed strategy {self.name!r}: give 2 to {layout.MAX_MIX} "
                                f"components, got {len(self.mixture)}.")
        for chance, part in self.mixture:
            if part.mixture or part.family != self.family:
                raise StrategyError(f"Mixed strategy {self.name!r}: component {part.name!r} "
                                    f"must be a plain strategy of family {self.family} "
                                    f"(it is {'a mixed one' if part.mixture else part.family}).")
            if not (math.isfinite(chance) and chance > 0.0):
                raise StrategyError(f"Mixed strategy {self.name!r}: the chance of "
                                    f"{part.name!r} is {chance}; chances are positive numbers.")
        if abs(sum(c for c, _ in self.mixture) - 1.0) > 1e-6:
            raise StrategyError(f"Mixed strategy {self.name!r}: the chances add up to "
                                f"{sum(c for c, _ in self.mixture):g}, not 1 (mix() scales "
                                "them).")

    def check_ranges(self) -> Strategy:
        """Itself, if every value lies in its allowed range (:attr:`Param.allowed`; the
        strategies given as text are checked so, a Strategy built in code need not be)."""
        for _, part in self.mixture:
            part.check_ranges()
        for r, value in enumerate(self.base):
            _in_range(value, f"base{r + 1}", allowed_range(*BASE_BOUNDS), self.name)
        for key, value in self.params.items():
            _in_range(value, key, PARAMS[key].allowed, self.name)
        return self

    @property
    def family_id(self) -> int:
        return FAMILIES.index(self.family)

    def row(self) -> np.ndarray:
        """The kernel's parameter row (float64, layout.N_PARAMS long); a mixed strategy has
        one per component (:meth:`rows`)."""
        if self.mixture:
            raise StrategyError(f"{self.name!r} is a mixed strategy of "
                                f"{len(self.mixture)} components: it has no single parameter "
                                "row (tune or change one of its components).")
        row = np.zeros(layout.N_PARAMS)
        row[layout.PR_BASE:layout.PR_BASE + N_RANK_PARAMS] = self.base
        for key, p in PARAMS.items():
            row[p.index] = self.params.get(key, p.default)
        return row

    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's rows for one seat: parameters (layout.MAX_MIX x layout.N_PARAMS, one
        row per component) and the components' cumulative chances (layout.MAX_MIX);
        read-only, made once per strategy (a search builds thousands of line-ups of the same
        few)."""
        return self._rows

    @cached_property
    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        rows = np.zeros((layout.MAX_MIX, layout.N_PARAMS))
        chances = np.ones(layout.MAX_MIX)
        for k, part in enumerate([p for _, p in self.mixture] or [self]):
            rows[k] = part.row()
        if self.mixture:
            chances[:len(self.mixture)] = np.cumsum([c for c, _ in self.mixture])
            chances[len(self.mixture) - 1:] = 1.0
        rows.flags.writeable = chances.flags.writeable = False
        return rows, chances

    def plays(self) -> bytes:
        """How the strategy plays, whatever its name: its family, forbidden characters,
        parameters and mixture (equal for two strategies that play the same games)."""
        params, chances = self.rows()
        return (f"{self.family_id}|{sorted(self.forbid)}|".encode() + params.tobytes()
                + chances.tobytes())

    def digest(self) -> str:
        """Eight hex digits naming the strategy and how it plays (:meth:`plays`): runs and
        results kept for a strategy are found by it, so a strategy changed under its name is
        not mistaken for the old one."""
        return hashlib.sha256(self.name.encode() + b"|" + self.plays()).hexdigest()[:8]

    def restricted(self, character: str) -> Strategy:
        """A copy that may never pick ``character`` (restricted play), named for it."""
        return replace(self, name=f"{self.name} (no {character})",
                       forbid=tuple(dict.fromkeys(self.forbid + (character,))))

    def with_params(self, **changes: float) -> Strategy:
        """A copy with some parameters changed, named for them (``base`` replaces the rank
        desires, ``base1`` .. ``base9`` one of them)."""
        if self.mixture:
            raise StrategyError(f"{self.name!r} is a mixed strategy: change its components "
                                f"({', '.join(p.name for _, p in self.mixture)}), not it.")
        base = list(changes.pop("base", self.base))
        named = {}
        for key, value in changes.items():
            rank = key[4:] if key.startswith("base") else ""
            if rank.isdigit() and 1 <= int(rank) <= N_RANK_PARAMS:
                base[int(rank) - 1] = value
            else:
                named[key] = value
        name = self.name + ":" + ",".join(f"{k}={v}" for k, v in changes.items())
        return Strategy(name, self.family, tuple(base), {**self.params, **named},
                        self.description, self.forbid)


def mix(name: str, components: Sequence[Strategy], chances: Sequence[float],
        description: str = "") -> Strategy:
    """A mixed strategy: in each game a seat playing it plays one of ``components`` (plain
    strategies of one family), drawn with ``chances`` (scaled to add up to 1), on a random
    stream of its own, so the deal and every other draw stay as they were."""
    if len(components) != len(chances):
        raise StrategyError(f"Mixed strategy {name!r}: {len(components)} components and "
                            f"{len(chances)} chances; give one chance per component.")
    for chance, part in zip(chances, components):
        if not (math.isfinite(chance) and chance > 0.0):
            raise StrategyError(f"Mixed strategy {name!r}: the chance of {part.name!r} is "
                                f"{chance}; chances are positive numbers.")
    total = float(sum(chances))
    if not math.isfinite(total):
        raise StrategyError(f"Mixed strategy {name!r}: the chances {list(chances)} add up "
                            "to more than a number can hold; give them in proportion "
                            "(e.g. 0.5, 0.5).")
    first = components[0] if components else None
    return Strategy(name, first.family if first else "reference",
                    first.base if first else (1.0,) * N_RANK_PARAMS,
                    dict(first.params) if first else {}, description,
                    mixture=tuple((float(c) / total, p) for c, p in zip(chances, components)))


def outside_from(strategy: Strategy, start: Strategy, keys: Iterable[str]) -> Strategy:
    """``strategy`` wanting each character outside the set (``keys``: the set's character
    keys) as much as ``start`` does (a mixture: in each component).  A character's desire is
    its own (``want_<key>``) plus its rank's (``base<r>``, tuned for the set's character of
    that rank); its own is never read in the set's games, so a search lets it drift at
    random, and another set the bot plays (a balance test's base set) would read that."""
    inside = set(keys)
    ranks = {layout.CHARACTER_KEYS[c.id]: c.rank for ruleset in ("classic", "2016")
             for c in cards.characters(ruleset)}

    def back(s: Strategy) -> Strategy:
        params = {k: v for k, v in s.params.items() if k not in DESIRES or k[5:] in inside}
        for key, rank in ranks.items():
            if key not in inside:
                name = f"want_{key}"
                want = (start.params.get(name, PARAMS[name].default) + start.base[rank - 1]
                        - s.base[rank - 1])
                params[name] = round(float(np.clip(want, *PARAMS[name].allowed)), 4)
        return replace(s, params=params)

    if strategy.mixture:
        return replace(back(strategy), mixture=tuple((c, back(part))
                                                     for c, part in strategy.mixture))
    return back(strategy)


def _reads_text(reads: tuple[str, ...]) -> str:
    """The parameters of ``reads`` in words (the desires as one pattern)."""
    if not reads:
        return "no parameter"
    names = [k for k in reads if k not in DESIRES]
    names += ["want_<character>"] if len(names) < len(reads) else []
    return f"base1 .. base{N_RANK_PARAMS}, " + ", ".join(names)


def _in_range(value: float, key: str, limits: tuple[float, float], name: str) -> None:
    lo, hi = limits
    if not lo <= value <= hi:
        raise StrategyError(f"Strategy {name!r}: {key} = {value:g} is outside its allowed "
                            f"range {lo:g} to {hi:g} (citadels list shows every range).")


def searched(family: str, players: int | None = None,
             characters: Sequence[int] | None = None) -> tuple[str, ...]:
    """The named parameters a tuner searches for ``family`` (at ``players`` players, when
    given): those the family reads, but those of :data:`SMALL_DRAFT` only with 2 or 3; with
    ``characters`` (a set's character ids by rank), a desire only for each of its
    characters (the others' are never read in its games)."""
    inert = set() if characters is None else set(DESIRES) - {DESIRES[c] for c in characters}
    return tuple(n for n in FAMILY_PARAMS.get(family, tuple(PARAMS))
                 if (players is None or players <= 3 or n not in SMALL_DRAFT)
                 and n not in inert)


def check_family(family: str) -> None:
    """Fail unless ``family`` is a strategy family, naming the nearest."""
    if family not in FAMILIES:
        raise StrategyError(f"Unknown strategy family {family!r}."
                            f"{cards.did_you_mean(family, FAMILIES)} Families: "
                            f"{', '.join(FAMILIES)}.")


def tunable(family: str, players: int | None = None,
            characters: Sequence[int] | None = None) -> list[tuple[str, Param]]:
    """The parameters a tuner searches for ``family`` (at ``players`` players, and for the
    set ``characters``, when given): ``base1`` .. ``base9`` (the rank desires, at
    :data:`BASE_BOUNDS`; with ``characters``, those of its ranks, none for a family with a
    desire per character) and the named parameters of :func:`searched`."""
    check_family(family)
    names = searched(family, players, characters)
    if not names:
        return []
    ranks = N_RANK_PARAMS if characters is None else len(characters)
    if characters is not None and set(names) & set(DESIRES):
        ranks = 0  # a rank's desire adds its base and its character's: for one set, one knob
    base = [(f"base{r + 1}", Param(layout.PR_BASE + r, 1.0, *BASE_BOUNDS))
            for r in range(ranks)]
    return base + [(n, PARAMS[n]) for n in names]


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise StrategyError(f"{what} must be a number, got {value!r}.")
    return float(value)


def parse_presets(text: str, source: str) -> dict[str, Strategy]:
    """The presets of a strategy file's text (the format of ``data/strategies.toml``); errors name
    ``source`` and the bad entry."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise StrategyError(f"strategy file {source}: not valid TOML: {err}") from None
    out = {}
    mixed = {}
    for name, table in doc.items():
        where = f"strategy file {source}, preset {name!r}"
        if not isinstance(table, dict):
            raise StrategyError(f"{where}: expected a table [{name}] with family = ..., "
                                f"got {table!r}.")
        table = dict(table)
        if "family" not in table:
            raise StrategyError(f"{where} has no family; families: {', '.join(FAMILIES)}.")
        if "mixture" in table:
            mixed[name] = table
            continue
        family = table.pop("family")
        description = table.pop("description", "")
        base = table.pop("base", (1.0,) * N_RANK_PARAMS)
        if not isinstance(base, list | tuple):
            raise StrategyError(f"{where}: base must be a list of {N_RANK_PARAMS} numbers, "
                                f"got {base!r}.")
        try:
            out[name] = Strategy(
                name, family, tuple(_number(x, "base") for x in base),
                {k: _number(v, k) for k, v in table.items()}, str(description)).check_ranges()
        except StrategyError as err:
            raise StrategyError(f"{where}: {err}") from None
    for name, table in mixed.items():
        out[name] = _parse_mixture(name, table, out, f"strategy file {source}, preset {name!r}")
    return out


def _parse_mixture(name: str, table: dict, plain: dict[str, Strategy], where: str) -> Strategy:
    """A mixed preset: ``mixture`` names its components (presets of the same file or
    shipped ones), ``chances`` gives each one's chance."""
    parts, chances = table.get("mixture"), table.get("chances")
    extra = set(table) - {"family", "description", "mixture", "chances"}
    if extra:
        raise StrategyError(f"{where}: a mixed preset holds family, description, mixture and "
                            f"chances only, not {', '.join(sorted(extra))} (its parameters "
                            "are its components').")
    if not isinstance(parts, list) or not isinstance(chances, list):
        raise StrategyError(f"{where}: mixture = [names of presets] and chances = [numbers] "
                            "must both be lists.")
    # the shipped files name only their own components: known() would build presets() again
    found = plain if all(p in plain for p in parts) else {**known(), **plain}
    missing = [p for p in parts if p not in found]
    if missing:
        raise StrategyError(f"{where}: component {missing[0]!r} is no preset of this file "
                            "nor a shipped one.")
    try:
        made = mix(name, [found[p] for p in parts], [_number(c, "chance") for c in chances],
                   str(table.get("description", "")))
        if made.family != table["family"]:
            raise StrategyError(f"its components are of family {made.family}, not "
                                f"{table['family']}.")
        return made.check_ranges()
    except StrategyError as err:
        raise StrategyError(f"{where}: {err}") from None


@lru_cache(maxsize=None)
def _shipped(file: str) -> dict[str, Strategy]:
    data = resources.files("citadels_sim.game.data")
    return parse_presets(data.joinpath(file).read_text(encoding="utf-8"), file)


@lru_cache(maxsize=None)
def presets() -> dict[str, Strategy]:
    """The named presets shipped in ``data/strategies.toml`` and ``data/player_counts.toml``."""
    return {**_shipped("strategies.toml"), **player_count_presets()}


def player_count_presets() -> dict[str, Strategy]:
    """The shipped bots made for one player count (``data/player_counts.toml``:
    ``reference_classic_2p`` and the components of its mixture, ...)."""
    return _shipped("player_counts.toml")


def start_for(config) -> str:
    """The shipped reference preset made for ``config``'s set (a GameConfig), at the player
    count it was tuned for (:data:`TUNED_PLAYERS`): ``reference_classic`` for the classic base
    characters (in four_color too, which plays them: docs/strategies.md), ``reference_<set>``
    for a 2016 named set's, else the hand-set ``reference``; a card variant counts as its base
    (it plays as its base).  What a preparation (``studies.prepare``) starts from."""
    from .config import named_set_characters  # config imports this module
    shipped = presets()
    names = tuple(config.base_names[:8])
    if (config.ruleset in ("classic", "four_color")
            and names == cards.named_sets()["first_game"].characters):
        return "reference_classic"
    if config.ruleset == "2016":  # a named set as played at this count (2: King for Emperor)
        for name, named in cards.named_sets().items():
            if (named_set_characters(named, config.players)[:8] == names
                    and f"reference_{name}" in shipped):
                return f"reference_{name}"
    return "reference"


#: the player count the shipped set presets (``reference_classic``, ``reference_<set>``)
#: were tuned and hardened at
TUNED_PLAYERS = 4


def default_for(config) -> str:
    """The strategy a game plays when none is named (``config``: a GameConfig): the shipped
    bot prepared for its set at its player count (``reference_classic_2p``, ...) where one
    is shipped, else :func:`start_for`."""
    start = start_for(config)
    own = f"{start}_{config.players}p"
    return own if own in presets() else start


def made_for(config) -> bool:
    """Whether :func:`default_for` ``config`` was tuned and hardened for its set and player
    count, under the published rules and cards (else an exploiter may gain tens of points:
    prepare a bot for the game); four_color's are the classic game's."""
    name = default_for(config)
    return (not config.rules and not config.variants and name != "reference"
            and config.ruleset != "four_color"
            and (name != start_for(config) or config.players == TUNED_PLAYERS))


def load_file(path: str | Path) -> dict[str, Strategy]:
    """The presets of a strategy file (TOML, the format of ``data/strategies.toml``)."""
    path = Path(path)
    if not path.is_file():
        raise StrategyError(f"strategy file {str(path)!r} "
                            + ("is a directory." if path.is_dir() else "does not exist."))
    return parse_presets(path.read_text(encoding="utf-8"), str(path))


#: presets of the strategy files registered so far: name -> (Strategy, file)
_REGISTERED: dict[str, tuple[Strategy, str]] = {}


def register_file(path: str | Path) -> dict[str, Strategy]:
    """Make a strategy file's presets known by name (``--strategies-file``); returns them.
    A name may not shadow a different shipped preset (a copy of one, as files written by
    the package hold, is welcome) nor a different preset of another file."""
    found = load_file(path)
    for s in found.values():  # all or none
        _refuse(s, f"strategy file {path}")
    _REGISTERED.update({name: (s, str(path)) for name, s in found.items()})
    return found


def register(strategy: Strategy, source: str, replace: bool = False) -> None:
    """Make ``strategy`` known by its name (``source``: where it comes from, for errors),
    under the same conditions as a strategy file's presets (``replace``: it may replace a
    strategy of that name registered before)."""
    if replace:
        _REGISTERED.pop(strategy.name, None)
    _refuse(strategy, source)
    _REGISTERED[strategy.name] = (strategy, source)


def _refuse(strategy: Strategy, source: str) -> None:
    name = strategy.name
    shipped = presets().get(name)
    if shipped is not None and shipped.plays() != strategy.plays():
        raise StrategyError(f"{source}: preset {name!r} has the name of a shipped preset and "
                            "plays differently (a file written before the shipped one "
                            "changed, or a new preset): rename it in the file.")
    seen = _REGISTERED.get(name)
    if seen and seen[0].plays() != strategy.plays():
        raise StrategyError(f"{source}: preset {name!r} is also defined, differently, in "
                            f"{seen[1]}; rename one of them.")


def _filled(strategy: Strategy) -> Strategy:
    """``strategy`` with every parameter its family reads given (an absent one at its
    default): what a written file holds, so that it reads the same whatever defaults later
    versions give."""
    reads = FAMILY_PARAMS.get(strategy.family, tuple(PARAMS))
    names = dict.fromkeys(reads + tuple(strategy.params))
    params = {k: strategy.params.get(k, PARAMS[k].default) for k in names}
    return replace(strategy, params=params,
                   mixture=tuple((c, _filled(p)) for c, p in strategy.mixture))


def clear_registered() -> None:
    """Forget every registered strategy file (tests)."""
    _REGISTERED.clear()


def known() -> dict[str, Strategy]:
    """Every strategy known by name: the shipped presets and the registered files'."""
    return {**presets(), **{name: s for name, (s, _) in _REGISTERED.items()}}


_FILE_SPEC = re.compile(r"^(?P<file>.+?\.toml)(?::(?P<rest>.*))?$")


def get(spec: str | Strategy) -> Strategy:
    """A strategy from a preset name, ``"preset:param=value,..."``, a strategy file's
    preset ``"FILE.toml:name"`` (or ``"FILE.toml"`` when it holds one preset; tweaks may
    follow: ``"FILE.toml:name:param=value"``), or a Strategy.  Using a file's preset
    registers the file, so its presets are known by name afterwards."""
    if isinstance(spec, Strategy):
        return spec
    text = str(spec).strip()
    match = _FILE_SPEC.match(text)
    if match:
        found = register_file(match["file"])
        name, _, tweaks = (match["rest"] or "").partition(":")
        if not name:
            if len(found) != 1:
                raise StrategyError(f"strategy file {match['file']} holds {len(found)} "
                                    f"presets; name one: {match['file']}:NAME (presets: "
                                    f"{', '.join(found)}).")
            name = next(iter(found))
        if name not in found:
            raise StrategyError(f"strategy file {match['file']} has no preset {name!r}; "
                                f"presets: {', '.join(found)}.")
        return _tweaked(found[name], tweaks, text)
    name, _, tweaks = text.partition(":")
    everything = known()
    if not name:
        raise StrategyError(f"A strategy without a name ({text!r}); presets: "
                            f"{_listed(everything)} (or FILE.toml:NAME for a strategy "
                            "file's).")
    if name not in everything:
        raise StrategyError(f"Unknown strategy {name!r}.{cards.did_you_mean(name, everything)}"
                            f" Presets: {_listed(everything)} (or FILE.toml:NAME for a "
                            "strategy file's).")
    return _tweaked(everything[name], tweaks, text)


def _listed(names: Iterable[str]) -> str:
    """Preset names for a message, the bots made for one player count in one item."""
    counts = player_count_presets()
    return (", ".join(n for n in names if n not in counts) + ", the bots made for one "
            "player count (PRESET_Np, e.g. reference_classic_2p: citadels simulate --help)")


def _tweaked(strategy: Strategy, tweaks: str, spec: str) -> Strategy:
    """``strategy`` with the ``name=value,...`` changes of ``tweaks`` (``base1`` ..
    ``base9``: one rank's desire), each value in its allowed range."""
    if not tweaks:
        return strategy
    changes: dict[str, float] = {}
    for item in tweaks.split(","):
        key, eq, value = (x.strip() for x in item.partition("="))
        try:
            changes[key] = float(value)
        except ValueError:
            eq = ""
        if not eq:
            raise StrategyError(f"Bad strategy parameter {item!r} in {spec!r}: "
                                "write name=number.")
        if key == "base":
            raise StrategyError(f"Bad strategy parameter {item!r} in {spec!r}: base holds "
                                f"{N_RANK_PARAMS} rank desires; set one with base1=number .. "
                                f"base{N_RANK_PARAMS}=number.")
    return strategy.with_params(**changes).check_ranges()


def _toml_key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)


def _toml_value(value: float) -> str:
    return repr(float(value))


def to_toml(strategies: Iterable[Strategy], header: str = "") -> str:
    """A strategy file (the format of ``data/strategies.toml``) holding ``strategies``, every
    parameter its family reads (and any other it sets) written out; ``header`` becomes
    comment lines at the top."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    listed = list(strategies)
    written: set[str] = set()
    for s in [p for m in listed for _, p in m.mixture] + listed:
        if s.name in written:  # shipped components too: the file reads the same later
            continue
        written.add(s.name)
        key = _toml_key(s.name)
        lines += ["", f"[{key}]", f"family = {json.dumps(s.family)}"]
        if s.description:
            lines.append(f"description = {json.dumps(s.description)}")
        if s.mixture:
            lines.append("mixture = [" + ", ".join(json.dumps(p.name) for _, p in s.mixture)
                         + "]")
            lines.append("chances = [" + ", ".join(_toml_value(round(c, 6))
                                                   for c, _ in s.mixture) + "]")
            continue
        lines.append("base = [" + ", ".join(_toml_value(b) for b in s.base) + "]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in _filled(s).params.items()]
    return "\n".join(lines).lstrip("\n") + "\n"
