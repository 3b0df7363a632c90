"""House rules from the command line, the Python API and experiment files: the rules reach
the games, the records and the commands that reproduce them (issue 20)."""

from __future__ import annotations

import json

from citadels_sim import GameConfig, replay, simulate
from citadels_sim.cli import main
from citadels_sim.cli.options import rules as cli_rules
from citadels_sim.engine.replay import to_text
from citadels_sim.studies import experiment
from citadels_sim.studies.balance import Balance

RULES = {"start_gold": 5, "start_cards": 6}


def test_a_config_with_house_rules_gives_its_own_command_line_back():
    config = GameConfig(ruleset="2016", players=5, characters="first_game",
                        rules={"thief_share": 50, "complete_size": 8})
    args = config.to_args()
    assert args[-4:] == ["--rule", "complete_size=8", "--rule", "thief_share=50"]
    again = GameConfig(ruleset="2016", players=5, characters="first_game",
                       rules=cli_rules([a for a in args if "=" in a]))
    assert again == config and again.to_dict()["rules"] == {"complete_size": 8,
                                                            "thief_share": 50}


def test_simulate_plays_and_records_the_house_rules(tmp_path, capsys):
    out = tmp_path / "run"
    main(["simulate", "--games", "300", "--no-progress", "--strategies", "reference",
          "--rule", "start_gold=5", "--rule", "start_cards=6", "--out", str(out)])
    meta = json.loads((out / "meta.json").read_text())
    assert meta["config"]["rules"] == RULES
    plain = simulate(GameConfig(), "reference", games=300, progress=False)
    house = simulate(GameConfig(rules=RULES), "reference", games=300, progress=False)
    assert house.seats["rounds"].mean() < plain.seats["rounds"].mean()  # richer starts
    # the replay says what the players were dealt
    text = to_text(replay(GameConfig(rules=RULES), "reference", 0, 0))
    assert "Setup: 6 cards and 5 gold each" in text
    assert "Setup: 4 cards and 2 gold each" in to_text(replay(GameConfig(), "reference", 0, 0))


def test_the_default_bot_says_it_was_not_tuned_under_house_rules(capsys):
    main(["simulate", "--games", "100", "--no-progress", "--rule", "merchant_gold=2"])
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("note: the default bot, reference_classic, was not tuned under "
                            "these house rules")


def test_an_experiment_file_applies_its_rules_to_every_cell(tmp_path):
    text = ("games = 200\nchunk_size = 200\n[grid]\nplayers = [4, 5]\n"
            "lineup = ['reference']\n[rules]\nmerchant_gold = 2\n")
    exp = experiment.parse(text, "house")
    assert [c.config.rules for c in exp.cells] == [(("merchant_gold", 2),)] * 2


def test_a_balance_test_carries_its_rules_into_its_experiment_and_command():
    plain = Balance("base", players=(4,), strategies=("reference",))
    spec = Balance("base", players=(4,), strategies=("reference",), rules={"merchant_gold": 2})
    assert "rules" not in json.loads(plain.key())  # the runs made before stay the same
    assert spec.default_out() != plain.default_out()
    assert spec.command().endswith("--rule merchant_gold=2")
    assert "[rules]\nmerchant_gold = 2" in spec.experiment_text([4], {})
    assert spec._config(None, 4, None).rules == (("merchant_gold", 2),)
