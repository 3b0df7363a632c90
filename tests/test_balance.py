"""`citadels balance`: right or refusing, restricted play, paired set-vs-base, verdicts."""

import json
import re
import shlex
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from citadels_sim import GameConfig, simulate
from citadels_sim.cli import build_parser, main
from citadels_sim.cli.studies import balance_spec
from citadels_sim.game.config import ConfigError
from citadels_sim.game.strategies import FAMILY_PARAMS, get, load_file
from citadels_sim.kernel import layout as L
from citadels_sim.stats.intervals import DealMoments
from citadels_sim.stats.verdict import decide, mark_bot_dependent
from citadels_sim.studies import balance, exploit as exploiting
from citadels_sim.studies.experiment import parse
from citadels_sim.studies.exploit import exploit

DARK = ("Witch", "Thief", "Wizard", "King", "Bishop", "Merchant", "Architect", "Diplomat",
        "Queen")
SMALL = dict(games=400, deals=100, chunk_size=200, check_budget=0,
             strategies=("heuristic", "reference"))


def test_a_count_the_rules_refuse_is_an_error_before_anything_runs(tmp_path):
    spec = balance.Balance(DARK, players=(4, 5), removed=("Graveyard",), **SMALL)
    with pytest.raises(ConfigError, match="cannot be played at 4 players.*Queen.*--skip-invalid"):
        balance.run(spec, tmp_path / "out", progress=False)
    assert not (tmp_path / "out").exists()


def test_the_cli_refuses_it_with_a_message(tmp_path, capsys):
    code = main(["balance", "--characters", ",".join(DARK), "--players", "4,5", "--removed",
                 "Graveyard", "--out", str(tmp_path / "o"), "--no-progress"])
    assert code == 2 and "4 players" in capsys.readouterr().err


@pytest.fixture(scope="module")
def skipped_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("bal")
    spec = balance.Balance(DARK, players=(1, 5), removed=("Graveyard",), skip_invalid=True,
                           **SMALL)
    return balance.run(spec, root / "out", progress=False), root / "out"


def test_skip_invalid_says_so_and_every_table_names_its_set(skipped_run):
    result, _ = skipped_run
    text = result.text()
    assert "SKIPPED 1 players" in text
    assert set(result.values["players"]) == {5}
    assert set(result.values.filter(pl.col("set") == "custom")["character"]) == set(DARK)
    assert "custom character" in text and "Wizard" in text and "Queen" in text


def test_the_base_set_plays_the_deck_without_the_diplomats_removal(skipped_run):
    result, root = skipped_run
    cells = {c.characters: c.config for c in result.record.experiment.cells}
    assert cells["custom"].removed == ("Graveyard",) and not cells["base"].removed
    assert L.D_GRAVEYARD not in cells["custom"].purple_counts
    assert cells["base"].purple_counts[L.D_GRAVEYARD] == 1


def test_the_bots_judged_under_are_written_as_a_strategy_file(skipped_run):
    result, root = skipped_run
    path = root / balance.STRATEGIES_FILE
    assert result.strategies_file == path and str(path) in result.text()
    written = load_file(path)
    assert list(written) == ["balance_heuristic", "balance_reference"]
    for population in result.spec.strategies:
        mine, played = get(f"{path}:balance_{population}"), get(population)
        assert (mine.family, mine.base) == (played.family, played.base)
        assert np.array_equal(mine.row(), played.row())
        assert set(mine.params) == set(FAMILY_PARAMS[played.family])  # every one written
    assert balance.judged_name("heuristic:threat=2") == "balance_heuristic_threat_2"


def test_a_rerun_resumes_and_another_test_is_refused_without_touching_it(skipped_run):
    result, root = skipped_run
    marker = (root / "balance.json").read_text()
    again = balance.run(result.spec, root, progress=False)  # everything read back
    assert again.values.equals(result.values)
    other = balance.Balance(DARK, players=(5,), removed=("Graveyard",), sdm=0.03, **SMALL)
    with pytest.raises(ConfigError, match="already holds a different run"):
        balance.run(other, root, progress=False)
    assert (root / "balance.json").read_text() == marker


def test_default_directories_differ_for_different_tests():
    a = balance.Balance("first_game", ruleset="2016")
    assert a.default_out() != balance.Balance("first_game", ruleset="2016", seed=1).default_out()
    assert a.default_out() != balance.Balance("cunning_agents", ruleset="2016").default_out()
    assert a.default_out() == balance.Balance("first_game", ruleset="2016").default_out()


def test_a_2016_named_set_brings_its_own_districts():
    spec = balance.Balance("cunning_agents", ruleset="2016")
    assert spec.own_districts == "cunning_agents"
    assert "the named set's own" in spec.districts_text()
    assert balance.Balance("cunning_agents", ruleset="2016",
                           districts="first_game").own_districts == "first_game"


CUSTOM_2016 = ("Magistrate", "Spy", "Seer", "Patrician", "Cardinal", "Trader", "Scholar",
               "Marshal", "Tax Collector")


def test_a_custom_2016_set_plays_the_first_game_unique_districts():
    spec = balance.Balance(CUSTOM_2016, ruleset="2016", players=(5,), **SMALL)
    assert spec.districts_text() == "the first_game unique districts"
    cells = parse(spec.experiment_text([5]), "games").cells
    first_game = GameConfig(ruleset="2016", players=5).purple_counts
    assert {c.characters for c in cells} == {"custom", "base"}
    assert all(c.config.purple_counts == first_game for c in cells)


def test_the_command_gives_back_the_same_test():
    spec = balance.Balance(CUSTOM_2016, ruleset="2016", players=(5, 6), seed=3, sdm=0.035,
                           districts="cunning_agents",
                           **{**SMALL, "check_budget": 7000, "strategies": ("builder",)})
    command = spec.command(spec.default_out())
    assert "--out" not in command
    assert balance_spec(build_parser().parse_args(shlex.split(command)[1:])) == spec


def test_a_set_identical_to_the_base_set_is_played_and_printed_once(tmp_path):
    # in 2016, first_game is the base set: said once, played once, nothing compared
    spec = balance.Balance("first_game", ruleset="2016", players=(4,), **SMALL)
    result = balance.run(spec, tmp_path / "o", progress=False)
    assert result.alone and set(result.values["set"]) == {"first_game"}
    assert not result.against_base.height and not result.games.height
    text = result.text()
    assert text.count("is the base set") == 1 and "set - base" not in text
    assert text.count("rank first_game character") == len(spec.strategies)
    from citadels_sim import reporting
    md = (reporting.write(result, tmp_path / "rep") / "report.md").read_text()
    assert md.count("is the base set") == 1 and "## The set in detail" in md
    assert "against the base set" not in md
    base = GameConfig(players=4).character_names
    assert balance.Balance(base, players=(4, 5)).sets([4, 5]) == ["custom"]
    assert balance.Balance(DARK, removed=("Graveyard",)).sets([5]) == ["custom", "base"]


@pytest.mark.parametrize("out", ["file/below", "."])
def test_an_unwritable_out_is_a_clear_error(tmp_path, out, capsys):
    (tmp_path / "file").write_text("x")
    target = tmp_path / out if out != "." else "/proc/citadels"
    code = main(["balance", "--characters", "base", "--players", "4", "--games", "100",
                 "--deals", "10", "--check-budget", "0", "--out", str(target), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write the run to" in err and "Traceback" not in err


@pytest.mark.parametrize("players", [2, 4, 7])
def test_a_barred_player_never_picks_his_character(players):
    h = get("heuristic")
    res = simulate(GameConfig(players=players), [h.restricted("King")] + [h] * (players - 1),
                   games=300, seed=3, progress=False)
    mine = res.characters.filter(pl.col("strategy") == "heuristic (no King)")
    king = mine.filter(pl.col("character") == "King")
    assert king["offered"].sum() > 0 and king["picked"].sum() == 0
    assert mine["picked"].sum() == mine["rounds_held"].sum() or players == 2


def test_forbidding_a_character_the_set_lacks_is_an_error():
    with pytest.raises(ConfigError, match="forbids 'Witch'"):
        simulate(GameConfig(), get("heuristic").restricted("Witch"), games=10)


def test_skip_invalid_must_be_a_boolean():
    with pytest.raises(ConfigError, match="skip_invalid must be true or false"):
        parse('skip_invalid = "no"\n[grid]\nplayers = [4]\n', "x")
    with pytest.raises(ConfigError, match="skip_invalid must be true or false"):
        balance.Balance("base", skip_invalid="no")


def test_toml_errors_name_the_file(tmp_path):
    from citadels_sim.studies.experiment import load
    bad = tmp_path / "bad.toml"
    bad.write_text("games = [\n")
    with pytest.raises(ConfigError, match="bad.toml"):
        load(bad)
    bad.write_text("skip_invalid = 1\n[grid]\nplayers = [4]\n")
    with pytest.raises(ConfigError, match="bad.toml.*skip_invalid"):
        load(bad)


def test_the_round_cap_warns_loudly():
    result = balance.BalanceResult(balance.Balance("base"), None, pl.DataFrame(),
                                   pl.DataFrame(), pl.DataFrame(), pl.DataFrame(),
                                   capped=pl.DataFrame({"cell": ["x"], "capped_share": [0.9]}))
    assert any("90% of the games of x hit the round cap" in w for w in result.warnings())


def test_deal_moments_give_the_contrast_and_its_standard_error():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(1000, 3))
    m = DealMoments(3)
    m.add(x[:400])
    m.add(x[400:])
    w = np.array([1.0, -0.5, 2.0])
    mean, se = m.contrast(w)
    y = x @ w
    assert mean == pytest.approx(y.mean()) and se == pytest.approx(y.std(ddof=1) / np.sqrt(1000))


def test_verdicts_against_the_smallest_difference_that_matters():
    t = pl.DataFrame({"g": ["a"] * 4, "effect": [0.06, -0.05, 0.001, 0.025],
                      "effect_se": [0.005, 0.005, 0.002, 0.01]})
    v = decide(t, ["g"], sdm=0.02)
    assert v["verdict"].to_list() == ["strong", "weak", "even", "unclear"]
    # the intervals are at each test's Holm level: a decided one clears the band
    strong = v.row(0, named=True)
    assert strong["effect_low"] > 0.02 and strong["level"] == pytest.approx(0.05 / 4)
    assert v.row(2, named=True)["effect_high"] < 0.02


def test_a_verdict_that_changes_direction_between_bots_is_marked():
    t = pl.DataFrame({"c": ["X", "X", "Y", "Y"], "pop": ["h", "r", "h", "r"],
                      "effect": [0.05, -0.01, 0.05, 0.04],
                      "verdict": ["strong", "unclear", "strong", "strong"]})
    marked = mark_bot_dependent(t, ["c"])
    assert marked["bot_dependent"].to_list() == [True, True, False, False]


def meta_command(path):
    return json.loads((path / "metadata.json").read_text())["command"]


def test_the_report_opens_with_the_verdict(skipped_run, tmp_path):
    from citadels_sim import reporting
    result, root = skipped_run
    path = reporting.write(result, tmp_path / "rep")
    md = (path / "report.md").read_text()
    assert md.index("## Verdict") < md.index("## Character values") < md.index("## Both sets")
    # one verdict, restricted play's; the holders' rates are described, not judged
    assert md.count("## Verdict") == 1
    detail = md[md.index("## Both sets"):]
    assert "not a verdict" in detail and "Cells left out" not in detail  # the decks crossed
    assert not re.search(r"\| (strong|weak|even|unclear) \|", detail)
    assert not (path / "tables" / "detail_verdict.csv").exists()
    for link in re.findall(r"\(tables/([^)]+\.csv)\)", md):
        assert (path / "tables" / link).is_file(), link
    # the reproduce line is the command that plays this very test into this directory
    command = re.search(r"Reproduce with `([^`]+)`", md)[1]
    assert "citadels experiment" not in md and command == meta_command(path)
    args = build_parser().parse_args(shlex.split(command)[1:])
    assert balance_spec(args) == result.spec and Path(args.out) == root
    # the bots judged under, beside the report
    assert "[strategies.toml](strategies.toml)" in md
    assert f"**Next:** {result.next_step()}" in md[:md.index("## Bot check")]
    assert (path / "strategies.toml").read_text() == result.strategies_file.read_text()
    meta = json.loads((path / "metadata.json").read_text())
    assert json.loads(meta["balance"])["characters"] == list(DARK)


def test_win_rate_points_are_named_where_they_first_appear_and_kept(skipped_run, tmp_path):
    from citadels_sim import reporting
    result, _ = skipped_run
    md = (reporting.write(result, tmp_path / "rep") / "report.md").read_text()
    for text in (result.text(), md[:md.index("## Both sets")]):
        first = text.index("points")
        assert text[:first].endswith("win-rate ")
        assert text[first:].startswith("points (percentage points of games won")
        assert set(re.findall(r"([\w-]+) points", text)) <= {"win-rate", "victory", "percentage"}
    # a win rate of whole games in %, its difference in win-rate points
    assert re.search(r"first crown's seat's win rate \d+\.\d% vs \d+\.\d% \([+-]\d+\.\d "
                     r"win-rate points", result.text())


def verdicts(spec=balance.Balance(DARK, strategies=("heuristic", "reference")), checks=None,
             **columns) -> balance.BalanceResult:
    """A result of ``spec`` holding only the verdicts ``columns`` (of the custom set at 4
    players) and the bot check ``checks``."""
    n = len(columns["verdict"])
    values = pl.DataFrame({"players": [4] * n, "set": ["custom"] * n, "rank": range(1, n + 1),
                           "character": (DARK * 2)[:n], "value": [0.0] * n,
                           "value_high": [0.01] * n, "bot_dependent": [False] * n, **columns})
    return balance.BalanceResult(spec, None, values, pl.DataFrame(), pl.DataFrame(),
                                 pl.DataFrame(), checks=checks)


def test_a_population_that_decided_nothing_says_so():
    result = verdicts(population=["heuristic"] * 2 + ["reference"] * 2,
                      effect=[0.05, -0.05, 0.001, 0.03], effect_low=[0.03, -0.07, -0.01, -0.01],
                      effect_high=[0.07, -0.03, 0.01, 0.07],
                      verdict=["strong", "weak", "even", "unclear"])
    lines = result.readings()
    assert lines[0].startswith("Witch: +5.0 win-rate points [3.0, 7.0] at 4p (heuristic)")
    assert len(lines) == 3 and result.nothing_decided() == lines[-1:]
    assert lines[-1] == ("reference bots at 4p: no character differs from the set's mean by "
                         "more than 2 win-rate points (1 even, 1 unclear)")


def test_next_step_names_the_unclear_characters_and_the_even_ones_stay_even():
    result = verdicts(population=["reference"] * 3, effect=[0.001, -0.018, 0.005],
                      effect_low=[-0.01, -0.022, -0.01], effect_high=[0.01, -0.014, 0.02],
                      verdict=["even", "unclear", "unclear"])
    assert result.next_step() == (
        "no character reads strong or weak, but some are unclear (Thief at 4p, Wizard at "
        "4p): raise --deals (now 20,000) to settle them; the others are within 2 win-rate "
        "points of the set's mean.")
    alone = verdicts(population=["reference"] * 2, effect=[0.001, 0.002],
                     effect_low=[-0.01, -0.01], effect_high=[0.01, 0.01], verdict=["even"] * 2)
    assert alone.next_step().startswith("leave the set alone: every character is within 2")


def test_bots_that_fail_their_check_read_bot_limited():
    # heuristic: a value significantly below -1 point; reference: exploited by 7 points (its
    # value below 0 but not significantly below -1 point does not count)
    spec = balance.Balance(DARK[:8], players=(4,), removed=("Graveyard",),
                           strategies=("heuristic", "reference", "builder"))
    pops = [p for p in spec.strategies for _ in range(2)]
    values = verdicts(spec, population=pops, effect=[0.05, -0.05] * 3,
                      effect_low=[0.03, -0.07] * 3, effect_high=[0.07, -0.03] * 3,
                      verdict=["strong", "weak"] * 3,
                      value_high=[0.05, -0.02, 0.05, -0.005, 0.05, 0.01]).values
    asked = []

    def gain(population, config):
        asked.append((population, config.players, config.character_names))
        return {"reference": (7.0, 5.5, 8.5)}.get(population, (1.0, -0.5, 2.5))
    checks = balance.bot_check(spec, values, gain)
    assert asked == [(p, 4, DARK[:8]) for p in spec.strategies]
    assert checks.columns == ["players", "population", "gain_points", "gain_low", "gain_high",
                              "negative_share", "passed"]
    assert checks["negative_share"].to_list() == [0.5, 0.0, 0.0]
    assert checks["passed"].to_list() == [False, False, True]
    result = verdicts(spec, checks, **balance.bot_limited(values, checks).to_dict())
    assert result.verdict_table()["verdict"].to_list() == ["bot-limited"] * 4 + ["strong", "weak"]
    why = result.check_lines()
    assert len(why) == 2 and "they win more without Thief" in why[0]
    assert "an exploiter gains +7.0 win-rate points [+5.5, +8.5]" in why[1]
    assert all("--strategies builder" in line and "citadels harden --start" in line
               for line in why)
    assert all("--players 4 --exploit-family heuristic,reference,self --confirm 2," in line
               for line in why)
    assert "change (or watch) the strong and weak" in result.next_step()
    # without an exploit search only the values decide, and the gain is null
    alone = balance.bot_check(spec, values)
    assert alone["gain_points"].is_null().all()
    assert alone["passed"].to_list() == [False, True, True]


def test_a_reading_that_another_preparation_does_not_give_reads_unconfirmed():
    """Judged under two preparations of the bots, a strong or weak reading stands only where
    both give it: the Witch strong under both stays strong, the Thief strong under one and
    even under the other reads unconfirmed, and so does every reading of a preparation whose
    other one failed its check; the other population (reference) is left alone."""
    spec = balance.Balance(DARK[:8], players=(4,), removed=("Graveyard",),
                           strategies=("prepared", "prepared2", "reference"))
    assert spec.prepared_populations == ["prepared", "prepared2"]
    checks = pl.DataFrame({"players": [4] * 3, "population": list(spec.strategies),
                           "passed": [True] * 3})
    values = verdicts(spec, population=[p for p in spec.strategies for _ in range(3)],
                      effect=[0.05, 0.04, -0.04] * 3, effect_low=[0.03, 0.021, -0.06] * 3,
                      effect_high=[0.07, 0.06, -0.021] * 3,
                      verdict=["strong", "strong", "weak", "strong", "even", "weak",
                               "strong", "even", "weak"],
                      character=list(DARK[:3]) * 3).values
    judged = balance.unconfirmed(spec, balance.bot_limited(values, checks))
    assert judged["verdict"].to_list() == [
        "strong", "unconfirmed", "weak", "strong", "even", "weak", "strong", "even", "weak"]
    failed = checks.with_columns(passed=pl.Series([True, False, True]))
    limited = balance.unconfirmed(spec, balance.bot_limited(values, failed))
    assert limited["verdict"].to_list() == ["unconfirmed"] * 3 + [
        "bot-limited", "even", "bot-limited", "strong", "even", "weak"]
    assert balance.unconfirmed(replace(spec, strategies=("prepared", "reference")),
                               values).equals(values)  # one preparation: nothing to confirm
    result = verdicts(spec, checks, **judged.to_dict())
    assert ("Thief: +4.0 win-rate points [2.1, 6.0] at 4p (prepared) — unconfirmed; "
            "prepared2: +4.0 [2.1, 6.0], even") in result.readings()
    assert result.populations_note() == [
        "judged under 2 preparations of the bots on independent deals (prepared and "
        "prepared2): a strong or weak reading stands only where every one reads it, else it "
        "reads unconfirmed"]
    mixed = verdicts(spec, failed, **limited.head(6).to_dict())
    assert mixed.next_step().startswith("no verdict stands: every strong or weak reading "
                                        "came from bots that failed the bot check, never")
    alone = verdicts(spec, checks, **judged.filter(pl.col("verdict") == "unconfirmed")
                     .to_dict())
    assert alone.next_step().startswith("no verdict stands: the preparations of the bots "
                                        "disagree on every strong or weak reading")
    one = verdicts(balance.Balance(DARK[:8]), **judged.head(1).to_dict())
    assert "--strategies prepared,prepared2 judges again" in one.populations_note()[0]


def test_the_line_before_preparing_names_the_preparations():
    from citadels_sim.cli.studies import preparing_line
    spec = balance.Balance(DARK[:8], players=(4, 5), removed=("Graveyard",))
    assert preparing_line(spec, [4, 5], "b").startswith(
        "preparing the bots first, at 4, 5 players: each is hardened")
    twice = replace(spec, strategies=("prepared", "prepared2"))
    assert preparing_line(twice, [5], None).startswith(
        "preparing the bots first, at 5 players, for the prepared and prepared2 populations "
        "(those not kept yet): each is hardened")
    from citadels_sim.studies import prepare
    assert f"then kept in {prepare.BOTS_DIR} and reused" in preparing_line(twice, [5], None)


def test_a_second_preparation_plays_the_same_hardening_on_other_deals():
    """``preparedk`` names the k-th preparation (2 to 5): its own seeds, so its own directory,
    while the first keeps the seeds, and so the bots, it always had."""
    from citadels_sim.studies import prepare
    assert [prepare.preparation_of(x) for x in (
        "prepared", "prepared2", "prepared5", "prepared6", "prepared1", "prepared02",
        "reference", "prepared-2")] == [1, 2, 5, None, None, None, None, None]
    assert prepare.seeds(1) == (prepare.SEED, prepare.CONFIRM_SEED)
    assert len({x for k in (1, 2, 3) for x in prepare.seeds(k)}) == 6
    config = GameConfig(players=4, characters=DARK[:8], removed=("Graveyard",))
    first, second = (prepare.settings(config, k) for k in (1, 2))
    assert (first["seed"], first["confirm_seed"]) == prepare.seeds(1)
    assert {k for k in first if first[k] != second[k]} == {"seed", "confirm_seed"}
    assert prepare.directory(config, ".", 1) != prepare.directory(config, ".", 2)
    with pytest.raises(ConfigError, match="prepared6"):
        balance.Balance(DARK[:8], strategies=("prepared", "prepared6"))


def test_a_character_the_bots_never_pick_reads_not_picked():
    """Any reading of a character the population takes in fewer than 0.5% of the offers
    reads `not picked`: his value is 0 by construction (the base set under the prepared
    bots: the Architect, picked 0.00 from 3 players on, read weak; the Artist of a 2016 set
    read `even`, as if balanced)."""
    values = pl.DataFrame({
        "players": [4] * 5, "population": ["prepared"] * 5, "set": ["base"] * 5,
        "character": ["Architect", "King", "Seer", "Bishop", "Thief"],
        "verdict": ["weak", "strong", "even", "bot-limited", "even"]})
    holders = pl.DataFrame({
        "players": [4] * 5, "population": ["prepared"] * 5, "set": ["base"] * 5,
        "character": ["Architect", "King", "Seer", "Bishop", "Thief"],
        "picked_when_offered": [0.001, 0.3, 0.0, 0.004, 0.2]})
    marked = balance.not_picked(values, holders)
    assert marked["verdict"].to_list() == ["not picked", "strong", "not picked", "not picked",
                                           "even"]
    assert marked.columns == values.columns
    assert "not picked" in balance.LISTED


def test_the_bot_check_of_a_run(skipped_run):
    result, _ = skipped_run
    checks = result.checks
    assert checks["gain_points"].is_null().all() and checks["players"].to_list() == [5, 5]
    for r in checks.iter_rows(named=True):
        mine = result.values.filter((pl.col("set") == "custom") & (pl.col("players") == 5)
                                    & (pl.col("population") == r["population"]))
        assert r["negative_share"] == pytest.approx((mine["value_high"] < 0).mean())
        assert r["passed"] == (r["negative_share"] == 0)
        both = result.values.filter((pl.col("players") == 5)
                                    & (pl.col("population") == r["population"]))
        assert r["passed"] or not both["verdict"].is_in(["strong", "weak"]).any()
    text = result.text()
    assert "BOT CHECK" in text and "not searched (check budget 0)" in text
    assert "tuned for" not in text and result.check_searched() == ""
    assert not checks["passed"].any() and "none did here" in result.next_step()
    assert text.endswith(f"NEXT: {result.next_step()}")
    assert text.count("FAILED") == (~checks["passed"]).sum()


def test_an_exploit_search_is_refused_before_anything_runs(tmp_path, capsys):
    with pytest.raises(ConfigError, match="check_budget must be a non-negative integer"):
        balance.Balance("base", check_budget=-1)
    assert "check_budget" not in balance.Balance("base", check_budget=0).key()  # runs before it
    assert (balance.Balance("base", check_budget=5).default_out()
            != balance.Balance("base", check_budget=0).default_out())
    code = main(["balance", "--characters", "base", "--players", "4", "--check-budget", "1000",
                 "--out", str(tmp_path / "o"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "check_budget (--check-budget) 1000" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_simulate_warns_when_most_games_hit_the_round_cap():
    res = simulate(GameConfig(max_rounds=2), "heuristic", games=50, progress=False)
    assert "WARNING: 100% of the games hit the round cap" in res.summary()


def test_the_base_set_alone(tmp_path):
    spec = balance.Balance("base", players=(4,), **SMALL)
    result = balance.run(spec, tmp_path / "o", progress=False)
    assert set(result.values["set"]) == {"base"} and "base character" in result.text()


def test_the_bot_check_runs_the_exploit_test_per_population(tmp_path, monkeypatch):
    """check_budget: an exploit search of each family against each population (resumable
    runs under RUN/bot-check), the larger family's held-out gain in the check table; a rerun
    reads them back."""
    monkeypatch.setattr(exploiting, "CHECK_VALIDATE", 1_000)
    spec = balance.Balance("base", players=(2,), games=400, deals=100, chunk_size=200,
                           strategies=("builder",), check_budget=8_000)
    result = balance.run(spec, tmp_path / "o", progress=False)
    (check,) = result.checks.iter_rows(named=True)
    name = f"2p-balance_builder-{get('builder').digest()}"
    found = exploit("builder", GameConfig(players=2), budget=8_000, validate_games=1_000,
                    name=name, runs_dir=tmp_path / "o" / "bot-check", progress=False)
    worst = found.frame().sort("gain").row(-1, named=True)
    assert (check["gain_points"], check["gain_low"], check["gain_high"]) == (
        worst["gain"], worst["gain_low"], worst["gain_high"])
    assert sorted(p.name for p in (tmp_path / "o" / "bot-check").iterdir()) == [
        f"{name}-heuristic", f"{name}-reference", f"{name}-self"]  # read back, not played
    assert check["gain_points"] > balance.CHECK_GAIN and not check["passed"]  # builder: weak
    searched = "each exploiter tuned for 8,000 games against the bots, then measured on 1,000"
    assert f"  ({searched} held-out games)" in result.text().splitlines()
    from citadels_sim import reporting
    md = (reporting.write(result, tmp_path / "rep") / "report.md").read_text()
    assert f"Exploit searches: {searched} held-out games." in md
    again = balance.run(spec, tmp_path / "o", progress=False)
    assert again.checks.equals(result.checks)


def test_the_bot_check_is_by_default_the_exploit_test():
    """By default the check searches as long as `citadels exploit` (issue 19's test): a
    shorter search reads bots better than they are (docs/balance.md)."""
    assert balance.Balance("base").check_budget == exploiting.DEFAULT_BUDGET == 700_000
    spec = balance_spec(build_parser().parse_args(["balance", "--characters", "base"]))
    assert spec.check_budget == exploiting.DEFAULT_BUDGET


def test_the_default_population_is_prepared_for_the_set_at_each_player_count(tmp_path):
    """Balance's default population: per player count the shipped bot made for the set,
    hardened for it (studies.prepare, small in tests), written to the run's strategy file
    and played in that player count's cells and restricted play; a rerun, and another test
    of the same game, reuse the preparation instead of playing it again."""
    from citadels_sim.studies import prepare
    spec = balance.Balance(DARK[:8], players=(3, 4), removed=("Graveyard",), games=400,
                           deals=50, chunk_size=200, check_budget=0)
    assert spec.strategies == (balance.PREPARED,)
    assert spec.to_prepare() == [3, 4]  # the CLI says so before it starts
    result = balance.run(spec, tmp_path / "o", progress=False)
    assert spec.to_prepare() == [] and replace(spec, strategies=("reference",)).to_prepare() == []
    assert [(p.config.players, p.start, p.reused) for p in result.prepared] == [
        (3, "reference", False), (4, "reference", False)]
    written = load_file(result.strategies_file)
    shipped = spec.base_shipped([3, 4])
    assert shipped == {3: "reference_classic_3p", 4: "reference_classic"}
    assert "the base set's games as balance_base_reference_classic_3p (3p)" in result.text()
    for p in result.prepared:
        mine = result.bots[(balance.PREPARED, p.config.players)]
        assert mine.name in written and mine.name.startswith("balance_prepared_classic-")
        assert np.array_equal(written[mine.name].row(), p.strategy.row())
        # the round deployed: a hardened bot, or the start when no round beat it (unless
        # its repair, studies.regret, was deployed)
        repaired = bool(p.repair) and p.repair["deployed"]
        assert np.array_equal(p.strategy.row(), get("reference").row()) == (
            p.deployed == 0 and not repaired)
        n = p.config.players
        cells = {c.characters: c for c in result.record.experiment.cells if c.players == n}
        assert cells["custom"].rotations == ((mine.name,) * n,)
        # the base set is played by the shipped bot made for it, not the set's prepared one
        own = result.base_bots[n]
        assert cells["base"].rotations == ((own.name,) * n,)
        assert np.array_equal(written[own.name].row(), get(shipped[n]).row())
        baseline = result.root / "restricted" / f"{n}p-prepared" / "set1" / "baseline"
        played = pl.read_parquet(baseline / "seats" / "*.parquet")
        assert set(played["strategy"]) == {own.name}
    assert p.directory == prepare.directory(p.config, prepare.BOTS_DIR)
    text = result.text()
    assert "BOTS PREPARED" in text and "3p: reference hardened for this set" in text
    assert re.search(r"time: preparing bots \d+ (min \d+ )?s, judging \d+", text)
    from citadels_sim import reporting
    md = (reporting.write(result, tmp_path / "rep") / "report.md").read_text()
    repairs = [c["character"] for p in result.prepared if p.repair for c in p.repair["changes"]]
    assert ("Repaired: a bot that wins more" in md) == bool(repairs)
    assert ("No prepared bot needed a repair" in md) == (not repairs)
    again = balance.run(spec, tmp_path / "o", progress=False)
    assert all(p.reused for p in again.prepared) and again.values.equals(result.values)
    assert "2 of 2 player counts reused" in again.text()
    other = balance.run(replace(spec, players=(4,), seed=5), tmp_path / "other",
                        progress=False)
    (four,) = other.prepared
    assert four.reused and np.array_equal(four.strategy.row(),
                                          result.prepared[1].strategy.row())
    # a second preparation (prepared2): the same hardening on other deals, kept beside the
    # first, which is reused; both populations play every cell and restricted play
    twice = balance.run(replace(spec, players=(4,), strategies=("prepared", "prepared2")),
                        tmp_path / "twice", progress=False)
    first, second = twice.prepared
    assert [(p.preparation, p.reused) for p in twice.prepared] == [(1, True), (2, False)]
    assert first.directory == four.directory != second.directory
    kept = json.loads((second.directory / prepare.SUMMARY_FILE).read_text())["settings"]
    assert (kept["seed"], kept["confirm_seed"]) == prepare.seeds(2)
    assert {c.lineup for c in twice.record.experiment.cells} == {"prepared", "prepared2"}
    assert set(twice.values["population"]) == {"prepared", "prepared2"}
    assert "4p (preparation 2): reference hardened for this set" in twice.text()
    assert "judged under 2 preparations of the bots" in twice.text()


def test_where_the_rules_refuse_the_base_set_the_set_is_played_alone(tmp_path):
    """The 2016 base set has no rank 9, which 3 players need: at 3 players a named set is
    played alone (and said so), at 4 compared with the base set as usual."""
    spec = balance.Balance("cunning_agents", ruleset="2016", players=(3, 4),
                           **{**SMALL, "strategies": ("builder",)})
    assert spec.plan() == ([3, 4], []) and spec.sets([3, 4]) == ["cunning_agents", "base"]
    result = balance.run(spec, tmp_path / "o", progress=False)
    sets = {n: set(result.values.filter(pl.col("players") == n)["set"]) for n in (3, 4)}
    assert sets == {3: {"cunning_agents"}, 4: {"cunning_agents", "base"}}
    assert set(result.against_base["players"]) == {4}
    assert "at 3 players the rules refuse the base set (A 3-player 2016 game needs a rank-9 " \
           "character" in result.text()
