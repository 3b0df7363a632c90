"""citadels sweep (issue 20 item 3): a house rule over values, a balance test at each on the
same deals; the report, the verdict over the values, the bots' tuning marked, resuming."""

from __future__ import annotations

import json

import polars as pl
import pytest

from citadels_sim import Sweep, sweep
from citadels_sim.cli import main
from citadels_sim.game.config import ConfigError
from citadels_sim.studies.target import Target, search_order

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
    main(["sweep", "merchant_gold", "--values", "0,1,2", "--games", "600", "--deals", "100",
          "--no-progress", "--out", str(out), "--target", "length<=1"])
    text = capsys.readouterr().out
    assert "TARGET — length at most 1 rounds: no value of 0, 1, 2 meets it" in text
    assert "--target 'length<=1'" in (out / "report.md").read_text()


@pytest.mark.parametrize("text,message", [
    ("lenght<=3", "unknown target measure 'lenght'"),
    ("length=8", "a band is LO:HI"),
    ("length<=8:10", "<= takes one number"),
    ("characters>=2", "bound the characters with characters<=X"),
    ("length=10:8", "low end 10 is above its high end 8"),
    ("length", "write MEASURE=LO:HI"),
])
def test_bad_targets_are_refused_in_one_line(text, message):
    with pytest.raises(ConfigError, match=message):
        Target.parse(text)


def test_targets_read_as_bands():
    assert Target.parse("length=8:10") == Target("length", 8, 10)
    assert Target.parse("characters<=2").text() == (
        "every character within ±2 win-rate points of the set's mean")
    assert Target.parse("first_crown>=-1").spec() == "first_crown>=-1"
    assert search_order((0, 25, 50, 75, 100), 50) == [50, 25, 75, 0, 100]
