"""Card variants: a named character defined in a TOML file as a published one with other
numbers.

```toml
[characters."Greedy Merchant"]
base = "Merchant"
description = "Takes 3 gold after gathering, and 2 per trade district."
merchant_gold = 3
merchant_income = 2
```

A variant plays as its base character (the same powers, the same place in the bots'
desires) with the rule numbers that concern the base set to its values
(:mod:`.house_rules`: only numbers whose parameter concerns that character).  It is named
wherever a character is (``--characters``, ``GameConfig(characters=...)``, experiment and
balance sets) once its file is given (``--variants FILE``, ``GameConfig(variants=FILE)``);
tables and reports show its name.  Powers composed from other effects, and district
variants, are not supported yet: such a file is refused in one line.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import cards, house_rules


class VariantError(ValueError):
    """A variants file the engine cannot play (the config turns it into a ConfigError)."""


@dataclass(frozen=True)
class Variant:
    """A named character: ``base`` (a published character's name) with ``numbers`` (pairs
    of a house-rule parameter concerning the base and its value)."""

    name: str
    base: str
    numbers: tuple[tuple[str, int], ...]
    description: str = ""

    def to_dict(self) -> dict:
        return {"base": self.base, **dict(self.numbers)}


#: keys of a variant's table besides its numbers
KEYS = ("base", "description")


def load(path: str | Path) -> tuple[Variant, ...]:
    """The variants of the file at ``path`` (checked; a :class:`VariantError` names the
    first bad entry and what is allowed)."""
    path = Path(path)
    if not path.is_file():
        raise VariantError(f"variants file {str(path)!r} "
                           + ("is a directory." if path.is_dir() else "does not exist."))
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise VariantError(f"variants file {str(path)!r} is not valid TOML: {err}") from None
    where = f"variants file {str(path)!r}"
    extra = sorted(set(doc) - {"characters"})
    if extra:
        raise VariantError(f"{where}: [{extra[0]}] is not supported; a variants file holds "
                           "[characters.NAME] tables (district variants are not supported "
                           "yet).")
    table = doc.get("characters", {})
    if not isinstance(table, dict) or not table:
        raise VariantError(f"{where} defines no variant; give [characters.\"NAME\"] tables "
                           "with base = \"a published character\" and its numbers.")
    return tuple(_variant(name, entry, where) for name, entry in table.items())


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
    numbers = []
    for key, value in entry.items():
        if key in KEYS:
            continue
        p = house_rules.PARAMETERS.get(key)
        if p is None or base not in p.characters:
            own = [n for n, q in house_rules.PARAMETERS.items() if base in q.characters]
            raise VariantError(
                f"{here}: {key!r} is not a number of the {base} (a variant changes only its "
                f"base's numbers: {', '.join(own) or 'the ' + base + ' has none'}; powers "
                "composed from other effects are not supported yet).")
        if isinstance(value, bool) or not isinstance(value, int) or not p.low <= value <= p.high:
            raise VariantError(f"{here}: {key} = {value!r} is outside {p.low}-{p.high} "
                               f"{p.unit} ({p.meaning}).")
        numbers.append((key, value))
    description = entry.get("description", "")
    if not isinstance(description, str):
        raise VariantError(f"{here}: description must be text.")
    return Variant(name, base, tuple(sorted(numbers)), description)
