"""Every bad input gets one line ``citadels: error: ...`` naming the bad value and what is
allowed, exit code 2, and nothing written; Ctrl-C says what was kept (exit code 130); the
strategy parameters' allowed ranges hold no value that stalls games."""

import concurrent.futures
import hashlib
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from citadels_sim import exploit
from citadels_sim.cli import main
from citadels_sim.engine import simulate as simulate_module
from citadels_sim.engine import store
from citadels_sim.engine.simulate import build_tables, play_chunk, simulate
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import (BASE_BOUNDS, FAMILY_PARAMS, PARAMS, StrategyError,
                                          allowed_range, get)
from citadels_sim.kernel import layout as L
from citadels_sim.studies import tune as tune_module
from citadels_sim.studies.balance import Balance
from citadels_sim.studies.compare import Sprt

ARTIST_SET = "Assassin,Thief,Magician,King,Bishop,Merchant,Architect,Warlord,Artist"
FILES = {
    "x.txt": "not a directory",
    "five.toml": "[grid]\nplayers = [4]\nlineup = ['mixed']\n[lineups]\n"
                 "mixed = ['heuristic', 'builder', 'aggressive', 'random', 'heuristic']\n",
    "empty.toml": "title = 'nothing to play'\n[grid]\n",
    "noplayers.toml": "[grid]\nplayers = []\n",
    "escape.toml": "name = '../escaped'\n[grid]\nplayers = [4]\n",
    "huge.toml": "games = 1_000_000_000_000\nchunk_size = 1_000\n[grid]\nplayers = [4]\n",
    "exprun/experiment.toml": "[grid]\n",
    "balrun/balance.json": "{}",
    "simrun/meta.json": "{}",
    "tunerun/checkpoint.json": "{}",
    "notes/readme.txt": "my notes",
    "rules.toml": "[grid]\nplayers = [4]\n[rules]\ngold = 3\n",
    "tiny_check.toml": "games = 100\n[grid]\nplayers = [4]\n",
}
SIM = ["simulate", "--games", "10", "--no-progress"]

CASES = [  # (argv, words the one line must hold)
    # the tracebacks
    (SIM + ["--out", "x.txt"], ["'x.txt'", "it is a file", "give a directory"]),
    (SIM + ["--out", "/proc/citadels-out"], ["'/proc/citadels-out'", "a directory you can"]),
    (SIM + ["--bots-dir", "x.txt"], ["--bots-dir", "'x.txt'", "a file"]),
    (SIM + ["--strategies", "prepared", "--bots-dir", " "], ["--bots-dir", "An empty name"]),
    (SIM + ["--strategies", "heuristic,prepared"], ["'prepared'", "give it alone"]),
    (["prepare", "--preparation", "6"], ["--preparation", "from 1 to 5", "got 6"]),
    (["balance", "--characters", "base", "--strategies", "prepared,prepared9"],
     ["'prepared9'", "prepared2 to prepared5"]),
    (["balance", "--characters", "base", "--strategies", "prepared,prepared"],
     ["distinct populations", "['prepared', 'prepared']"]),
    (SIM + ["--strategies", "prepered"], ["'prepered'", "reference_classic,",
                                          "made for one player count"]),
    (SIM + ["--strategies", "heuristic:base=1"], ["'base=1'", "base1=number"]),
    (["replay", "--game", "99999999999999999999999"],
     ["99999999999999999999999", "0 to 2**63 - 1"]),
    (["experiment", "five.toml"], ["line-up 'mixed'", "5 strategies for 4 players",
                                   "at most 4"]),
    # the silent ones
    (["simulate", "--games", "1000000000000"], ["1,000,000,000,000 games", "available",
                                                "at most", "games in one simulate"]),
    (["simulate", "--games", "99999999999999999999"], ["99,999,999,999,999,999,999 games",
                                                      "at most", "games in one simulate"]),
    (SIM + ["--out", "exprun"], ["'exprun'", "an experiment's run", "not a simulate run"]),
    (SIM + ["--out", "balrun"], ["'balrun'", "a balance test's run", "not a simulate run"]),
    (["balance", "--characters", "base", "--out", "simrun"],
     ["'simrun'", "a simulate run", "not a balance test's run"]),
    (SIM + ["--strategies", "heuristic:threat=-5"], ["threat = -5", "allowed range 0 to 8"]),
    (SIM + ["--strategies", "heuristic:card_need=1e9"],
     ["card_need = 1e+09", "allowed range 0 to 12"]),
    (SIM + ["--strategies", "heuristic:income=nan"], ["income = nan", "not a finite number"]),
    (SIM + ["--strategies", "heuristic:finish=3"],
     ["does not read 'finish'", "it reads base1 .. base9, income"]),
    (["bench", "--games", "0"], ["at least 1,000 games", "got 0"]),
    (["experiment", "empty.toml"], ["[grid] is empty", "ruleset, players"]),
    (["compare", "heuristic", "builder", "--alpha", "2"], ["--alpha", "--sprt-elo"]),
    (["tune", "--family", "heuristic", "--alpha", "2"], ["alpha", "(0, 0.5)", "got 2.0"]),
    (["tune", "--family", "heuristic", "--name", "../escape"],
     ["'../escape'", "plain file name"]),
    (["tune", "--family", "heuristic", "--games", "1"],
     ["games 1 per candidate", "12 members at 4 players", "at least 48"]),
    # the unclear ones
    (SIM + ["--players", "3", "--characters", ARTIST_SET],
     ["The Artist is a rank-9 character", "3 players in classic", "4-8 players"]),
    (["bench", "--games", "-10"], ["at least 1,000 games", "got -10"]),
    (["experiment", "noplayers.toml"], ["grid.players is an empty list", "at least one"]),
    (["compare", "heuristic", "builder", "--sprt-elo", "10,0"],
     ["elo0 < elo1", "elo0=10, elo1=0"]),
    (["balance", "--characters", "base", "--sdm", "-2"], ["-2 points", "0 to under 100"]),
    (["balance", "--characters", "base", "--check-budget", "-5"],
     ["check_budget", "non-negative integer", "got -5"]),
    (["harden", "--start", "reference", "--exploit-budget", "500"],
     ["--exploit-budget", "500", "at least 6,500"]),
    # more, found by trying
    (["compare", "heuristic", "builder", "--games", "1000000000000"],
     ["200,000,000 chunks", "available", "chunk size of at least"]),
    (["experiment", "huge.toml"], ["1,000,000,000,000 games", "available"]),
    (SIM + ["--games", "1000000000", "--chunk-size", "1000000000"],
     ["2 chunks of 1,000,000,000 games in flight", "available", "games a chunk"]),
    (["replay", "--seed", "-1"], ["seed", "0 to 2**63 - 1", "got -1"]),
    (SIM + ["--strategies", "heuristic,"], ["'heuristic,'", "an empty name"]),
    (SIM + ["--strategies-file", "notes"], ["'notes' is a directory"]),
    (SIM + ["--out", "notes"], ["'notes'", "holds files but no run"]),
    (SIM + ["--out", "tunerun"], ["a tuning run", "not a simulate run"]),
    (["experiment", "escape.toml"], ["'../escaped'", "plain file name"]),
    (SIM + ["--strategies", "random:income=1"], ["random does not read 'income'",
                                                 "no parameter"]),
    (["harden", "--start", "random"], ["start strategy 'random'", "no parameters to tune"]),
    (["harden", "--start", "reference", "--budget", "100"],
     ["--budget", "100", "at least 8,192"]),
    (["tune", "--family", "heuristic", "--validate-games", "1000000000000",
      "--budget", "100000000"], ["validate_games 1,000,000,000,000", "games a chunk"]),
    (SIM + ["--games", "x"], ["--games", "'x'", "citadels simulate --help"]),
    (["exploit", "nosuch"], ["Unknown strategy 'nosuch'"]),
    # a misspelt name is answered with the nearest one
    (SIM + ["--strategies", "reference_vicous_nobles_3p"],
     ["Unknown strategy 'reference_vicous_nobles_3p'",
      "Did you mean 'reference_vicious_nobles_3p'?", "Presets: random"]),
    (SIM + ["--strategies", "reference:want_wizzard=3"],
     ["Unknown parameter 'want_wizzard'", "Did you mean 'want_wizard'?"]),
    (["tune", "--family", "heuristc"],
     ["Unknown strategy family 'heuristc'", "Did you mean 'heuristic'?", "Families: random"]),
    (["exploit", "heuristic", "--families", "heuristic,nosuch"],
     ["exploiter family 'nosuch' (--families)", "Unknown strategy family 'nosuch'"]),
    (["exploit", "heuristic", "--families", "random"],
     ["exploiter family 'random'", "no parameters to tune", "or self, the bot's own"]),
    (["exploit", "random", "--families", "self"],
     ["the bot's own family 'random' (--families self)", "no parameters to tune"]),
    (["harden", "--start", "heuristic", "--exploit-family", "self,nosuch"],
     ["exploiter family 'nosuch' (--exploit-family)", "or self, the bot's own"]),
    (["harden", "--start", "heuristic", "--exploit-family", "heuristic,,"],
     ["--exploit-family 'heuristic,,'", "give one or more exploiter families"]),
    (["harden", "--start", "heuristic", "--exploit-family", "self,self"],
     ["--exploit-family 'self,self'", "names a family twice"]),
    (["exploit", "heuristic", "--budget", "7000"],
     ["--budget", "7000", "a reference exploit search", "at least 8,000"]),
    (["exploit", "heuristic", "--validate-games", "0"],
     ["--validate-games", "at least 1", "got 0"]),
    (["exploit", "heuristic", "--name", "../escape"], ["'../escape'", "plain file name"]),
    # house rules (issue 20)
    (SIM + ["--rule", "thief_shares=50"], ["'thief_shares'", "Did you mean 'thief_share'?",
                                           "Allowed: start_gold"]),
    (SIM + ["--rule", "thief_share=150"], ["thief_share = 150", "0-100 %"]),
    (SIM + ["--rule", "thief_share"], ["--rule takes NAME=VALUE", "'thief_share'"]),
    (SIM + ["--rule", "start_gold=2.5"], ["--rule takes NAME=VALUE", "whole number"]),
    (SIM + ["--rule", "queen_gold=4"], ["queen_gold concerns the Queen", "not in this"]),
    (["balance", "--characters", "base", "--rule", "merchant_gold=-1"],
     ["merchant_gold = -1", "0-10 gold"]),
    (["experiment", "rules.toml"], ["cell classic 4p", "Unknown house rule 'gold'"]),
    (["experiment", "tiny_check.toml", "--check-budget", "-5"],
     ["--check-budget -5", "0 (no bot check)", "200000"]),
    (["experiment", "tiny_check.toml", "--check-budget", "50"],
     ["check_budget 50", "less than one generation", "give at least"]),
    (["sweep", "thief_share", "--values", "50,x"], ["--values", "'50,x'", "LO:HI:STEP"]),
    (["sweep", "thief_share", "--values", "0:100:0"], ["--values", "step at least 1"]),
    (["sweep", "thief_share", "--values", "50,150"], ["cannot sweep thief_share to 150",
                                                       "thief_share = 150", "0-100 %"]),
    (["sweep", "thief", "--values", "50"], ["Unknown house rule 'thief'"]),
    (SIM + ["--variants", "nofile.toml"], ["variants file 'nofile.toml' does not exist"]),
    (SIM + ["--variants", "notes"], ["variants file 'notes' is a directory"]),
]


def _tree(root):
    """Every file under ``root`` with a hash of its content."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("argv,words", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_gets_one_line_and_writes_nothing(argv, words, tmp_path, monkeypatch,
                                                   capsys):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    before = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("citadels: error: "), err
    assert all(w in err for w in words), err
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("call,words", [
    (lambda: simulate(strategies="heuristic:income=nan", games=10), "income = nan"),
    (lambda: GameConfig(players=3, characters=ARTIST_SET.split(",")),
     "The Artist is a rank-9 character"),
    (lambda: Balance("base", sdm=-0.02), "got -2 points"),
    (lambda: Sprt.from_elo(10, 0), "elo0=10, elo1=0"),
    (lambda: simulate(games=10**12), "games in one simulate"),
    (lambda: tune_module.tune("heuristic", name="../x"), "'../x' is not a plain file name"),
    (lambda: exploit("heuristic", families="heuristic,random"), "no parameters to tune"),
])
def test_the_python_api_refuses_the_same(call, words):
    with pytest.raises((ConfigError, StrategyError), match=words.replace("(", r"\(")
                       .replace(")", r"\)")):
        call()


def test_harden_rounds_0_measures_the_start(tmp_path, capsys):
    code = main(["harden", "--start", "builder", "--rounds", "0", "--exploit-budget", "6500",
                 "--validate-games", "1000", "--runs", str(tmp_path / "runs"), "--reports",
                 str(tmp_path / "reports"), "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "hardened in 0 rounds" in out and "round 0: builder" in out
    assert "(start)" in (tmp_path / "reports" / "hardened-builder" / "report.md").read_text()


# ---- Ctrl-C ---------------------------------------------------------------------------------
def _interrupt_after(monkeypatch, owner, name, calls):
    """Make ``owner.name`` raise KeyboardInterrupt once it has run ``calls`` times."""
    original, seen = getattr(owner, name), []

    def stop(*args, **kwargs):
        result = original(*args, **kwargs)
        seen.append(1)
        if len(seen) == calls:
            raise KeyboardInterrupt
        return result
    monkeypatch.setattr(owner, name, stop)


def _interrupted(argv, capsys):
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("citadels: interrupted: "), err
    return err


def test_ctrl_c_in_simulate_says_what_was_written_and_a_rerun_resumes(tmp_path, monkeypatch,
                                                                      capsys):
    argv = SIM[:-3] + ["--games", "500", "--chunk-size", "100", "--out", str(tmp_path / "o"),
                       "--no-progress"]
    with monkeypatch.context() as m:
        _interrupt_after(m, store.ChunkWriter, "write", 2)
        err = _interrupted(argv, capsys)
    assert f"2 of 5 chunks written to {tmp_path / 'o'}; rerun the same command to resume" in err
    assert main(argv) == 0 and "500 games" in capsys.readouterr().out


def test_one_ctrl_c_raised_twice_gives_one_message(tmp_path, monkeypatch, capsys):
    """polars raises KeyboardInterrupt in a query and Python's handler raises the same Ctrl-C
    again at the next call: here in the chunk stream's clean-up, run as a finalizer."""
    argv = SIM[:-3] + ["--games", "500", "--chunk-size", "100", "--out", str(tmp_path / "o"),
                       "--no-progress"]
    cancel, again = concurrent.futures.Future.cancel, []

    def cancel_once_interrupted(future):
        if threading.current_thread() is threading.main_thread() and not again:
            again.append(1)
            raise KeyboardInterrupt
        return cancel(future)
    monkeypatch.setattr(concurrent.futures.Future, "cancel", cancel_once_interrupted)
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)  # not pytest's
    _interrupt_after(monkeypatch, store.ChunkWriter, "write", 2)
    err = _interrupted(argv, capsys)
    assert again and "2 of 5 chunks written" in err


def test_ctrl_c_in_simulate_without_out_keeps_nothing(monkeypatch, capsys):
    _interrupt_after(monkeypatch, simulate_module, "play_task", 1)
    err = _interrupted(SIM[:-3] + ["--games", "300", "--chunk-size", "100", "--no-progress"],
                       capsys)
    assert "nothing kept" in err and "rerun" not in err


def test_ctrl_c_in_experiment_and_balance(tmp_path, monkeypatch, capsys):
    (tmp_path / "tiny.toml").write_text("games = 400\nchunk_size = 100\n[grid]\n"
                                        "players = [4]\n")
    runs = tmp_path / "runs"
    _interrupt_after(monkeypatch, store.ChunkWriter, "write", 3)
    err = _interrupted(["experiment", str(tmp_path / "tiny.toml"), "--runs", str(runs),
                        "--reports", str(tmp_path / "reports"), "--no-progress"], capsys)
    assert f"3 of 4 chunks written to {runs / 'tiny'}; rerun the same command" in err
    _interrupt_after(monkeypatch, store.ChunkWriter, "write", 2)
    err = _interrupted(["balance", "--characters", "base", "--players", "4", "--games", "200",
                        "--deals", "10", "--chunk-size", "50", "--out", str(tmp_path / "b"),
                        "--strategies", "reference", "--no-progress"], capsys)
    assert f"2 chunks written to {tmp_path / 'b'}; rerun the same command" in err
    # with the default (prepared) bots, Ctrl-C in the repair of a prepared bot says so too
    _interrupt_after(monkeypatch, store.ChunkWriter, "write", 1)
    err = _interrupted(["prepare", "--players", "4", "--bots-dir", str(tmp_path / "bots"),
                        "--no-progress"], capsys)
    assert "the hardening is done; 1 chunks of its repair written to" in err
    assert "rerun the same command" in err


TINY_TUNE = ["--league", "heuristic", "--budget", "600", "--games", "40", "--popsize", "4",
             "--validate-games", "400", "--sprt-games", "200", "--no-progress"]


def test_ctrl_c_in_tune_and_harden_says_the_generation_checkpointed(tmp_path, monkeypatch,
                                                                     capsys):
    runs = tmp_path / "runs"
    _interrupt_after(monkeypatch, tune_module.Checkpoint, "save", 1)
    err = _interrupted(["tune", "--family", "heuristic", "--name", "t", "--runs", str(runs),
                        *TINY_TUNE], capsys)
    assert f"1 of 3 generations checkpointed in {runs / 't'}; rerun the same command" in err
    assert main(["tune", "--family", "heuristic", "--name", "t", "--runs", str(runs),
                 "--reports", str(tmp_path / "reports"), *TINY_TUNE]) == 0
    _interrupt_after(monkeypatch, tune_module.Checkpoint, "save", 1)
    err = _interrupted(["harden", "--start", "reference", "--rounds", "1", "--budget", "8064",
                        "--exploit-budget", "6500", "--runs", str(runs), "--no-progress"],
                       capsys)
    assert (f"0 of 3 searches finished; 1 of 1 generations checkpointed in "
            f"{runs / 'hardened-reference-exploit0'}") in err


def test_a_real_ctrl_c_stops_simulate_without_a_traceback(tmp_path):
    out = tmp_path / "o"
    proc = subprocess.Popen([sys.executable, "-m", "citadels_sim", "simulate", "--games",
                             "4000000", "--chunk-size", "50000", "--out", str(out),
                             "--no-progress"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_default)
    deadline = time.monotonic() + 300
    while not list((out / "seats").glob("part-*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=300)[1]
    assert proc.returncode == 130, err
    assert err.startswith("citadels: interrupted: ") and "of 80 chunks written" in err
    assert "Traceback" not in err


def _ctrl_c_default():
    """Ctrl-C as a terminal delivers it, even when the tests run where it is ignored (a
    job started in the background of a script ignores SIGINT, and so do its children)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def ctrl_c_raises():
    """Python's own Ctrl-C handler in this process for the test, whatever it inherited."""
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, inherited)


def test_a_ctrl_c_while_a_chunk_is_written_stops_the_run_after_it(tmp_path, monkeypatch,
                                                                  ctrl_c_raises):
    import polars as pl
    written = pl.DataFrame.write_parquet

    def pressed_mid_write(frame, path, *args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        written(frame, path, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", pressed_mid_write)
    frames = {t: pl.DataFrame({"game": [0, 1]}) for t in ("seats", "characters")}
    with pytest.raises(KeyboardInterrupt):
        store.write_frames(tmp_path, 0, frames)
    assert store.chunks_written(tmp_path) == 1
    assert sorted(p.name for p in tmp_path.glob("*/*")) == [store.part_name(0)] * 2
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# ---- memory -----------------------------------------------------------------------------------
def test_memory_limits_follow_the_memory_available(monkeypatch):
    config, names = GameConfig(), ["heuristic"] * 4
    playing, kept = simulate_module.memory_per_game(config, names, False, 1_000)
    monkeypatch.setattr(simulate_module, "available_memory", lambda: 10**8)
    most = int(10**8 / playing)
    simulate_module.check_memory(most // 2, most // 2, config, names, False, here=True,
                                 held=False)
    with pytest.raises(ConfigError, match="games a chunk"):
        simulate_module.check_memory(2 * most, 2 * most, config, names, False, here=True,
                                     held=False)
    with pytest.raises(ConfigError, match="games in one simulate"):
        simulate_module.check_memory(int(2 * 10**8 / kept), 1_000, config, names, False,
                                     here=True, held=True)
    with pytest.raises(ConfigError, match=r"at most [1-9][\d,]* games in one simulate"):
        simulate_module.check_memory(10**20, 1_000, config, names, False, here=True,
                                     held=True)  # the chunks' descriptions alone too many


def test_sizes_read_in_one_unit_without_a_decimal_on_a_huge_number():
    assert [simulate_module._size(n) for n in (999, 1_234_567, 1.2e15, 1.156e22)] == [
        "999 bytes", "1.2 MB", "1.2 PB", "11,560,000 PB"]


# ---- strategy parameters ----------------------------------------------------------------------
STALL_CONFIGS = [GameConfig(players=2), GameConfig(),
                 GameConfig(ruleset="2016", players=3, characters="cunning_agents",
                            districts="cunning_agents"),
                 GameConfig(ruleset="four_color", players=7),
                 GameConfig(players=8, characters=ARTIST_SET.split(","))]
#: the share of games reaching the round cap that counts as a stall
STALL = 0.05


def _capped(strategy, config, games=200):
    raw = play_chunk(build_tables(config, [strategy] * config.players), 3, 0, games,
                     config.players, False, config.max_rounds)
    return float((raw["game"][:, L.OG_CAP_HIT] == 1).mean())


@pytest.mark.parametrize("family", ["builder", "aggressive", "heuristic", "reference"])
def test_no_value_in_an_allowed_range_stalls_games(family):
    """Each end of every allowed range, one parameter at a time, every seat alike; the one
    exception the strategies' docstring names: card_need = 0 (never take cards) stalls
    games at 2 players."""
    preset = get(family)
    ends = [("base", v) for v in allowed_range(*BASE_BOUNDS)]
    ends += [(k, v) for k in FAMILY_PARAMS[family] if not k.startswith("want_")
             for v in PARAMS[k].allowed]
    ends += [(k, v) for k in ("want_king", "want_merchant") if k in FAMILY_PARAMS[family]
             for v in PARAMS[k].allowed]
    for key, value in ends:
        s = (preset.with_params(base=(value,) * 9) if key == "base" else
             preset.with_params(**{key: value})).check_ranges()
        shares = [_capped(s, c) for c in STALL_CONFIGS]
        if (key, value) == ("card_need", 0.0):
            assert family != "aggressive" or shares[0] > STALL, shares
            continue
        assert max(shares) <= STALL, (key, value, shares)



@pytest.mark.parametrize("args,words", [
    (["exploit", "reference", "--budget", "99999999999999999999"], "--budget"),
    (["harden", "--start", "reference", "--exploit-budget", "20000000000"], "--exploit-budget"),
    (["balance", "--characters", "base", "--check-budget", "10000000001"], "--check-budget"),
])
def test_a_huge_search_budget_is_refused(args, words, capsys, tmp_path):
    assert main(args + ["--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "at most 10,000,000,000" in err[0]
