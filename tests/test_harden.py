"""citadels harden: the double-oracle loop of tuning runs, its report, resuming, errors."""

from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from citadels_sim import GameConfig, harden, reporting
from citadels_sim.cli import main
from citadels_sim.game.strategies import get, mix
from citadels_sim.studies import harden as hardening
from citadels_sim.studies.exploit import exploit

SMALL = dict(rounds=1, budget=8_064, exploit_budget=6_500, validate_games=1_000,
             progress=False)


@pytest.fixture(scope="module")
def hardened(tmp_path_factory):
    runs = tmp_path_factory.mktemp("runs")
    return runs, harden("reference", GameConfig(players=4), runs_dir=runs, **SMALL)


def test_each_round_tunes_copies_against_the_exploiters_then_exploits_again(hardened):
    _, h = hardened
    first, second = h.exploits
    (tuning,) = h.tunings
    assert first.plan.family == "heuristic" and first.plan.league[0].name == "reference"
    assert tuning.plan.copies and tuning.plan.start.name == "reference"
    assert [s.name for s in tuning.plan.league] == [first.strategy.name, "builder",
                                                    "heuristic"]
    assert np.array_equal(tuning.plan.league[0].row(), first.strategy.row())
    assert np.array_equal(second.plan.league[0].row(), tuning.strategy.row())
    rounds = h.rounds()
    least = int(np.argmin([e.validation["tuned"]["share"] for e in h.exploits]))
    assert h.deployed == least and rounds["deployed"].to_list() == [least == 0, least == 1]
    deployed = tuning.strategy if least else get("reference")
    assert np.array_equal(h.strategy.row(), deployed.row())
    assert rounds["round"].to_list() == [0, 1]
    shares = [e.validation["tuned"]["share"] for e in h.exploits]
    assert np.allclose(rounds["gain_points"], [100 * (s - 0.25) for s in shares])
    assert rounds["copies_share"][1] == tuning.validation["tuned"]["share"]
    assert "round 1" in h.text()


def test_report_and_strategy_file(hardened, tmp_path):
    _, h = hardened
    out = reporting.write(h, tmp_path / "rep")
    for name in ("report.md", "report.html", "strategy.toml", "figures/exploitability.png",
                 "tables/rounds.csv", "metadata.json"):
        assert (out / name).exists(), name
    assert "citadels harden --start reference" in (out / "report.md").read_text()
    loaded = get(f"{out / 'strategy.toml'}:{h.strategy.name}")
    assert np.array_equal(loaded.row(), h.strategy.row())


def test_a_rerun_resumes_every_search_without_playing(hardened):
    runs, h = hardened
    again = harden("reference", GameConfig(players=4), runs_dir=runs, **SMALL)
    assert all(t.timing["session_games"] == 0 for t in (*again.exploits, *again.tunings))
    assert again.rounds().equals(h.rounds())


def test_confirm_gives_the_least_exploited_rounds_the_exploit_test(hardened, tmp_path):
    """confirm_rounds: after the searches (read back here) the rounds whose searches gained
    least get the exploit test on deals of another seed, in that order (a round whose
    searches gained more than a test already found is passed over), and the one it finds
    least exploited is deployed; each reading is the exploit test's, as a user runs it."""
    runs, h = hardened
    again = harden("reference", GameConfig(players=4), runs_dir=runs, **SMALL,
                   confirm_rounds=2, confirm_budget=8_064)
    gains = h.rounds()["gain_points"].to_list()
    order = sorted(range(2), key=gains.__getitem__)
    first = again.confirmed[0]
    assert first["round"] == order[0]
    assert len(again.confirmed) == (2 if gains[order[1]] <= first["gain_points"] else 1)
    assert again.deployed == min(again.confirmed, key=lambda r: r["gain_points"])["round"]
    assert np.array_equal(again.strategy.row(), again.candidate(again.deployed).row())
    seed = again.settings["confirm_seed"]
    assert seed != again.settings["seed"]
    direct = exploit(again.candidate(order[0]), GameConfig(players=4), budget=8_064,
                     validate_games=1_000, seed=seed, runs_dir=tmp_path, progress=False)
    assert direct.largest_gain == first["gain_points"]
    assert "the least exploited in the exploit test" in again.text()
    assert f"round {order[0]}: a " in again.text().split("exploit test (")[1]
    out = reporting.write(again, tmp_path / "rep")
    md = (out / "report.md").read_text()
    assert "The exploit test of the least exploited rounds" in md
    assert "--confirm 2 --confirm-budget 8064" in md


def test_confirm_tests_a_mixture_kept_over_several_rounds_once(monkeypatch):
    """A mixing round can keep the last round's mixture: confirm counts rounds that play
    the same games once and tests the next distinct one instead."""
    plain, tuned = get("reference"), get("reference_classic")
    same = mix("m", [plain, tuned], [0.5, 0.5])
    candidates = [plain, same, replace(same, name="m2"), tuned]

    class Found:
        config = GameConfig(players=4)

        def rounds(self):
            return pl.DataFrame({"gain_points": [9.0, 2.0, 2.0, 5.0]})

        def candidate(self, k):
            return candidates[k]

    tested = []

    def recorded(bot, config, name, **test):
        tested.append(name)
        return {"exploit_family": "self", "gain_points": 6.0, "gain_low": 5.0,
                "gain_high": 7.0}

    monkeypatch.setattr(hardening, "exploit_test", recorded)
    rows = hardening.confirm(Found(), 2, "x-")
    assert tested == ["x-confirm-round1", "x-confirm-round3"]
    assert [r["round"] for r in rows] == [1, 3]


@pytest.mark.parametrize("args,message", [
    (["--rounds", "-1"], "rounds must be a whole number of at least 0"),
    (["--rounds", "99999999999"], "rounds 99,999,999,999 is more than 100"),
    (["--validate-games", "0"], "validate_games must be positive"),
    (["--extra", "nosuch"], "Unknown strategy 'nosuch'"),
    (["--confirm", "-1"], "confirm_rounds (--confirm) must be a whole number of rounds"),
    (["--confirm", "2", "--confirm-budget", "5"], "confirm_budget (--confirm-budget) 5 is less"),
    (["--confirm-budget", "-5"], "confirm_budget (--confirm-budget) -5 is less"),
])
def test_bad_input_is_a_clear_error(args, message, tmp_path, capsys):
    assert main(["harden", "--start", "reference", *args, "--runs", str(tmp_path),
                 "--reports", str(tmp_path), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_one_liner(tmp_path, capsys):
    code = main(["harden", "--start", "reference", "--players", "4", "--rounds", "1",
                 "--budget", "8064", "--exploit-budget", "6500", "--validate-games", "1000",
                 "--name", "hard", "--runs", str(tmp_path / "runs"), "--reports",
                 str(tmp_path / "reports"), "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "hard: hardened in 1 rounds" in out and "round 1: hard-round1" in out
    assert (tmp_path / "reports" / "hard" / "strategy.toml").exists()


def test_several_exploit_families_search_one_exploiter_each_per_round(tmp_path):
    """exploit_family "heuristic,reference": each round searches both (runs NAME-exploitK-
    FAMILY), both join the next round's league, and a round's exploit is its strongest."""
    h = harden("reference", GameConfig(players=2), rounds=1, budget=8_064,
               exploit_budget=8_000, validate_games=1_000, progress=False,
               exploit_family="heuristic,reference", name="two", runs_dir=tmp_path)
    assert [[s.plan.family for s in found] for found in h.searches] == [
        ["heuristic", "reference"]] * 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "two-exploit0-heuristic", "two-exploit0-reference", "two-exploit1-heuristic",
        "two-exploit1-reference", "two-round1"]
    league = [s.name for s in h.tunings[0].plan.league]
    assert league[:2] == [s.strategy.name for s in h.searches[0]]
    for found, strongest in zip(h.searches, h.exploits):
        assert strongest.validation["tuned"]["share"] == max(
            s.validation["tuned"]["share"] for s in found)
    assert h.rounds()["exploit_family"].to_list() == [e.plan.family for e in h.exploits]
    assert h.settings["exploit_family"] == "heuristic,reference"
    with pytest.raises(ValueError, match="names a family twice"):
        harden("reference", GameConfig(players=2), exploit_family="heuristic,heuristic")


def test_a_self_search_starts_from_the_round_s_bot(tmp_path):
    """exploit_family "self": each round's exploit search tunes the bot's own family from
    the round's bot, and the rounds table names it ``self``."""
    h = harden("reference", GameConfig(players=2), rounds=1, budget=8_064,
               exploit_budget=8_000, validate_games=1_000, progress=False,
               exploit_family="heuristic,self", name="own", runs_dir=tmp_path)
    assert [[s.plan.family for s in found] for found in h.searches] == [
        ["heuristic", "reference"]] * 2
    assert [found[1].plan.start.name for found in h.searches] == ["reference", "own-round1"]
    assert [found[1].plan.league[0].name for found in h.searches] == [
        "reference", "own-round1"]
    assert "own-exploit1-self" in {p.name for p in tmp_path.iterdir()}
    assert h.rounds()["exploit_family"].to_list() == [
        "self" if e is found[1] else "heuristic" for e, found in zip(h.exploits, h.searches)]


def test_until_stops_once_a_round_s_exploiter_gains_little(tmp_path):
    """until: no round is tuned after one whose strongest exploiter gained at most that
    many win-rate points (here: round 0 already), and the command says so."""
    h = harden("reference", GameConfig(players=4), runs_dir=tmp_path, name="u", until=99.0,
               **{**SMALL, "rounds": 3, "budget": 8_192})
    assert h.tunings == [] and h.deployed == 0 and len(h.exploits) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["u-exploit0"]
    assert "--until 99" in reporting.harden.command(h)


def test_until_out_of_range_is_refused_in_one_line(capsys):
    assert main(["harden", "--start", "reference", "--until", "nan", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "until must be a number of win-rate points" in err and err.count("\n") == 1
