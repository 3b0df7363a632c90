"""Strategy A against strategy B: seat rotation, common random numbers, optional SPRT.

The line-up alternates A and B over the seats (A, B, A, B, ...) and every distinct rotation
of it plays each deal; at an odd player count the line-up B, A, B, ... and its rotations
play too, so that each strategy holds every seat equally often and neither has the extra
seat (at 3 players the side with two seats wins more, whichever it is: ABA, BAA, AAB, BAB,
ABB, BBA).  Swapping A and B then plays the same games.  With common random numbers (the
default) all line-ups share the seed, so deal *i* (deck, draft and seat streams) is the
same for every line-up and the comparison is paired deal by deal.  The statistic of deal
*i* is the share of A's seats that won minus the share of B's, averaged over the line-ups;
its mean is the win-rate difference A - B (per seat), tested with a z-test.

The sequential test is the generalized SPRT of fishtest's ``LLRcalc`` in its normal
approximation (``LLR_alt2``: LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var), with the per-deal
score s = (1 + difference) / 2): it stops when the LLR leaves
[log(beta / (1 - alpha)), log((1 - beta) / alpha)], checked after every chunk of deals
(in deal order, whatever order an executor finishes them in).
Like fishtest's ``regularize`` (which gives every outcome class a frequency of at least
1e-3), the variance is estimated with a pseudo-count of :data:`REGULARIZE` deals at each
extreme score (0 and 1), so a run whose deals all came out alike — every deal a sweep, or a
strategy replaying itself on common deals — has a finite LLR and decides instead of
running to its maximum.

A and B with the same decisions on common deals are *degenerate*: every rotation replays
the same games, the difference is 0 by construction and carries no information about noise
(:attr:`Comparison.degenerate`; the text says so).  ``crn=False`` measures a strategy against
itself on independent deals.
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from contextlib import closing
from dataclasses import dataclass, replace

import numpy as np
import polars as pl
from statsmodels.stats.weightstats import DescrStatsW
from tqdm.auto import tqdm

from citadels_sim.engine.executor import ChunkExecutor, resolve
from citadels_sim.engine.seeding import derive_seed, rotations
from citadels_sim.engine.simulate import Run, play_in_step
from citadels_sim.engine.summary import Summary, chunk_tables
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import Strategy, get
from citadels_sim.stats import analysis


#: pseudo-count of deals given to each extreme score before the SPRT's variance is taken
REGULARIZE = 1e-3


def elo_to_delta(elo: float) -> float:
    """The win-rate difference A - B of a two-player match at ``elo`` (logistic Elo)."""
    return 2 / (1 + 10 ** (-elo / 400)) - 1


@dataclass(frozen=True)
class Sprt:
    """A sequential test of H0: difference = delta0 against H1: difference = delta1
    (``elo``: the Elo values they were given as, see :meth:`from_elo`)."""

    delta0: float
    delta1: float
    alpha: float = 0.05
    beta: float = 0.05
    elo: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ConfigError(f"SPRT {name} must be in (0, 0.5), got {getattr(self, name)}.")
        if not -1 < self.delta0 < self.delta1 < 1:
            if self.elo:
                raise ConfigError(f"SPRT needs elo0 < elo1, each finite and within about "
                                  f"±6,000 Elo, got elo0={self.elo[0]:g}, "
                                  f"elo1={self.elo[1]:g}.")
            raise ConfigError(f"SPRT needs -1 < delta0 < delta1 < 1, got {self.delta0}, "
                              f"{self.delta1}.")

    @classmethod
    def from_elo(cls, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
                 ) -> Sprt:
        """Hypotheses given in logistic Elo (exact for two players)."""
        return cls(elo_to_delta(elo0), elo_to_delta(elo1), alpha, beta, (elo0, elo1))

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below lower, H1 at or above upper."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, values: np.ndarray, counts: np.ndarray) -> float:
        """The log-likelihood ratio of the per-deal differences seen so far."""
        scores = np.append((1 + np.asarray(values, float)) / 2, [0.0, 1.0])
        weights = np.append(np.asarray(counts, float), [REGULARIZE, REGULARIZE])
        d = DescrStatsW(scores, weights=weights)
        if d.sum_weights < 2:
            return 0.0
        s0, s1 = (1 + self.delta0) / 2, (1 + self.delta1) / 2
        return float(d.sum_weights * (s1 - s0) * (2 * d.mean - s0 - s1) / d.var / 2)

    def verdict(self, llr: float) -> str | None:
        lower, upper = self.bounds
        return "H0" if llr <= lower else "H1" if llr >= upper else None


@dataclass
class Comparison:
    """The outcome of :func:`compare`."""

    a: str
    b: str
    config: GameConfig
    line_ups: tuple[tuple[str, ...], ...]
    deals: int
    crn: bool
    summary: Summary
    test: dict
    rates: pl.DataFrame
    sprt: Sprt | None = None
    llr: float | None = None
    verdict: str | None = None
    degenerate: bool = False  # same decisions on common deals: identical games
    #: variance of the per-deal difference over what independent deals per line-up would
    #: give (measured from the per-rotation differences); below 1, common deals helped
    variance_ratio: float | None = None

    def text(self) -> str:
        """A plain-text report."""
        c, t = self.config, self.test
        lines = [f"A = {self.a} vs B = {self.b} · {c.ruleset} · {c.players} players · "
                 f"line-ups {' / '.join(''.join('A' if s == self.a else 'B' for s in lu) for lu in self.line_ups)}",
                 f"{self.deals:,} deals x {len(self.line_ups)} line-ups = "
                 f"{self.deals * len(self.line_ups):,} games · common random numbers: "
                 f"{'yes' if self.crn else 'no'}"]
        for row in self.rates.iter_rows(named=True):
            lines.append(f"  win rate {row['strategy']:<24} {row['win_rate']:.4f} "
                         f"[{row['win_rate_low']:.4f}, {row['win_rate_high']:.4f}]  "
                         f"(fair {row['fair']:.3f})")
        if self.degenerate:
            lines.append("A and B make the same decisions and play common deals: every "
                         "rotation replays the same games, so the difference is 0 by "
                         "construction (a degenerate comparison; --no-crn measures a "
                         "strategy against itself on independent deals).")
        lines.append(f"difference A - B: {t['diff']:+.4f} [{t['diff_low']:+.4f}, "
                     f"{t['diff_high']:+.4f}] (95%), "
                     + analysis.p_text(t["p"])
                     + (" — significant at 5%" if t["p"] < analysis.ALPHA else
                        " — not significant at 5%"))
        if not self.degenerate:
            lines.append(self._verdict())
        if self.variance_ratio is not None and np.isfinite(self.variance_ratio):
            r = self.variance_ratio
            narrower = 1 - np.sqrt(r)
            lines.append(f"pairing: variance of the per-deal difference {r:.3f} x that of "
                         f"independent deals per line-up (interval {abs(narrower):.1%} "
                         + ("narrower)" if narrower >= 0 else "wider)") if self.crn else
                         f"pairing: none (independent deals per line-up; measured variance "
                         f"ratio {r:.3f})")
        if self.sprt:
            lo, hi = self.sprt.bounds
            s = self.sprt
            elo = f"elo0={s.elo[0]:g} elo1={s.elo[1]:g}, " if s.elo else ""
            lines.append(f"SPRT {elo}delta0={s.delta0:+.4f} delta1={s.delta1:+.4f} "
                         f"alpha={s.alpha} beta={s.beta}: LLR {self.llr:.2f} in "
                         f"[{lo:.2f}, {hi:.2f}] -> "
                         + {"H0": "H0 accepted (the difference is nearer delta0)",
                            "H1": "H1 accepted (the difference is nearer delta1)",
                            None: "no decision yet (ran out of games)"}[self.verdict])
        return "\n".join(lines)

    def _verdict(self) -> str:
        """The difference in plain words: who wins more, by how many win-rate points (a
        seat's share of games won, in percentage points), and what to do when undecided."""
        t = self.test
        low, high = sorted((abs(t["diff_low"]), abs(t["diff_high"])))
        if t["p"] >= analysis.ALPHA:
            return (f"verdict: no difference found: {self.a} - {self.b} = "
                    f"{100 * t['diff']:+.1f} win-rate points [{100 * t['diff_low']:+.1f}, "
                    f"{100 * t['diff_high']:+.1f}] (percentage points of games won by a "
                    "seat); more games (--games) narrow the interval, --sprt-delta 0,D "
                    "plays until a difference of D is ruled in or out.")
        more, less = (self.a, self.b) if t["diff"] > 0 else (self.b, self.a)
        return (f"verdict: {more} wins more: {100 * abs(t['diff']):.1f} win-rate points "
                f"more than {less} [{100 * low:.1f}, {100 * high:.1f}] (percentage points of "
                f"games won by a seat; {analysis.p_text(t['p'])}).")


def _sides(a: str | Strategy, b: str | Strategy) -> tuple[Strategy, Strategy]:
    sa, sb = get(a), get(b)
    if sa.name == sb.name:
        sa, sb = replace(sa, name=f"{sa.name} (A)"), replace(sb, name=f"{sb.name} (B)")
    return sa, sb


def balanced_line_ups(a: str, b: str, players: int) -> tuple[tuple[str, ...], ...]:
    """Every rotation of A, B, A, B, ... over ``players`` seats and, when ``players`` is
    odd, of B, A, B, ... too: each side holds each seat equally often."""
    line_ups = rotations((a, b), players, "rotate")
    return line_ups + (rotations((b, a), players, "rotate") if players % 2 else ())


def _oriented(pairs: pl.DataFrame, a: str) -> pl.DataFrame:
    """The pair table with differences as A - B (pairs are stored in alphabetical order)."""
    return pairs.with_columns(pl.when(pl.col("a") == a).then(pl.col("diff"))
                              .otherwise(-pl.col("diff")).alias("diff"))


def compare(a: str | Strategy, b: str | Strategy, config: GameConfig | None = None,
            games: int = 20_000, seed: int = 0, *, crn: bool = True, sprt: Sprt | None = None,
            chunk_size: int = 5_000, workers: int | None = None,
            progress: bool = False, executor: ChunkExecutor | Executor | None = None,
            client=None) -> Comparison:
    """Play ``games`` deals of A against B, each deal once per line-up of
    :func:`balanced_line_ups`.

    ``crn``: every rotation plays the same deals (otherwise each rotation has its own seed).
    ``sprt``: stop early, after a chunk of ``chunk_size`` deals, once the test decides.
    ``executor`` / ``client``: where the chunks are played (see
    :func:`.simulate.simulate`).  Chunks are taken into the statistics in deal order, however
    they finish, so the SPRT decides after the same chunk, with the same LLR, everywhere.
    """
    config = config or GameConfig()
    executor = resolve(executor, client)
    sa, sb = _sides(a, b)
    by_name = {sa.name: sa, sb.name: sb}
    line_ups = balanced_line_ups(sa.name, sb.name, config.players)
    runs = [Run(config, [by_name[n] for n in lu], games,
                seed if crn else derive_seed(seed, "rotation", r), workers,
                chunk_size=chunk_size, picks=False, executor=executor)
            for r, lu in enumerate(line_ups)]
    summary = Summary()
    deals, llr, verdict = 0, None, None
    with tqdm(total=games, unit="deal", disable=not progress) as bar, \
            closing(play_in_step(runs, executor)) as chunks:
        for first, chunk in chunks:
            summary.merge(_deal_summary([played.frames for played in chunk]))
            n = min(chunk_size, games - first)
            deals += n
            bar.update(n)
            if sprt:
                pairs = _oriented(summary.tables["pairs"], sa.name)
                llr = sprt.llr(pairs["diff"].to_numpy(), pairs["count"].to_numpy())
                verdict = sprt.verdict(llr)
                if verdict:
                    break
    pairs = _oriented(summary.tables["pairs"], sa.name)
    test = analysis.diff_test(pairs["diff"].to_numpy(), pairs["count"].to_numpy())
    outcomes = summary.tables["outcomes"].with_columns(pl.lit(config.players).alias("players"))
    rates = analysis.win_rates(outcomes, "strategy", summary.tables["wins"]).sort(
        pl.col("strategy") != sa.name)
    same = sa.family == sb.family and all(map(np.array_equal, sa.rows(), sb.rows()))
    return Comparison(sa.name, sb.name, config, line_ups, deals, crn, summary, test, rates,
                      sprt, llr, verdict, degenerate=crn and same,
                      variance_ratio=_variance_ratio(summary, sa.name, len(line_ups)))


def _deal_summary(chunk: list[dict[str, pl.DataFrame]]) -> Summary:
    """The summary of one chunk of deals from every rotation's frames: the rotations' seats
    stacked, so that deals are compared across them."""
    seats = pl.concat([f["seats"].with_columns(pl.col("strategy").cast(pl.String),
                                               pl.lit(r, pl.Int8).alias("rotation"))
                       for r, f in enumerate(chunk)], how="vertical_relaxed")
    chars = pl.concat([f["characters"] for f in chunk], how="vertical_relaxed")
    return Summary(chunk_tables({"seats": seats, "characters": chars}))


def _variance_ratio(summary: Summary, a: str, rotations: int) -> float:
    """Var(per-deal difference averaged over the rotations) / (sum of the rotations' own
    variances / rotations^2): how much playing every rotation on the same deal reduces the
    variance, against independent deals per line-up (whose marginals are the same)."""
    def var(frame: pl.DataFrame) -> float:
        d = DescrStatsW(frame["diff"].to_numpy(), weights=frame["count"].to_numpy(), ddof=1)
        return float(d.var) if d.sum_weights > 1 else np.nan
    per_rotation = _oriented(summary.tables["rotation_pairs"], a)
    independent = sum(var(per_rotation.filter(pl.col("rotation") == r))
                      for r in range(rotations)) / rotations ** 2
    paired = var(_oriented(summary.tables["pairs"], a))
    return paired / independent if independent > 0 else np.nan
