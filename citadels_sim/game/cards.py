"""Card facts shipped with the package: districts and characters per ruleset, and the 2016
edition's named sets.

The CSV files in ``citadels_sim/game/data`` hold the printed cards and sets (the rules as
implemented: ``docs/rules.md``); this module turns them into lookup tables keyed by the
kernel's global ids (:mod:`citadels_sim.kernel.layout`).
"""

from __future__ import annotations

import csv
import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from citadels_sim.kernel import layout as L

RULESETS = L.RULESET_NAMES

_TYPE_IDS = {"noble": L.T_NOBLE, "religious": L.T_RELIGIOUS, "trade": L.T_TRADE,
             "military": L.T_MILITARY, "unique": L.T_UNIQUE, "special": L.T_UNIQUE}

#: card names that share one kernel kind across rulesets
_KIND_ALIASES = {"haunted_city": "haunted", "haunted_quarter": "haunted", "barracks": "battlefield"}


def key_of(name: str) -> str:
    """Normalise a card or character name to its key: ``"Thieves' Den"`` -> ``thieves_den``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "")).strip("_")


def did_you_mean(bad: str, allowed: Iterable[str], cutoff: float = 0.6) -> str:
    """A message's hint naming the allowed name nearest ``bad`` (`` Did you mean 'X'?``), or
    an empty string when none is near."""
    close = difflib.get_close_matches(str(bad), list(allowed), n=1, cutoff=cutoff)
    return f" Did you mean {close[0]!r}?" if close else ""


@dataclass(frozen=True)
class District:
    """One district name of one ruleset."""

    name: str
    kind: int
    type: int
    cost: int
    count: int
    set: str
    effect: str


@dataclass(frozen=True)
class Character:
    """One character of one ruleset."""

    name: str
    id: int
    rank: int  # 1-based, as printed
    set: str
    ability: str
    #: the district type that pays his income ("" if none) and what it pays ("gold",
    #: "cards", "gold_or_cards")
    income_type: str = ""
    income_kind: str = ""


@dataclass(frozen=True)
class NamedSet:
    """A 2016 named set: eight characters, an optional rank 9 and 14 unique districts."""

    name: str
    characters: tuple[str, ...]
    rank9: str | None
    districts: tuple[str, ...]
    source: str


def _rows(filename: str) -> list[dict[str, str]]:
    text = resources.files("citadels_sim.game.data").joinpath(filename).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


@lru_cache(maxsize=None)
def districts(ruleset: str) -> tuple[District, ...]:
    """All district names of ``ruleset`` (coloured first, then purple/unique)."""
    out = []
    for row in _rows("districts.csv"):
        if row["ruleset"] != ruleset:
            continue
        key = key_of(row["name"])
        kind = L.DISTRICT_KEYS.index(_KIND_ALIASES.get(key, key))
        out.append(District(row["name"], kind, _TYPE_IDS[row["type"]], int(row["cost"]),
                            int(row["count"]), row["set"], row["effect"]))
    return tuple(out)


@lru_cache(maxsize=None)
def characters(ruleset: str) -> tuple[Character, ...]:
    """All characters of ``ruleset`` (four_color: the base eight)."""
    source = "classic" if ruleset == "four_color" else ruleset
    out = []
    for row in _rows("characters.csv"):
        if row["ruleset"] != source or (ruleset == "four_color" and row["set"] != "base"):
            continue
        key = key_of(row["name"])
        if key == "tax_collector" and source == "classic":
            key = "tax_collector_classic"
        out.append(Character(row["name"], L.CHARACTER_KEYS.index(key), int(row["rank"]),
                             row["set"], row["ability"], row["income_type"],
                             row["income_kind"]))
    return tuple(out)


@lru_cache(maxsize=None)
def named_sets() -> dict[str, NamedSet]:
    """The 2016 edition's named character-and-district sets, by name."""
    out = {}
    for row in _rows("named_sets.csv"):
        out[row["named_set"]] = NamedSet(
            row["named_set"], tuple(row["characters_rank_1_to_8"].split(",")),
            row["rank_9"] or None, tuple(row["unique_districts"].split(",")), row["source"])
    return out


def district_name(ruleset: str, kind: int) -> str:
    """The printed name of district kind ``kind`` in ``ruleset``."""
    return _names(ruleset)[kind]


@lru_cache(maxsize=None)
def _names(ruleset: str) -> dict[int, str]:
    return {d.kind: d.name for d in districts(ruleset)}


def character_name(char_id: int) -> str:
    """The printed name of a character id (the two Tax Collectors share their name)."""
    for ruleset in ("2016", "classic"):
        for c in characters(ruleset):
            if c.id == char_id:
                return c.name
    raise KeyError(char_id)
