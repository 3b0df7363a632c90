"""Strategy comparisons: calibrated against a strategy playing itself, and sensitive."""

import pytest

from citadels_sim import GameConfig
from citadels_sim.cli import main
from citadels_sim.game.config import ConfigError
from citadels_sim.studies.compare import Sprt, compare, elo_to_delta


def test_a_strategy_against_itself_on_common_deals_is_exactly_even():
    c = compare("heuristic", "heuristic", GameConfig(players=4), games=2000, seed=1)
    assert c.a != c.b and c.test["diff"] == 0 and c.test["p"] == 1.0


def test_a_strategy_against_itself_is_rarely_significant():
    """Independent deals per rotation: p < 5% should happen about 1 time in 20."""
    hits = sum(compare("builder", "builder", GameConfig(players=2), games=800, seed=s,
                       crn=False).test["p"] < 0.05 for s in range(20))
    assert hits <= 4  # P(X >= 5) = 0.003 for X ~ Binomial(20, 0.05)


def test_a_weaker_strategy_is_detected():
    c = compare("random", "heuristic", GameConfig(players=4), games=1000, seed=2)
    assert c.test["diff"] < -0.3 and c.test["diff_high"] < 0 and c.test["p"] < 1e-6
    assert "random" in c.text() and "significant at 5%" in c.text()
    points = f"{-100 * c.test['diff']:.1f} win-rate points more than random"
    assert f"verdict: heuristic wins more: {points}" in c.text()


def test_a_difference_not_found_says_how_to_look_closer():
    c = compare("builder", "builder", GameConfig(players=2), games=400, seed=1, crn=False)
    assert c.test["p"] >= 0.05
    assert "verdict: no difference found" in c.text() and "--sprt-delta" in c.text()


def test_sprt_stops_early_for_a_clear_difference_and_accepts_h0_for_equal_play():
    strong = compare("heuristic", "random", GameConfig(players=3), games=50_000, seed=3,
                     sprt=Sprt(0.0, 0.05), chunk_size=500)
    assert strong.verdict == "H1" and strong.deals == 500
    equal = [compare("aggressive", "aggressive", GameConfig(players=2), games=20_000, seed=s,
                     crn=False, sprt=Sprt(0.0, 0.08), chunk_size=250).verdict
             for s in range(5)]
    assert equal.count("H0") >= 4


def test_sprt_decides_when_every_deal_came_out_alike():
    """fishtest's regularisation: zero observed variance still gives a finite LLR.  Today's
    LLR of exactly 0 never decided: a strategy replaying itself on common deals ran to the
    maximum, and so did a run of sweeps."""
    s = Sprt(0.0, 0.05)
    assert s.verdict(s.llr([0.0], [400])) == "H0"  # self-play on common deals: all ties
    assert s.verdict(s.llr([0.5], [400])) == "H1"  # every deal a sweep for A
    assert s.verdict(s.llr([-0.5], [400])) == "H0"
    same = compare("heuristic", "heuristic", GameConfig(players=4), games=20_000, seed=1,
                   sprt=s, chunk_size=500)
    assert same.degenerate and same.verdict == "H0" and same.deals == 500
    assert "degenerate comparison" in same.text()
    assert not compare("heuristic", "heuristic", GameConfig(players=4), games=500, seed=1,
                       crn=False).degenerate


def test_sprt_parameters():
    assert elo_to_delta(0) == 0 and elo_to_delta(400) == pytest.approx(2 * 10 / 11 - 1)
    lo, hi = Sprt(0, 0.02).bounds
    assert lo == pytest.approx(-2.944, abs=1e-3) and hi == pytest.approx(2.944, abs=1e-3)
    with pytest.raises(ConfigError, match="delta0 < delta1"):
        Sprt(0.1, 0.0)
    with pytest.raises(ConfigError, match="alpha"):
        Sprt(0, 0.1, alpha=0.7)


def test_cli_compare(capsys):
    assert main(["compare", "heuristic", "random", "--players", "3", "--games", "600",
                 "--sprt-elo", "0,20", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "difference A - B" in out and "SPRT" in out
    assert "line-ups ABA / BAA / AAB / BAB / ABB / BBA" in out
    assert main(["compare", "heuristic", "nosuch", "--no-progress"]) == 2
    assert "Unknown strategy 'nosuch'" in capsys.readouterr().err


@pytest.mark.parametrize("players", [3, 5])
def test_compare_at_an_odd_count_gives_neither_side_the_extra_seat(players):
    """At an odd player count A and B each hold the majority in half the line-ups, every
    seat equally often, so swapping them plays the same games: the difference only flips."""
    ab = compare("heuristic", "builder", GameConfig(players=players), games=600, seed=3)
    ba = compare("builder", "heuristic", GameConfig(players=players), games=600, seed=3)
    seats = [[lu[s] for lu in ab.line_ups].count("heuristic") for s in range(players)]
    assert len(ab.line_ups) == 2 * players and seats == [players] * players
    assert ab.test["diff"] == pytest.approx(-ba.test["diff"], abs=1e-9) != 0


def test_compare_reports_what_common_deals_bought():
    """The variance of the per-deal difference against independent deals per rotation,
    measured from the per-rotation differences: below 1 with common deals, about 1 without."""
    crn = compare("heuristic", "builder", GameConfig(players=4), games=4000, seed=5)
    assert 0.8 < crn.variance_ratio < 1.03
    assert "pairing: variance of the per-deal difference" in crn.text()
    independent = compare("heuristic", "builder", GameConfig(players=4), games=4000, seed=5,
                          crn=False)
    assert 0.85 < independent.variance_ratio < 1.15
