"""A sweep's target: what the designer wants of the game, as a band on one measure.

``length=8:10`` (the game lasts 8 to 10 rounds), ``first_crown<=2`` (the first crown's seat
wins at most 2 points over the fair share), ``characters<=2`` (every character's value within
±2 win-rate points of the set's mean), ``King=-2:2`` (one character's value within ±2).  A value meets the target when the measure's estimate
lies in the band at every player count and bot population of the sweep.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import polars as pl

from citadels_sim.game.config import ConfigError

#: the game-quality measures a target may name (:func:`citadels_sim.stats.quality.measures`)
#: with their units, and ``characters``: the largest character value off the set's mean
MEASURES = {"length": "rounds", "lead_changes": "changes", "decided": "round",
            "halfway_leader_wins": "% of games", "comeback_5": "% of such players",
            "comeback_10": "% of such players", "winner_trailed": "points",
            "first_crown": "win-rate points", "characters": "win-rate points"}

_FORM = re.compile(r"^\s*([A-Za-z][A-Za-z_0-9 '-]*?)\s*(<=|>=|=)\s*([-+0-9.]+)"
                   r"(?::([-+0-9.]+))?\s*$")


@dataclass(frozen=True)
class Target:
    """``measure`` within [``low``, ``high``] (either may be open: -inf/inf); a measure
    that is not one of :data:`MEASURES` names a character of the set (:meth:`check`)."""

    measure: str
    low: float = -math.inf
    high: float = math.inf

    @classmethod
    def parse(cls, text: str) -> Target:
        """``MEASURE=LO:HI``, ``MEASURE<=X`` or ``MEASURE>=X``; ``characters<=X`` bounds
        every character's distance from the set's mean, ``NAME=LO:HI`` one character's."""
        m = _FORM.match(text)
        measures = ", ".join(MEASURES)
        if not m:
            raise ConfigError(f"bad target {text!r}: write MEASURE=LO:HI, MEASURE<=X or "
                              f"MEASURE>=X, e.g. length=8:10, characters<=2 or King=-2:2 "
                              f"(measures: {measures}, or a character of the set).")
        name, op, a, b = m.groups()
        try:
            x, y = float(a), float(b) if b is not None else None
        except ValueError:
            raise ConfigError(f"bad number in target {text!r}.") from None
        if op == "=" and y is None:
            raise ConfigError(f"bad target {text!r}: a band is LO:HI, e.g. {name}={a}:{a}.")
        if op != "=" and y is not None:
            raise ConfigError(f"bad target {text!r}: {op} takes one number.")
        if name == "characters" and (op != "<=" or x < 0):
            raise ConfigError(f"bad target {text!r}: bound the characters with "
                              "characters<=X, X at least 0 (points off the set's mean).")
        low, high = (x, y) if op == "=" else ((-math.inf, x) if op == "<=" else (x, math.inf))
        if low > high:
            raise ConfigError(f"bad target {text!r}: the band's low end {low:g} is above "
                              f"its high end {high:g}.")
        return cls(name, low, high)

    def check(self, characters: tuple[str, ...]) -> Target:
        """The target for a set of ``characters``: a character's name in the set's spelling;
        a one-line error when the measure is neither a measure nor one of them."""
        if self.measure in MEASURES:
            return self
        found = {c.lower(): c for c in characters}.get(self.measure.lower())
        if found is None:
            raise ConfigError(f"target {self.measure!r} is neither a measure "
                              f"({', '.join(MEASURES)}) nor a character of the set "
                              f"({', '.join(characters)}).")
        return Target(found, self.low, self.high)

    def spec(self) -> str:
        """The target as ``--target`` takes it."""
        if self.low == -math.inf:
            return f"{self.measure}<={self.high:g}"
        if self.high == math.inf:
            return f"{self.measure}>={self.low:g}"
        return f"{self.measure}={self.low:g}:{self.high:g}"

    def text(self) -> str:
        """The target in words, with its unit."""
        unit = MEASURES.get(self.measure, "win-rate points")
        if self.measure not in MEASURES:
            return (f"the {self.measure}'s value from {self.low:g} to {self.high:g} {unit} off "
                    "the set's mean").replace("from -inf to", "at most").replace(
                        f" to inf {unit}", f" {unit} or more")
        if self.measure == "characters":
            return f"every character within ±{self.high:g} win-rate points of the set's mean"
        if self.low == -math.inf:
            return f"{self.measure} at most {self.high:g} {unit}"
        if self.high == math.inf:
            return f"{self.measure} at least {self.low:g} {unit}"
        return f"{self.measure} from {self.low:g} to {self.high:g} {unit}"

    def readings(self, characters: pl.DataFrame, quality: pl.DataFrame) -> list[float]:
        """The measure's estimate per player count and population in one value's tables
        (``characters``: effect per character; ``quality``: the measures by key)."""
        if self.measure == "characters":
            return [float(x) for x in characters.group_by("players", "population").agg(
                pl.col("effect").abs().max())["effect"]]
        if self.measure not in MEASURES:
            return [float(x) for x in characters.filter(
                pl.col("character") == self.measure)["effect"]]
        if quality.is_empty():
            return []
        return [float(x) for x in quality.filter(pl.col("key") == self.measure)["value"]]

    def met(self, characters: pl.DataFrame, quality: pl.DataFrame) -> bool:
        """Does one value's result meet the target (every reading in the band)?"""
        found = self.readings(characters, quality)
        return bool(found) and all(self.low <= x <= self.high for x in found)


def search_order(values: tuple[int, ...], published: int) -> list[int]:
    """The values a target search plays, nearest the published value first (the smallest
    change to the game), the lower of two equally near first."""
    return sorted(values, key=lambda v: (abs(v - published), v))


def grid_order(first: list[int], second: list[int]) -> list[tuple[int, int]]:
    """Pairs of two rules' values in a target search's order, each list already nearest
    its published value first: fewest steps away in all first, then by the first rule."""
    return sorted(((a, b) for a in first for b in second),
                  key=lambda p: (first.index(p[0]) + second.index(p[1]), first.index(p[0])))
