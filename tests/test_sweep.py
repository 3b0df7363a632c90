"""citadels sweep (issue 20 item 3): a house rule over values, a balance test at each on the
same deals; the report, the verdict over the values, the bots' tuning marked, resuming."""

from __future__ import annotations

import json

import polars as pl
import pytest

from citadels_sim import Sweep, sweep
from citadels_sim.cli import main
from citadels_sim.game.config import ConfigError
from citadels_sim.studies.target import Target, grid_order, search_order

SMALL = dict(games=1500, deals=300)


def test_a_sweep_judges_every_value_on_the_same_deals_and_resumes(tmp_path, capsys):
    out = tmp_path / "sw"
    main(["sweep", "merchant_gold", "--values", "0:2:1", "--games", "1500", "--deals", "300",
          "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert "merchant_gold = 0 [bots not tuned for this value]" in text
    assert "merchant_gold = 1:" in text  # the published value: tuned
    assert "VERDICT" in text and "Next:" in text
    html = (out / "report.html").read_text()
    assert "Character values" in html and "Game quality" in html
    assert {p.name for p in (out / "figures").glob("*.png")} == {"characters.png",
                                                                "quality.png"}
    chars = pl.read_csv(out / "tables" / "characters.csv")
    assert sorted(chars["swept"].unique().to_list()) == [0, 1, 2]
    merchant = chars.filter(pl.col("character") == "Merchant").sort("swept")["effect"]
    assert merchant[2] > merchant[0]  # two extra gold make him worth more than none
    # the same sweep from Python reads every value back
    spec = Sweep("merchant_gold", (0, 1, 2), **SMALL)
    again = sweep(spec, out, progress=False)
    assert again.characters.sort("swept", "character")["effect"].to_list() == pytest.approx(
        chars.sort("swept", "character")["effect"].to_list(), abs=0.051)
    assert [again.tuned(v, 4) for v in (0, 1, 2)] == [False, True, False]
    assert json.loads((out / "sweep.json").read_text())["parameter"] == "merchant_gold"


@pytest.mark.parametrize("kwargs,message", [
    (dict(parameter="merchant_golds", values=(1,)), "Did you mean 'merchant_gold'?"),
    (dict(parameter="merchant_gold", values=(1, 11)), "merchant_gold = 11 is out of range"),
    (dict(parameter="merchant_gold", values=()), "give distinct values"),
    (dict(parameter="merchant_gold", values=(1,), rules={"merchant_gold": 2}),
     "is the rule swept"),
    (dict(parameter="queen_gold", values=(1, 2)), "concerns the Queen"),
])
def test_bad_sweeps_are_refused_before_anything_is_played(kwargs, message):
    with pytest.raises(ConfigError, match=message.replace("?", r"\?")):
        Sweep(**kwargs)


def test_a_target_search_plays_nearest_the_published_value_first_and_stops_there(
        tmp_path, capsys):
    """Issue 20 item 3, ``--target``: values are played nearest the published one first
    (merchant_gold: 1, then 0, then 2) and the search stops at the first that meets the
    band; a rerun resumes what was played; a band nothing meets plays every value."""
    out = tmp_path / "sw"
    spec = Sweep("merchant_gold", (0, 1, 2), games=600, deals=100)
    full = sweep(spec, out, progress=False)
    length = {v: full.quality.filter((pl.col("swept") == v) & (pl.col("key") == "length"))[
        "value"][0] for v in (0, 1, 2)}
    assert len(set(length.values())) == 3
    for v, played in ((1, [1]), (0, [0, 1]), (2, [0, 1, 2])):
        band = f"length={length[v] - 1e-9}:{length[v] + 1e-9}"
        found = sweep(spec, out, progress=False, target=band)
        assert found.played == played and found.meeting() == [v]
        assert f"met at merchant_gold = {v}, the nearest value" in found.text()
    merchant = full.characters.filter((pl.col("character") == "Merchant")
                                      & (pl.col("swept") == 2))["effect"][0]
    found = sweep(spec, out, progress=False,
                  target=f"merchant={merchant - 1e-9}:{merchant + 1e-9}")
    assert found.played == [0, 1, 2] and found.meeting() == [2]
    assert "TARGET — the Merchant's value from" in found.text()
    main(["sweep", "merchant_gold", "--values", "0,1,2", "--games", "600", "--deals", "100",
          "--no-progress", "--out", str(out), "--target", "length<=1"])
    text = capsys.readouterr().out
    assert "TARGET — length at most 1 rounds: no value of 0, 1, 2 meets it" in text
    assert "--target 'length<=1'" in (out / "report.md").read_text()


@pytest.mark.parametrize("text,message", [
    ("lenght<=3", "target 'lenght' is neither a measure .* nor a character of the set "
                  r"\(Assassin, Thief"),
    ("length=8", "a band is LO:HI"),
    ("length<=8:10", "<= takes one number"),
    ("characters>=2", "bound the characters with characters<=X"),
    ("characters<=-1", "X at least 0"),
    ("length=nan:nan", "write MEASURE=LO:HI"),
    ("length=10:8", "low end 10 is above its high end 8"),
    ("length", "write MEASURE=LO:HI"),
])
def test_bad_targets_are_refused_in_one_line(text, message):
    with pytest.raises(ConfigError, match=message):
        Target.parse(text).check(("Assassin", "Thief", "King"))


def test_targets_read_as_bands():
    assert Target.parse("length=8:10") == Target("length", 8, 10)
    assert Target.parse("characters<=2").text() == (
        "every character within ±2 win-rate points of the set's mean")
    assert Target.parse("first_crown>=-1").spec() == "first_crown>=-1"
    king = Target.parse("king=-2:2").check(("Assassin", "King"))
    assert king == Target("King", -2, 2) and king.spec() == "King=-2:2"
    assert king.text() == "the King's value from -2 to 2 win-rate points off the set's mean"
    tax = Target.parse("Tax Collector<=1").check(("Tax Collector",))
    assert tax.text() == "the Tax Collector's value at most 1 win-rate points off the set's mean"
    assert search_order((0, 25, 50, 75, 100), 50) == [50, 25, 75, 0, 100]


def test_two_rules_are_swept_over_every_pair_of_their_values(tmp_path, capsys):
    """Issue 20 item 3: two rules at once, each pair a balance test of its own (its own
    directory), the tables naming both rules, one panel per value of the second."""
    out = tmp_path / "sw2"
    main(["sweep", "thief_share", "merchant_gold", "--values", "50,100", "--values", "1,2",
          "--games", "600", "--deals", "100", "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert "published: thief_share 100, merchant_gold 1" in text
    assert "thief_share = 100, merchant_gold = 1:" in text  # the published pair: tuned
    assert "thief_share = 50, merchant_gold = 2 [bots not tuned for this value]" in text
    assert sorted(p.name for p in out.iterdir() if p.is_dir() and "=" in p.name) == [
        "thief_share=100,merchant_gold=1", "thief_share=100,merchant_gold=2",
        "thief_share=50,merchant_gold=1", "thief_share=50,merchant_gold=2"]
    chars = pl.read_csv(out / "tables" / "characters.csv")
    assert sorted(set(zip(chars["swept"], chars["swept2"]))) == [(50, 1), (50, 2), (100, 1),
                                                                  (100, 2)]
    report = (out / "report.md").read_text()
    assert "| thief_share | merchant_gold |" in report
    assert "sweep thief_share merchant_gold --values 50,100 --values 1,2" in report
    spec = Sweep("thief_share", (50, 100), parameter2="merchant_gold", values2=(1, 2),
                 games=600, deals=100)
    again = sweep(spec, out, progress=False, target="length>=0")
    assert again.played == [(100, 1)]  # the published pair meets it first
    assert "met at thief_share = 100, merchant_gold = 1" in again.text()


@pytest.mark.parametrize("argv,message", [
    (["thief_share", "merchant_gold", "--values", "50,100"], "give one --values per rule"),
    (["thief_share", "--values", "50", "--values", "1"], "give one --values per rule"),
    (["thief_share", "thief_share", "--values", "50", "--values", "60"], "swept twice"),
    (["thief_share", "king_income", "tax", "--values", "50", "--values", "1", "--values", "1"],
     "a sweep takes one or two rules; got 3"),
])
def test_bad_two_rule_sweeps_say_what_is_wrong_in_one_line(argv, message, tmp_path, capsys):
    assert main(["sweep", *argv, "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_pairs_are_searched_fewest_steps_from_the_published_pair_first():
    assert grid_order([100, 50, 0], [1, 0, 2]) == [
        (100, 1), (100, 0), (50, 1), (100, 2), (50, 0), (0, 1), (50, 2), (0, 0), (0, 2)]
