"""Mixed strategies: a per-game draw among plain strategies of one family (the kernel, the
strategy files), the population's equilibrium, and hardening's rounds of mixing."""

import numpy as np
import polars as pl
import pytest

from citadels_sim import GameConfig, harden, simulate
from citadels_sim.cli import main
from citadels_sim.engine.simulate import build_tables
from citadels_sim.game.strategies import StrategyError, get, mix, parse_presets, to_toml
from citadels_sim.kernel import layout as L
from citadels_sim.kernel.state import new_state
from citadels_sim.studies import population

KING = get("reference:want_king=6")
QUIET = get("reference:aggression=0,threat=0")
MIXED = mix("mixed", [KING, QUIET], [0.3, 0.7])


def test_each_game_plays_one_component_drawn_by_its_chance():
    """The seat's parameters this game are one component's row, the first in about 30% of
    the games."""
    config = GameConfig(players=4)
    tb = build_tables(config, [MIXED] + [get("heuristic")] * 3)
    rows = [KING.row(), QUIET.row()]
    drawn = []
    for game in range(3000):
        st = new_state(tb, 5, game, False)
        drawn.append([np.array_equal(st.params[0], r) for r in rows].index(True))
        assert np.array_equal(st.params[1], get("heuristic").row())
    assert abs(np.mean(np.array(drawn) == 0) - 0.3) < 0.03


def test_a_mixed_seat_plays_exactly_its_components_games():
    """The draw has a stream of its own: every game of a mixed seat is, score for score, the
    same game as one of its components' (same deal, same draws), and both occur."""
    config = GameConfig(players=3)
    others = [get("heuristic")] * 2

    def scores(first):
        seats = simulate(config, [first] + others, games=400, seed=9, progress=False).seats
        return seats.sort("game", "seat").group_by("game", maintain_order=True).agg(
            pl.col("score"))["score"].to_list()

    mixed, king, quiet = scores(MIXED), scores(KING), scores(QUIET)
    same_king = [m == k for m, k in zip(mixed, king)]
    same_quiet = [m == q for m, q in zip(mixed, quiet)]
    assert all(a or b for a, b in zip(same_king, same_quiet))
    assert any(a and not b for a, b in zip(same_king, same_quiet))
    assert any(b and not a for a, b in zip(same_king, same_quiet))


def test_a_plain_seat_draws_nothing_from_the_mixture_stream():
    st = new_state(build_tables(GameConfig(), [get("reference")] * 4), 1, 0, False)
    before = st.rng[L.RNG_MIX]
    fresh = new_state(build_tables(GameConfig(), [MIXED] * 4), 1, 0, False)
    assert fresh.rng[L.RNG_MIX] != before  # the mixed seats drew
    assert np.array_equal(st.rng[:L.RNG_MIX], fresh.rng[:L.RNG_MIX])


def test_a_mixture_round_trips_through_a_strategy_file():
    text = to_toml([MIXED])
    found = parse_presets(text, "mixed.toml")
    assert found["mixed"] == MIXED
    assert "mixture = [" in text and "chances = [0.3, 0.7]" in text


@pytest.mark.parametrize("table,message", [
    ('family = "reference"\nmixture = ["reference", "nobody"]\nchances = [1, 1]',
     "component 'nobody' is no preset"),
    ('family = "reference"\nmixture = ["reference", "builder"]\nchances = [1, 1]',
     "must be a plain strategy of family reference"),
    ('family = "reference"\nmixture = ["reference", "reference_classic"]\nchances = [1, 0]',
     "chances are positive numbers"),
    ('family = "reference"\nmixture = ["reference", "reference_classic"]\nchances = [nan, 1]',
     "the chance of 'reference' is nan; chances are positive numbers"),
    ('family = "reference"\nmixture = ["reference", "reference_classic"]\n'
     'chances = [1e308, 1e308]', "add up to more than a number can hold"),
    ('family = "reference"\nmixture = ["reference"]\nchances = [1]', "give 2 to 8 components"),
    ('family = "reference"\nmixture = ["reference", "reference_classic"]\nchances = [1]',
     "one chance per component"),
    ('family = "reference"\nmixture = ["reference", "reference_classic"]\nchances = [1, 1]'
     '\nthreat = 2', "not threat"),
    ('family = "heuristic"\nmixture = ["reference", "reference_classic"]\nchances = [1, 1]',
     "not heuristic"),
])
def test_bad_mixtures_name_the_file_the_entry_and_the_fault(table, message):
    with pytest.raises(StrategyError, match=message) as err:
        parse_presets(f"[bad]\n{table}\n", "bad.toml")
    assert "bad.toml, preset 'bad'" in str(err.value)


def test_a_mixture_has_no_single_row_to_tune_or_tweak():
    with pytest.raises(StrategyError, match="mixed strategy"):
        MIXED.row()
    with pytest.raises(StrategyError, match="change its components"):
        MIXED.with_params(threat=1.0)


def test_the_equilibrium_of_rock_paper_scissors_is_a_third_each():
    rps = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    assert np.allclose(population.equilibrium(rps), 1 / 3, atol=1e-6)
    dominant = np.array([[0.6, 0.7], [0.4, 0.5]])
    assert np.allclose(population.equilibrium(dominant), [1.0, 0.0])


def test_the_population_mixture_keeps_the_likely_bots():
    bots = (get("reference"), KING, QUIET)
    found = population.Population(bots, (), np.zeros((3, 1)), np.array([0.6, 0.39, 0.01]))
    made = found.strategy("m")
    assert [p.name for _, p in made.mixture] == ["reference", KING.name]
    assert np.isclose(sum(c for c, _ in made.mixture), 1.0)
    assert population.Population(bots, (), np.zeros((3, 1)),
                                 np.array([0.99, 0.005, 0.005])).strategy("m") == bots[0]


def test_payoff_entries_are_kept_and_only_new_ones_played(tmp_path, monkeypatch):
    """An entry depends on its bot, its exploiter and its column alone: with a kept file,
    a matrix grown by a bot and an exploiter plays only the new entries, equal to those of a
    matrix played whole, and a rerun plays none."""
    from citadels_sim.studies import league
    config = GameConfig(players=2)
    bots, exploiters = [get("reference"), KING], [get("builder"), get("heuristic")]
    whole = population.payoffs(bots + [QUIET], exploiters + [get("aggressive")], config, 300,
                               5)
    played = []
    evaluate = league.evaluate
    monkeypatch.setattr(league, "evaluate", lambda c, *a, **k: played.append(len(c))
                        or evaluate(c, *a, **k))
    kept = tmp_path / "payoffs.json"
    assert np.array_equal(population.payoffs(bots, exploiters, config, 300, 5, kept=kept),
                          whole[:2, :2])
    grown = population.payoffs(bots + [QUIET], exploiters + [get("aggressive")], config, 300,
                               5, kept=kept)
    assert np.array_equal(grown, whole)
    assert played == [2, 2, 1, 1, 3]  # the new bot in the old columns, then the new column
    population.payoffs(bots + [QUIET], exploiters + [get("aggressive")], config, 300, 5,
                       kept=kept)
    assert played == [2, 2, 1, 1, 3]  # read back
    assert not np.array_equal(population.payoffs(bots, exploiters, config, 300, 6, kept=kept),
                              whole[:2, :2])  # another seed: other deals, played anew


SMALL = dict(rounds=2, budget=8_064, exploit_budget=6_500, validate_games=1_000,
             mix_games=400, progress=False)


def test_hardening_mixes_its_bots_and_exploits_the_mixture(tmp_path):
    """With mix, each round's tuned bot joins the population, the population's best mixture
    against every exploiter found is the round's strategy, and the next exploit search plays
    against it."""
    h = harden("reference", GameConfig(players=2), runs_dir=tmp_path, mix=True, **SMALL)
    first, second = h.populations
    assert first.matrix.shape == (2, 1) and second.matrix.shape == (3, 2)
    assert [b.name for b in second.bots][1:] == [t.strategy.name for t in h.tunings]
    assert np.isclose(second.chances.sum(), 1.0)
    assert h.rounds()["round"].to_list() == [0, 1, 2]
    for k in (1, 2):
        assert h.candidate(k) == h.mixtures[k - 1]
        assert h.searches[k][0].plan.league[0] == h.mixtures[k - 1]
    assert h.settings["mix"] is True
    again = harden("reference", GameConfig(players=2), runs_dir=tmp_path, mix=True, **SMALL)
    assert again.rounds().equals(h.rounds()) and again.strategy == h.strategy


def test_cli_mix_writes_the_mixture_and_its_components(tmp_path, capsys):
    assert main(["harden", "--start", "reference", "--players", "2", "--rounds", "1", "--mix",
                 "--budget", "8064", "--exploit-budget", "6500", "--validate-games", "1000",
                 "--runs", str(tmp_path / "runs"), "--reports", str(tmp_path / "rep"),
                 "--name", "mixed2", "--no-progress"]) == 0
    report = (tmp_path / "rep" / "mixed2" / "report.md").read_text()
    assert "--mix" in report and "## Mixing" in report
    assert get(f"{tmp_path / 'rep' / 'mixed2' / 'strategy.toml'}:mixed2").name == "mixed2"


def test_hardening_a_mixture_starts_from_its_likeliest_component(tmp_path):
    h = harden(MIXED, GameConfig(players=2), runs_dir=tmp_path, rounds=0, exploit_budget=6_500,
               validate_games=1_000, progress=False)
    assert h.exploits[0].plan.league[0] == QUIET


def test_mixing_from_a_mixture_exploits_it_and_keeps_its_components(tmp_path):
    """With mix, a mixed start goes on where an earlier mixing stopped: round 0 exploits the
    mixture itself, its components are the population's first bots, and the tuning starts
    from the likeliest component."""
    h = harden(MIXED, GameConfig(players=2), runs_dir=tmp_path, mix=True,
               **{**SMALL, "rounds": 1})
    assert h.exploits[0].plan.league[0] == MIXED
    (pop,) = h.populations
    assert [b.name for b in pop.bots] == [KING.name, QUIET.name, h.tunings[0].strategy.name]
    assert h.tunings[0].plan.start == QUIET
    assert h.strategy.name == "hardened-mixed"


def test_a_prepared_mixture_names_its_components_after_its_directory():
    """Two sets' preparations both make ``prepared-4p-round1``: in one balance run (or one
    process) the names would clash, so a prepared mixture's components carry its directory's
    name; a shipped component keeps its own."""
    from dataclasses import replace
    from citadels_sim.studies.prepare import _own_names
    r1 = replace(KING, name="prepared-4p-round1")
    named = _own_names(mix("prepared-4p", [get("reference"), r1], [0.5, 0.5]),
                       "classic-4p-custom-0123456789")
    assert [p.name for _, p in named.mixture] == ["reference",
                                                   "classic-4p-custom-0123456789-round1"]
    assert named.mixture[1][1].row().tolist() == KING.row().tolist()


def test_mixing_also_weighs_the_exploiters_of_the_bots_own_family(tmp_path):
    """With mix, an exploiter of the bots' family (a ``self`` search) joins the rows that
    are mixed, after the tuned bots; one of another family only plays against them."""
    h = harden("reference", GameConfig(players=2), runs_dir=tmp_path, mix=True,
               exploit_family="heuristic,self", **{**SMALL, "rounds": 1, "exploit_budget": 8_000})
    (pop,) = h.populations
    own = [x.name for x in pop.exploiters if x.family == "reference"]
    assert own and [b.name for b in pop.bots] == ["reference", h.tunings[0].strategy.name, *own]
    assert pop.matrix.shape == (2 + len(own), len(pop.exploiters))
