"""studies.regret: a bot that wins more when barred from a character wants him less."""

import pytest

from citadels_sim.engine.executor import resolve
from citadels_sim.game.config import GameConfig
from citadels_sim.game.strategies import get, mix
from citadels_sim.studies import regret


@pytest.fixture(autouse=True)
def deals(monkeypatch):
    monkeypatch.setattr(regret, "DEALS", 2_000)


def test_a_bot_that_always_takes_the_bishop_is_repaired_to_want_him_less():
    """Wanting the Bishop 7 gold more than `reference_classic` does, a bot barred from him
    wins about 9 points more than the bot in its seat: the repair lowers that desire until
    barring him no longer pays (then the next worst: at 4 players `reference_classic`
    regrets the Assassin a little), and leaves the other desires as they were."""
    config = GameConfig(players=4)
    start = get("reference_classic")
    keen = start.with_params(want_bishop=start.params["want_bishop"] + 7.0)
    found = regret.repair(keen, config, executor=resolve(None))
    change = found.changes[0]
    assert change["character"] == "Bishop" and change["before"] < -5.0
    assert change["lowered"] in regret.STEPS and change["after"] > -regret.REGRET - 1.0
    lowered = {k for k in keen.params if found.strategy.params[k] != keen.params[k]}
    assert lowered == {f"want_{c['character'].lower()}" for c in found.changes}
    assert found.strategy.params["want_bishop"] == round(keen.params["want_bishop"] - change["lowered"], 4)
    assert "wants the Bishop" in found.text()


def test_a_bot_without_regret_is_left_as_it_is_and_a_mixture_is_lowered_in_every_part():
    config = GameConfig(players=3)
    start = get("reference_classic")
    found = regret.repair(start, config, executor=resolve(None))
    assert found.strategy == start and not found.changes
    assert set(found.values) == set(config.character_names)
    both = mix("m", [start, start.with_params(want_king=3.0)], [0.5, 0.5])
    less = regret.lowered(both, "King", config, 2.0)
    assert [p.params["want_king"] for _, p in less.mixture] == [
        round(start.params["want_king"] - 2.0, 4), 1.0]
    assert less.params["want_king"] == round(start.params["want_king"] - 2.0, 4)
