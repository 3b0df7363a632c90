"""House rules: the numbers of the rules a designer may change, each with its official
default, its range and what it concerns.

A :class:`RuleParameter` names one number the kernel reads from its tables (``layout.G_*``)
instead of a constant: starting gold and cards, the gather action, the complete-city size,
the end-of-game bonuses and the numbers printed on the characters (:data:`PARAMETERS`, and
a ``<character>_income`` per character with a district income).  ``GameConfig(rules=...)``
checks the values (:func:`normalise`) and writes them into the tables (:func:`fill`); with
none given the game is the published one, byte for byte.  docs/house_rules.md lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from citadels_sim.kernel import layout as L
from . import cards

ALL = cards.RULESETS


class HouseRuleError(ValueError):
    """A house rule the engine cannot play (the config turns it into a ConfigError)."""


@dataclass(frozen=True)
class RuleParameter:
    """One rule number: its name, what it means, its official value (``None``: it depends
    on the game, :func:`default`), the values allowed and the characters it concerns (one
    of them must be in the set)."""

    name: str
    slot: int
    meaning: str
    default: int | None
    low: int
    high: int
    unit: str
    characters: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ALL


def _p(name, slot, meaning, default, low, high, unit, characters=(), rulesets=ALL):
    return RuleParameter(name, slot, meaning, default, low, high, unit, tuple(characters),
                         tuple(rulesets))


_FIXED = (
    _p("start_gold", L.G_START_GOLD, "gold each player starts with", 2, 0, 30, "gold"),
    _p("start_cards", L.G_START_CARDS, "district cards dealt to each player", 4, 0, 12, "cards"),
    _p("gather_gold", L.G_GATHER_GOLD, "gold taken by the gather action (the 2016 Gold Mine "
       "adds 1)", 2, 0, 10, "gold"),
    _p("gather_draw", L.G_GATHER_DRAW, "cards drawn by the gather action (the Observatory "
       "adds 1)", 2, 1, 7, "cards"),
    _p("gather_keep", L.G_GATHER_KEEP, "cards kept of those drawn (the Library keeps all)",
       1, 1, 7, "cards"),
    _p("complete_size", L.G_N_FULL, "districts that complete a city and end the game "
       "(classic 8, quick game 7; 2016 8 with 2-3 players, else 7; four_color 8)", None,
       3, 16, "districts"),
    _p("first_bonus", L.G_FIRST_BONUS, "points for the first complete city", 4, 0, 20,
       "points"),
    _p("complete_bonus", L.G_COMPLETE_BONUS, "points for every other complete city", 2, 0,
       20, "points"),
    _p("colour_bonus", L.G_COLOUR_BONUS, "points for a district of every type (four_color: "
       "every colour)", 3, 0, 20, "points"),
    _p("merchant_gold", L.G_MERCHANT_GOLD, "the Merchant's extra gold", 1, 0, 10, "gold",
       ["Merchant"]),
    _p("architect_cards", L.G_ARCHITECT_CARDS, "the Architect's extra cards", 2, 0, 10,
       "cards", ["Architect"]),
    _p("architect_builds", L.G_ARCHITECT_BUILDS, "districts the Architect may build in his "
       "turn", 3, 1, 10, "districts", ["Architect"]),
    _p("thief_share", L.G_THIEF_SHARE, "share of the robbed stash the Thief takes, rounded "
       "down", 100, 0, 100, "%", ["Thief"]),
    _p("warlord_discount", L.G_WARLORD_DISCOUNT, "gold off a district's cost when the "
       "Warlord destroys it", 1, 0, 10, "gold", ["Warlord"]),
    _p("navigator_gain", L.G_NAVIGATOR_GAIN, "the Navigator's gold or cards", 4, 0, 10,
       "gold or cards", ["Navigator"]),
    _p("queen_gold", L.G_QUEEN_GOLD, "the Queen's gold when a neighbour holds the rank-4 "
       "character", 3, 0, 10, "gold", ["Queen"]),
    _p("scholar_draw", L.G_SCHOLAR_DRAW, "cards the Scholar draws, keeping 1", 7, 1, 20,
       "cards", ["Scholar"]),
    _p("scholar_builds", L.G_SCHOLAR_BUILDS, "districts the Scholar may build in his turn",
       2, 1, 10, "districts", ["Scholar"]),
    _p("seer_builds", L.G_SEER_BUILDS, "districts the Seer may build in her turn", 2, 1, 10,
       "districts", ["Seer"]),
    _p("artist_beautify", L.G_ARTIST_BEAUTIFY, "districts the Artist may beautify in her "
       "turn (1 gold each)", 2, 0, 8, "districts", ["Artist"]),
    _p("bribe_share", L.G_BRIBE_SHARE, "share of his stash a threatened player pays the "
       "Blackmailer as a bribe, rounded down", 50, 0, 100, "%", ["Blackmailer"]),
    _p("marshal_max", L.G_MARSHAL_MAX, "the costliest district the Marshal may seize", 3, 0,
       8, "gold", ["Marshal"]),
    _p("tax", L.G_TAX, "the Tax Collector's tax (classic: paid to him per building turn; "
       "2016: to his pile per build), as far as the builder has gold", 1, 0, 10, "gold",
       ["Tax Collector"]),
    _p("abbot_tribute", L.G_ABBOT_TRIBUTE, "gold the richest player gives the Abbot", 1, 0,
       10, "gold", ["Abbot"]),
)


def _incomes() -> tuple[RuleParameter, ...]:
    """``<character>_income`` for every character with a district income."""
    paid: dict[str, dict[str, str]] = {}  # character: ruleset: what a district pays
    seen: dict[str, cards.Character] = {}
    for ruleset in ALL:
        for c in cards.characters(ruleset):
            if c.income_type:
                what = {"cards": "card", "gold_or_cards": "gold or card"}.get(c.income_kind,
                                                                              "gold")
                paid.setdefault(c.name, {})[ruleset] = what
                seen.setdefault(c.name, c)
    out = []
    for name, c in seen.items():
        kinds = paid[name]
        what = next(iter(kinds.values()))
        if len(set(kinds.values())) > 1:  # the Abbot: gold, in 2016 gold or cards
            what = " (".join([what, ", ".join(f"{r}: {w}" for r, w in kinds.items()
                                              if w != what) + ")"])
        out.append(_p(f"{cards.key_of(name)}_income", L.G_INCOME + c.id,
                      f"{what} per {c.income_type} district in the {name}'s income", 1, 0, 5,
                      "per district", [name]))
    return tuple(out)


#: every house rule, by name
PARAMETERS: dict[str, RuleParameter] = {p.name: p for p in _FIXED + _incomes()}


def default(parameter: RuleParameter, ruleset: str, players: int, quick: bool) -> int:
    """The official value of ``parameter`` in that game (the complete-city size N depends
    on the game, docs/rules.md §1.2)."""
    if parameter.default is not None:
        return parameter.default
    if ruleset == "2016":  # complete_size
        return 8 if players <= 3 else 7
    return 7 if quick else 8


def normalise(rules, config) -> tuple[tuple[str, int], ...]:
    """The house rules ``rules`` (a mapping or pairs of name and value) checked against
    ``config`` (a GameConfig being built: ruleset, players, characters and deck known), as
    sorted pairs without the values that equal the official ones; a
    :class:`HouseRuleError` names a bad one and what is allowed."""
    if rules is None:
        return ()
    if isinstance(rules, Mapping):
        rules = rules.items()
    chosen: dict[str, int] = {}
    for name, value in rules:
        p = check_name(name)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise HouseRuleError(f"House rule {p.name} must be a whole number "
                                 f"({p.low}-{p.high} {p.unit}), got {value!r}.")
        if not p.low <= value <= p.high:
            raise HouseRuleError(f"House rule {p.name} = {value} is out of range: "
                                 f"{p.low}-{p.high} {p.unit} ({p.meaning}).")
        if config.ruleset not in p.rulesets:
            raise HouseRuleError(f"House rule {p.name} does not apply to {config.ruleset}: "
                                 f"only to {', '.join(p.rulesets)}.")
        if p.characters and not set(p.characters) & set(config.base_names):
            raise HouseRuleError(f"House rule {p.name} concerns the {' or '.join(p.characters)}"
                                 f", who is not in this character set "
                                 f"({', '.join(config.character_names)}).")
        chosen[p.name] = int(value)
    _check_together(chosen, config)
    return tuple(sorted((k, v) for k, v in chosen.items()
                        if v != default(PARAMETERS[k], config.ruleset, config.players,
                                        config.quick)))


def check_name(name) -> RuleParameter:
    """The parameter called ``name``, or a :class:`HouseRuleError` naming the nearest."""
    p = PARAMETERS.get(str(name))
    if p is None:
        raise HouseRuleError(f"Unknown house rule {name!r}."
                             + cards.did_you_mean(name, PARAMETERS)
                             + " Allowed: " + ", ".join(PARAMETERS)
                             + " (docs/house_rules.md).")
    return p


def _check_together(chosen: dict[str, int], config) -> None:
    """Values that are each allowed but not together (or not with this deck)."""
    draw = chosen.get("gather_draw", PARAMETERS["gather_draw"].default)
    keep = chosen.get("gather_keep", PARAMETERS["gather_keep"].default)
    if keep > draw:
        raise HouseRuleError(f"House rule gather_keep = {keep} keeps more cards than "
                             f"gather_draw = {draw} draws: keep at most {draw}.")
    dealt = chosen.get("start_cards", PARAMETERS["start_cards"].default) * config.players
    deck = int(config.deck_counts().sum())
    if dealt > deck:
        raise HouseRuleError(f"House rule start_cards = {chosen['start_cards']} deals {dealt} "
                             f"cards to {config.players} players; the deck holds {deck}.")


def fill(cfg: np.ndarray, config) -> None:
    """Write every rule number of ``config`` (its house rules, else the official values)
    into the kernel's configuration vector ``cfg``."""
    chosen = dict(config.rules)
    for p in PARAMETERS.values():
        cfg[p.slot] = chosen.get(p.name, default(p, config.ruleset, config.players,
                                                 config.quick))


def pairs(rules) -> tuple[tuple[str, int], ...]:
    """``rules`` (a mapping or pairs of name and value, or None) as sorted pairs: how a
    study keeps the house rules it passes to every GameConfig (which checks them)."""
    items = (rules or {}).items() if isinstance(rules, dict) or rules is None else rules
    return tuple(sorted((str(k), v) for k, v in items))


def parse(text: str) -> tuple[str, int]:
    """``"NAME=VALUE"`` (the CLI's ``--rule``) as a pair; a one-line error otherwise."""
    name, sep, value = text.partition("=")
    try:
        if not sep:
            raise ValueError
        return name.strip(), int(value)
    except ValueError:
        raise HouseRuleError(f"--rule takes NAME=VALUE with a whole number, e.g. "
                             f"--rule thief_share=50; got {text!r}.") from None
