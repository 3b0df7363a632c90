"""Card variants: a named character defined in a TOML file as a published one with other
numbers and added effects.

```toml
[characters."Greedy Merchant"]
base = "Merchant"
description = "Takes 3 gold after gathering, and 2 per trade district."
merchant_gold = 3
merchant_income = 2

[characters."Sheriff"]
base = "Warlord"
cards = 1                # draws 1 card after gathering
income = "religious"     # and takes 1 gold per religious district
builds = 2               # may build 2 districts
power = "kill"           # and kills a character later in the round (game.variants.POWERS)
```

A variant plays as its base character (the same powers, the same place in the bots'
desires) with the rule numbers that concern the base set to its values
(:mod:`.house_rules`: only numbers whose parameter concerns that character), and with the
effects of :data:`EFFECTS` added to its power.  It is named wherever a character is
(``--characters``, ``GameConfig(characters=...)``, experiment and balance sets) once its file
is given (``--variants FILE``, ``GameConfig(variants=FILE)``); tables and reports show its
name.  A unique (purple) district may be defined likewise, with another cost (its price
and, by the rules, its points), and named in ``--districts`` in its base's place:

```toml
[districts."Cheap Keep"]
base = "Keep"
cost = 2
```

Any other key (a district's power, a power the base has already) is refused in one line.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from citadels_sim.kernel.layout import T_UNIQUE, TYPE_NAMES
from . import cards, house_rules


class VariantError(ValueError):
    """A variants file the engine cannot play (the config turns it into a ConfigError)."""


@dataclass(frozen=True)
class Variant:
    """A named character: ``base`` (a published character's name) with ``numbers`` (pairs
    of a house-rule parameter concerning the base and its value) and ``effects`` (pairs of
    an :data:`EFFECTS` key and its value: a number, or a district type's name)."""

    name: str
    base: str
    numbers: tuple[tuple[str, int], ...]
    description: str = ""
    effects: tuple[tuple[str, int | str], ...] = ()

    def to_dict(self) -> dict:
        return {"base": self.base, **dict(self.numbers), **dict(self.effects)}

    def effect(self, key: str, default: int | str | None = None) -> int | str | None:
        """The value of added effect ``key``, else ``default``."""
        return dict(self.effects).get(key, default)


@dataclass(frozen=True)
class DistrictVariant:
    """A named unique (purple) district: ``base`` (a published one's name) at another
    ``cost`` (what it costs to build and, as every district, the points it scores)."""

    name: str
    base: str
    cost: int
    description: str = ""

    def to_dict(self) -> dict:
        return {"base": self.base, "cost": self.cost}


#: the cost a district variant may have
DISTRICT_COST = (0, 10)
#: keys of a variant's table besides its numbers
KEYS = ("base", "description")
#: the effects a variant may add to its base's power: key -> (meaning, low, high); ``income``
#: takes a district type's name instead
EFFECTS = {"gold": ("gold taken after gathering", 0, 6),
           "cards": ("cards drawn after gathering", 0, 4),
           "builds": ("districts it may build in its turn (replaces its own limit)", 0, 4),
           "income": ("a district type paying it 1 gold per district, taken after "
                      "gathering", None, None),
           "power": ("a target power added to its base's", None, None)}
#: the target powers a variant may add (kernel.layout.POWER_NAMES), each with the published
#: character who has it (a variant of him may not add it again) and when it is used
POWERS = {"kill": ("Assassin", "at the start of its turn, names a later character, who "
                   "loses his turn (none if one is killed already)"),
          "rob": ("Thief", "at the start of its turn, names a later character, whose "
                  "gold it takes when he is revealed (none if one is robbed already)"),
          "swap_hands": ("Magician", "at the start of its turn, swaps hands with a player or "
                         "redraws cards"),
          "destroy": ("Warlord", "at the end of its turn, destroys a district at the "
                      "Warlord's price"),
          "bewitch": ("Witch", "after gathering, may name a later character and end its turn "
                      "at once, to resume it in that character's call (none if one is "
                      "bewitched already)")}


def load(path: str | Path) -> tuple[Variant | DistrictVariant, ...]:
    """The variants of the file at ``path``, characters then districts (checked; a
    :class:`VariantError` names the first bad entry and what is allowed)."""
    path = Path(path)
    if not path.is_file():
        raise VariantError(f"variants file {str(path)!r} "
                           + ("is a directory." if path.is_dir() else "does not exist."))
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise VariantError(f"variants file {str(path)!r} is not valid TOML: {err}") from None
    where = f"variants file {str(path)!r}"
    extra = sorted(set(doc) - {"characters", "districts"})
    if extra:
        raise VariantError(f"{where}: [{extra[0]}] is not supported; a variants file holds "
                           "[characters.NAME] and [districts.NAME] tables.")
    table, districts = doc.get("characters", {}), doc.get("districts", {})
    if not isinstance(table, dict) or not isinstance(districts, dict) or not (
            table or districts):
        raise VariantError(f"{where} defines no variant; give [characters.\"NAME\"] tables "
                           "with base = \"a published character\" and its numbers, or "
                           "[districts.\"NAME\"] tables with base and cost.")
    return (tuple(_variant(name, entry, where) for name, entry in table.items())
            + tuple(_district(name, entry, where) for name, entry in districts.items()))


def _district(name: str, entry, where: str) -> DistrictVariant:
    here = f"{where}, [districts.{name!r}]"
    if not isinstance(entry, dict):
        raise VariantError(f"{here} must be a table.")
    uniques = {cards.key_of(d.name): d.name for rs in ("classic", "2016")
               for d in cards.districts(rs) if d.type == T_UNIQUE}
    every = {cards.key_of(d.name) for rs in cards.RULESETS for d in cards.districts(rs)}
    if cards.key_of(name) in every:
        raise VariantError(f"{here}: {name!r} is a published district's name; give the "
                           "variant a name of its own.")
    base = entry.get("base")
    if not isinstance(base, str) or cards.key_of(base) not in uniques:
        what = ("is not a unique (purple) district: only those are named in --districts"
                if isinstance(base, str) and cards.key_of(base) in every
                else "must name a published unique (purple) district")
        raise VariantError(f"{here}: base {what}, got {base!r} (e.g. base = \"Keep\").")
    bad = sorted(set(entry) - {"base", "description", "cost"})
    if bad:
        raise VariantError(f"{here}: {bad[0]!r} is not supported; a district variant changes "
                           "its cost only (cost = N: what it costs and the points it scores).")
    cost = entry.get("cost")
    low, high = DISTRICT_COST
    if isinstance(cost, bool) or not isinstance(cost, int) or not low <= cost <= high:
        raise VariantError(f"{here}: cost = {cost!r} must be a whole number {low}-{high} "
                           "(gold to build it, and the points it scores).")
    return DistrictVariant(name, uniques[cards.key_of(base)], cost, _description(entry, here))


def _published() -> dict[str, str]:
    """Every published character's key and name, over the rulesets."""
    return {cards.key_of(c.name): c.name for rs in cards.RULESETS for c in cards.characters(rs)}


def _variant(name: str, entry, where: str) -> Variant:
    here = f"{where}, [characters.{name!r}]"
    if not isinstance(entry, dict):
        raise VariantError(f"{here} must be a table.")
    published = _published()
    if cards.key_of(name) in published:
        raise VariantError(f"{here}: {name!r} is a published character's name; give the "
                           "variant a name of its own.")
    base = entry.get("base")
    if not isinstance(base, str) or cards.key_of(base) not in published:
        raise VariantError(f"{here}: base must name a published character, got {base!r} "
                           f"(e.g. base = \"Merchant\").")
    base = published[cards.key_of(base)]
    numbers, effects = [], []
    for key, value in entry.items():
        if key in KEYS:
            continue
        if key in EFFECTS:
            effects.append((key, _effect(key, value, here)))
            continue
        p = house_rules.PARAMETERS.get(key)
        if p is None or base not in p.characters:
            own = [n for n, q in house_rules.PARAMETERS.items() if base in q.characters]
            raise VariantError(
                f"{here}: {key!r} is neither a number of the {base} "
                f"({', '.join(own) or 'the ' + base + ' has none'}) nor an effect a variant "
                f"may add ({', '.join(EFFECTS)}); other powers are not supported "
                "(docs/house_rules.md#card-variants).")
        _check_whole(here, key, value, p.low, p.high, f"{p.unit} ({p.meaning})")
        numbers.append((key, value))
    power = dict(effects).get("power")
    if power is not None and POWERS[power][0] == base:
        raise VariantError(f"{here}: power = {power!r} is the {base}'s own; add another "
                           f"({', '.join(p for p in POWERS if p != power)}).")
    return Variant(name, base, tuple(sorted(numbers)), _description(entry, here),
                   tuple(sorted(effects)))


def _description(entry: dict, here: str) -> str:
    """A variant's description, checked: text (empty when not given)."""
    description = entry.get("description", "")
    if not isinstance(description, str):
        raise VariantError(f"{here}: description must be text.")
    return description


def _effect(key: str, value, here: str) -> int | str:
    """An added effect's value, checked."""
    meaning, low, high = EFFECTS[key]
    if key == "income":
        if not isinstance(value, str) or value.lower() not in TYPE_NAMES:
            raise VariantError(f"{here}: income = {value!r} must name a district type: "
                               f"{', '.join(TYPE_NAMES)} ({meaning}).")
        return value.lower()
    if key == "power":
        if not isinstance(value, str) or value.lower() not in POWERS:
            raise VariantError(f"{here}: power = {value!r} must name one target power: "
                               f"{', '.join(POWERS)} ({meaning}; one per variant).")
        return value.lower()
    _check_whole(here, key, value, low, high, f"({meaning})")
    return value


def _check_whole(here: str, key: str, value, low: int, high: int, meaning: str) -> None:
    """Refuse ``value`` unless it is a whole number from ``low`` to ``high``, in one line."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise VariantError(f"{here}: {key} = {value!r} must be a whole number {low}-{high} "
                           f"{meaning}.")
    if not low <= value <= high:
        raise VariantError(f"{here}: {key} = {value!r} is outside {low}-{high} {meaning}.")
