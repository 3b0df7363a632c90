"""Golden playthroughs: each fixed game replays exactly as its committed text says.

A failure here means play changed.  If the change is intended, regenerate the files with
``python tests/golden_games.py`` and commit them: the diff shows what changed, game by game.
"""

import difflib

import golden_games as gg
import pytest

from citadels_sim.game import cards


@pytest.mark.parametrize("name", sorted(gg.GAMES))
def test_golden_playthrough(name):
    expected = gg.path(name).read_text().splitlines()
    actual = gg.render(name).splitlines()
    if actual != expected:
        diff = difflib.unified_diff(expected, actual, f"golden/{name}.txt", "now", lineterm="",
                                    n=2)
        shown = "\n".join(list(diff)[:80])
        pytest.fail(f"{name} plays differently now (if intended: python tests/golden_games.py)"
                    f"\n{shown}")


def test_no_stray_golden_files():
    assert sorted(p.stem for p in gg.GOLDEN.glob("*.txt")) == sorted(gg.GAMES)


def test_golden_games_cover_every_ruleset_player_count_character_and_district():
    configs = [gg.config(name) for name in gg.GAMES]
    assert {c.ruleset for c in configs} == set(cards.RULESETS)
    assert {c.players for c in configs} == set(range(2, 9))
    for rs in cards.RULESETS:
        ours = [c for c in configs if c.ruleset == rs]
        in_play = {name for c in ours for name in c.character_names}
        assert in_play == {c.name for c in cards.characters(rs)}, rs
        in_deck = {d.name for d in cards.districts(rs)
                   if any(c.deck_counts()[d.kind] > 0 for c in ours)}
        assert in_deck == {d.name for d in cards.districts(rs)}, rs


def test_every_character_of_the_golden_games_is_played():
    """Each character is not only in a set but called (revealed) in some golden game."""
    for rs in cards.RULESETS:
        text = "\n".join(gg.path(name).read_text() for name in gg.GAMES
                         if gg.config(name).ruleset == rs)
        for c in cards.characters(rs):
            assert f"{c.name} is called" in text, c.name
