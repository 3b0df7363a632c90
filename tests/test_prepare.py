"""studies.prepare and `citadels prepare`: the bot a balance test judges a game under,
hardened for it and kept (small preparations in tests: conftest.small_preparations)."""

import json
from dataclasses import replace

import numpy as np

from citadels_sim import GameConfig
from citadels_sim.cli import main
from citadels_sim.game import cards
from citadels_sim.game.strategies import PARAMS, get, load_file, mix, outside_from
from citadels_sim.kernel.layout import CHARACTER_KEYS
from citadels_sim.engine.executor import resolve
from citadels_sim.studies import harden as hardening, prepare, regret
from citadels_sim.studies.exploit import exploit
from citadels_sim.studies.harden import harden

DARK = ("Witch", "Thief", "Wizard", "King", "Bishop", "Merchant", "Architect", "Diplomat")


def test_a_preparation_depends_on_the_game_and_starts_from_its_set_s_bot():
    four, five = (GameConfig(players=n, characters=DARK, removed=("Graveyard",))
                  for n in (4, 5))
    assert prepare.directory(four, "b") != prepare.directory(five, "b")
    assert prepare.directory(four, "b") == prepare.directory(four, "b")
    named = GameConfig(ruleset="2016", players=4, characters="cunning_agents",
                       districts="cunning_agents")
    assert prepare.settings(named)["start"] == "reference_cunning_agents"
    assert prepare.directory(named, "b").name.startswith("2016-4p-cunning_agents-")


def test_citadels_prepare_hardens_once_then_reads_back(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(prepare, "CONFIRMED", 1)  # round 1 deployed (no exploit test)
    args = ["prepare", "--players", "3", "--bots-dir", str(tmp_path), "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "3p: reference_classic hardened for this set in 1 round" in out
    assert "prepared in" in out and "play it as" in out
    (where,) = tmp_path.iterdir()
    assert where == prepare.directory(GameConfig(players=3), tmp_path)
    (name, bot), = load_file(where / prepare.STRATEGY_FILE).items()
    assert get(f"{where / prepare.STRATEGY_FILE}:{name}").family == "reference"
    start = get("reference_classic")
    assert not np.array_equal(bot.row(), start.row())
    # a character's desire is its own plus its rank's; its own is never read in the set's
    # games and the search let it drift: the prepared bot wants each character outside the
    # set as much as the start does, for the base set it also plays
    inside = {CHARACTER_KEYS[c] for c in GameConfig(players=3).character_ids}
    outside = [c for c in cards.characters("classic") + cards.characters("2016")
               if CHARACTER_KEYS[c.id] not in inside]
    assert len(outside) > 10
    for c in outside:
        want = PARAMS[f"want_{CHARACTER_KEYS[c.id]}"].index
        assert abs(bot.row()[want] + bot.base[c.rank - 1]
                   - start.row()[want] - start.base[c.rank - 1]) < 1e-3, c.name
    assert main(args) == 0
    assert f"reused from {where}" in capsys.readouterr().out
    # the same game spelled otherwise (as balance of the base set names it) reuses it too
    assert main(args + ["--characters", "base"]) == 0
    assert f"reused from {where}" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == [where]
    # simulate --strategies prepared plays it (read back, not prepared again)
    assert main(["simulate", "--players", "3", "--strategies", "prepared", "--games", "300",
                 "--bots-dir", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"reused from {where}" in out and f"  {name}  " in out


def test_the_least_exploited_rounds_get_the_exploit_test_and_its_best_is_deployed(
        tmp_path, monkeypatch):
    config, tested = GameConfig(players=3), []

    def recorded(bot, *args, **kwargs):
        found = exploit(bot, *args, **kwargs)
        tested.append((bot, kwargs))
        return found

    monkeypatch.setattr(hardening, "exploit", recorded)
    p = prepare.prepare(config, tmp_path, progress=False)
    rounds = f"{prepare.bot_name(config)}-confirm-round"
    repairs = [t for t in tested if not t[1]["name"].startswith(rounds)]
    assert len(repairs) == (1 if p.repair else 0)  # a repaired bot gets the test too
    tested = [t for t in tested if t[1]["name"].startswith(rounds)]
    gains = [r["gain_points"] for r in p.rounds]
    order = sorted(range(2), key=gains.__getitem__)  # both rounds are candidates (CONFIRMED 3)
    assert len(gains) == 2 and [r["round"] for r in p.confirmed] == order[:len(tested)]
    # the other is tested unless its searches gained more than the first's test found
    assert (len(tested) == 2) == (gains[order[1]] <= p.confirmed[0]["gain_points"])
    assert p.deployed == min(p.confirmed, key=lambda r: r["gain_points"])["round"]
    assert f"round {p.deployed} deployed" in p.text() and "the exploit test of" in p.text()
    assert (order[0] == 0) == (tested[0][0].name == "reference_classic")
    # each reading is the exploit test's on the confirming deals, as a user would run it
    bot, kwargs = tested[0]
    assert kwargs["seed"] == prepare.CONFIRM_SEED and kwargs["budget"] == prepare.CONFIRM_BUDGET
    again = exploit(bot, config, budget=prepare.CONFIRM_BUDGET,
                    validate_games=prepare.VALIDATE_GAMES, seed=prepare.CONFIRM_SEED,
                    runs_dir=tmp_path / "again", progress=False)
    assert again.largest_gain == p.confirmed[0]["gain_points"]
    played = np.array_equal(p.strategy.row(), get("reference_classic").row())
    assert played == (p.deployed == 0)
    assert prepare.prepare(config, tmp_path, progress=False).confirmed == p.confirmed


def test_a_mixture_gets_the_start_s_desires_outside_the_set_in_every_component():
    start = get("reference")
    parts = [replace(start, name=f"p{i}", params={**start.params, "want_king": 5.0 + i,
                                                  "want_witch": -2.0 - i})
             for i in range(2)]
    parts[1] = replace(parts[1], base=(0.0, 0.0, 0.0, 2.0) + parts[1].base[4:])
    back = outside_from(mix("m", parts, [0.6, 0.4]), start, ["witch"])
    king, witch = (PARAMS[k].index for k in ("want_king", "want_witch"))
    assert [part.row()[king] for _, part in back.mixture] == [start.row()[king],
                                                            start.row()[king] - 2.0]
    assert [part.row()[witch] for _, part in back.mixture] == [-2.0, -3.0]
    assert [c for c, _ in back.mixture] == [0.6, 0.4]


def test_an_empty_bots_dir_or_a_file_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["prepare", "--bots-dir", "", "--players", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "--bots-dir" in err and "empty" in err and err.count("\n") == 1
    assert not any(tmp_path.iterdir())  # nothing written where it ran
    (tmp_path / "afile").write_text("")
    assert main(["prepare", "--bots-dir", "afile", "--players", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "(--bots-dir) must name a directory, got 'afile': a file." in err
    assert err.count("\n") == 1 and [p.name for p in tmp_path.iterdir()] == ["afile"]
    assert main(["balance", "--characters", "base", "--players", "4", "--bots-dir", "afile",
                 "--no-progress"]) == 2
    assert "got 'afile': a file." in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["afile"]  # no run directory either


def test_an_interrupted_preparation_counts_its_time_when_it_resumes(tmp_path, monkeypatch):
    """The time a preparation reports includes what an interrupted call had spent."""
    monkeypatch.setattr(prepare, "CONFIRMED", 1)
    config = GameConfig(players=3)

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(hardening, "confirm", interrupt)
    try:
        prepare.prepare(config, tmp_path, progress=False)
        raise AssertionError("not interrupted")
    except KeyboardInterrupt:
        pass
    spent = prepare.directory(config, tmp_path) / prepare.SPENT_FILE
    first = json.loads(spent.read_text())["seconds"]
    assert first > 0.0
    monkeypatch.undo()
    monkeypatch.setattr(prepare, "CONFIRMED", 1)
    resumed = prepare.prepare(config, tmp_path, progress=False)
    assert not resumed.reused and resumed.seconds > first
    assert not spent.exists()
    summary = json.loads((spent.parent / prepare.SUMMARY_FILE).read_text())
    assert summary["seconds"] == round(resumed.seconds, 1)


def test_the_deployed_bot_is_repaired_unless_the_repair_concedes_more(tmp_path, monkeypatch):
    """The bot a hardening deploys is repaired (studies.regret) and the repaired bot given
    the exploit test: deployed when it concedes at most REPAIR_SLACK points more than the
    bot it repaired, else the bot is kept as it was; the record says which."""
    config = GameConfig(players=3)
    found = harden("reference_classic", config, 0, exploit_budget=8_192, validate_games=1_000,
                   runs_dir=tmp_path, progress=False)
    monkeypatch.setattr(regret, "REGRET", -100.0)  # every character counts as a mistake
    monkeypatch.setattr(regret, "MOST", 1)
    monkeypatch.setattr(regret, "STEPS", (2.0,))
    monkeypatch.setattr(prepare, "REPAIR_SLACK", 100.0)
    test = prepare._test_settings(tmp_path, prepare.CONFIRM_SEED, None, False, resolve(None))
    kept, record = prepare.repair(found, test)
    (change,) = record["changes"]
    key = f"want_{change['character'].lower()}"
    assert change["lowered"] == 2.0 and record["deployed"]
    assert kept.strategy.params[key] == round(found.strategy.params[key] - 2.0, 4)
    # compared with the bot it repaired in the same test, on the same deals
    unrepaired = exploit(found.strategy, config, budget=prepare.CONFIRM_BUDGET,
                         validate_games=prepare.VALIDATE_GAMES, seed=prepare.CONFIRM_SEED,
                         runs_dir=tmp_path / "again", progress=False)
    assert record["before"] == unrepaired.largest_gain
    assert "Repaired: wants the" in kept.strategy.description
    p = prepare.Prepared(kept.strategy, config, "reference_classic", [], 0, 1.0, False,
                         tmp_path, [], record)
    assert f"repaired, wanting the {change['character']} 2 gold less" in p.text()
    monkeypatch.setattr(prepare, "REPAIR_SLACK", -100.0)
    same, again = prepare.repair(found, test)
    assert same.strategy == found.strategy and not again["deployed"]
    assert again["gain_points"] == record["gain_points"]  # its runs read back
