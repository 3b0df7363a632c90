"""Restricted play (Jaffe et al. 2012): what a character is worth to the player who can take it.

The holders' win rate of a character is confounded by who picks what when: a character
taken late, or only in good positions, can look strong because of the player who takes it.
Restricted play asks instead what a player *loses* when he may never pick the character:
one seat of a line-up of equal bots is barred from it (it takes the character only when
the draft offers nothing else, which is counted), the others play as usual, on the same
deals as an unrestricted baseline, with the barred seat rotated over every seat.

For deal *i*, ``base(i)`` is the baseline's win share per seat (winners / N) and
``barred_c(i)`` the barred player's win, averaged over the seats he was put in.  The
character's *value* is the mean of ``base - barred_c``, in win-rate points: positive when
being barred from it costs wins.  Deals are independent, so every contrast of these
per-deal means (a value, a value against the set's mean, the same rank in two sets played
on the same deals) has an exact standard error over deals
(:class:`~citadels_sim.stats.intervals.DealMoments`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from tqdm.auto import tqdm

from citadels_sim.engine.executor import ChunkExecutor
from citadels_sim.engine.simulate import Run, play_in_step
from citadels_sim.game.config import GameConfig
from citadels_sim.game.strategies import Strategy
from citadels_sim.stats.intervals import DealMoments


@dataclass(frozen=True)
class Design:
    """The restricted-play runs of one character set, player count and population."""

    config: GameConfig
    strategy: Strategy
    deals: int
    seed: int
    #: the characters barred in turn (None: every character of the set)
    barred: tuple[str, ...] | None = None

    @property
    def characters(self) -> tuple[str, ...]:
        return self.config.character_names if self.barred is None else self.barred

    @property
    def width(self) -> int:
        """Columns of :meth:`deal_values`: the baseline, then one per character."""
        return 1 + len(self.characters)

    def line_ups(self) -> list[tuple[str, list[Strategy]]]:
        """(run name, line-up): the baseline, then each character barred at each seat."""
        n = self.config.players
        out = [("baseline", [self.strategy] * n)]
        for r, c in enumerate(self.characters):
            barred = self.strategy.restricted(c)
            out += [(f"rank{r + 1}-seat{k}", [barred if s == k else self.strategy
                                              for s in range(n)]) for k in range(n)]
        return out

    def runs(self, root: Path | None, chunk_size: int, workers: int | None,
             executor: ChunkExecutor | None = None) -> list[Run]:
        """One resumable Run per line-up, all on the same deals (written under ``root``,
        played on ``executor``, default this process)."""
        return [Run(self.config, lineup, self.deals, self.seed, workers, chunk_size=chunk_size,
                    picks=False, out=None if root is None else root / name, executor=executor)
                for name, lineup in self.line_ups()]

    def deal_values(self, chunk: list[dict[str, pl.DataFrame]]) -> np.ndarray:
        """Per deal of one chunk (the frames of every run, in :meth:`line_ups` order): the
        baseline's win share per seat, then each character's barred-player win."""
        n = self.config.players
        won = [f["seats"].sort("game", "seat")["won"].to_numpy().reshape(-1, n)
               for f in chunk]
        out = np.empty((won[0].shape[0], self.width))
        out[:, 0] = won[0].mean(axis=1)
        for r in range(len(self.characters)):
            per_seat = won[1 + r * n:1 + (r + 1) * n]
            out[:, 1 + r] = np.mean([w[:, k] for k, w in enumerate(per_seat)], axis=0)
        return out

    def forced(self, chunk: list[dict[str, pl.DataFrame]]) -> np.ndarray:
        """Per character: (forced picks, offers) of the barred player in one chunk — how
        often the draft left him nothing but the character he may not take."""
        n = self.config.players
        out = np.zeros((len(self.characters), 2), np.int64)
        for r, c in enumerate(self.characters):
            name = self.strategy.restricted(c).name
            for f in chunk[1 + r * n:1 + (r + 1) * n]:
                rows = f["characters"].filter((pl.col("strategy") == name)
                                              & (pl.col("character") == c))
                out[r] += [rows["picked"].sum(), rows["offered"].sum()]
        return out


def play(designs: list[Design], root: Path | None, chunk: int, workers: int | None,
         bar: tqdm, executor: ChunkExecutor) -> tuple[DealMoments, list[np.ndarray]]:
    """Play (or read back from ``root``; None: keep nothing) every restricted-play run of
    ``designs`` on common deals; the per-deal moments of their values side by side, and the
    forced picks per character."""
    runs = [d.runs(None if root is None else root / f"set{i}", chunk, workers, executor)
            for i, d in enumerate(designs)]
    ends = np.cumsum([0] + [len(r) for r in runs])
    moments = DealMoments(sum(d.width for d in designs))
    forced = [np.zeros((len(d.characters), 2), np.int64) for d in designs]
    for _, chunk_of_all in play_in_step([r for rs in runs for r in rs], executor):
        values = []
        for i, design in enumerate(designs):
            frames = [played.frames for played in chunk_of_all[ends[i]:ends[i + 1]]]
            values.append(design.deal_values(frames))
            forced[i] += design.forced(frames)
        moments.add(np.hstack(values))
        bar.update(values[0].shape[0] * sum(len(r) for r in runs))
    return moments, forced


def value_rows(designs: list[Design], labels: list[str], moments: DealMoments,
               forced: list[np.ndarray], keys: dict) -> tuple[list[dict], list[dict]]:
    """Per character of each set: value and value against the set's mean; per rank the set
    minus the base."""
    offsets = np.cumsum([0] + [d.width for d in designs])
    rows, by_rank = [], {}
    for i, (d, label) in enumerate(zip(designs, labels)):
        m = len(d.characters)
        for r, c in enumerate(d.characters):
            w = np.zeros(moments.total.size)
            w[offsets[i]], w[offsets[i] + 1 + r] = 1.0, -1.0  # base share - barred win
            value, value_se = moments.contrast(w)
            e = np.zeros(moments.total.size)
            e[offsets[i] + 1:offsets[i] + 1 + m] = 1.0 / m
            e[offsets[i] + 1 + r] -= 1.0  # mean barred win - this one's = value - mean
            effect, effect_se = moments.contrast(e)
            f, o = forced[i][r]
            rows.append({**keys, "set": label, "rank": r + 1, "character": c,
                         "value": value, "value_se": value_se, "effect": effect,
                         "effect_se": effect_se, "forced_share": f / o if o else 0.0})
            by_rank.setdefault(r, {})[i] = (c, w)
    against = []
    if len(designs) == 2:
        for r, pair in sorted(by_rank.items()):
            if len(pair) == 2:
                diff, se = moments.contrast(pair[0][1] - pair[1][1])
                against.append({**keys, "rank": r + 1, "character": pair[0][0],
                                "base_character": pair[1][0],
                                "base_value": moments.contrast(pair[1][1])[0],
                                "diff": diff, "diff_se": se})
    return rows, against
