"""Strategy presets: a family of decision code plus its parameters (installed as
``citadels_sim.strategies``).

A :class:`Strategy` is data, not code: the kernel's decision functions switch on its
family and read its parameter row, so new presets and tuned parameters need no
recompilation.  Presets live in ``presets.toml`` beside this file; a user can also write
``"heuristic:threat=2,aggression=0.3"`` to tune one on the fly.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources

import numpy as np

from citadels_sim.kernel import layout, policy

FAMILIES = policy.FAMILY_NAMES
#: parameter name -> (kernel index, default)
PARAMS = {
    "income": (policy.PR_W_INCOME, 1.0),
    "aggression": (policy.PR_W_AGGRESSION, 0.0),
    "threat": (policy.PR_W_THREAT, 0.0),
    "card_need": (policy.PR_CARD_NEED, 1.0),
    "gold_reserve": (policy.PR_GOLD_RESERVE, 0.0),
    "new_type": (policy.PR_W_NEW_TYPE, 0.5),
    "swap_margin": (policy.PR_SWAP_MARGIN, 2.0),
}
N_RANK_PARAMS = 9


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

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise StrategyError(f"Unknown strategy family {self.family!r}; "
                                f"families: {', '.join(FAMILIES)}.")
        if len(self.base) != N_RANK_PARAMS:
            raise StrategyError(f"Strategy {self.name!r}: base needs {N_RANK_PARAMS} values "
                                f"(one per rank 1-9), got {len(self.base)}.")
        bad = sorted(set(self.params) - set(PARAMS))
        if bad:
            raise StrategyError(f"Unknown parameter {bad[0]!r} for strategy {self.name!r}; "
                                f"parameters: base, {', '.join(PARAMS)}.")

    @property
    def family_id(self) -> int:
        return FAMILIES.index(self.family)

    def row(self) -> np.ndarray:
        """The kernel's parameter row (float64, layout.N_PARAMS long)."""
        row = np.zeros(layout.N_PARAMS)
        row[policy.PR_BASE:policy.PR_BASE + N_RANK_PARAMS] = self.base
        for key, (index, default) in PARAMS.items():
            row[index] = self.params.get(key, default)
        return row

    def restricted(self, character: str) -> Strategy:
        """A copy that may never pick ``character`` (restricted play), named for it."""
        return replace(self, name=f"{self.name} (no {character})",
                       forbid=tuple(dict.fromkeys(self.forbid + (character,))))

    def with_params(self, **changes: float) -> Strategy:
        """A copy with some parameters changed (``base`` replaces the rank desires)."""
        base = tuple(changes.pop("base", self.base))
        name = self.name + ":" + ",".join(f"{k}={v}" for k, v in changes.items())
        return Strategy(name, self.family, base, {**self.params, **changes}, self.description,
                        self.forbid)


@lru_cache(maxsize=None)
def presets() -> dict[str, Strategy]:
    """The named presets shipped in ``presets.toml``."""
    text = resources.files(__name__).joinpath("presets.toml").read_text(encoding="utf-8")
    out = {}
    for name, table in tomllib.loads(text).items():
        table = dict(table)
        family = table.pop("family")
        description = table.pop("description", "")
        base = tuple(float(x) for x in table.pop("base", (1.0,) * N_RANK_PARAMS))
        out[name] = Strategy(name, family, base, {k: float(v) for k, v in table.items()},
                             description)
    return out


def get(spec: str | Strategy) -> Strategy:
    """A strategy from a preset name, ``"preset:param=value,..."``, or a Strategy."""
    if isinstance(spec, Strategy):
        return spec
    name, _, tweaks = str(spec).strip().partition(":")
    known = presets()
    if name not in known:
        raise StrategyError(f"Unknown strategy {name!r}; presets: {', '.join(known)}.")
    if not tweaks:
        return known[name]
    changes = {}
    for item in tweaks.split(","):
        key, eq, value = item.partition("=")
        try:
            changes[key.strip()] = float(value)
        except ValueError:
            raise StrategyError(f"Bad strategy parameter {item!r} in {spec!r}: "
                                "write name=number.") from None
        if not eq:
            raise StrategyError(f"Bad strategy parameter {item!r} in {spec!r}: write name=number.")
    return known[name].with_params(**changes)
