"""Strategy files: presets in TOML files (the format of the shipped
citadels_sim/game/data/strategies.toml), usable wherever a preset name is, with errors that
name the file and the bad entry."""

import re
from dataclasses import replace

import numpy as np
import pytest

from citadels_sim.cli import main
from citadels_sim.game.strategies import (StrategyError, clear_registered, get, load_file, mix,
                                          presets, register_file, to_toml)
from citadels_sim.studies import experiment

MINE = """
[mine]
family = "heuristic"
description = "a test preset"
base = [1, 1, 1, 1.5, 1, 2, 2, 1.2, 1]
card_need = 1
threat = 0.5

[other]
family = "builder"
"""


@pytest.fixture(autouse=True)
def no_registered_files():
    clear_registered()
    yield
    clear_registered()


@pytest.fixture
def mine(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(MINE)
    return path


def test_shipped_presets_round_trip_through_a_file(tmp_path):
    path = tmp_path / "copy.toml"
    renamed = [type(s)(f"copy_{s.name}", s.family, s.base, s.params, s.description)
               for s in presets().values()]
    path.write_text(to_toml(renamed, "a copy"))
    loaded = load_file(path)
    for s in renamed:
        assert np.array_equal(loaded[s.name].row(), s.row())
        assert loaded[s.name].family == s.family and loaded[s.name].description == s.description


def test_file_specs(mine):
    s = get(f"{mine}:mine")
    assert s.name == "mine" and s.params["card_need"] == 1.0
    tweaked = get(f"{mine}:mine:threat=2")
    assert tweaked.params["threat"] == 2.0
    assert get("other").family == "builder"  # using the file registered its presets
    single = mine.with_name("single.toml")
    single.write_text("[solo]\nfamily = 'aggressive'\n")
    assert get(str(single)).name == "solo"


@pytest.mark.parametrize("text,message", [
    ("[x\nfamily = 1", "not valid TOML"),
    ("[x]\nfamily = 'heuristic'\nnosuch = 1", "preset 'x': Unknown parameter 'nosuch'"),
    ("[x]\nincome = 1", "preset 'x' has no family"),
    ("[x]\nfamily = 'clever'", "Unknown strategy family 'clever'"),
    ("[x]\nfamily = 'heuristic'\nbase = [1, 2]", "base needs 9 values"),
    ("[x]\nfamily = 'heuristic'\nthreat = 'high'", "preset 'x': threat must be a number"),
    ("x = 3", "expected a table [x]"),
])
def test_bad_files_name_the_file_and_the_entry(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(StrategyError, match="bad.toml") as err:
        get(f"{path}:x")
    assert message in str(err.value)


def test_name_errors(mine, tmp_path):
    with pytest.raises(StrategyError, match="has no preset 'nope'; presets: mine, other"):
        get(f"{mine}:nope")
    with pytest.raises(StrategyError, match="holds 2 presets"):
        get(str(mine))
    with pytest.raises(StrategyError, match="does not exist"):
        get(str(tmp_path / "missing.toml"))
    shadow = tmp_path / "shadow.toml"
    shadow.write_text("[heuristic]\nfamily = 'builder'\n")
    with pytest.raises(StrategyError, match="name of a shipped preset"):
        register_file(shadow)
    register_file(mine)
    clash = tmp_path / "clash.toml"
    clash.write_text("[mine]\nfamily = 'builder'\n")
    with pytest.raises(StrategyError, match="also defined, differently, in"):
        register_file(clash)


def test_a_file_written_before_a_parameter_existed_names_the_same_strategy(tmp_path):
    """A file without a parameter added since (read at its default) does not clash with
    the same strategy written today; a real difference still does."""
    text = to_toml([replace(get("reference_classic:want_king=2"), name="kept")])
    today, before, changed = (tmp_path / f"{n}.toml" for n in ("today", "before", "changed"))
    today.write_text(text)
    before.write_text("".join(line for line in text.splitlines(keepends=True)
                              if not line.startswith(("read =", "memory ="))))
    changed.write_text(text.replace("memory = 0.0", "memory = 1.0"))
    register_file(today)
    assert "memory" not in register_file(before)["kept"].params  # no clash
    described = tmp_path / "described.toml"  # only its description differs: the same bot
    assert "\ndescription = " in text
    described.write_text(re.sub(r"\ndescription = .*", "\ndescription = 'my copy'", text,
                                count=1))
    assert register_file(described)["kept"].description == "my copy"
    with pytest.raises(StrategyError, match="also defined, differently, in"):
        register_file(changed)


def test_strategies_file_in_simulate_and_compare(mine, capsys):
    assert main(["simulate", "--strategies-file", str(mine), "--strategies",
                 "mine,heuristic,other,heuristic", "--games", "100", "--no-progress"]) == 0
    assert "mine" in capsys.readouterr().out
    assert main(["compare", f"{mine}:mine", "heuristic", "--games", "200",
                 "--no-progress"]) == 0
    assert "A = mine vs B = heuristic" in capsys.readouterr().out
    clear_registered()  # a new process: the file is not named
    assert main(["simulate", "--strategies", "mine", "--games", "10", "--no-progress"]) == 2
    assert "Unknown strategy 'mine'" in capsys.readouterr().err


def test_strategies_file_in_balance(mine, tmp_path, capsys):
    assert main(["balance", "--characters", "first_game", "--ruleset", "2016", "--players",
                 "4", "--games", "400", "--deals", "50", "--strategies", "mine",
                 "--check-budget", "0", "--strategies-file", str(mine),
                 "--out", str(tmp_path / "balance"), "--no-progress"]) == 0, \
        capsys.readouterr().err


def test_experiment_strategies_file_is_relative_and_copied_into_the_run(mine, tmp_path):
    folder = tmp_path / "experiments"
    folder.mkdir()
    (folder / "duel.toml").write_text(
        'strategies_file = "../mine.toml"\ngames = 400\nchunk_size = 200\n'
        '[grid]\nlineup = ["pair"]\n[lineups]\npair = ["mine", "heuristic"]\n')
    exp = experiment.load(folder / "duel.toml")
    record = experiment.run(exp, tmp_path / "runs", progress=False)
    mine.unlink()
    clear_registered()
    again = experiment.load_run(tmp_path / "runs" / "duel")
    assert again.tables()["outcomes"].equals(record.tables()["outcomes"])
    assert "[mine]" in (tmp_path / "runs" / "duel" / "strategies.toml").read_text()
    (folder / "broken.toml").write_text('strategies_file = "nowhere.toml"\n[grid]\n')
    with pytest.raises(StrategyError, match="nowhere.toml' does not exist"):
        experiment.load(folder / "broken.toml")


def test_a_written_file_holds_its_shipped_components_and_reads_the_same_later(tmp_path,
                                                                            monkeypatch):
    """to_toml writes a mixture's shipped components out too, so the file still reads the
    same once those presets are no longer shipped; a copy that plays like the shipped
    preset is welcome, one that plays differently is refused in one line."""
    from citadels_sim.game import strategies
    made = mix("made", [get("reference"), get("reference_classic")], [0.4, 0.6])
    path = tmp_path / "made.toml"
    path.write_text(to_toml([made]))
    assert "[reference_classic]" in path.read_text()
    assert register_file(path)["made"] == made  # copies of shipped presets are welcome
    clear_registered()
    shipped = dict(strategies.presets())
    del shipped["reference_classic"]  # a later version no longer ships it
    monkeypatch.setattr(strategies, "presets", lambda: shipped)
    assert get(f"{path}:made") == made
    clear_registered()
    changed = re.sub(r"(\[reference\]\n(?:.*\n)*?base = \[)[^,]+", r"\g<1>9.5",
                     path.read_text(), count=1)
    assert changed != path.read_text()
    path.write_text(changed)
    with pytest.raises(StrategyError, match="'reference' has the name of a shipped preset and "
                                            "plays differently"):
        register_file(path)
