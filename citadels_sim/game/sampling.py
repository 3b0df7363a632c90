"""Random valid game configurations, for checks that must hold for any set (the bots'
robustness, stalls, the rules' invariants): a random character per rank, random unique
districts, any ruleset and player count, drawn reproducibly from a numpy generator."""

from __future__ import annotations

import numpy as np

from citadels_sim.kernel.layout import T_UNIQUE
from . import cards
from .config import ConfigError, GameConfig

RULESETS = ("classic", "2016", "four_color")


def random_config(rng: np.random.Generator, ruleset: str | None = None,
                  players: int | None = None) -> GameConfig | None:
    """A random configuration from the whole roster, or None when the draw is not a valid
    game: any ruleset (or ``ruleset``), 2-8 players (or ``players``), a random character
    per rank (a rank-9 character 60% of the time), 14 random unique districts (2016) or a
    random bonus-purple selection with the base purples removed that it requires
    (classic)."""
    ruleset = ruleset or str(rng.choice(list(RULESETS)))
    players = players or int(rng.integers(2, 9))
    roster = cards.characters(ruleset)
    chosen = []
    for rank in range(1, 10):
        options = [c.name for c in roster if c.rank == rank]
        if options and (rank < 9 or rng.random() < 0.6):
            chosen.append(str(rng.choice(options)))
    districts, removed = None, None
    playable = [d for d in cards.districts(ruleset) if d.type == T_UNIQUE]
    if ruleset == "2016":
        districts = [str(x) for x in rng.choice([d.name for d in playable], 14, replace=False)]
    elif ruleset == "classic":
        bonus = [d.name for d in playable if d.set == "bonus"]
        districts = [str(x) for x in rng.choice(bonus, int(rng.integers(0, len(bonus) + 1)),
                                                replace=False)]
        base = [d.name for d in playable if d.set == "base"]
        removed = [str(x) for x in rng.choice(base, max(0, len(districts) - 3), replace=False)]
    try:
        return GameConfig(ruleset=ruleset, players=players, characters=chosen,
                          districts=districts, removed=removed)
    except ConfigError:
        return None


def random_configs(seed: int, n: int, ruleset: str | None = None,
                   players: int | None = None) -> list[GameConfig]:
    """``n`` valid random configurations (:func:`random_config`), the same for the same
    arguments."""
    rng = np.random.default_rng(seed)
    out: list[GameConfig] = []
    while len(out) < n:
        config = random_config(rng, ruleset, players)
        if config is not None:
            out.append(config)
    return out
