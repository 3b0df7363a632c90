"""Configuration: presets and their printed replacements (RULES.md §1.4, §4.5)."""

import pytest

from citadels_sim.game import cards
from citadels_sim.game.config import ConfigError, GameConfig, preset_lineup
from citadels_sim.kernel import layout as L


def test_preset_replacements():
    """Emperor -> King with 2 players; Queen -> Tax Collector with 3-4 players; no rank 9
    with 2 players; the preset's rank 9 otherwise."""
    p = cards.presets()
    two = preset_lineup(p["illustrious_emissaries"], 2)
    assert "Emperor" not in two and "King" in two and len(two) == 8
    assert preset_lineup(p["ambitious_aristocrats"], 3)[-1] == "Tax Collector"
    assert preset_lineup(p["ambitious_aristocrats"], 4)[-1] == "Tax Collector"
    assert preset_lineup(p["ambitious_aristocrats"], 5)[-1] == "Queen"
    assert preset_lineup(p["vicious_nobles"], 6)[-1] == "Tax Collector"
    assert preset_lineup(p["first_game"], 4) == tuple(p["first_game"].characters)


@pytest.mark.parametrize("preset", sorted(cards.presets()))
def test_every_2016_preset_is_playable(preset):
    """Every preset of RULES.md §4.5 (the ``_en`` variants too) makes a valid 6-player game."""
    config = GameConfig(ruleset="2016", players=6, characters=preset, districts=preset)
    nine = preset != "first_game"
    assert config.ranks == (9 if nine else 8) == len(config.character_names)


def test_first_game_preset_needs_a_rank9_with_three_players():
    with pytest.raises(ConfigError, match="needs a rank-9 character"):
        GameConfig(ruleset="2016", players=3, characters="first_game")
    config = GameConfig(ruleset="2016", players=3,
                        characters=list(cards.presets()["first_game"].characters)
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
