"""Game configuration: a validated, immutable description of one kind of game.

:class:`GameConfig` stores the user's choices (ruleset, players, character set, districts,
options) and checks them against the rules (``docs/rules.md §1.4``) when it is created, so
that a bad value fails with a message naming it and what is allowed, before any game runs.
:meth:`GameConfig.tables` turns it into the plain arrays the kernel reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from citadels_sim.kernel import layout as L
from . import cards, house_rules, variants as card_variants


class ConfigError(ValueError):
    """A configuration the rules do not allow."""


#: bonus purples added to a classic deck without removing base purples (docs/rules.md D38)
FREE_BONUS = 3

PLAYER_RANGE = {"classic": (2, 8), "2016": (2, 8), "four_color": (2, 7)}
#: player counts at which a rank-9 character may play (four_color has none), docs/rules.md §1.4
RANK9_PLAYERS = {"classic": (4, 8), "2016": (3, 8)}
#: the Queen's own least player count
QUEEN_PLAYERS = 5
BASE_CHARACTERS = ("Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
                   "Warlord")

#: face-up discards by (number of characters, players), docs/rules.md §1.2
FACE_UP = {8: {4: 2, 5: 1, 6: 0, 7: 0}, 9: {4: 3, 5: 2, 6: 1, 7: 0, 8: 0}}


#: the named sets' replacements (docs/rules.md §1.4 and K3, pub).  The rules allow either
#: replacement; the engine takes the rank's original 2016 character for the Emperor (the King)
#: and the Tax Collector for the Queen (the rank-9 character that works with any player count
#: from 3).
NAMED_SET_EMPEROR_2P = "King"
NAMED_SET_QUEEN_3_4P = "Tax Collector"


def named_set_characters(named_set: cards.NamedSet, players: int) -> tuple[str, ...]:
    """A 2016 named set's characters for ``players`` players: its rank 9 is added where
    rank 9 is allowed (not with 2 players), and the printed replacements applied (§1.4)."""
    chars = tuple(NAMED_SET_EMPEROR_2P if c == "Emperor" and players == 2 else c
                  for c in named_set.characters)
    rank9 = named_set.rank9
    if rank9 == "Queen" and players < 5:
        rank9 = NAMED_SET_QUEEN_3_4P
    return chars + ((rank9,) if rank9 and players > 2 else ())


def _suggest(bad: str, allowed: Sequence[str]) -> str:
    return f"{cards.did_you_mean(bad, allowed, cutoff=0.5)} Allowed: {', '.join(allowed)}."


def _lookup(name: str, options: dict[str, object], what: str, ruleset: str):
    """Find ``name`` among ``options`` (matched by key), or fail naming the nearest choice."""
    found = options.get(cards.key_of(name))
    if found is None:
        names = [getattr(o, "name", str(o)) for o in options.values()]
        raise ConfigError(f"Unknown {what} {name!r} in the {ruleset} ruleset."
                          + _suggest(name, names))
    return found


@dataclass(frozen=True)
class GameConfig:
    """One kind of game.

    Parameters
    ----------
    ruleset : ``"classic"``, ``"2016"`` or ``"four_color"``.
    players : number of players (2-8; four_color 2-7).
    characters : one character name per rank (8, or 9 with a rank-9 character), or the
        name of a 2016 named set; ``None`` means the base eight.
    districts : classic: the bonus purple districts added to the deck; 2016: the 14 unique
        districts (names or a named set's name; ``None`` means the ``first_game`` set);
        four_color: must be empty.
    removed : classic: the base purple cards taken out when more than 3 bonus purples are
        added, exactly one per bonus purple beyond the third (a name once per card: the
        Keep has two).
    quick : classic quick game (a city is complete at 7 districts).
    crown_seat : seat holding the first crown; ``None`` follows the ruleset
        (classic/2016 seat 0, four_color a random seat).
    max_rounds : safety cap; a game reaching it is scored as it stands and flagged.
    rules : house rules, the rule numbers changed from the published ones (a mapping of
        name to whole number, e.g. ``{"thief_share": 50}``; :mod:`.house_rules`,
        docs/house_rules.md).  Kept as sorted pairs, without values equal to the official.
    variants : a variants file (:mod:`.variants`) or its variants: characters defined as a
        published one with other numbers and added effects, which ``characters`` may then
        name, and unique districts at another cost, which ``districts`` may name.  Kept as
        the variants the game uses.
    """

    ruleset: str = "classic"
    players: int = 4
    characters: tuple[str, ...] | str | None = None
    districts: tuple[str, ...] | str | None = None
    removed: tuple[str, ...] | None = None
    quick: bool = False
    crown_seat: int | None = None
    max_rounds: int = 100
    rules: tuple[tuple[str, int], ...] | dict | None = ()
    variants: str | Path | tuple[card_variants.Variant | card_variants.DistrictVariant, ...
                                 ] | None = ()
    #: the file the variants came from (for the command line that reproduces the game)
    variants_file: str | None = field(default=None, compare=False)
    #: the variant's name at each rank that plays one (the others: None)
    variant_names: tuple[str | None, ...] = field(init=False, repr=False, compare=False)
    character_ids: tuple[int, ...] = field(init=False, repr=False, compare=False)
    unique_kinds: tuple[int, ...] = field(init=False, repr=False, compare=False)
    purple_counts: dict[int, int] = field(init=False, repr=False, compare=False)
    #: the district variant played in place of each kind that has one
    district_variants: dict[int, card_variants.DistrictVariant] = field(
        init=False, repr=False, compare=False)
    #: the district variants given, by their name's key (for the look-ups of districts=)
    _district_variant_keys: dict[str, card_variants.DistrictVariant] = field(
        init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.ruleset not in cards.RULESETS:
            raise ConfigError(f"Unknown ruleset {self.ruleset!r}." + _suggest(
                str(self.ruleset), cards.RULESETS))
        if isinstance(self.characters, list):
            object.__setattr__(self, "characters", tuple(self.characters))
        for name in ("districts", "removed"):
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))
        self._check_players()
        self._load_variants()
        object.__setattr__(self, "character_ids", self._resolve_characters())
        object.__setattr__(self, "purple_counts", self._resolve_districts())
        object.__setattr__(self, "unique_kinds", tuple(sorted(self.purple_counts)))
        if "Diplomat" in self.base_names and L.D_GRAVEYARD in self.purple_counts:
            raise ConfigError("The Diplomat cannot play while the Graveyard is in the deck: "
                              "remove the Graveyard (removed=['Graveyard']).")
        if self.crown_seat is not None and not 0 <= self.crown_seat < self.players:
            raise ConfigError(f"crown_seat {self.crown_seat} is not a seat of a "
                              f"{self.players}-player game (0-{self.players - 1}).")
        if self.quick and self.ruleset != "classic":
            raise ConfigError("The quick game (7 districts) is a classic option only.")
        if not 1 <= self.max_rounds <= 1000:
            raise ConfigError(f"max_rounds {self.max_rounds} is outside 1-1000.")
        try:
            object.__setattr__(self, "rules", house_rules.normalise(self._with_variants(),
                                                                    self))
        except house_rules.HouseRuleError as err:
            raise ConfigError(str(err)) from None
        used = {n for n in self.variant_names if n} | {
            v.name for v in self.district_variants.values()}
        object.__setattr__(self, "variants", tuple(v for v in self.variants if v.name in used))

    def _load_variants(self) -> None:
        """Read the variants file, if one is given (a one-line error if it is bad)."""
        given = self.variants or ()
        if isinstance(given, (str, Path)):
            try:
                loaded = card_variants.load(given)
            except card_variants.VariantError as err:
                raise ConfigError(str(err)) from None
            object.__setattr__(self, "variants_file", str(given))
            given = loaded
        object.__setattr__(self, "variants", tuple(given))

    def _with_variants(self):
        """The numbers of the variants in play, then the house rules (a house rule given
        for a variant's number overrides it: what a sweep of that number does)."""
        rules = self.rules or ()
        given = dict(rules.items() if isinstance(rules, dict) else rules)
        chosen = {key: value for v in self.character_variants
                  if v.name in self.variant_names for key, value in v.numbers}
        return chosen | given

    # ---- validation -----------------------------------------------------------------
    def _check_players(self) -> None:
        lo, hi = PLAYER_RANGE[self.ruleset]
        if not isinstance(self.players, (int, np.integer)) or not lo <= self.players <= hi:
            raise ConfigError(f"{self.players} players is not allowed in {self.ruleset}: "
                              f"{lo} to {hi} players.")

    def _resolve_characters(self) -> tuple[int, ...]:
        roster = {cards.key_of(c.name): c for c in cards.characters(self.ruleset)}
        playing = {}  # variant key: (variant, its base's Character)
        for v in self.character_variants:
            base = roster.get(cards.key_of(v.base))
            if base is not None:
                playing[cards.key_of(v.name)] = (v, base)
        names = self.characters
        if names is None:
            names = BASE_CHARACTERS
        elif isinstance(names, str):
            names = self._set_characters(names)
        chosen = [self._character(n, roster, playing) for n in names]
        named = {playing[cards.key_of(n)][1].rank: playing[cards.key_of(n)][0].name
                 for n in names if cards.key_of(n) in playing}
        by_rank: dict[int, cards.Character] = {}
        for c in chosen:
            if c.rank in by_rank:
                raise ConfigError(f"Two characters of rank {c.rank}: {by_rank[c.rank].name} and "
                                  f"{c.name}. A character set has one character per rank.")
            by_rank[c.rank] = c
        missing = [r for r in range(1, 9) if r not in by_rank]
        if missing:
            raise ConfigError(f"The character set has no rank {missing[0]} character; "
                              "it needs one character for each rank 1-8.")
        if self.ruleset == "four_color" and set(by_rank[r].name for r in range(1, 9)) != set(
                BASE_CHARACTERS):
            raise ConfigError("four_color plays the base eight characters only: "
                              + ", ".join(BASE_CHARACTERS) + ".")
        self._check_rank9(by_rank.get(9))
        names_in = {c.name for c in chosen}
        if "Queen" in names_in and self.players < QUEEN_PLAYERS:
            raise ConfigError(f"The Queen cannot play with {self.players} players: she plays "
                              f"at {QUEEN_PLAYERS}-{RANK9_PLAYERS[self.ruleset][1]} players.")
        if "Emperor" in names_in and self.players == 2:
            raise ConfigError("The Emperor cannot play in a 2-player game; use the King "
                              "(or, in 2016, the Patrician).")
        object.__setattr__(self, "variant_names", tuple(named.get(r) for r in sorted(by_rank)))
        return tuple(by_rank[r].id for r in sorted(by_rank))

    def _character(self, name: str, roster: dict, playing: dict) -> cards.Character:
        """The published character ``name`` names, or a variant's base; else a one-line
        error naming the nearest."""
        key = cards.key_of(name)
        if key in playing:
            return playing[key][1]
        if key in roster:
            return roster[key]
        allowed = [c.name for c in roster.values()] + [v.name for v, _ in playing.values()]
        raise ConfigError(f"Unknown character {name!r} in the {self.ruleset} ruleset."
                          + _suggest(name, allowed))

    def _set_characters(self, name: str) -> tuple[str, ...]:
        """The characters of the named set ``name``."""
        if self.ruleset != "2016":
            if cards.key_of(name) in ("base", "first_game"):
                return BASE_CHARACTERS
            raise ConfigError(f"Unknown named set {name!r} for {self.ruleset}: only 'base'.")
        named_set = _lookup(name, cards.named_sets(), "named set", self.ruleset)
        return named_set_characters(named_set, self.players)

    def _check_rank9(self, rank9: cards.Character | None) -> None:
        n, rs = self.players, self.ruleset
        if rs == "four_color" and rank9:
            raise ConfigError(f"four_color has no rank-9 character (got the {rank9.name}).")
        if rank9 and not RANK9_PLAYERS[rs][0] <= n <= RANK9_PLAYERS[rs][1]:
            lo, hi = RANK9_PLAYERS[rs]
            raise ConfigError(f"The {rank9.name} is a rank-9 character, which cannot play with "
                              f"{n} players in {rs}: rank 9 plays at {lo}-{hi} players.")
        needs9 = n == 8 or (rs == "2016" and n == 3)
        if needs9 and not rank9:
            raise ConfigError(f"A {n}-player {rs} game needs a rank-9 character "
                              f"(Queen, Artist{', Tax Collector' if rs == '2016' else ''}).")

    @property
    def character_variants(self) -> tuple[card_variants.Variant, ...]:
        """The character variants given (:mod:`.variants`)."""
        return tuple(v for v in self.variants if isinstance(v, card_variants.Variant))

    def _played_as(self, name: str, uniques: dict):
        """The unique district a district variant named ``name`` plays as, its base
        (remembered in ``district_variants``); None when ``name`` is no variant's."""
        v = self._district_variant_keys.get(cards.key_of(name))
        if v is None:
            return None
        base = uniques.get(cards.key_of(v.base))
        if base is None:
            raise ConfigError(f"The district variant {v.name!r} is a {v.base}, which is not a "
                              f"unique district of the {self.ruleset} ruleset.")
        self.district_variants[base.kind] = v
        return base

    def _resolve_districts(self) -> dict[int, int]:
        """Copies of each purple/unique kind in the deck."""
        object.__setattr__(self, "district_variants", {})
        object.__setattr__(self, "_district_variant_keys", {
            cards.key_of(v.name): v for v in self.variants
            if isinstance(v, card_variants.DistrictVariant)})
        rs = self.ruleset
        chosen = self.districts
        if self.removed and rs != "classic":
            raise ConfigError("removed= names base purple cards taken out of a classic deck; "
                              f"it does not apply to {rs}.")
        if rs == "four_color":
            if chosen:
                raise ConfigError("four_color has no purple districts; leave districts empty.")
            return {}
        uniques = {cards.key_of(d.name): d for d in cards.districts(rs) if d.type == L.T_UNIQUE}
        if rs == "2016":
            if chosen is None:
                chosen = "first_game"
            if isinstance(chosen, str):
                chosen = _lookup(chosen, cards.named_sets(), "named set", rs).districts
            picked = [self._played_as(n, uniques) or _lookup(n, uniques, "unique district", rs)
                      for n in chosen]
            counts = {d.kind: 1 for d in picked}
            if len(counts) != len(picked) or len(picked) != 14:
                raise ConfigError(f"A 2016 game plays exactly 14 distinct unique districts; got "
                                  f"{len(counts)} distinct of {len(picked)} named.")
        else:
            counts = self._classic_purples(uniques, chosen)
        return counts

    def _classic_purples(self, uniques: dict, chosen) -> dict[int, int]:
        """The 12 base purple cards, plus the bonus purples, less the removed base cards."""
        if isinstance(chosen, str):
            chosen = () if cards.key_of(chosen) in ("base", "none") else (chosen,)
        played = [(self._played_as(n, uniques), n) for n in (chosen or ())]
        # a variant of a base purple card plays in its place: not a bonus purple
        bonus = [d or _lookup(n, uniques, "purple district", "classic") for d, n in played
                 if d is None or d.set != "base"]
        base = [d.name for d in bonus if d.set == "base"]
        if base:
            raise ConfigError(f"districts= names the bonus purples to add; {', '.join(base)} "
                              "already in the base deck.")
        if len({d.kind for d in bonus}) != len(bonus):
            raise ConfigError("Each bonus purple district can be added once.")
        counts = {d.kind: d.count for d in uniques.values() if d.set == "base"}
        counts.update({d.kind: 1 for d in bonus})
        removed = [_lookup(n, uniques, "purple district", "classic")
                   for n in (self.removed or ())]
        need = max(0, len(bonus) - FREE_BONUS)
        if need == 0 and "Diplomat" in self.base_names:
            need = 1  # the Graveyard must go (docs/rules.md §4.5); else one of the k - 3
        if len(removed) != need:
            raise ConfigError(f"{len(bonus)} bonus purple districts"
                              + (" and the Diplomat" if "Diplomat" in self.base_names
                                 else "")
                              + f" need exactly {need} base purple card(s) removed (removed=...);"
                              f" got {len(removed)}.")
        for d in removed:
            if d.set != "base" or counts.get(d.kind, 0) == 0:
                raise ConfigError(f"removed= names {d.name!r}, which is not a base purple card "
                                  "left in the deck.")
            counts[d.kind] -= 1
        return {k: c for k, c in counts.items() if c > 0}

    # ---- derived values ---------------------------------------------------------------
    @property
    def ranks(self) -> int:
        """Number of ranks in the character set (8 or 9)."""
        return len(self.character_ids)

    @property
    def complete_size(self) -> int:
        """The complete-city size N (docs/rules.md §5.1), or the house rule's."""
        rule = house_rules.PARAMETERS["complete_size"]
        return dict(self.rules).get(rule.name, house_rules.default(
            rule, self.ruleset, self.players, self.quick))

    @property
    def character_names(self) -> tuple[str, ...]:
        """The character set by rank (a variant by its own name)."""
        return tuple(v or b for v, b in zip(self.variant_names, self.base_names))

    @property
    def base_names(self) -> tuple[str, ...]:
        """The published characters by rank (a variant's base)."""
        return tuple(cards.character_name(c) for c in self.character_ids)

    def rank_mask(self, characters: Sequence[str], who: str) -> int:
        """The bitmask of the ranks (0-based bits) holding ``characters`` in this set;
        ``who`` names the asker in the error for a character the set does not have."""
        if not characters:
            return 0
        names = [n.lower() for n in self.character_names]
        mask = 0
        for c in characters:
            if c.lower() not in names:
                raise ConfigError(f"{who} forbids {c!r}, which is not in this character set "
                                  f"({', '.join(self.character_names)}).")
            mask |= 1 << names.index(c.lower())
        return mask

    def district_name(self, kind: int) -> str:
        """The name district kind ``kind`` plays under: a district variant's, else the
        printed one."""
        v = self.district_variants.get(kind)
        return v.name if v is not None else cards.district_name(self.ruleset, kind)

    def deck_counts(self) -> np.ndarray:
        """Copies of each district kind in the deck (int32, indexed by kind)."""
        counts = np.zeros(L.N_KINDS, np.int32)
        for d in cards.districts(self.ruleset):
            if d.type != L.T_UNIQUE:
                counts[d.kind] += d.count
        for kind, n in self.purple_counts.items():
            counts[kind] += n
        return counts

    def tables(self) -> dict[str, np.ndarray]:
        """The kernel's constant arrays for this configuration: ``kinds`` (cost, type and
        deck copies of each district kind) and ``cfg`` (the configuration part of the game
        vector; strategy families are filled in by ``simulate.build_tables``)."""
        kinds = np.zeros((L.K_LEN, L.N_KINDS), np.int32)
        kinds[L.K_TYPE] = -1
        for d in cards.districts(self.ruleset):
            kinds[L.K_COST, d.kind], kinds[L.K_TYPE, d.kind] = d.cost, d.type
        for kind, v in self.district_variants.items():
            kinds[L.K_COST, kind] = v.cost
        kinds[L.K_COUNT] = self.deck_counts()
        cfg = np.zeros(L.G_LEN, np.int32)
        cfg[L.G_RULESET] = cards.RULESETS.index(self.ruleset)
        cfg[L.G_NP] = self.players
        cfg[L.G_NRANKS] = self.ranks
        cfg[L.G_N_COMPLETE] = self.complete_size
        cfg[L.G_MAX_ROUNDS] = self.max_rounds
        if self.crown_seat is not None:
            cfg[L.G_CROWN] = self.crown_seat
        else:
            cfg[L.G_CROWN] = -1 if self.ruleset == "four_color" else 0
        cfg[L.G_N_FACEUP] = FACE_UP.get(self.ranks, {}).get(self.players, 0)
        cfg[L.G_RANK_CHAR:L.G_RANK_CHAR + L.MAX_RANKS] = -1
        cfg[L.G_RANK_CHAR:L.G_RANK_CHAR + self.ranks] = self.character_ids
        house_rules.fill(cfg, self)
        cfg[L.G_EXTRA_INCOME:L.G_EXTRA_INCOME + L.MAX_RANKS] = -1
        cfg[L.G_BUILD_LIMIT:L.G_BUILD_LIMIT + L.MAX_RANKS] = -1
        variants = {v.name: v for v in self.character_variants}
        for r, name in enumerate(self.variant_names):
            v = variants.get(name)
            if v is not None:  # a variant's added effects (game.variants.EFFECTS)
                cfg[L.G_EXTRA_GOLD + r] = v.effect("gold", 0)
                cfg[L.G_EXTRA_CARDS + r] = v.effect("cards", 0)
                cfg[L.G_BUILD_LIMIT + r] = v.effect("builds", -1)
                income = v.effect("income")
                cfg[L.G_EXTRA_INCOME + r] = -1 if income is None else L.TYPE_NAMES.index(income)
                power = v.effect("power")
                cfg[L.G_EXTRA_POWER + r] = 0 if power is None else L.POWER_NAMES.index(power) + 1
        return {"kinds": kinds, "cfg": cfg}

    def to_dict(self) -> dict:
        """The user-facing fields, for metadata and reproduction (``rules`` only when a
        house rule is set, so that a published game's record is as it always was)."""
        return {"ruleset": self.ruleset, "players": self.players,
                "characters": list(self.character_names),
                "districts": [self.district_name(k) for k in self.unique_kinds],
                "removed": list(self.removed or ()),
                "quick": self.quick, "crown_seat": self.crown_seat,
                "max_rounds": self.max_rounds} | ({"rules": dict(self.rules)} if self.rules
                                                 else {}) | (
            {"variants": {v.name: v.to_dict() for v in self.variants}} if self.variants else {})

    def to_args(self) -> list[str]:
        """The ``citadels`` game options that give this configuration (``--ruleset``,
        ``--players``, and the others where they differ from the defaults)."""
        args = ["--ruleset", self.ruleset, "--players", str(self.players)]
        if self.characters is not None:
            args += ["--characters", self.characters if isinstance(self.characters, str)
                     else ",".join(self.to_dict()["characters"])]
        if self.districts is not None:  # as given: classic names only the bonus purples
            args += ["--districts", self.districts if isinstance(self.districts, str)
                     else ",".join(self.districts)]
        if self.removed:
            args += ["--removed", ",".join(self.removed)]
        if self.quick:
            args.append("--quick")
        if self.max_rounds != 100:
            args += ["--max-rounds", str(self.max_rounds)]
        numbers = {k for v in self.character_variants for k, _ in v.numbers}
        for name, value in self.rules:
            if name not in numbers:  # a variant's numbers come with its file
                args += ["--rule", f"{name}={value}"]
        if self.variants_file:
            args += ["--variants", self.variants_file]
        return args
