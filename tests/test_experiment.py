"""Experiment files: parsing, rotation, resuming after a kill, reports; the CLI commands."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import polars as pl
import pytest

from citadels_sim.cli import main
from citadels_sim.game import cards
from citadels_sim.game.config import ConfigError
from citadels_sim.reporting import experiment as report
from citadels_sim.studies import experiment

SMALL = """
title = "small"
seed = 5
games = 1200
chunk_size = 300
skip_invalid = true
[grid]
ruleset = ["classic", "2016"]
players = [3, 4]
lineup = ["heuristic", "mixed"]
[lineups]
mixed = ["heuristic", "random"]
"""


def test_grid_cells_rotations_and_skips():
    exp = experiment.parse(SMALL, "small")
    assert [c.slug for c in exp.cells][:2] == ["classic-3p-base-default-heuristic",
                                               "classic-3p-base-default-mixed"]
    assert len(exp.cells) == 6 and len(exp.skipped) == 2  # 2016 with 3 players is refused
    assert "rank-9" in exp.skipped[0]["reason"]
    mixed3 = exp.cells[1]
    assert mixed3.rotations == (("heuristic", "random", "heuristic"),
                                ("random", "heuristic", "heuristic"),
                                ("heuristic", "heuristic", "random"))
    assert mixed3.games == 1200 and mixed3.games_per_rotation == 400
    assert len({mixed3.seed(5, r) for r in range(3)}) == 3


def test_every_seat_plays_every_strategy_equally():
    rots = experiment.rotations(("a", "b"), 4, "rotate")
    assert rots == (("a", "b", "a", "b"), ("b", "a", "b", "a"))
    assert experiment.rotations(("a", "b"), 3, "fixed") == (("a", "b", "a"),)


PAIRED = """
skip_invalid = true
[grid]
ruleset = ["2016"]
players = [2, 3, 4]
set = ["first_game", "cunning_agents", "devious_dignitaries"]
"""


def test_set_axis_pairs_each_named_set_with_its_own_districts():
    exp = experiment.parse(PAIRED, "paired")
    # paired, not crossed: 3 named sets x 3 player counts, less first_game at 3 players (no rank 9)
    assert len(exp.cells) + len(exp.skipped) == 9
    assert [(s["players"], s["characters"]) for s in exp.skipped] == [(3, "first_game")]
    for cell in exp.cells:
        assert cell.characters == cell.districts
        named = cards.named_sets()[cell.characters]
        assert set(cell.config.to_dict()["districts"]) == set(named.districts)
    cunning = {c.players: c.config.character_names for c in exp.cells
               if c.characters == "cunning_agents"}
    assert "King" in cunning[2] and "Emperor" not in cunning[2]  # the 2-player replacement
    assert "Emperor" in cunning[4] and cunning[4][-1] == "Tax Collector"
    assert exp.cells[0].slug == "2016-2p-first_game-first_game-default"
    assert exp.cells[0].rotations[0][0] == "reference_first_game_2p"  # made for the set at 2p
    labels = report.short_labels(exp.cells_frame())  # the set named once, not twice
    assert labels[exp.cells[0].slug] == "2p first_game"
    with pytest.raises(ValueError, match="leave out grid.characters"):
        experiment.parse(PAIRED + 'characters = ["base"]\n', "paired")
    with pytest.raises(ValueError, match="grid key 'preset' is now 'set'"):
        experiment.parse(PAIRED.replace("set =", "preset ="), "paired")


BONUS = """
[grid]
players = [4]
districts = ["default", "park", "six"]
[districts]
park = ["Park"]
[districts.six]
districts = ["Park", "Museum", "Armory", "Hospital", "Bell Tower", "Factory"]
removed = ["Keep", "Keep", "Great Wall"]
"""


def test_district_tables_carry_the_classic_removals():
    exp = experiment.parse(BONUS, "bonus")
    default, park, six = (c.config for c in exp.cells)
    assert default.removed is None and park.purple_counts != default.purple_counts
    assert six.removed == ("Keep", "Keep", "Great Wall")
    assert sum(six.purple_counts.values()) == sum(default.purple_counts.values()) + 3
    assert [c.slug for c in exp.cells][2] == "classic-4p-base-six-default"
    for text, message in (("removed = []", "need exactly 3"),
                          ('removed = ["Keep"]\nextra = 1', "not 'extra'")):
        bad = BONUS.replace('removed = ["Keep", "Keep", "Great Wall"]', text)
        with pytest.raises(ValueError, match=message):
            experiment.parse(bad, "bonus")


@pytest.mark.parametrize("text,message", [
    ("bogus = 1\n[grid]\nplayers = [4]", "unknown key 'bogus'"),
    ("[grid]\nplayer = [4]", "unknown grid key 'player'"),
    ("seating = 'random'\n[grid]", "seating 'random'"),
    ("[grid]\nlineup = ['nosuch']", "Unknown strategy 'nosuch'"),
    ("[grid]\nruleset = ['2016']\nplayers = [3]", "rank-9"),
    ("games = 0\n[grid]", "games must be positive"),
    ("[grid]\nplayers = 4", "grid.players must be list"),
    ("[grid\n", "not valid TOML"),
])
def test_bad_experiment_files_are_clear_errors(text, message):
    with pytest.raises(ValueError, match=message):  # ConfigError, or StrategyError
        experiment.parse(text, "bad")


def tables(record):
    return {k: v.sort(v.columns) for k, v in record.tables().items()}


def test_run_resume_and_report(tmp_path):
    exp = experiment.parse(SMALL, "small")
    record = experiment.run(exp, tmp_path / "runs", progress=False)
    assert record.summaries[exp.cells[0].slug].games == 1200
    again = experiment.load_run(tmp_path / "runs" / "small")
    assert all(again.tables()[k].equals(v) for k, v in record.tables().items())
    out = report.write(record, tmp_path / "reports" / "small")
    html = (out / "report.html").read_text()
    pngs = len(list((out / "figures").glob("*.png")))  # the heat map: one per ruleset;
    # the game-quality figure: one
    assert html.count("data:image/png;base64,") == pngs == 8 and "Seat effect" in html
    assert "Game quality" in html and (out / "figures" / "leader_wins.png").exists()
    assert (out / "report.md").read_text().count("](figures/") == pngs
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["total_games"] == exp.total_games and meta["seed"] == 5
    strat = pl.read_csv(out / "tables" / "win_rate_strategy.csv")
    assert {"win_rate", "win_rate_low", "win_rate_high", "win_rate_se", "win_rate_deff",
            "fair"} <= set(strat.columns)
    # the method section names, per table, the unit of independence and the method
    md = (out / "report.md").read_text()
    method = md[md.index("## Method"):]
    assert "unit of independence" in method and "cluster-robust" in method
    assert "the deal (all rotations of one deal)" in method and "Rao-Scott" in method
    assert "exact in the usual sense" not in md and "somewhat too narrow" not in md
    # two reports of the same run are byte-identical
    again_out = report.write(again, tmp_path / "reports" / "again")
    for name in ("report.md", "tables/characters.csv", "tables/verdict.csv"):
        assert (out / name).read_bytes() == (again_out / name).read_bytes(), name


def test_killed_experiment_resumes_to_the_same_results(tmp_path):
    spec = tmp_path / "killme.toml"
    spec.write_text(SMALL.replace("games = 1200", "games = 6000").replace(
        "chunk_size = 300", "chunk_size = 200"))
    cmd = [sys.executable, "-m", "citadels_sim", "experiment", str(spec), "--runs",
           str(tmp_path / "runs"), "--reports", str(tmp_path / "reports"), "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    runs = tmp_path / "runs" / "killme"
    deadline = time.time() + 300
    while time.time() < deadline and len(list(runs.glob("*/rot-*/seats/*.parquet"))) < 20:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    parts = len(list(runs.glob("*/rot-*/seats/*.parquet")))
    assert 20 <= parts < 6 * 30, "the run was not killed midway"
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    resumed = experiment.load_run(runs)
    fresh = experiment.run(experiment.load(spec), tmp_path / "fresh", progress=False)
    a, b = tables(resumed), tables(fresh)
    assert a.keys() == b.keys() and all(a[k].equals(b[k]) for k in a)
    assert (tmp_path / "reports" / "killme" / "report.html").exists()


def test_cli_experiment_report_and_balance(tmp_path, capsys):
    spec = tmp_path / "tiny.toml"
    spec.write_text("games = 400\nchunk_size = 200\n[grid]\nplayers = [2, 5]\n")
    args = ["--runs", str(tmp_path / "runs"), "--reports", str(tmp_path / "rep")]
    assert main(["experiment", str(spec), "--no-progress", *args]) == 0
    assert (tmp_path / "rep" / "tiny" / "report.md").exists()
    assert main(["report", str(tmp_path / "runs" / "tiny"), args[2], args[3]]) == 0
    assert main(["balance", "--characters", "first_game", "--ruleset", "2016", "--players",
                 "4", "--games", "400", "--deals", "50", "--check-budget", "0", "--no-progress",
                 "--out", str(tmp_path / "bal"), "--bots-dir", str(tmp_path / "bots")]) == 0
    out = capsys.readouterr().out
    assert "Magician" in out and "VERDICT" in out and "first_game character" in out
    # a preparation takes minutes: the console says so before it starts, not once it is kept
    assert "preparing the bots first, at 4 players: " in out and str(tmp_path / "bots") in out
    assert main(["balance", "--characters", "first_game", "--ruleset", "2016", "--players",
                 "4", "--games", "400", "--deals", "50", "--check-budget", "0", "--no-progress",
                 "--out", str(tmp_path / "bal"), "--bots-dir", str(tmp_path / "bots")]) == 0
    assert "preparing the bots" not in capsys.readouterr().out
    # nor before an option is refused
    assert main(["balance", "--characters", "first_game", "--ruleset", "2016", "--players",
                 "4", "--check-budget", "99999999999999", "--no-progress",
                 "--out", str(tmp_path / "bal2"), "--bots-dir", str(tmp_path / "bots2")]) == 2
    refused = capsys.readouterr()
    assert "preparing the bots" not in refused.out and "check_budget" in refused.err
    assert (tmp_path / "bal" / "report.html").exists()
    assert main(["report", str(tmp_path / "nosuch")]) == 2
    assert main(["experiment", str(tmp_path / "nosuch.toml")]) == 2
    err = capsys.readouterr().err
    assert "no experiment.toml" in err and "does not exist" in err


def test_a_run_of_another_kernel_version_is_refused_clearly(tmp_path):
    exp = experiment.parse(SMALL, "small")
    experiment.run(exp, tmp_path / "runs", progress=False)
    meta = next((tmp_path / "runs" / "small").glob("*/rot-0/meta.json"))
    info = json.loads(meta.read_text())
    meta.write_text(json.dumps({**info, "kernel_version": 3}))
    with pytest.raises(ConfigError, match="played by kernel version 3"):
        experiment.load_run(tmp_path / "runs" / "small")


def test_a_grid_without_lineup_plays_each_sets_own_reference_preset():
    """Issue 19 item 8: the default line-up, labelled "default", is the shipped reference
    preset made for each cell's set."""
    exp = experiment.parse('[grid]\nruleset = ["classic", "2016"]\nplayers = [4]\n', "d")
    assert [(c.lineup, c.rotations[0][0]) for c in exp.cells] == [
        ("default", "reference_classic"), ("default", "reference_first_game")]


def test_a_named_lineup_may_give_one_line_up_per_player_count():
    text = """
[grid]
players = [3, 4]
lineup = ["tuned"]
[lineups]
tuned = { 3 = ["builder"], 4 = ["random", "heuristic"] }
"""
    exp = experiment.parse(text, "per_count")
    by_players = {c.players: c for c in exp.cells}
    assert by_players[3].rotations == (("builder",) * 3,)
    assert set(by_players[4].rotations[0]) == {"random", "heuristic"}
    assert {c.lineup for c in exp.cells} == {"tuned"}
    with pytest.raises(ConfigError, match="line-up 'tuned' names strategies for 3, 4 "
                                          "players, not for 5"):
        experiment.parse(text.replace("[3, 4]", "[3, 5]"), "per_count")


def test_a_named_lineup_may_give_one_line_up_per_player_count_and_set():
    """Balance tests play the base set under the bots made for it, the set under its own."""
    text = """
[grid]
players = [4]
characters = ["base", "mine"]
lineup = ["own"]
[characters]
mine = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Navigator", "Warlord"]
[lineups]
own = { 4 = { base = ["builder"], mine = ["random"] } }
"""
    exp = experiment.parse(text, "per_set")
    assert {c.characters: c.rotations for c in exp.cells} == {
        "base": (("builder",) * 4,), "mine": (("random",) * 4,)}
    with pytest.raises(ConfigError, match="line-up 'own' names strategies at 4 players for "
                                          "the sets base, not for 'mine'"):
        experiment.parse(text.replace(', mine = ["random"]', ""), "per_set")


@pytest.mark.parametrize("lineups, message", [
    ('own = { 4 = { base = [] } }', "line-up 'own' names no strategy: give 1 to 4"),
    ("own = { 4 = [] }", "line-up 'own' names no strategy: give 1 to 4"),
    ("own = []", "line-up 'own' names no strategy: give 1 to 4"),
    ('own = { 4 = ["builder"], -1 = ["builder"] }', "line-up 'own' names '-1', which is "
                                                    "not a player count"),
])
def test_an_empty_or_misnamed_line_up_is_one_line(lineups, message):
    text = f'[grid]\nplayers = [4]\nlineup = ["own"]\n[lineups]\n{lineups}\n'
    with pytest.raises(ConfigError, match=re.escape(message)):
        experiment.parse(text, "bad")


def test_a_prepared_lineup_plays_the_bots_a_balance_test_judges_under(tmp_path, capsys):
    """Issue 19 item 10: ``lineup = ["prepared"]`` plays, in every seat, the bot prepared for
    the cell's set and player count (as ``citadels balance`` judges under), kept in
    ``bots_dir`` and copied into the run, so the run is reported again without it."""
    from citadels_sim.game.strategies import clear_registered, get, load_file
    from citadels_sim.studies import prepare
    bots = tmp_path / "bots"
    text = (f'games = 600\nchunk_size = 300\nbots_dir = "{bots.as_posix()}"\n'
            '[grid]\nplayers = [3]\nlineup = ["prepared", "default"]\n')
    exp = experiment.parse(text, "prep")
    cell = exp.cells[0]
    config = cell.config
    name = "prepared_" + prepare.directory(config, bots).name
    assert cell.lineup == "prepared" and cell.rotations == ((name,) * 3,)
    assert exp.cells_frame()["line_up"][0] == f"{name} in every seat"
    record = experiment.run(exp, tmp_path / "runs", progress=False)
    p = prepare.prepare(config, bots, progress=False)
    assert p.reused and get(name).row().tolist() == p.strategy.row().tolist()
    assert record.summaries[cell.slug].games == 600
    (said,) = record.timing["prepared"]
    assert said.startswith("3p: reference_classic hardened for this set") and "reused" not in said
    clear_registered()  # a new process: the run's own copy names the prepared bot
    again = experiment.load_run(tmp_path / "runs" / "prep")
    assert all(again.tables()[k].equals(v) for k, v in record.tables().items())
    assert get(name).row().tolist() == p.strategy.row().tolist()
    written = report.write(again, tmp_path / "report")
    md = (written / "report.md").read_text()
    assert "## The prepared bots" in md and f"- {said}" in md
    assert load_file(written / "strategies.toml")[name].row().tolist() == get(name).row().tolist()
    spec = tmp_path / "prep.toml"  # the command line: --bots-dir over the file's bots_dir
    spec.write_text(text.replace(bots.as_posix(), (tmp_path / "elsewhere").as_posix()))
    assert main(["experiment", str(spec), "--bots-dir", str(bots), "--no-progress", "--runs",
                 str(tmp_path / "cli"), "--reports", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    assert "the bots of 1 'prepared' cells are prepared first" in out
    assert f"reused from {p.directory}" in out and not (tmp_path / "elsewhere").exists()
    assert main(["experiment", str(spec), "--bots-dir", " "]) == 2
    assert "--bots-dir must name a directory, got ' '." in capsys.readouterr().err
    mine = experiment.parse(text + '[lineups]\nprepared = ["builder"]\n', "prep")
    assert mine.cells[0].rotations == (("builder",) * 3,)  # a line-up of that name is yours
    assert cell.prepared and not mine.cells[0].prepared and not exp.cells[1].prepared
    with pytest.raises(ConfigError, match="bots_dir must name a directory"):
        experiment.parse(text.replace(bots.as_posix(), " "), "prep")


def test_a_grown_grid_keeps_the_cells_already_run_and_a_changed_cell_is_refused(tmp_path):
    """docs/experiments.md: adding entries to a grid keeps the cells already run; a cell
    whose run changed (here its games) is refused before a game is played."""
    text = "games = 400\nchunk_size = 200\n[grid]\nplayers = [4]\nlineup = ['builder']\n"
    first = experiment.run(experiment.parse(text, "grow"), tmp_path, progress=False)
    (slug,) = first.summaries
    chunk = next((tmp_path / "grow" / slug / "rot-0").glob("seats/*.parquet"))
    when = chunk.stat().st_mtime_ns
    grown = experiment.parse(text.replace("[4]", "[4, 5]"), "grow")
    second = experiment.run(grown, tmp_path, progress=False)
    assert chunk.stat().st_mtime_ns == when  # read back, not played again
    assert second.tables()["outcomes"].filter(pl.col("cell") == slug).equals(
        first.tables()["outcomes"])
    assert experiment.load_run(tmp_path / "grow").experiment.source == grown.source
    with pytest.raises(ConfigError, match="already holds a different run"):
        experiment.run(experiment.parse(text.replace("400", "600"), "grow"), tmp_path,
                       progress=False)
    assert experiment.load_run(tmp_path / "grow").experiment.source == grown.source


CHECKED = """
title = "checked"
seed = 3
games = 3000
chunk_size = 1500
check_budget = 8000
[grid]
players = [2]
lineup = ["builder", "mixed"]
[lineups]
mixed = ["builder", "heuristic"]
"""


def test_the_bot_check_tests_each_cell_of_one_strategy_and_limits_its_verdicts(
        tmp_path, monkeypatch, capsys):
    """check_budget: the exploit test of the strategy of every cell whose seats all play one
    (not of a mixed line-up), read back by a rerun and by the report; a cell that fails has
    its strong and weak verdicts read bot-limited."""
    from citadels_sim.studies import exploit
    monkeypatch.setattr(exploit, "CHECK_VALIDATE", 1_000)
    exp = experiment.parse(CHECKED, "checked")
    assert [c.lineup for c in exp.checked()] == ["builder"]
    record = experiment.run(exp, tmp_path / "runs", progress=False)
    (row,) = record.checks.iter_rows(named=True)
    direct = exploit.check_gain("builder", exp.cells[0].config, 8000, 3, exp.cells[0].slug,
                                tmp_path / "runs" / "checked" / "bot-check")
    assert {k: row[k] for k in direct} == direct and row["strategy"] == "builder"
    assert row["gain"] > exploit.LIMIT and not row["passed"]  # builder is easy to beat
    assert experiment.load_run(tmp_path / "runs" / "checked").checks.equals(record.checks)
    assert "bot check: 0 of 1 cells pass" in "\n".join(experiment.check_lines(record))
    limited = report.build(record).tables["verdict"]
    unchecked = report.build(experiment.RunRecord(record.experiment, record.summaries,
                                                  record.timing)).tables["verdict"]
    decided = unchecked["verdict"].is_in(["strong", "weak"])
    assert decided.any()  # something to limit: builder's holders differ at 2 players
    assert (limited["verdict"] == "bot-limited").to_list() == decided.to_list()
    md = (report.write(record, tmp_path / "report") / "report.md").read_text()
    assert "## Bot check" in md and "0 of 1 cells pass" in md and "FAILED" in md
    # an unfinished check is not reported as if there were none
    (tmp_path / "runs" / "checked" / experiment.CHECKS_FILE).unlink()
    with pytest.raises(ConfigError, match="bot check .* is not finished"):
        experiment.load_run(tmp_path / "runs" / "checked")


@pytest.mark.parametrize("budget,message", [
    ("-1", "check_budget must be 0"), ("'many'", "check_budget must be int"),
    ("10", "check_budget 10 is less than one generation")])
def test_a_bad_check_budget_is_refused_before_any_game(tmp_path, budget, message):
    text = CHECKED.replace("check_budget = 8000", f"check_budget = {budget}")
    with pytest.raises(ConfigError, match=message):
        experiment.run(experiment.parse(text, "bad"), tmp_path / "runs", progress=False)
    assert not (tmp_path / "runs").exists()
