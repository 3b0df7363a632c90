"""citadels tune: the search space, a tiny CMA-ES run with its outputs, resuming after an
interruption to the identical result, and clear errors."""

import json

import numpy as np
import pytest

from citadels_sim import GameConfig, reporting, tune
from citadels_sim.cli import main
from citadels_sim.game.config import ConfigError
from citadels_sim.game.strategies import FAMILIES, get, tunable
from citadels_sim.studies import league
from citadels_sim.studies.tune import Checkpoint, Plan, Space

TINY = dict(league="heuristic", budget=600, games=40, popsize=4, validate_games=400,
            sprt_games=200, progress=False)


def test_every_family_but_random_is_tunable_within_its_bounds():
    for family in FAMILIES:
        if family == "random":
            assert tunable(family) == []
            continue
        space = Space.of(family)
        assert space.names[:9] == tuple(f"base{r}" for r in range(1, 10))
        assert all(p.low < p.high for p in space.params)


def test_space_decodes_inside_the_bounds_with_whole_thresholds():
    space = Space.of("heuristic")
    start = get("heuristic")
    assert np.allclose(space.values(space.decode(space.encode(start), start, "x")),
                       space.values(start))
    rng = np.random.default_rng(0)
    for x in rng.uniform(-0.5, 1.5, size=(50, len(space))):
        values = space.values(space.decode(x, start, "x"))
        for v, p in zip(values, space.params):
            assert p.low <= v <= p.high
            assert not p.integer or v == round(v)
    assert {n for n, p in zip(space.names, space.params) if p.integer} == {
        "card_need", "gold_reserve", "swap_margin"}


def test_tiny_run_writes_strategy_report_and_checkpoint(tmp_path):
    result = tune("heuristic", GameConfig(players=4), runs_dir=tmp_path / "runs", **TINY)
    assert result.plan.generations == 3 and result.history.height == 3
    assert result.timing["tuning_games"] == 3 * 5 * 40
    out = reporting.write(result, tmp_path / "report")
    for name in ("report.md", "report.html", "strategy.toml", "figures/learning_curve.png",
                 "tables/history.csv", "tables/parameters.csv", "metadata.json"):
        assert (out / name).exists(), name
    assert "Held-out validation" in (out / "report.md").read_text()
    loaded = get(f"{out / 'strategy.toml'}:{result.strategy.name}")
    assert np.array_equal(loaded.row(), result.strategy.row())
    assert loaded.family == "heuristic"
    state = json.loads((tmp_path / "runs" / result.plan.name / "checkpoint.json").read_text())
    assert state["generation"] == 3
    assert all(0 <= x <= 1 for h in state["history"] for x in h["x"])
    v = result.validation
    assert v["tuned"]["low"] <= v["tuned"]["share"] <= v["tuned"]["high"]
    assert result.comparison is not None and result.comparison.deals <= 200


def test_interrupted_run_resumes_to_the_identical_result(tmp_path, monkeypatch):
    whole = tune("heuristic", runs_dir=tmp_path / "a", **TINY)
    save = Checkpoint.save
    calls = []

    def killed_after_two(self, state):
        save(self, state)
        calls.append(state["generation"])
        if len(calls) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(Checkpoint, "save", killed_after_two)
    with pytest.raises(KeyboardInterrupt):
        tune("heuristic", runs_dir=tmp_path / "b", **TINY)
    monkeypatch.setattr(Checkpoint, "save", save)
    resumed = tune("heuristic", runs_dir=tmp_path / "b", **TINY)
    assert calls == [1, 2]
    assert resumed.timing["session_games"] == 200  # only the third generation was played
    assert resumed.strategy == whole.strategy
    assert resumed.history.equals(whole.history)
    assert resumed.validation == whole.validation


def test_a_finished_run_reads_its_validation_back_and_another_size_plays_it(tmp_path,
                                                                            monkeypatch):
    """The held-out validation is kept in the checkpoint: a rerun of the finished search
    reads it back without playing (an experiment's bot check played again), one asking
    another number of held-out games plays it and keeps that instead."""
    from citadels_sim.studies import tune as tune_module
    from citadels_sim.studies.tune import checkpointed
    first = tune("heuristic", runs_dir=tmp_path, sprt=None, **TINY)
    assert "validation are done" in checkpointed(tmp_path / first.plan.name)
    played = []
    real = tune_module.validate
    monkeypatch.setattr(tune_module, "validate", lambda *a, **k: played.append(a[3]) or real(
        *a, **k))
    again = tune("heuristic", runs_dir=tmp_path, sprt=None, **TINY)
    assert played == [] and again.validation == first.validation
    other = tune("heuristic", runs_dir=tmp_path, sprt=None, **{**TINY, "validate_games": 200})
    assert played == [200] and other.validation["tuned"]["games"] == 200
    tune("heuristic", runs_dir=tmp_path, sprt=None, **{**TINY, "validate_games": 200})
    assert played == [200]


def test_league_of_a_preset_and_an_earlier_champion(tmp_path):
    first = tune("heuristic", runs_dir=tmp_path, sprt=None, **{**TINY, "validate_games": 0})
    champion = reporting.write(first, tmp_path / "first") / "strategy.toml"
    second = tune("heuristic", runs_dir=tmp_path, name="second",
                  **{**TINY, "league": f"builder,{champion}"})
    assert [s.name for s in second.plan.league] == ["builder", first.strategy.name]
    assert len(second.plan.tables(0)) == 2 * 4  # one block per league member, every seat
    assert second.comparison.b == "builder"


def test_copies_seat_each_member_alone_against_the_candidate_everywhere_else():
    builder, heuristic = get("builder"), get("heuristic")
    tables = league.schedule([builder, heuristic], 4, 80, 3, "train", 0, copies=True)
    assert [(t.seat, t.opponents) for t in tables] == [
        (seat, (member,)) for member in (builder, heuristic) for seat in range(4)]
    candidate = get("aggressive")
    assert tables[5].lineup(candidate, 4) == [candidate, heuristic, candidate, candidate]
    # the copies' share is what the lone member does not win, game by game, on the same deals
    config = GameConfig(players=4)
    copies = league.win_shares(candidate, tables, config)
    alone = np.concatenate([league.win_shares(
        t.opponents[0], [league.Table(t.seat, (candidate,) * 3, t.seed, t.games)], config)
        for t in tables])
    assert np.array_equal(copies, 1 - alone)


def test_a_copies_run_tunes_against_lone_deviators(tmp_path):
    result = tune("heuristic", GameConfig(players=4), runs_dir=tmp_path, copies=True,
                  **{**TINY, "league": "builder,heuristic"})
    assert result.fair == 0.75 and result.validation["fair"] == 0.75
    assert all(t.copies for t in result.plan.tables(0))
    assert result.plan.settings()["copies"] is True
    assert "0.7500" in result.text()  # the fair share the text measures against
    with pytest.raises(ConfigError, match="copies"):  # not a resume of another setting
        tune("heuristic", GameConfig(players=4), runs_dir=tmp_path,
             **{**TINY, "league": "builder,heuristic"}, name=result.plan.name)


def test_other_settings_do_not_resume_a_checkpoint(tmp_path):
    tune("heuristic", runs_dir=tmp_path, **TINY)
    with pytest.raises(ConfigError, match="sigma"):
        tune("heuristic", runs_dir=tmp_path, sigma=0.1, **TINY)
    fresh = tune("heuristic", runs_dir=tmp_path, sigma=0.1, fresh=True, **TINY)
    assert fresh.plan.sigma == 0.1
    (tmp_path / fresh.plan.name / "checkpoint.json").write_text("{not json")
    with pytest.raises(ConfigError, match="is not a tuning checkpoint"):
        tune("heuristic", runs_dir=tmp_path, sigma=0.1, **TINY)


def test_cli_one_liner(tmp_path, capsys):
    code = main(["tune", "--family", "heuristic", "--league", "heuristic", "--players", "4",
                 "--budget", "600", "--games", "40", "--popsize", "4", "--validate-games",
                 "400", "--sprt-games", "200", "--runs", str(tmp_path / "runs"),
                 "--reports", str(tmp_path / "reports"), "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "held-out win share" in out and "SPRT" in out
    assert (tmp_path / "reports" / "tuned-heuristic-classic-4p" / "strategy.toml").exists()


@pytest.mark.parametrize("args,message", [
    (["--family", "clever"], "Unknown strategy family 'clever'"),
    (["--family", "random"], "no parameters to tune"),
    (["--family", "heuristic", "--budget", "10"], "less than one generation"),
    (["--family", "builder", "--start", "heuristic"], "is of family 'heuristic'"),
    (["--family", "heuristic", "--league", "nosuch"], "Unknown strategy 'nosuch'"),
    (["--family", "heuristic", "--sigma", "3"], "sigma must be in"),
    ([], "give the family to tune"),
])
def test_bad_input_is_a_clear_error(args, message, tmp_path, capsys):
    assert main(["tune", *args, "--runs", str(tmp_path), "--reports", str(tmp_path),
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_small_draft_parameters_are_searched_only_with_2_or_3_players():
    """``read`` and ``memory`` (issue 19 item 6) are tuned where every player keeps two
    characters; elsewhere the search, and so every 4-8 player preparation, is as before."""
    from citadels_sim.game.strategies import SMALL_DRAFT
    from citadels_sim.studies import prepare
    for players in (2, 3):
        assert set(SMALL_DRAFT) <= set(Space.of("reference", players).names)
    for players in (4, 7):
        assert not set(SMALL_DRAFT) & set(Space.of("reference", players).names)
        assert not set(SMALL_DRAFT) & set(
            prepare.settings(GameConfig(players=players))["parameters"])
    assert len(Space.of("reference", 2)) == len(Space.of("reference", 4)) + len(SMALL_DRAFT)


def test_a_search_for_one_set_tunes_only_what_its_games_read():
    """A desire for a character outside the set, or for a rank it does not have, never
    changes one of its games, and a reference bot's desire for a rank adds its base and its
    character's: a search for a set leaves out the first (at their start's values) and
    searches the second as one knob, so that its steps go to what plays."""
    dark = GameConfig(players=2, characters=("Witch", "Thief", "Wizard", "King", "Abbot",
                                             "Alchemist", "Navigator", "Diplomat"),
                      removed=("Graveyard",))
    space = Space.of("reference", 2, dark.character_ids)
    wants = {n for n in space.names if n.startswith("want_")}
    assert wants == {"want_witch", "want_thief", "want_wizard", "want_king", "want_abbot",
                     "want_alchemist", "want_navigator", "want_diplomat"}
    assert not [n for n in space.names if n.startswith("base")]  # one knob: want_<key>
    heuristic = Space.of("heuristic", 2, dark.character_ids).names
    assert [n for n in heuristic if n.startswith("base")] == [f"base{r}" for r in range(1, 9)]
    full = Space.of("reference", 2)
    assert set(space.names) < set(full.names)
    assert len(full) - len(space) == 20 + 9  # 20 characters outside the set, the 9 ranks
    nine = GameConfig(ruleset="2016", players=5, characters="cunning_agents",
                      districts="cunning_agents")
    assert len([n for n in Space.of("heuristic", 5, nine.character_ids).names
                if n.startswith("base")]) == 9
    start = get("reference")
    made = Plan("x", "reference", dark, (start,), start, start, 10_000, 40, 4, 0.2, 1)
    assert made.space.names == space.names
    tuned = space.decode(np.full(len(space), 0.9), start, "x").row()
    inside = [p.index for p in space.params]
    outside = np.setdiff1d(np.arange(len(tuned)), inside)
    assert np.array_equal(tuned[outside], start.row()[outside])
    assert not np.array_equal(tuned[inside], start.row()[inside])
