"""The ``citadels`` command: smoke tests and clear errors for bad input."""

import json
import subprocess
import sys

import pytest

from citadels_sim.cli import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "citadels_sim", *args], capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_simulate_every_player_count(ruleset, players, capsys):
    code = main(["simulate", "--ruleset", ruleset, "--players", str(players), "--games", "50",
                 "--strategies", "heuristic", "--no-progress"])
    out, err = capsys.readouterr()
    if ruleset == "2016" and players == 3:
        assert code == 2 and "rank-9" in err
    else:
        assert code == 0, err
        assert "win rate by strategy" in out and "win rate by seat" in out


def test_simulate_subprocess_writes_out(tmp_path):
    out = tmp_path / "demo.parquet"
    r = run("simulate", "--players", "5", "--strategies", "heuristic,random,builder,aggressive,"
            "heuristic", "--games", "300", "--seed", "7", "--out", str(out), "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "games/s" in r.stdout and (out / "meta.json").exists()


def test_progress_bars_only_on_a_terminal(monkeypatch, capsys):
    """A log or a pipe gets no progress bar (it would keep every redraw); a terminal gets
    one unless --no-progress."""
    args = ["simulate", "--games", "200", "--strategies", "heuristic"]
    assert main(args) == 0
    assert "game/s" not in capsys.readouterr().err  # capsys: not a terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(args) == 0
    assert "200/200" in capsys.readouterr().err
    assert main(args + ["--no-progress"]) == 0
    assert "200/200" not in capsys.readouterr().err


@pytest.mark.parametrize("args,message", [
    (["--strategies", "nosuch"], "Unknown strategy 'nosuch'"),
    (["--players", "9"], "9 players is not allowed"),
    (["--players", "1"], "1 players is not allowed"),
    (["--ruleset", "clasic"], "Did you mean 'classic'"),
    (["--characters", "Assassin,Thief,Magican,King,Bishop,Merchant,Architect,Warlord"],
     "Did you mean 'Magician'"),
])
def test_bad_input_is_a_clear_error(args, message, capsys):
    assert main(["simulate", "--games", "10", "--no-progress", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_replay_text_and_json(capsys):
    assert main(["replay", "--players", "4", "--seed", "7", "--game", "3"]) == 0
    text = capsys.readouterr().out
    assert "Round 1, draft:" in text and "Winner(s):" in text
    assert main(["replay", "--players", "4", "--seed", "7", "--game", "3", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert events[0]["type"] == "setup" and events[-1]["type"] == "game_end"
    assert all("state" in e and "round" in e and "type" in e for e in events)


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "ruleset 2016" in out and "heuristic" in out and "first_game" in out
    lines = [line.split() for line in out.splitlines()]
    # every district card with type, cost and copies; bonus purples apart from the base deck
    assert ["Manor", "noble", "cost", "3", "x5"] in lines
    assert "districts (bonus):" in out and "districts (base):" in out
    # each character's player counts, as the rules the simulator enforces say
    assert ["9.", "Queen", "5-8"] in lines and ["4.", "Emperor", "3-8"] in lines
    assert "a rank-9 character: allowed at 4-8 players, needed at 8" in out  # classic
    assert "a rank-9 character: allowed at 3-8 players, needed at 3, 8" in out  # 2016
    assert ["8.", "Diplomat", "2-8", "(the", "Graveyard", "removed", "from", "the",
            "deck)"] in lines
    # the named sets' contents and the strategies' parameters
    assert "  cunning_agents: Witch, Blackmailer, Magician, Emperor" in out
    assert "family heuristic; income=1.2" in out


def test_replay_reads_the_whole_roster(capsys):
    args = ["replay", "--ruleset", "2016", "--players", "6", "--characters", "cunning_agents",
            "--districts", "cunning_agents", "--game", "1"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "Witch (P" in text and "bewitches the" in text and "resumes her turn as the" in text
    assert main([*args, "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert all(len(e["state"]["museum"]) == 6 and len(e["state"]["beautified"]) == 6
               for e in events)
    bewitch = next(e for e in events if e["type"] == "bewitch")
    assert bewitch["character"] != "Witch" and bewitch["state"]["museum"] == [0] * 6
