"""An independent scorer: slow, obviously correct, written from docs/rules.md §5 (and the
card tables of §4) without the kernel's code.  Tests compare the kernel's
``scoring.score_game`` against it.

Usage::

    seats = [Seat(city=["Manor", "Castle", ...], gold=5, hand=3), ...]
    scores, places = score("classic", seats, crown=0, first=1, n_complete=8)

A city lists district names ("Haunted City", "Thieves' Den"), kernel keys ("haunted",
"thieves_den") or kernel district ids; all are accepted.  Everything the scorer needs
beyond the cities is an explicit argument:

* ``Seat.gold`` / ``Seat.hand``: stash and number of cards in hand (Imperial Treasury,
  Map Room, classic stash tie-break);
* ``Seat.haunted_final``: classic only, the Haunted City was built in the final round;
* ``Seat.revealed``: 2016 only, highest rank (1-9) the seat revealed in the final round;
* ``Seat.museum``: cards under the Museum; ``Seat.vault``: the Secret Vault is in hand;
  ``Seat.beautified``: names of the seat's districts beautified by the Artist (+1 cost);
* ``crown``: seat holding the crown after the final end-of-round steps (Statue);
* ``first``: the seat that completed its city first (-1 if none);
* ``n_complete``: the complete-city size N.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

NOBLE, RELIGIOUS, TRADE, MILITARY, UNIQUE = "noble", "religious", "trade", "military", "unique"
ALL_TYPES = (NOBLE, RELIGIOUS, TRADE, MILITARY, UNIQUE)

# --- docs/rules.md §4.1: the 54 coloured districts (all rulesets) ---------------------------
COLOURED = {
    "manor": (NOBLE, 3), "castle": (NOBLE, 4), "palace": (NOBLE, 5),
    "temple": (RELIGIOUS, 1), "church": (RELIGIOUS, 2), "monastery": (RELIGIOUS, 3),
    "cathedral": (RELIGIOUS, 5),
    "tavern": (TRADE, 1), "market": (TRADE, 2), "trading_post": (TRADE, 2), "docks": (TRADE, 3),
    "harbor": (TRADE, 4), "town_hall": (TRADE, 5),
    "watchtower": (MILITARY, 1), "prison": (MILITARY, 2), "battlefield": (MILITARY, 3),
    "barracks": (MILITARY, 3), "fortress": (MILITARY, 5),
}

# --- docs/rules.md §4.2: classic purple districts (cost) -------------------------------------
CLASSIC_PURPLE = {
    "haunted_city": 2, "keep": 3, "laboratory": 5, "smithy": 5, "observatory": 5, "graveyard": 5,
    "dragon_gate": 6, "university": 6, "library": 6, "great_wall": 6, "school_of_magic": 6,
    "lighthouse": 3, "armory": 3, "powderhouse": 3, "museum": 4, "imperial_treasury": 4,
    "map_room": 5, "wishing_well": 5, "quarry": 5, "poor_house": 5, "bell_tower": 5,
    "factory": 6, "park": 6, "hospital": 6, "throne_room": 6, "ball_room": 6,
}

# --- docs/rules.md §4.3: 2016 unique districts (cost; the Secret Vault has none) ------------
UNIQUE_2016 = {
    "armory": 3, "basilica": 4, "capitol": 5, "dragon_gate": 6, "factory": 5, "framework": 3,
    "gold_mine": 6, "great_wall": 6, "haunted_quarter": 2, "imperial_treasury": 5,
    "ivory_tower": 5, "keep": 3, "laboratory": 5, "library": 6, "map_room": 5, "monument": 4,
    "museum": 4, "necropolis": 5, "observatory": 4, "park": 6, "poor_house": 4, "quarry": 5,
    "school_of_magic": 6, "secret_vault": 0, "smithy": 5, "stables": 2, "statue": 3,
    "theater": 6, "thieves_den": 6, "wishing_well": 5,
}



def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "")).strip("_")


def card(ruleset: str, name) -> tuple[str, str, int]:
    """(canonical key, type, printed cost) of a district in ``ruleset``: a printed name, a
    key, or a kernel district id (only its name is looked up in the kernel's id table)."""
    if not isinstance(name, str):
        from citadels_sim.kernel.layout import DISTRICT_KEYS
        name = DISTRICT_KEYS[int(name)]
    k = _norm(name)
    if k == "haunted":
        k = "haunted_quarter" if ruleset == "2016" else "haunted_city"
    if ruleset == "2016" and k == "battlefield":
        k = "barracks"
    if ruleset != "2016" and k == "barracks":
        k = "battlefield"
    if k in COLOURED:
        t, c = COLOURED[k]
        return k, t, c
    if ruleset == "four_color":
        raise KeyError(f"{name!r} is not a four_color district")
    table = UNIQUE_2016 if ruleset == "2016" else CLASSIC_PURPLE
    if k not in table:
        raise KeyError(f"{name!r} is not a {ruleset} district")
    return k, UNIQUE, table[k]


@dataclass
class Seat:
    city: list
    gold: int = 0
    hand: int = 0
    haunted_final: bool = False
    revealed: int = 0
    museum: int = 0
    vault: bool = False
    beautified: list = field(default_factory=list)


def _size(ruleset, keys):
    """Size toward completion: districts, +1 for the 2016 Monument."""
    return len(keys) + (1 if ruleset == "2016" and "monument" in keys else 0)


def seat_score(ruleset: str, seat: Seat, is_first: bool, holds_crown: bool,
               n_complete: int) -> tuple[int, int]:
    """(score, district value) of one seat, choosing the Haunted type that maximises the score."""
    entries = [card(ruleset, d) for d in seat.city]
    keys = [e[0] for e in entries]
    beautified = {card(ruleset, d)[0] for d in seat.beautified}
    costs = [c + (1 if k in beautified else 0) for k, _, c in entries]

    # row 1: district value
    value = sum(costs)

    # row 3: completion
    complete_pts = 0
    if _size(ruleset, keys) >= n_complete:
        complete_pts = 4 if is_first else 2

    # the Haunted City / Quarter may be counted as any type (classic: not if built in the
    # final round); try every option and keep the best total (D23)
    haunted = [i for i, k in enumerate(keys) if k in ("haunted_city", "haunted_quarter")]
    free = [i for i in haunted if not (ruleset == "classic" and seat.haunted_final)]
    options = list(itertools.product(ALL_TYPES, repeat=len(free))) if free else [()]

    best = None
    for choice in options:
        types = [t for _, t, _ in entries]
        for i, t in zip(free, choice):
            types[i] = t
        pts = value + complete_pts + _colour_bonus(ruleset, types) + _extras(
            ruleset, seat, keys, types, costs, holds_crown)
        if best is None or pts > best:
            best = pts
    return best, value


def _colour_bonus(ruleset, types):
    needed = (NOBLE, RELIGIOUS, TRADE, MILITARY) if ruleset == "four_color" else ALL_TYPES
    return 3 if all(t in types for t in needed) else 0


def _extras(ruleset, seat, keys, types, costs, holds_crown):
    if ruleset == "four_color":
        return 0
    pts = 0
    n_unique = sum(1 for t in types if t == UNIQUE)
    for k in keys:
        if k in ("dragon_gate", "university"):
            pts += 2
        elif k == "imperial_treasury":
            pts += seat.gold
        elif k == "map_room":
            pts += seat.hand
        elif k == "museum":
            pts += seat.museum
        elif k == "wishing_well":
            # classic: other purple districts; 2016: unique districts, itself included
            pts += n_unique - 1 if ruleset == "classic" else n_unique
        elif ruleset == "2016" and k == "basilica":
            pts += sum(1 for c in costs if c % 2 == 1)
        elif ruleset == "2016" and k == "capitol":
            if any(types.count(t) >= 3 for t in ALL_TYPES):
                pts += 3
        elif ruleset == "2016" and k == "ivory_tower":
            if n_unique == 1:
                pts += 5
        elif ruleset == "2016" and k == "statue":
            if holds_crown:
                pts += 5
    if ruleset == "2016" and seat.vault:
        pts += 3
    return pts


def _ahead(ruleset, a, b):
    """Does result ``a`` finish strictly ahead of ``b`` (§5.3)?  Results are dicts."""
    if a["score"] != b["score"]:
        return a["score"] > b["score"]
    if ruleset == "classic":
        if a["value"] != b["value"]:
            return a["value"] > b["value"]
        return a["gold"] > b["gold"]
    if ruleset == "2016":
        return a["revealed"] > b["revealed"]
    return False


def score(ruleset: str, seats: list[Seat], crown: int, first: int, n_complete: int):
    """Scores and places (competition ranking, 1 = winner) of every seat."""
    results = []
    for s, seat in enumerate(seats):
        sc, value = seat_score(ruleset, seat, s == first, s == crown, n_complete)
        results.append({"score": sc, "value": value, "gold": seat.gold, "revealed": seat.revealed})
    places = [1 + sum(1 for o in results if _ahead(ruleset, o, r)) for r in results]
    return [r["score"] for r in results], places


def values(ruleset: str, seats: list[Seat]) -> list[int]:
    """District values (row 1) of every seat."""
    return [seat_score(ruleset, seat, False, False, 99)[1] for seat in seats]
