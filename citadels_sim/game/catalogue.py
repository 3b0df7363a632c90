"""What ``citadels list`` prints: everything a designer needs to build a set.

Per ruleset: each character with its rank and the player counts it may play at, each
district card with its type, cost and copies (bonus and unique cards apart from the base
deck), then the 2016 named sets' contents, the strategy presets with their parameters, and
every parameter's default, search range (``citadels tune``) and allowed range.
The player counts are not written down here: they are found by asking
:class:`~citadels_sim.game.config.GameConfig` which games it accepts, so they follow the rules
the simulator enforces.
"""

from __future__ import annotations

from citadels_sim.kernel.layout import TYPE_NAMES
from . import cards
from .config import BASE_CHARACTERS, PLAYER_RANGE, ConfigError, GameConfig
from .strategies import (BASE_BOUNDS, DESIRES, FAMILY_PARAMS, N_RANK_PARAMS, PARAMS,
                         allowed_range, presets)


def _set_with(character: cards.Character) -> tuple[str, ...]:
    """The base set with ``character`` at its rank (a rank-9 character is added)."""
    chosen = list(BASE_CHARACTERS)
    if character.rank <= 8:
        chosen[character.rank - 1] = character.name
        return tuple(chosen)
    return tuple(chosen) + (character.name,)


def player_counts(ruleset: str, character: cards.Character) -> tuple[list[int], bool]:
    """The player counts at which ``character`` can be in the set, and whether it needs the
    Graveyard out of the classic deck (the Diplomat)."""
    lo, hi = PLAYER_RANGE[ruleset]
    nines = [c.name for c in cards.characters(ruleset) if c.rank == 9 and c is not character]
    base = _set_with(character)
    options = [base] + ([base + (r9,) for r9 in nines] if character.rank <= 8 else [])
    for removed in (None, ("Graveyard",)):
        out = []
        for n in range(lo, hi + 1):  # a rank-9 character is added where the count needs one
            for chars in options:
                try:
                    GameConfig(ruleset=ruleset, players=n, characters=chars, removed=removed)
                except ConfigError:
                    continue
                out.append(n)
                break
        if out or ruleset != "classic":
            return out, removed is not None
    return [], False


def _valid(ruleset: str, players: int, characters: tuple[str, ...]) -> bool:
    try:
        GameConfig(ruleset=ruleset, players=players, characters=characters)
    except ConfigError:
        return False
    return True


def rank9_rules(ruleset: str) -> tuple[list[int], list[int]]:
    """(player counts that need a rank-9 character, counts that allow one)."""
    lo, hi = PLAYER_RANGE[ruleset]
    nines = [c.name for c in cards.characters(ruleset) if c.rank == 9]
    need, allow = [], []
    for n in range(lo, hi + 1):
        if any(_valid(ruleset, n, tuple(BASE_CHARACTERS) + (r9,)) for r9 in nines):
            allow.append(n)
            if not _valid(ruleset, n, tuple(BASE_CHARACTERS)):
                need.append(n)
    return need, allow


def _spans(numbers: list[int]) -> str:
    """``[2, 3, 4, 6]`` -> ``"2-4, 6"``."""
    spans: list[list[int]] = []
    for x in numbers:
        if spans and x == spans[-1][1] + 1:
            spans[-1][1] = x
        else:
            spans.append([x, x])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in spans) or "none"


def _districts(ruleset: str) -> list[str]:
    out = []
    groups: dict[str, list[cards.District]] = {}
    for d in cards.districts(ruleset):
        groups.setdefault(d.set, []).append(d)
    for group, items in groups.items():
        out.append(f"  districts ({group}):")
        for d in items:
            out.append(f"    {d.name:<20} {TYPE_NAMES[d.type]:<9} cost {d.cost}  "
                       f"x{d.count}")
    return out


def text() -> str:
    """The whole listing."""
    out = []
    for rs in cards.RULESETS:
        lo, hi = PLAYER_RANGE[rs]
        out.append(f"ruleset {rs}: {lo}-{hi} players")
        out.append("  characters (rank. name: player counts it can play at):")
        for c in sorted(cards.characters(rs), key=lambda c: (c.rank, c.id)):
            counts, graveyard = player_counts(rs, c)
            note = " (the Graveyard removed from the deck)" if graveyard else ""
            out.append(f"    {c.rank}. {c.name:<14} {_spans(counts)}{note}")
        need, allow = rank9_rules(rs)
        if allow:
            out.append(f"  a rank-9 character: allowed at {_spans(allow)} players, needed at "
                       f"{_spans(need)}")
        out += _districts(rs)
    out.append("2016 named sets (characters by rank, [rank 9], unique districts):")
    for name, p in cards.named_sets().items():
        nine = f" [{p.rank9}]" if p.rank9 else ""
        out.append(f"  {name}: {', '.join(p.characters)}{nine}")
        out.append(f"    districts: {', '.join(p.districts)}")
    out.append("strategies (family; parameters: name=value, base = desire per rank 1-9):")
    for name, s in presets().items():
        params = {k: s.params.get(k, PARAMS[k].default)
                  for k in FAMILY_PARAMS.get(s.family, tuple(PARAMS))}
        out.append(f"  {name:<12} {s.description}")
        out.append(f"    family {s.family}; " + ", ".join(f"{k}={v:g}" for k, v in
                                                            params.items())
                   + "; base=" + ",".join(f"{b:g}" for b in s.base))
    return "\n".join(out + _parameters())


def _parameters() -> list[str]:
    """Each parameter: default, search range, allowed range, the families reading it."""
    out = ["strategy parameters (default; the range tune searches; the range a strategy may "
           "give: twice the search range, from 0 or twice a negative search low):"]
    rows = [(f"base1 .. base{N_RANK_PARAMS}", 1.0, BASE_BOUNDS, False,
             [f for f, reads in FAMILY_PARAMS.items() if reads])]
    for name, p in PARAMS.items():
        if name in DESIRES[1:]:
            continue
        rows.append(("want_<character>" if name in DESIRES else name, p.default,
                     (p.low, p.high), p.integer,
                     [f for f, reads in FAMILY_PARAMS.items() if name in reads]))
    for name, default, (low, high), whole, families in rows:
        lo, hi = allowed_range(low, high)
        out.append(f"  {name:<17} {default:>4g}  search {low:g} to {high:g}, allowed {lo:g} "
                   f"to {hi:g}{' (whole numbers searched)' if whole else ''}; "
                   f"{', '.join(families)}")
    return out
