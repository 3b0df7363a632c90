"""A chunk's frames from the kernel's raw arrays, counted game by game here to check the
vectorised counting; and the arrays kept from one chunk to the next."""

import numpy as np
import pytest

from citadels_sim import GameConfig
from citadels_sim.engine import buffers
from citadels_sim.engine.results import (character_counts, district_counts, fair_share,
                                          wins_per_game)
from citadels_sim.engine.simulate import build_tables, play_chunk, resolve_strategies
from citadels_sim.kernel import layout as L
from citadels_sim.stats.intervals import N_BATCHES

LINEUP = "heuristic,random,heuristic,builder,random"


@pytest.fixture(scope="module")
def chunk():
    """337 games from game 1,234 (batches neither whole nor starting at 0), mixed seats."""
    config = GameConfig(ruleset="2016", players=5, characters="cunning_agents",
                        districts="cunning_agents")
    raw = play_chunk(build_tables(config, resolve_strategies(LINEUP, 5)), 9, 1234, 337, 5,
                     False, config.max_rounds)
    raw["seat"][:40:3, 1, L.O_PLACE] = 1  # shared first places, whatever the kernel played
    return config, raw


def _looped(raw, config, names):
    """(batch, rank, strategy) -> counts, one game and seat at a time."""
    out = {}
    for g in range(len(raw["game"])):
        batch = (1234 + g) % N_BATCHES
        won = raw["seat"][g, :, L.O_PLACE] == 1
        for rank in range(len(config.character_names)):
            for s, name in enumerate(names):
                held = int(raw["held"][g, s, rank])
                final = raw["game"][g, L.OG_HOLDER + rank] == s
                rec = raw["records"][g, s, rank]
                row = out.setdefault((batch, rank + 1, name), np.zeros(13, np.int64))
                row += [held, held > 0, held > 0 and won[s], final, final and won[s],
                        rec[L.C_KILLED], rec[L.C_ROBBED], rec[L.C_GOLD], rec[L.C_BUILT],
                        rec[L.C_OFFERED], rec[L.C_PICKED], (held > 0) * won.sum(), 1]
    return out


def test_character_counts_equal_those_counted_game_by_game(chunk):
    config, raw = chunk
    names = LINEUP.split(",")
    frame = character_counts(raw, 1234, config, names)
    looped = _looped(raw, config, names)
    assert frame.height == N_BATCHES * len(config.character_names) * 3
    counts = frame.columns[4:]
    for row in frame.iter_rows(named=True):
        want = looped.get((row["batch"], row["rank"], row["strategy"]), np.zeros(13))
        assert [row[c] for c in counts] == want.tolist(), row
    assert frame["character"].unique().sort().to_list() == sorted(config.character_names)


def test_district_counts_equal_those_counted_game_by_game(chunk):
    config, raw = chunk
    names = LINEUP.split(",")
    frame = district_counts(raw, 1234, config, names)
    kinds = sorted(set(config.unique_kinds))
    assert frame.height == N_BATCHES * len(kinds) * 3
    for kind in kinds:
        bit = kind - L.D_HAUNTED
        high = bit >= L.UNIQUE_LO_BITS
        word = L.O_UNIQUE_HI if high else L.O_UNIQUE_LO
        shift = bit - L.UNIQUE_LO_BITS if high else bit
        built = (raw["seat"][:, :, word] >> shift) & 1 == 1
        won = raw["seat"][:, :, L.O_PLACE] == 1
        batch = (1234 + np.arange(len(built))) % N_BATCHES
        rows = frame.filter(district=config.district_name(kind))
        for name in ("heuristic", "random", "builder"):
            seats = [s for s, n in enumerate(names) if n == name]
            got = rows.filter(strategy=name).sort("batch")
            for column, per_game in (("built", built[:, seats]),
                                     ("wins_built", built[:, seats] & won[:, seats]),
                                     ("wins_not_built", ~built[:, seats] & won[:, seats])):
                want = np.bincount(batch, per_game.sum(axis=1), N_BATCHES)
                assert got[column].to_list() == want.astype(int).tolist()
            assert got["seat_games"].sum() == len(built) * len(seats)


def test_output_arrays_are_kept_blanked_and_then_dropped():
    shape = (700, True, 30, 4)
    with buffers.kept():
        first = buffers.take(*shape)
        first["records"][:] = 5
        first["picks"][:] = 3
        buffers.give(first)
        again = buffers.take(*shape)
        assert again["records"] is first["records"]  # the same memory, blank again
        assert not again["records"].any() and (again["picks"] == -1).all()
        other = buffers.take(600, True, 30, 4)  # another shape: new arrays
        assert other["records"] is not first["records"]
        buffers.give(again)
    assert buffers.take(*shape)["records"] is not first["records"]  # dropped with the block
    loose = buffers.take(*shape)
    buffers.give(loose)  # outside a block nothing is kept
    assert buffers.take(*shape)["records"] is not loose["records"]


def test_the_fair_share_counts_each_games_winners_in_any_row_order():
    import polars as pl
    seats = pl.DataFrame({"game": [7, 7, 7, 3, 3, 3, 5, 5, 5],
                          "won": [True, True, False, False, False, True, True, True, True]})
    expected = [2 / 3] * 3 + [1 / 3] * 3 + [1.0] * 3
    assert fair_share(seats, 3).to_list() == pytest.approx(expected)
    shuffled = seats[[0, 3, 6, 1, 4, 7, 2, 5, 8]]  # no run of 3 rows is one game
    assert fair_share(shuffled, 3).to_list() == pytest.approx(
        [expected[i] for i in [0, 3, 6, 1, 4, 7, 2, 5, 8]])
    assert fair_share(seats.head(0), 3).len() == 0


def test_wins_per_game_are_those_grouped_by_strategy_and_game():
    import polars as pl
    kind = pl.Enum(["a", "b", "c"])
    seats = pl.DataFrame({"game": [0, 0, 0, 1, 1, 1, 2, 2, 2],
                          "strategy": pl.Series(list("abbbbcaca"), dtype=kind),
                          "won": [False, True, True, True, False, False, True, False, True]})
    grouped = seats.group_by(["strategy", "game"]).agg(pl.col("won").sum().alias("wins"),
                                                       pl.len().alias("n"))
    summed = wins_per_game(seats, 3)
    assert summed.height == grouped.height == 6  # one row per strategy and game it plays
    assert sorted(summed.select("strategy", "wins", "n").rows()) == sorted(
        grouped.select("strategy", "wins", "n").rows())
    assert wins_per_game(seats[[0, 3, 6, 1, 4, 7, 2, 5, 8]], 3) is None
