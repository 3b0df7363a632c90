"""Configuration: the 2016 named sets and their printed replacements (docs/rules.md §1.4,
§4.5)."""

import argparse

import pytest

from citadels_sim.cli import options
from citadels_sim.game import cards
from citadels_sim.game.config import ConfigError, GameConfig, named_set_characters
from citadels_sim.game.sampling import random_configs
from citadels_sim.kernel import layout as L


def test_named_set_replacements():
    """Emperor -> King with 2 players; Queen -> Tax Collector with 3-4 players; no rank 9
    with 2 players; the named set's rank 9 otherwise."""
    p = cards.named_sets()
    two = named_set_characters(p["illustrious_emissaries"], 2)
    assert "Emperor" not in two and "King" in two and len(two) == 8
    assert named_set_characters(p["ambitious_aristocrats"], 3)[-1] == "Tax Collector"
    assert named_set_characters(p["ambitious_aristocrats"], 4)[-1] == "Tax Collector"
    assert named_set_characters(p["ambitious_aristocrats"], 5)[-1] == "Queen"
    assert named_set_characters(p["vicious_nobles"], 6)[-1] == "Tax Collector"
    assert named_set_characters(p["first_game"], 4) == tuple(p["first_game"].characters)


@pytest.mark.parametrize("name", sorted(cards.named_sets()))
def test_every_2016_named_set_is_playable(name):
    """Every named set of docs/rules.md §4.5 (the ``_en`` variants too) makes a valid
    6-player game."""
    config = GameConfig(ruleset="2016", players=6, characters=name, districts=name)
    nine = name != "first_game"
    assert config.ranks == (9 if nine else 8) == len(config.character_names)


@pytest.mark.parametrize("kwargs, message", [
    ({"characters": "vicious_nobles"}, "Unknown named set 'vicious_nobles' for classic: only "
                                       "'base'."),
    ({"ruleset": "2016", "characters": "vicious_noble"},
     "Unknown named set 'vicious_noble' in the 2016 ruleset. Did you mean 'vicious_nobles'?"),
    ({"ruleset": "2016", "districts": "first_gam"},
     "Unknown named set 'first_gam' in the 2016 ruleset. Did you mean 'first_game'?"),
])
def test_an_unknown_named_set_is_refused_by_name(kwargs, message):
    with pytest.raises(ConfigError) as err:
        GameConfig(**kwargs)
    assert str(err.value).startswith(message)


def test_first_game_needs_a_rank9_with_three_players():
    with pytest.raises(ConfigError, match="needs a rank-9 character"):
        GameConfig(ruleset="2016", players=3, characters="first_game")
    config = GameConfig(ruleset="2016", players=3,
                        characters=list(cards.named_sets()["first_game"].characters)
                        + ["Tax Collector"])
    assert config.ranks == 9


def test_classic_bonus_purples_and_removals():
    """C: k <= 3 bonus purples remove nothing; k > 3 needs exactly k - 3 base purple cards
    removed (rule 3); deck sizes follow (rule 2)."""
    three = GameConfig(districts=["Park", "Poor House", "Map Room"])
    assert three.deck_counts().sum() == 66 + 3
    with pytest.raises(ConfigError, match="need exactly 2 base purple"):
        GameConfig(districts=["Park", "Poor House", "Map Room", "Factory", "Quarry"])
    five = GameConfig(districts=["Park", "Poor House", "Map Room", "Factory", "Quarry"],
                      removed=["Keep", "Keep"])
    counts = five.deck_counts()
    assert counts.sum() == 66 + 5 - 2 and counts[L.D_KEEP] == 0
    with pytest.raises(ConfigError, match="not a base purple card left"):
        GameConfig(districts=["Park", "Poor House", "Map Room", "Factory"], removed=["Park"])
    assert GameConfig(districts=["Museum"]).deck_counts()[L.D_MUSEUM] == 1
    with pytest.raises(ConfigError, match="does not apply to 2016"):
        GameConfig(ruleset="2016", removed=["Keep"])


def test_diplomat_needs_the_graveyard_removed():
    """Rule 4: a classic set with the Diplomat is rejected while the Graveyard is in the deck;
    the Graveyard may be one of the k - 3 removals."""
    diplomat = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
                "Diplomat"]
    with pytest.raises(ConfigError, match="Diplomat"):
        GameConfig(characters=diplomat)
    ok = GameConfig(characters=diplomat, removed=["Graveyard"])
    assert ok.deck_counts()[L.D_GRAVEYARD] == 0
    four = GameConfig(characters=diplomat, districts=["Park", "Poor House", "Map Room",
                                                      "Factory"], removed=["Graveyard"])
    assert four.deck_counts().sum() == 66 + 4 - 1
    with pytest.raises(ConfigError, match="Diplomat"):
        GameConfig(characters=diplomat, districts=["Park", "Poor House", "Map Room", "Factory"],
                   removed=["Keep"])


@pytest.mark.parametrize("players", range(2, 9))
def test_the_options_written_for_a_game_give_it_back(players):
    """``to_args`` (the commands that reports and the exploit test print) gives the same game
    through the command line: in classic ``--districts`` names only the bonus purples."""
    parser = argparse.ArgumentParser()
    options.add_game(parser)
    for config in random_configs(players, 6, players=players):
        again = options.config(parser.parse_args(config.to_args()))
        assert again.to_dict() == config.to_dict()
