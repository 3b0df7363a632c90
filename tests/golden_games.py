"""Golden playthroughs (OpenSpiel's pattern): the readable replays of 20 fixed games, kept
as text under ``tests/golden/`` and diffed line by line by ``test_golden.py``.

Together the games cover every ruleset, 2 to 8 players, every character and every district
card of each ruleset.  A change that alters play changes these files, so it shows up in
review as a readable diff; after an intended change, regenerate them on purpose:

    python tests/golden_games.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from citadels_sim import GameConfig, replay
from citadels_sim.engine.replay import to_text

GOLDEN = Path(__file__).parent / "golden"
MIX = ("heuristic", "builder", "random", "aggressive")

DARK_CITY = ("Witch", "Tax Collector", "Wizard", "Emperor", "Abbot", "Alchemist", "Navigator",
             "Diplomat")
BASE = ("Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord")

#: name -> (GameConfig arguments, seed, game index, line-up); line-up None: seats play MIX
#: in turn
GAMES: dict[str, tuple] = {
    "classic_base_2p": (dict(ruleset="classic", players=2), 1, 0, None),
    "classic_base_3p": (dict(ruleset="classic", players=3), 1, 1, None),
    "classic_base_4p": (dict(ruleset="classic", players=4), 1, 2, None),
    "classic_quick_5p": (dict(ruleset="classic", players=5, quick=True), 1, 3, None),
    "classic_queen_6p": (dict(ruleset="classic", players=6, characters=BASE + ("Queen",)),
                         1, 4, None),
    "classic_dark_city_5p": (dict(
        ruleset="classic", players=5, characters=DARK_CITY + ("Queen",),
        districts=("Lighthouse", "Armory", "Museum", "Imperial Treasury", "Map Room",
                   "Wishing Well", "Quarry"),
        removed=("Graveyard", "University", "Dragon Gate", "Library")), 1, 5, None),
    "classic_dark_city_8p": (dict(
        ruleset="classic", players=8, characters=BASE + ("Artist",),
        districts=("Poor House", "Bell Tower", "Factory", "Park", "Hospital", "Throne Room",
                   "Ball Room"),
        removed=("Keep", "Great Wall", "School of Magic", "Observatory")), 1, 6, None),
    "classic_mixed_7p": (dict(
        ruleset="classic", players=7,
        characters=("Witch", "Thief", "Wizard", "King", "Abbot", "Merchant", "Navigator",
                    "Warlord", "Queen"),
        districts=("Hospital", "Bell Tower", "Museum")), 1, 7, None),
    # the outside audit's Diplomat game (an exchange must not change the first completer)
    "classic_diplomat_2p": (dict(
        ruleset="classic", players=2,
        characters=("Witch", "Tax Collector", "Wizard", "King", "Abbot", "Alchemist",
                    "Navigator", "Diplomat"),
        districts=("Imperial Treasury", "Map Room", "Wishing Well", "Quarry", "Poor House",
                   "Bell Tower"), removed=("Graveyard", "University", "Dragon Gate")),
                            7, 7, ("heuristic",) * 2),
    "2016_first_game_4p": (dict(ruleset="2016", players=4, characters="first_game",
                                districts="first_game"), 2, 0, None),
    "2016_ambitious_aristocrats_5p": (dict(ruleset="2016", players=5,
                                           characters="ambitious_aristocrats",
                                           districts="ambitious_aristocrats"), 2, 1, None),
    "2016_cunning_agents_6p": (dict(ruleset="2016", players=6, characters="cunning_agents",
                                    districts="cunning_agents"), 2, 2, None),
    "2016_illustrious_emissaries_3p": (dict(ruleset="2016", players=3,
                                            characters="illustrious_emissaries",
                                            districts="illustrious_emissaries"), 2, 3, None),
    "2016_devious_dignitaries_2p": (dict(ruleset="2016", players=2,
                                         characters="devious_dignitaries",
                                         districts="devious_dignitaries"), 2, 4, None),
    "2016_tenacious_delegates_7p": (dict(ruleset="2016", players=7,
                                         characters="tenacious_delegates",
                                         districts="tenacious_delegates"), 2, 5, None),
    "2016_vicious_nobles_8p": (dict(ruleset="2016", players=8, characters="vicious_nobles",
                                    districts="vicious_nobles"), 2, 6, None),
    "2016_custom_5p": (dict(
        ruleset="2016", players=5,
        characters=("Magistrate", "Blackmailer", "Seer", "Patrician", "Cardinal", "Trader",
                    "Navigator", "Marshal", "Tax Collector"),
        districts=("Armory", "Basilica", "Capitol", "Framework", "Gold Mine", "Ivory Tower",
                   "Monument", "Museum", "Necropolis", "Secret Vault", "Stables", "Statue",
                   "Theater", "Thieves' Den")), 2, 7, None),
    # the outside audit's Wizard game (his immediate build is paid, never by a sacrifice)
    "2016_devious_dignitaries_en_3p": (dict(ruleset="2016", players=3,
                                            characters="devious_dignitaries_en",
                                            districts="devious_dignitaries_en"), 101, 1,
                                       ("heuristic",) * 3),
    "four_color_3p": (dict(ruleset="four_color", players=3), 3, 0, None),
    "four_color_7p": (dict(ruleset="four_color", players=7), 3, 1, None),
}


def lineup(name: str) -> list[str]:
    """The strategies of the game's seats."""
    players = config(name).players
    return list(GAMES[name][3] or [MIX[s % len(MIX)] for s in range(players)])


def config(name: str) -> GameConfig:
    return GameConfig(**GAMES[name][0])


def render(name: str) -> str:
    """The golden text of one game: how to replay it, then its play-by-play."""
    kwargs, seed, game, _ = GAMES[name]
    head = [f"# {name}: {', '.join(f'{k}={v}' for k, v in kwargs.items())}",
            f"# strategies {','.join(lineup(name))}, seed {seed}, game {game}"]
    events = replay(config(name), lineup(name), seed, game)
    return "\n".join(head) + "\n" + to_text(events) + "\n"


def path(name: str) -> Path:
    return GOLDEN / f"{name}.txt"


def write_all() -> None:
    """Regenerate every golden file (and remove those of games no longer listed)."""
    GOLDEN.mkdir(exist_ok=True)
    for old in GOLDEN.glob("*.txt"):
        if old.stem not in GAMES:
            old.unlink()
    for name in GAMES:
        path(name).write_text(render(name))


if __name__ == "__main__":
    write_all()
    print(f"wrote {len(GAMES)} golden playthroughs to {GOLDEN}", file=sys.stderr)
