"""Tune a strategy family's parameters for one game configuration with CMA-ES.

The search runs in [0, 1]^d: each parameter the family reads (``strategies.tunable``:
the nine rank desires and the named parameters, each with its bounds) is scaled by its
bounds; parameters the kernel compares with whole numbers (thresholds such as
``card_need``) are rounded to whole values before a candidate plays, so what is searched is
what is deployed.  Each generation, CMA-ES (the ``cma`` package, ask/tell, bounds
``[0, 1]``) proposes a population; every candidate, and the search mean, plays the same
fresh tables against the league (:mod:`citadels_sim.studies.league`: common random numbers within
the generation, the candidate in every seat), and its fitness is its mean win share -- or,
with ``copies``, its copies' share in every seat but one against each league member alone
(what :mod:`citadels_sim.studies.harden` tunes for).

After every generation the run is checkpointed (``runs/NAME/checkpoint.json``: the CMA
state, the generation, the learning curve), so a killed run started again resumes there and
ends with the same result as an uninterrupted one.  The deployed strategy is the final
search mean (less noisy than the best single candidate, whose training fitness is biased
upwards by selection).  It is then validated on held-out deals (a seed stream training
never uses) against the league, next to the starting strategy on the same deals, and
tested with an SPRT (:func:`citadels_sim.studies.compare.compare`) against the previous champion.
"""

from __future__ import annotations

import base64
import json
import math
import pickle
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl
from tqdm.auto import tqdm

from citadels_sim.engine import store
from citadels_sim.engine.executor import LOCAL, ChunkExecutor, resolve
from citadels_sim.engine.seeding import derive_seed
from citadels_sim.engine.simulate import check_index, check_memory, threads_for
from citadels_sim.engine.warmup import ensure_kernel
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import (FAMILIES, Param, Strategy, check_family, get,
                                          player_count_presets, presets, tunable)
from citadels_sim.versions import KERNEL_VERSION
from . import league as lg

if TYPE_CHECKING:  # compare and analysis import statsmodels: only when a run needs them
    from .compare import Comparison, Sprt

#: default games per candidate per generation
DEFAULT_GAMES = 500
#: default held-out games of the validation
DEFAULT_VALIDATE = 100_000
#: default SPRT against the champion (delta0, delta1): per-seat win-rate difference 0
#: against +0.02, alpha = beta = 0.05
DEFAULT_SPRT = (0.0, 0.02)
#: minimal search spread of a whole-number parameter, in steps of 1, so that CMA-ES keeps
#: trying its neighbours instead of freezing on a plateau
INTEGER_MINSTD = 0.3


# ---- the search space ---------------------------------------------------------------------
@dataclass(frozen=True)
class Space:
    """A family's tunable parameters, mapped to and from [0, 1]^d."""

    family: str
    names: tuple[str, ...]
    params: tuple[Param, ...]

    @classmethod
    def of(cls, family: str, players: int | None = None,
           characters: Sequence[int] | None = None) -> Space:
        """``family``'s space (at ``players`` players, for the set ``characters``:
        :func:`tunable`)."""
        items = tunable(family, players, characters)
        if not items:
            raise ConfigError(f"strategy family {family!r} has no parameters to tune; "
                              "families: " + ", ".join(f for f in FAMILIES if tunable(f))
                              + ".")
        return cls(family, tuple(n for n, _ in items), tuple(p for _, p in items))

    def __len__(self) -> int:
        return len(self.names)

    def values(self, s: Strategy) -> np.ndarray:
        """The strategy's value of each parameter of the space."""
        row = s.row()
        return np.array([row[p.index] for p in self.params])

    def encode(self, s: Strategy) -> np.ndarray:
        """The strategy as a point of [0, 1]^d (values outside the bounds clipped)."""
        low, high = self._bounds()
        return np.clip((self.values(s) - low) / (high - low), 0.0, 1.0)

    def decode(self, x: np.ndarray, template: Strategy, name: str,
               description: str = "") -> Strategy:
        """The strategy at point ``x``: whole-number parameters rounded to whole values,
        the others to 4 decimals; what the space does not hold is ``template``'s."""
        low, high = self._bounds()
        v = low + np.clip(np.asarray(x, float), 0.0, 1.0) * (high - low)
        whole = np.array([p.integer for p in self.params])
        v = np.where(whole, np.floor(v + 0.5), np.round(v, 4))
        base = list(template.base)
        params = dict(template.params)
        for n, value in zip(self.names, v):
            if n.startswith("base") and n[4:].isdigit():
                base[int(n[4:]) - 1] = float(value)
            else:
                params[n] = float(value)
        return Strategy(name, template.family, tuple(base), params, description)

    def minstd(self) -> np.ndarray:
        """CMA-ES's minimal spread per coordinate (whole-number parameters only)."""
        low, high = self._bounds()
        return np.array([INTEGER_MINSTD / (h - lo) if p.integer else 0.0
                         for p, lo, h in zip(self.params, low, high)])

    def _bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.array([p.low for p in self.params]),
                np.array([p.high for p in self.params]))

    def table(self) -> list[dict]:
        return [{"parameter": n, "low": p.low, "high": p.high, "whole": p.integer}
                for n, p in zip(self.names, self.params)]


def default_popsize(family: str) -> int:
    """CMA-ES's own population for ``family``'s space: 4 + 3 ln d."""
    return 4 + int(3 * math.log(len(Space.of(family))))


def generation_games(members: int, players: int, games: int, popsize: int) -> int:
    """Games of one generation: ``popsize`` candidates and the search mean, each playing
    ``games`` rounded up to fill every table alike (:func:`.league.table_games`)."""
    return (popsize + 1) * members * players * lg.table_games(members, players, games)


def tunable_space(family: str, what: str) -> Space:
    """``family``'s search space, or a ConfigError naming ``what`` (e.g. the option that
    gave the family) when the family is unknown or has nothing to tune."""
    try:
        return Space.of(family)
    except ValueError as err:
        raise ConfigError(f"{what}: {err}") from None


#: the most games a search's budget may ask for (about four days at 30,000 games/s)
MAX_BUDGET = 10_000_000_000


def check_budget(budget: int, family: str, players: int, what: str, search: str,
                 members: Iterable[int] = (1,)) -> None:
    """Refuse, before any game, a ``budget`` (``what``: its name and option) smaller than one
    generation of ``search``, a search of ``family`` at the default population and games
    against leagues of each size in ``members``, or larger than :data:`MAX_BUDGET`."""
    least = max(generation_games(m, players, DEFAULT_GAMES, default_popsize(family))
                for m in members)
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < least:
        raise ConfigError(f"{what} {budget!r} is less than one generation of {search} at "
                          f"{players} players ({least:,} games); give at least {least:,}.")
    if budget > MAX_BUDGET:
        raise ConfigError(f"{what} {budget:,} is more than {MAX_BUDGET:,} games (days of play "
                          f"on one machine); give at most {MAX_BUDGET:,}.")


# ---- settings and checkpoint ----------------------------------------------------------------
def _describe(s: Strategy) -> dict:
    if s.mixture:
        return {"name": s.name, "family": s.family,
                "mixture": [{"chance": c, **_describe(p)} for c, p in s.mixture]}
    return {"name": s.name, "family": s.family, "row": s.row().tolist()}


@dataclass
class Plan:
    """Everything a tuning run is determined by (a resumed run must match it)."""

    name: str
    family: str
    config: GameConfig
    league: tuple[Strategy, ...]
    start: Strategy
    champion: Strategy
    budget: int
    games: int        # per candidate and generation (every table filled alike)
    popsize: int
    sigma: float
    seed: int
    copies: bool = False  # the candidate in every seat but one (league.schedule)
    space: Space = field(init=False)
    generations: int = field(init=False)

    def __post_init__(self) -> None:
        self.space = Space.of(self.family, self.config.players, self.config.character_ids)
        self.games = sum(t.games for t in self.tables(0))
        self.generations = self.budget // ((self.popsize + 1) * self.games)
        if self.generations < 1:
            raise ConfigError(
                f"a budget of {self.budget:,} games is less than one generation "
                f"({self.popsize} candidates and the search mean x {self.games:,} games = "
                f"{(self.popsize + 1) * self.games:,}); raise --budget or lower --games or "
                "--popsize.")

    def tables(self, generation: int) -> list[lg.Table]:
        """The training tables of a generation (fresh deals every generation)."""
        return lg.schedule(self.league, self.config.players, self.games, self.seed, "train",
                           generation, copies=self.copies)

    @property
    def fair(self) -> float:
        """The fitness of an even strategy: 1/N, or (N-1)/N for copies."""
        n = self.config.players
        return (n - 1) / n if self.copies else 1 / n

    def settings(self) -> dict:
        """The plan as JSON-able data (checkpoint and metadata)."""
        return {"name": self.name, "family": self.family, "config": self.config.to_dict(),
                "league": [_describe(s) for s in self.league],
                "start": _describe(self.start), "champion": _describe(self.champion),
                "budget": self.budget, "games_per_candidate": self.games,
                "popsize": self.popsize, "sigma": self.sigma, "seed": self.seed,
                "copies": self.copies, "generations": self.generations,
                "space": self.space.table(),
                "kernel_version": KERNEL_VERSION}


class Checkpoint:
    """``checkpoint.json`` of a run directory: the CMA-ES state (pickled), the generation
    reached, the learning curve so far and the time spent; written atomically."""

    def __init__(self, directory: Path):
        self.path = directory / "checkpoint.json"

    def load(self, settings: dict) -> dict | None:
        if not self.path.exists():
            return None
        try:
            state = json.loads(self.path.read_text())
            saved = state["settings"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise ConfigError(f"{self.path} is not a tuning checkpoint; --fresh starts the "
                              "run again.") from None
        if saved != settings:
            diff = sorted(k for k in settings if saved.get(k) != settings[k])
            raise ConfigError(f"{self.path} holds a tuning run with other settings "
                              f"({', '.join(diff)} differ); give another --name, or --fresh "
                              "to start it again.")
        return state

    def save(self, state: dict) -> None:
        store.write_json(self.path, state)


def _dumps(es) -> str:
    return base64.b64encode(pickle.dumps(es)).decode()


def _loads(blob: str):
    return pickle.loads(base64.b64decode(blob))


def _seeded(seed: int, fn, *args):
    """``fn(*args)`` with numpy's global generator (which ``cma`` draws from) seeded,
    restored afterwards."""
    saved = np.random.get_state()
    np.random.seed(seed % 2**32)
    try:
        return fn(*args)
    finally:
        np.random.set_state(saved)


# ---- the result ---------------------------------------------------------------------------
@dataclass
class Tuning:
    """What :func:`tune` found: the deployed strategy, the learning curve, the held-out
    validation and the SPRT against the champion."""

    plan: Plan
    strategy: Strategy
    history: pl.DataFrame
    validation: dict
    comparison: Comparison | None
    timing: dict

    @property
    def fair(self) -> float:
        return self.plan.fair

    def parameters(self) -> pl.DataFrame:
        """Per parameter: bounds, the start's value and the deployed one."""
        space = self.plan.space
        return pl.DataFrame(space.table()).with_columns(
            pl.Series("start", space.values(self.plan.start)),
            pl.Series("tuned", space.values(self.strategy)))

    def text(self) -> str:
        """A plain-text summary: the search, the held-out validation and the SPRT."""
        p, tm = self.plan, self.timing
        lines = [f"{self.strategy.name}: family {p.family}, {len(p.space)} parameters, "
                 f"{p.generations} generations x {p.popsize + 1} x {p.games:,} games = "
                 f"{tm['tuning_games']:,} games in {tm['tuning_seconds']:,} s "
                 f"({tm['tuning_games_per_second'] or 0:,.0f} games/s)",
                 f"  final search mean, training: {self.history['search_mean'][-1]:.4f} "
                 f"(fair {self.fair:.4f})"]
        v = self.validation
        for key, s in (("tuned", self.strategy), ("start", p.start)):
            if v:
                r = v[key]
                lines.append(f"  held-out win share {s.name:<28} {r['share']:.4f} "
                             f"[{r['low']:.4f}, {r['high']:.4f}] over {r['games']:,} games:"
                             f" {100 * (r['share'] - self.fair):+.1f} points over fair")
        if v:
            d = v["difference"]
            lines.append(f"  tuned - start (paired): {100 * d['diff']:+.2f} points "
                         f"[{100 * d['diff_low']:+.2f}, {100 * d['diff_high']:+.2f}]")
        if self.comparison is not None:
            lines += ["  SPRT against the champion:"] + [
                "    " + line for line in self.comparison.text().splitlines()]
        return "\n".join(lines)


# ---- the search ---------------------------------------------------------------------------
def _search(plan: Plan, directory: Path, fresh: bool, executor: ChunkExecutor,
            workers: int | None, progress: bool) -> tuple[np.ndarray, list[dict], dict]:
    """Run (or resume) the CMA-ES loop; returns the final search mean, the history and
    the time and games spent."""
    import cma
    ckpt = Checkpoint(directory)
    settings = json.loads(json.dumps(plan.settings()))
    state = None if fresh else ckpt.load(settings)
    if state is None:
        space = plan.space
        opts = {"bounds": [0, 1], "popsize": plan.popsize, "seed": derive_seed(
            plan.seed, "cma") % 2**32 or 1, "minstd": space.minstd().tolist(),
            "verbose": -9, "verb_log": 0, "verb_disp": 0}
        es = cma.CMAEvolutionStrategy(space.encode(plan.start).tolist(), plan.sigma, opts)
        state = {"settings": settings, "generation": 0, "es": _dumps(es), "history": [],
                 "seconds": 0.0, "games": 0}
    per_generation = (plan.popsize + 1) * plan.games
    session_start, session_games = time.perf_counter(), 0
    with tqdm(total=plan.generations * per_generation, initial=state["games"], unit="game",
              disable=not progress, smoothing=0.1) as bar:
        while state["generation"] < plan.generations:
            t0 = time.perf_counter()
            g = state["generation"]
            es = _loads(state["es"])
            xs = _seeded(derive_seed(plan.seed, "ask", g), es.ask)
            mean = np.clip(np.asarray(es.result.xfavorite, float), 0, 1)
            candidates = [plan.space.decode(x, plan.start, f"candidate {i}")
                          for i, x in enumerate(xs)]
            candidates.append(plan.space.decode(mean, plan.start, "search mean"))
            fit = np.array([shares.mean() for shares in lg.evaluate(
                candidates, plan.tables(g), plan.config, executor, workers)])
            _seeded(derive_seed(plan.seed, "tell", g), es.tell, xs, (-fit[:-1]).tolist())
            state["games"] += per_generation
            session_games += per_generation
            state["history"].append({
                "generation": g + 1, "games": state["games"], "sigma": float(es.sigma),
                "best_candidate": float(fit[:-1].max()),
                "population_average": float(fit[:-1].mean()),
                "search_mean": float(fit[-1]), "x": mean.tolist()})
            state["generation"] = g + 1
            state["es"] = _dumps(es)
            state["seconds"] += time.perf_counter() - t0
            ckpt.save(state)
            bar.update(per_generation)
            bar.set_postfix(generation=f"{g + 1}/{plan.generations}",
                            mean=f"{fit[-1]:.3f}", best=f"{fit[:-1].max():.3f}")
    final = np.clip(np.asarray(_loads(state["es"]).result.xfavorite, float), 0, 1)
    wall = time.perf_counter() - session_start
    timing = {"tuning_seconds": round(state["seconds"], 2), "tuning_games": state["games"],
              "tuning_games_per_second": round(state["games"] / state["seconds"], 1)
              if state["seconds"] else None,
              "session_games": session_games, "session_seconds": round(wall, 2)}
    return final, state["history"], timing


def validate(strategy: Strategy, baseline: Strategy, plan: Plan, games: int,
             workers: int | None = None, progress: bool = False,
             executor: ChunkExecutor = LOCAL) -> dict:
    """``strategy`` and ``baseline`` against the league on the same held-out deals (a seed
    stream training never uses): each one's win share with its 95% interval, and the
    paired difference strategy - baseline, deal by deal, with its interval."""
    from citadels_sim.stats import analysis
    tables = lg.schedule(plan.league, plan.config.players, games, plan.seed, "validate",
                         copies=plan.copies)
    with tqdm(total=2, unit="strategy", desc="validating", disable=not progress) as bar:
        tuned, start = lg.evaluate((strategy, baseline), tables, plan.config, executor,
                                   workers, bar)
    shares = {"tuned": tuned, "start": start}
    diff = shares["tuned"] - shares["start"]
    values, counts = np.unique(diff, return_counts=True)
    return {"tuned": lg.share_interval(shares["tuned"]),
            "start": lg.share_interval(shares["start"]),
            "difference": analysis.diff_test(values, counts),
            "fair": plan.fair, "tables": len(tables)}


def _lineup(specs: str | Sequence[str | Strategy] | None) -> tuple[Strategy, ...]:
    if specs is None:
        return ()
    items = specs.split(",") if isinstance(specs, str) else list(specs)
    return tuple(get(s) for s in items if not isinstance(s, str) or s.strip())


def default_start(family: str) -> Strategy:
    """The shipped preset a family's search starts from: the one named after the family,
    else the first of that family."""
    mine = [s for s in presets().values() if s.family == family]
    check_family(family)
    if not mine:
        raise ConfigError(f"no shipped preset of family {family!r} to start from; give "
                          "start=... (--start).")
    return next((s for s in mine if s.name == family), mine[0])


def config_tag(config: GameConfig) -> str:
    """``RULESET-Np`` (with the named set's name, or ``custom``, when characters are given,
    and each house rule as ``-NAMEVALUE``): the configuration's part of a default run name."""
    sets = f"-{config.characters}" if isinstance(config.characters, str) else (
        "-custom" if config.characters else "")
    house = "".join(f"-{name}{value}" for name, value in config.rules)
    return f"{config.ruleset}-{config.players}p{sets}{house}"


def default_name(family: str, config: GameConfig) -> str:
    """``tuned-FAMILY-RULESET-Np`` (with the named set's name when one is used)."""
    return f"tuned-{family}-{config_tag(config)}"


def tune(family: str | None = None, config: GameConfig | None = None,
         league: str | Sequence[str | Strategy] | None = None, budget: int = 200_000, *,
         start: str | Strategy | None = None, champion: str | Strategy | None = None,
         games: int = DEFAULT_GAMES, popsize: int | None = None, sigma: float = 0.2,
         seed: int = 0, name: str | None = None, runs_dir: str | Path = "runs",
         validate_games: int = DEFAULT_VALIDATE,
         sprt: Sprt | tuple[float, float] | None = DEFAULT_SPRT,
         sprt_games: int = 20_000, workers: int | None = None, progress: bool = True,
         fresh: bool = False, copies: bool = False,
         executor: ChunkExecutor | Executor | None = None, client=None) -> Tuning:
    """Tune ``family``'s parameters for ``config`` against ``league`` with CMA-ES.

    Parameters
    ----------
    family : the strategy family (default: ``start``'s).
    config : the game (default: 4-player classic base game).
    league : the opponents (preset names, ``FILE.toml:NAME`` of earlier champions, or
        Strategy objects); each opponent seat draws from it.  Default: ``start`` and every
        other shipped preset but ``random`` and the bots made for one player count.
    budget : games of the search (every candidate's, the search mean's included).
    start : the strategy the search starts from (default: the family's shipped preset).
    champion : the strategy the SPRT tests against (default: the league's first).
    games : games per candidate and generation, at least one per seat for each league
        member (rounded up to a multiple of that, to fill every seat alike).
    popsize : CMA-ES population (default: its own, 4 + 3 ln d).
    sigma : CMA-ES initial step in the [0, 1]-scaled space.
    seed : master seed: training, validation and SPRT deals and CMA-ES draws derive from it.
    name : the run's name (default :func:`default_name`); the checkpoint is
        ``runs_dir/NAME/checkpoint.json``, and a rerun with the same settings resumes.
    validate_games : held-out games of the validation (``0``: none).
    sprt, sprt_games : the SPRT against the champion — a ``compare.Sprt``, or its
        (delta0, delta1) with alpha = beta = 0.05; ``None``: none — and its most deals.
    workers : numba threads (default: all cores); only for the default executor.
    fresh : start again even if a checkpoint exists.
    copies : fill every seat but one with the candidate, the league's members taking the
        last seat one at a time; fitness is the copies' share together (fair (N-1)/N):
        tuning for what a strategy keeps from a lone deviator, i.e. against being
        exploited by the league (put strategies tuned to exploit it there).
    executor, client : where the games are played (see :func:`.simulate.simulate`): each
        candidate's evaluation of a generation is one task, so a cluster plays a
        generation's candidates side by side; the result is the same everywhere.
    """
    from .compare import Sprt
    if family is None and start is None:
        raise ConfigError("give the family to tune, or a start strategy (--family/--start).")
    start = get(start) if start is not None else default_start(family)
    family = family or start.family
    if start.family != family:
        raise ConfigError(f"start strategy {start.name!r} is of family {start.family!r}, "
                          f"not {family!r}.")
    if start.mixture:
        raise ConfigError(f"start strategy {start.name!r} is a mixed strategy; a search "
                          "starts from a plain one (one of its components).")
    config = config or GameConfig()
    members = _lineup(league) or (start,) + tuple(
        s for s in presets().values() if s.family != "random" and s.name != start.name
        and s.name not in player_count_presets())
    Space.of(family)  # a family with nothing to tune is refused here
    for what, value, least in (("budget", budget, 1), ("games", games, 1),
                               ("validate_games", validate_games, 0),
                               ("sprt_games", sprt_games, 1)):
        if not isinstance(value, (int, np.integer)) or value < least:
            raise ConfigError(f"{what} must be an integer of at least {least}, got {value!r}.")
    least = len(members) * config.players
    if games < least:
        raise ConfigError(f"games {games} per candidate is fewer than one game per seat for "
                          f"each of the league's {len(members)} members at {config.players} "
                          f"players: give at least {least} (games are rounded up to a "
                          f"multiple of {least}).")
    popsize = popsize or default_popsize(family)
    if popsize < 2:
        raise ConfigError(f"popsize must be at least 2, got {popsize}.")
    if sprt is not None and not isinstance(sprt, Sprt):
        sprt = Sprt(*sprt)
    if not 0 < sigma <= 1:
        raise ConfigError(f"sigma must be in (0, 1] (the search space is [0, 1]^d), "
                          f"got {sigma}.")
    check_index(seed, "seed")
    name = store.check_name(name or default_name(family, config), "tuning run name")
    executor = resolve(executor, client)
    threads_for(workers, executor)
    plan = Plan(name, family, config, members, start,
                get(champion) if champion is not None else members[0], budget, games,
                popsize, sigma, seed, copies)
    for what, n in (("games", games), ("validate_games", validate_games)):
        table = lg.table_games(len(members), config.players, n)
        try:  # a table's games are played at once
            check_memory(table, table, config, [start.name] * config.players, False,
                         here=executor.sequential, held=False)
        except ConfigError as err:
            raise ConfigError(f"{what} {n:,} plays tables of {table:,} games: {err}") from None
    directory = Path(runs_dir) / plan.name
    store.open_run_dir(directory, "checkpoint.json")
    if executor.sequential:  # a cluster's workers load the kernel themselves
        ensure_kernel()
    start_time = time.perf_counter()
    with store.on_interrupt(lambda: checkpointed(directory)):
        return _tuned(plan, directory, fresh, executor, workers, progress, validate_games,
                      sprt, sprt_games, start_time)


def checkpointed(directory: Path) -> str:
    """What the checkpoint in ``directory`` holds, in words (an interrupted run's progress)."""
    path = Checkpoint(directory).path
    state = json.loads(path.read_text()) if path.exists() else None
    if state is None:
        return f"no generation finished yet in {directory}"
    done, total = state["generation"], state["settings"]["generations"]
    return (f"{done} of {total} generations checkpointed in {directory}"
            + ((" (the search and its held-out validation are done)" if "validation" in state
                else " (the search is done: the validation and the SPRT play again)")
               if done == total else ""))


def _validation(plan: Plan, deployed: Strategy, directory: Path, games: int,
                workers: int | None, progress: bool, executor: ChunkExecutor) -> dict:
    """:func:`validate` of the finished search's strategy on ``games`` held-out games, kept
    in its checkpoint: a rerun of a finished search (a resumed hardening, an experiment's
    bot check played again) reads it back instead of playing the games again (a search
    resumed or started afresh writes a checkpoint without it)."""
    if not games:
        return {}
    checkpoint = Checkpoint(directory)
    state = json.loads(checkpoint.path.read_text()) if checkpoint.path.exists() else None
    kept = (state or {}).get("validation")
    if kept and kept["games"] == games:
        return kept["result"]
    found = validate(deployed, plan.start, plan, games, workers, progress, executor)
    if state is not None:
        checkpoint.save({**state, "validation": {"games": games, "result": found}})
    return found


def _tuned(plan: Plan, directory: Path, fresh: bool, executor: ChunkExecutor,
           workers: int | None, progress: bool, validate_games: int, sprt: Sprt | None,
           sprt_games: int, start_time: float) -> Tuning:
    """The search (resumed from its checkpoint), then the deployed strategy's validation and
    SPRT: :func:`tune`'s work once its arguments are checked."""
    from .compare import compare
    final, history, timing = _search(plan, directory, fresh, executor, workers, progress)
    c = plan.config
    deployed = plan.space.decode(
        final, plan.start, plan.name,
        f"Tuned by citadels tune: family {plan.family}, {c.ruleset}, {c.players} players, "
        f"league {', '.join(s.name for s in plan.league)}, {timing['tuning_games']:,} games, "
        f"seed {plan.seed}.")
    t0 = time.perf_counter()
    validation = _validation(plan, deployed, directory, validate_games, workers, progress,
                             executor)
    timing["validation_seconds"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    comparison = (compare(deployed, plan.champion, c, sprt_games,
                          derive_seed(plan.seed, "sprt"), sprt=sprt, workers=workers,
                          progress=progress, executor=executor) if sprt is not None else None)
    timing["sprt_seconds"] = round(time.perf_counter() - t0, 2)
    timing["wall_seconds"] = round(time.perf_counter() - start_time, 2)
    frame = pl.DataFrame([{k: v for k, v in h.items() if k != "x"} for h in history])
    return Tuning(plan, deployed, frame, validation, comparison, timing)
