"""Results depend on (config, strategies, seed, game index) only."""

import numpy as np
import polars as pl
import pytest

from citadels_sim import GameConfig, Results, simulate


def test_same_results_for_any_workers_and_chunking():
    config = GameConfig(players=5)
    a = simulate(config, "heuristic,random,builder,aggressive,heuristic", games=3000, seed=3,
                 workers=1, chunk_size=3000)
    b = simulate(config, "heuristic,random,builder,aggressive,heuristic", games=3000, seed=3,
                 workers=2, chunk_size=700)
    assert a.seats.equals(b.seats)
    assert a.picks.equals(b.picks)
    assert a.characters.sort(["rank", "strategy"]).equals(b.characters.sort(["rank", "strategy"]))


def test_other_seed_other_games():
    a = simulate(games=200, seed=1)
    b = simulate(games=200, seed=2)
    assert not a.seats["score"].equals(b.seats["score"])


def test_changing_one_seat_strategy_keeps_the_deal():
    """Common random numbers: the deck stream does not depend on the strategies."""
    from citadels_sim.engine.simulate import build_tables, resolve_strategies
    from citadels_sim.kernel.state import new_state
    config = GameConfig(players=4)
    t1 = build_tables(config, resolve_strategies("heuristic", 4))
    t2 = build_tables(config, resolve_strategies("random,heuristic,heuristic,heuristic", 4))
    s1, s2 = new_state(t1, 5, 9, False), new_state(t2, 5, 9, False)
    assert (s1.hand == s2.hand).all() and (s1.deck == s2.deck).all()


def test_the_tables_of_a_line_up_do_not_depend_on_the_line_ups_built_before():
    """A game's own arrays are made once per configuration (``game_tables``, read-only) and
    each line-up's tables write the strategies into a copy of them."""
    from citadels_sim.engine.simulate import build_tables, game_tables, resolve_strategies
    config = GameConfig(players=4)
    first = build_tables(config, resolve_strategies("heuristic", 4))
    other = build_tables(config, resolve_strategies("random,builder,heuristic,reference", 4))
    again = build_tables(GameConfig(players=4), resolve_strategies("heuristic", 4))
    assert first.tobytes() == again.tobytes() != other.tobytes()
    made = config.tables()
    assert game_tables(config) is game_tables(GameConfig(players=4))
    assert all(np.array_equal(game_tables(config)[k], made[k]) for k in made)


def test_out_is_written_per_chunk_and_resumes(tmp_path):
    out = tmp_path / "run"
    full = simulate(games=1000, seed=4, chunk_size=250, out=out)
    # simulate an interruption: drop the last two chunks, then rerun
    for table in ("seats", "characters", "picks"):
        for part in sorted((out / table).glob("part-*.parquet"))[2:]:
            part.unlink()
    resumed = simulate(games=1000, seed=4, chunk_size=250, out=out)
    assert resumed.seats.equals(full.seats)
    loaded = Results.load(out)
    assert loaded.seats.equals(full.seats)
    assert loaded.meta["status"] == "complete"


def test_out_refuses_a_different_run(tmp_path):
    simulate(games=100, seed=4, out=tmp_path / "run")
    with pytest.raises(ValueError, match="different run"):
        simulate(games=100, seed=5, out=tmp_path / "run")


def test_save_load_roundtrip(tmp_path):
    r = simulate(games=300, seed=8)
    loaded = Results.load(r.save(tmp_path / "saved"))
    assert loaded.seats.equals(r.seats) and loaded.picks.equals(r.picks)
    assert isinstance(loaded.win_rates(), pl.DataFrame)


def test_a_search_evaluation_is_the_same_on_one_thread_and_side_by_side():
    """A search's small tables play side by side, table by table, on every thread: the
    shares are those of one thread, in the candidates' order."""
    from citadels_sim.game.strategies import get
    from citadels_sim.studies import league
    config = GameConfig(players=3)
    tables = league.schedule([get("reference_classic"), get("builder")], 3, 900, 5, "t")
    candidates = [get("reference_classic"), get("heuristic"), get("builder")]
    one = league.evaluate(candidates, tables, config, workers=1)
    both = league.evaluate(candidates, tables, config, workers=2)
    assert all(np.array_equal(a, b) for a, b in zip(one, both, strict=True))
    assert not np.array_equal(one[0], one[2])  # the candidates differ
