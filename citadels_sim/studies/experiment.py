"""Declarative experiments: a TOML grid of game configurations and line-ups, run cell by cell.

An experiment file (see ``experiments/README.md``)::

    title = "Base-game character balance by player count"
    seed = 1
    games = 200_000          # per cell
    chunk_size = 50_000      # games per Parquet chunk (the most an interruption loses)
    seating = "rotate"       # rotate the line-up over the seats (or "fixed")
    skip_invalid = false     # true: leave out cells the rules refuse, and list them
    strategies_file = "my_presets.toml"   # optional: presets the line-ups may name
                             # (a path relative to the experiment file)
    common_deals = false     # true: cells that differ only in characters/districts play
                             # the same seeds (paired comparisons of sets)

    [grid]                   # every combination is a cell
    ruleset = ["classic"]
    players = [2, 3, 4, 5, 6, 7]
    characters = ["base"]    # "base", a 2016 named set, or a name from [characters]
    districts = ["default"]  # "default", a 2016 named set, or a name from [districts]
    lineup = ["default"]     # a strategy for every seat, or a name from [lineups];
                             # "default": the shipped reference bot made for the
                             # cell's set and player count (game.strategies.default_for);
                             # "prepared": the bots `citadels balance` judges under,
                             # prepared (tuned and hardened) for the cell's set and
                             # player count
                             # (unless [lineups] defines a line-up of that name)
    bots_dir = "runs/bots"   # optional: where prepared bots are kept and reused (relative
                             # to the working directory, as for `citadels balance`)
    check_budget = 200_000   # optional: the bot check of every cell whose seats all play
                             # one strategy (the exploit test, this many games a search;
                             # 0, the default: none)
    # set = ["first_game", "vicious_nobles"]   # 2016 named sets, each setting BOTH the
    #                          # characters and the districts (instead of those two keys)

    [characters]             # optional character sets of your own: one name per rank
    [districts]              # optional district selections of your own: a list of names
    [districts.big]          # or a table, to give classic removals with the bonus purples
    districts = ["Park", ...]
    removed = ["Keep", ...]
    [lineups]                # optional named line-ups, repeated to fill the seats
    mixed = ["heuristic", "builder", "aggressive", "random"]
    tuned = { 4 = ["tuned_4p"], 5 = ["tuned_5p"] }   # or one per player count
    own = { 4 = { base = ["reference_classic"], mine = ["my_4p"] } }   # ... and per set

Each cell's line-up is rotated over the seats (every distinct rotation plays an equal share
of the cell's games, on its own seed), so no strategy sits on the crown's seat more than
another.  Each rotation is a resumable :class:`~citadels_sim.engine.simulate.Run` written under
``runs/NAME/<cell>/rot-<r>/``; each chunk is summarised into count tables where it is
played (on a cluster, by its worker) and added as it comes
(:class:`~citadels_sim.engine.summary.Summary`, whose tables do not depend on the order chunks
come in), so memory stays bounded, here or on a cluster.  The presets the line-ups take
from strategy files are copied to ``runs/NAME/strategies.toml``, so the run can be
reported again without the original file.

With ``check_budget``, every cell whose seats all play one strategy gets the bot check
of ``citadels balance`` once its games are played: the exploit test of that strategy in the
cell's game (:func:`.exploit.check_gain`, resumable runs under ``runs/NAME/bot-check/``),
kept in ``runs/NAME/bot_check.json``; the report reads a cell's strong and weak verdicts
``bot-limited`` where an exploiter gains more than :data:`.exploit.LIMIT` win-rate points.
"""

from __future__ import annotations

import json
import math
import re
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl
from tqdm.auto import tqdm

from citadels_sim.engine import store
from citadels_sim.engine.executor import ChunkExecutor, resolve
from citadels_sim.engine.seeding import derive_seed, rotations
from citadels_sim.engine.simulate import Run, check_index, check_memory, play_runs
from citadels_sim.engine.summary import Summary
from citadels_sim.engine.warmup import ensure_kernel
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import (default_for, get, known, presets, register,
                                          register_file, to_toml)
from citadels_sim.versions import KERNEL_VERSION
from . import prepare as preparing
from .exploit import LIMIT, check_gain, check_searches

GRID = ("ruleset", "players", "characters", "districts", "set", "lineup")
#: the line-up that plays the shipped reference preset made for each cell's set
DEFAULT_LINEUP = "default"
#: the line-up that plays the bots prepared for each cell's set and player count
PREPARED_LINEUP = preparing.PREPARED
TOP = {"name", "title", "description", "seed", "games", "chunk_size", "seating",
       "skip_invalid", "common_deals", "strategies_file", "bots_dir", "check_budget",
       "grid", "characters", "districts", "lineups", "rules", "variants_file"}
SEATINGS = ("rotate", "fixed")
LABELS = ["cell", "ruleset", "players", "characters", "districts", "lineup"]


@dataclass(frozen=True)
class Cell:
    """One configuration and line-up of an experiment."""

    ruleset: str
    players: int
    characters: str
    districts: str
    lineup: str
    config: GameConfig
    rotations: tuple[tuple[str, ...], ...]
    games_per_rotation: int
    common_deals: bool = False

    @property
    def slug(self) -> str:
        """The cell's directory name (stable: it depends only on the cell's labels)."""
        text = (f"{self.ruleset}-{self.players}p-{self.characters}-{self.districts}-"
                f"{self.lineup}")
        return re.sub(r"[^A-Za-z0-9_.=+-]+", "_", text)

    @property
    def games(self) -> int:
        return self.games_per_rotation * len(self.rotations)

    @property
    def prepared(self) -> bool:
        """Does the cell play the bot prepared for its game (the ``prepared`` line-up)?"""
        return self.rotations[0][0] == prepared_name(self.config)

    def labels(self) -> dict:
        """The cell's label columns."""
        return {"cell": self.slug, "ruleset": self.ruleset, "players": self.players,
                "characters": self.characters, "districts": self.districts,
                "lineup": self.lineup}

    def seed(self, master: int, rotation: int) -> int:
        """The seed of one rotation, derived from the master seed and the cell's labels
        (with ``common_deals``, the labels other than its characters and districts)."""
        if self.common_deals:
            return derive_seed(master, "common", self.ruleset, self.players, self.lineup,
                               rotation)
        return derive_seed(master, self.slug, rotation)


@dataclass
class Experiment:
    """A parsed, validated experiment file."""

    name: str
    title: str
    description: str
    seed: int
    games: int
    chunk_size: int
    seating: str
    cells: list[Cell]
    skipped: list[dict] = field(default_factory=list)
    source: str = ""
    #: where the ``prepared`` line-up's bots are kept (None: :data:`.prepare.BOTS_DIR`)
    bots_dir: str | None = None
    #: games of each exploit search of the bot check (0: no bot check)
    check_budget: int = 0

    @property
    def total_games(self) -> int:
        return sum(c.games for c in self.cells)

    @property
    def chunks(self) -> int:
        """Chunks of every cell's every rotation."""
        return sum(len(c.rotations) * math.ceil(c.games_per_rotation / self.chunk_size)
                   for c in self.cells)

    def checked(self) -> list[Cell]:
        """The cells the bot check tests (with a ``check_budget``): those whose seats all
        play one strategy."""
        return [c for c in self.cells if self.check_budget and len(set(c.rotations[0])) == 1]

    def cells_frame(self) -> pl.DataFrame:
        """One row per cell: labels, games, rotations, the configuration it plays."""
        return pl.DataFrame([{**c.labels(), "games": c.games, "rotations": len(c.rotations),
                              "line_up": _seats(c.rotations[0])} for c in self.cells])


def _seats(lineup: tuple[str, ...]) -> str:
    """A line-up as the seats play it: ``a,b,a,b``, or ``a in every seat``."""
    return f"{lineup[0]} in every seat" if len(set(lineup)) == 1 else ",".join(lineup)


# ---- parsing ----------------------------------------------------------------------------
def _need(value, kind, what: str):
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        allowed = "true or false" if kind is bool else getattr(kind, "__name__", kind)
        raise ConfigError(f"{what} must be {allowed}, got {value!r}.")
    return value


def _entry(value, named: dict, what: str, default: str) -> tuple[str, object]:
    """(label, value for GameConfig / the line-up) of one grid entry."""
    if isinstance(value, list):
        return "+".join(map(str, value)), tuple(value)
    _need(value, str, f"grid.{what} entries")
    if value in named:
        entry = named[value]
        if what == "district" and isinstance(entry, dict):
            return value, entry
        return value, tuple(_need(entry, list, f"[{what}s] {value}"))
    return value, None if value == default else value


DISTRICT_KEYS = {"districts", "removed"}


def _districts(value) -> tuple[object, tuple[str, ...] | None]:
    """(districts, removed) for GameConfig from a resolved district entry: a list or a
    named set's name, or a table ``{districts = [...], removed = [...]}``."""
    if not isinstance(value, dict):
        return value, None
    bad = sorted(set(value) - DISTRICT_KEYS)
    if bad:
        raise ConfigError(f"[districts] tables take the keys districts and removed, not "
                          f"{bad[0]!r}.")
    districts = _need(value.get("districts", []), list, "[districts] districts")
    removed = _need(value.get("removed", []), list, "[districts] removed")
    return tuple(districts), tuple(removed) or None


def parse(text: str, name: str, base: Path | None = None,
          strategies_file: Path | None = None) -> Experiment:
    """Parse and validate an experiment file's text (``name`` names its runs and report).

    Its ``strategies_file`` is registered (a path relative to ``base``, the experiment
    file's directory, by default the working directory), or ``strategies_file`` instead
    when given (a run's own copy).
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"experiment {name}: not valid TOML: {err}") from None
    bad = sorted(set(doc) - TOP)
    if bad:
        raise ConfigError(f"experiment {name}: unknown key {bad[0]!r}; keys: "
                          + ", ".join(sorted(TOP)) + ".")
    if strategies_file is None and "strategies_file" in doc:
        strategies_file = (base or Path()) / _need(doc["strategies_file"], str,
                                                    "strategies_file")
    if strategies_file is not None:
        register_file(strategies_file)
    store.check_name(name, "experiment name")
    grid = _need(doc.get("grid"), dict, f"experiment {name}: [grid]")
    if "preset" in grid:
        raise ConfigError(f"experiment {name}: grid key 'preset' is now 'set' (2016 named "
                          "sets, each with its own districts).")
    bad = sorted(set(grid) - set(GRID))
    if bad:
        raise ConfigError(f"experiment {name}: unknown grid key {bad[0]!r}; grid keys: "
                          + ", ".join(GRID) + ".")
    skip_invalid = _need(doc.get("skip_invalid", False), bool, "skip_invalid")
    common = _need(doc.get("common_deals", False), bool, "common_deals")
    seating = doc.get("seating", "rotate")
    if seating not in SEATINGS:
        raise ConfigError(f"seating {seating!r} is not one of {', '.join(SEATINGS)}.")
    games = _need(doc.get("games", 100_000), int, "games")
    if games < 1:
        raise ConfigError(f"games must be positive, got {games}.")
    chunk = _need(doc.get("chunk_size", 100_000), int, "chunk_size")
    if chunk < 1:
        raise ConfigError(f"chunk_size must be positive, got {chunk}.")
    if not grid:
        raise ConfigError(f"experiment {name}: [grid] is empty; give at least one of "
                          f"{', '.join(GRID)} (every combination of their values is a cell).")
    empty = next((k for k, v in grid.items() if v == []), None)
    if empty:
        raise ConfigError(f"experiment {name}: grid.{empty} is an empty list; give at least "
                          f"one value (or leave grid.{empty} out for its default).")
    named = {k: _need(doc.get(k + "s" if k == "lineup" else k, {}), dict, f"[{k}]")
             for k in ("characters", "districts", "lineup")}
    house = _need(doc.get("rules", {}), dict, "[rules]")
    variants = doc.get("variants_file")
    if variants is not None:
        variants = str((base or Path()) / _need(variants, str, "variants_file"))
    bots_dir = doc.get("bots_dir")
    if bots_dir is not None:
        preparing.check_bots_dir(bots_dir, "bots_dir")
    axes = {k: _need(grid.get(k, [d]), list, f"grid.{k}") for k, d in
            (("ruleset", "classic"), ("players", 4), ("characters", "base"),
             ("districts", "default"), ("lineup", DEFAULT_LINEUP))}
    if "set" in grid:
        if "characters" in grid or "districts" in grid:
            raise ConfigError(f"experiment {name}: grid.set sets both the characters and "
                              "the districts; leave out grid.characters and grid.districts.")
        sets = [_need(s, str, "grid.set entries") for s in _need(grid["set"], list, "grid.set")]
        pairs = [(s, s) for s in sets]  # each named set's characters with its own districts
    else:
        pairs = [(ch, di) for ch in axes["characters"] for di in axes["districts"]]
    cells, skipped = [], []
    for ruleset in axes["ruleset"]:
        for players in axes["players"]:
            for ch, di in pairs:
                for lu in axes["lineup"]:
                    labels = {"ruleset": ruleset, "players": players}
                    try:
                        cells.append(_cell(ruleset, players, ch, di, lu, named, seating, games,
                                           common, house, variants))
                    except ConfigError as err:
                        if not skip_invalid:
                            raise ConfigError(f"experiment {name}, cell {ruleset} "
                                              f"{players}p {ch} {di} {lu}: {err}") from None
                        skipped.append({**labels, "characters": str(ch),
                                        "districts": str(di), "lineup": str(lu),
                                        "reason": str(err)})
    slugs = [c.slug for c in cells]
    if len(set(slugs)) != len(slugs):
        raise ConfigError(f"experiment {name}: two cells have the same labels; give the "
                          "grid entries distinct names.")
    if not cells:
        raise ConfigError(f"experiment {name} has no playable cell.")
    seed = check_index(_need(doc.get("seed", 0), int, "seed"), "seed")
    budget = _need(doc.get("check_budget", 0), int, "check_budget")
    if budget < 0:
        raise ConfigError(f"check_budget must be 0 (no bot check) or the games of each "
                          f"exploit search of the bot check, at least one generation; got "
                          f"{budget}.")
    return Experiment(name, doc.get("title", name), doc.get("description", ""), seed, games,
                      chunk, seating, cells, skipped, text, bots_dir, budget)


def _cell(ruleset, players, characters, districts, lineup, named, seating, games,
          common, house, variants) -> Cell:
    ch_label, ch = _entry(characters, named["characters"], "character", "base")
    di_label, di = _entry(districts, named["districts"], "district", "default")
    di, removed = _districts(di)
    per_count = named["lineup"].get(lineup) if isinstance(lineup, str) else None
    if isinstance(per_count, dict):  # a line-up per player count
        if odd := [k for k in per_count if not k.isdigit()]:
            raise ConfigError(f"line-up {lineup!r} names {odd[0]!r}, which is not a player "
                              "count: give a line-up per player count, as 4 = [...].")
        if str(players) not in per_count:
            raise ConfigError(f"line-up {lineup!r} names strategies for "
                              f"{', '.join(per_count)} players, not for {players}.")
        lu, where = per_count[str(players)], f"[lineups] {lineup}.{players}"
        if isinstance(lu, dict):  # ... and per character set
            if ch_label not in lu:
                raise ConfigError(f"line-up {lineup!r} names strategies at {players} players "
                                  f"for the sets {', '.join(lu)}, not for {ch_label!r}.")
            lu, where = lu[ch_label], f"{where}.{ch_label}"
        lu_label, lu = lineup, tuple(_need(lu, list, where))
    else:
        lu_label, lu = _entry(lineup, named["lineup"], "lineup", "")
    config = GameConfig(ruleset=ruleset, players=players, characters=ch, districts=di,
                        removed=removed, rules=house, variants=variants)
    if lu == PREPARED_LINEUP and lineup not in named["lineup"]:  # one bot in every seat
        name = prepared_name(config)
        return Cell(ruleset, players, ch_label, di_label, lu_label, config,
                    ((name,) * players,), games, common)
    if lu == DEFAULT_LINEUP:  # labelled "default"; its strategy is named in every table
        lu = default_for(config)
    pattern = lu if isinstance(lu, tuple) else (lu,)
    if not pattern:
        raise ConfigError(f"line-up {lu_label!r} names no strategy: give 1 to {players}.")
    if len(pattern) > players:
        raise ConfigError(f"line-up {lu_label!r} names {len(pattern)} strategies for {players} "
                          f"players: give at most {players} (a shorter line-up is repeated to "
                          "fill the seats).")
    names = tuple(get(s).name for s in pattern)
    rots = rotations(names, players, seating)
    return Cell(ruleset, players, ch_label, di_label, lu_label, config, rots,
                math.ceil(games / len(rots)), common)


def prepared_name(config: GameConfig) -> str:
    """The name a cell's prepared bot plays under: ``prepared_`` and its preparation's
    directory name (unique to the game and the preparation's settings)."""
    return "prepared_" + preparing.directory(config, ".").name


def prepare_bots(exp: Experiment, progress: bool = True,
                 executor: ChunkExecutor | None = None,
                 on_prepared: Callable[[preparing.Prepared], None] | None = None
                 ) -> list[preparing.Prepared]:
    """Prepare (or read back) the bot of every ``prepared`` cell, each game once, and make
    it known by its cell's name (:func:`prepared_name`); ``on_prepared`` is called with
    each as it is ready."""
    done = []
    for cell in exp.cells:
        if not cell.prepared or any(p.config == cell.config for p in done):
            continue
        p = preparing.prepare(cell.config, exp.bots_dir, progress=progress, executor=executor)
        register(replace(p.strategy, name=prepared_name(cell.config),
                         description=f"prepared for {cell.slug}: {p.strategy.description}"),
                 str(p.directory), replace=True)  # this bots_dir's, for this run
        done.append(p)
        if on_prepared is not None:
            on_prepared(p)
    return done


def load(path: str | Path, name: str | None = None,
         strategies_file: Path | None = None) -> Experiment:
    """Read an experiment file; its name is the file's stem unless ``name`` is given
    (``strategies_file``: as for :func:`parse`).  Errors name the file."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"experiment file {str(path)!r} "
                          + ("is a directory." if path.is_dir() else "does not exist."))
    text = path.read_text()
    try:
        doc_name = tomllib.loads(text).get("name") if name is None else name
        return parse(text, doc_name or path.stem, path.parent, strategies_file)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None
    except ConfigError as err:
        raise ConfigError(f"{path}: {err}") from None


# ---- running ----------------------------------------------------------------------------
#: a run's copy of the presets its line-ups take from strategy files
STRATEGIES_COPY = "strategies.toml"


def _save_strategies(exp: Experiment, path: Path) -> None:
    """Write the file presets the experiment's line-ups name (none: no file)."""
    shipped, everything = presets(), known()
    used = {n.partition(":")[0] for c in exp.cells for r in c.rotations for n in r}
    mine = [everything[n] for n in sorted(used) if n in everything and n not in shipped]
    if mine:
        path.write_text(to_toml(mine, f"presets used by experiment {exp.name}"))


def claim(root: Path, marker: str, text: str) -> None:
    """Make ``root`` the directory of one run, described by ``text`` in ``root/marker``
    (:func:`.store.open_run_dir`): resumed if it holds the same run, refused — before
    anything is written — if it holds another one."""
    store.open_run_dir(root, marker)
    file = root / marker
    if file.exists() and file.read_text() != text:
        raise ConfigError(f"{root} already holds a different run ({marker} differs); "
                          "choose another directory, or delete it to start again.")
    _describe(root, marker, text)


def _describe(root: Path, marker: str, text: str) -> None:
    """Write ``text`` to ``root/marker``, or a one-line error."""
    try:
        (root / marker).write_text(text)
    except OSError as err:
        raise ConfigError(f"cannot write the run to {str(root)!r}: "
                          f"{err.strerror or err}.") from None


def combined(summaries: dict[str, Summary], cells: list[Cell]) -> dict[str, pl.DataFrame]:
    """Every count table over all cells, with the cells' label columns in front."""
    out: dict[str, list[pl.DataFrame]] = {}
    for cell in cells:
        for table, frame in summaries[cell.slug].tables.items():
            labelled = frame.select([pl.lit(v).alias(k) for k, v in cell.labels().items()]
                                    + [pl.all()]) if frame.height else None
            if labelled is not None:
                out.setdefault(table, []).append(labelled)
    return {k: pl.concat(v, how="vertical_relaxed") for k, v in out.items()}


@dataclass
class RunRecord:
    """What an experiment run produced: per-cell summaries and timing."""

    experiment: Experiment
    summaries: dict[str, Summary]
    timing: dict
    root: Path | None = None  # the run directory
    #: the bot check, one row per checked cell (:func:`bot_check`; None without one)
    checks: pl.DataFrame | None = None

    def tables(self) -> dict[str, pl.DataFrame]:
        return combined(self.summaries, self.experiment.cells)


def cell_runs(cell: Cell, exp: Experiment, root: Path, workers: int | None,
              executor: ChunkExecutor | None = None, summarise: bool = False) -> list[Run]:
    """The resumable Runs of one cell, one per rotation, written under ``root`` (played on
    ``executor``, default this process; ``summarise``: see :class:`~.simulate.Run`)."""
    return [Run(cell.config, list(lineup), cell.games_per_rotation, cell.seed(exp.seed, r),
                workers, chunk_size=exp.chunk_size, picks=False,
                out=root / cell.slug / f"rot-{r}", executor=executor, summarise=summarise)
            for r, lineup in enumerate(cell.rotations)]


def _runs(exp: Experiment, root: Path, workers: int | None, executor: ChunkExecutor
          ) -> list[tuple[Cell, Run]]:
    return [(cell, job) for cell in exp.cells
            for job in cell_runs(cell, exp, root, workers, executor, summarise=True)]


def run(exp: Experiment, runs_dir: str | Path = "runs", workers: int | None = None,
        progress: bool = True, *, executor: ChunkExecutor | Executor | None = None,
        client=None, on_prepared: Callable[[preparing.Prepared], None] | None = None
        ) -> RunRecord:
    """Run (or resume) every cell of ``exp`` into ``runs_dir/NAME`` and summarise it.

    ``executor`` / ``client``: where the chunks are played (see :func:`.simulate.simulate`);
    on a cluster every cell's chunks are in one stream of tasks, and the summaries are the
    same whatever order they finish in.  The ``prepared`` cells' bots are prepared first
    (:func:`prepare_bots`, ``on_prepared`` as there).
    """
    executor = resolve(executor, client)
    if any(c.prepared for c in exp.cells) and executor.sequential:
        ensure_kernel()
    prepared = prepare_bots(exp, progress, executor, on_prepared)
    for cell in exp.checked():  # a prepared bot is known once prepared
        check_searches(get(cell.rotations[0][0]), cell.players, None, exp.check_budget,
                       "check_budget")
    for cell in exp.cells:  # before anything is written
        check_memory(cell.games_per_rotation, exp.chunk_size, cell.config,
                     list(cell.rotations[0]), False, here=executor.sequential, held=False)
    root = Path(runs_dir) / exp.name
    store.open_run_dir(root, "experiment.toml")
    summaries = {c.slug: Summary() for c in exp.cells}
    start = time.perf_counter()
    if executor.sequential:
        ensure_kernel()
    # the file may have changed since an earlier run into ``root``: each rotation's
    # directory refuses, before a game is played, a cell whose run changed
    # (store.FINGERPRINT), so a grown grid keeps the cells already run
    jobs = _runs(exp, root, workers, executor)
    _describe(root, "experiment.toml", exp.source)
    _save_strategies(exp, root / STRATEGIES_COPY)
    cells = {id(job): cell for cell, job in jobs}
    kept = store.on_interrupt(lambda: f"{store.chunks_written(root)} of {exp.chunks} chunks "
                              f"written to {root}")
    with kept, tqdm(total=exp.total_games, unit="game", disable=not progress,
                    smoothing=0.05) as bar:
        for job, first, played in play_runs([job for _, job in jobs], executor):
            cell = cells[id(job)]
            bar.set_description(cell.slug)
            summaries[cell.slug].merge(Summary(played.tables))
            bar.update(min(job.chunk_size, job.games - first))
    wall = time.perf_counter() - start
    played = sum(job.meta["games_played"] for _, job in jobs)
    timing = {"wall_seconds": round(wall, 2), "games_played": played,
              "kernel_seconds": round(sum(job.meta["kernel_seconds"] for _, job in jobs), 2),
              "games_per_second": round(played / wall, 1) if played else None,
              "workers": jobs[-1][1].meta["workers"], "executor": executor.describe(),
              "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
    if prepared:
        timing["prepared"] = [p.text() for p in prepared]
    (root / "timing.json").write_text(json.dumps(timing, indent=2))
    return RunRecord(exp, summaries, timing, root,
                     bot_check(exp, root, workers, executor, progress))


#: the bot check's results in a run directory
CHECKS_FILE = "bot_check.json"


def bot_check(exp: Experiment, root: Path, workers: int | None = None,
              executor: ChunkExecutor | None = None, progress: bool = True
              ) -> pl.DataFrame | None:
    """The bot check of every cell of :meth:`Experiment.checked` (None without a
    ``check_budget``): the exploit test of the strategy in its seats
    (:func:`.exploit.check_gain`, runs under ``root/bot-check``), one row per cell: its
    ``strategy``, the ``family`` of the search that gained most, its ``gain`` with
    ``gain_low``/``gain_high`` (win-rate points over the fair share, 95%) and whether the
    cell ``passed`` (no gain above :data:`.exploit.LIMIT`); written to ``root/CHECKS_FILE``."""
    cells = exp.checked()
    if not cells:
        return None
    rows = []
    for cell in tqdm(cells, unit="cell", desc="bot check", disable=not progress):
        strategy = cell.rotations[0][0]
        found = check_gain(strategy, cell.config, exp.check_budget, exp.seed, cell.slug,
                           root / "bot-check", workers, executor)
        rows.append({"cell": cell.slug, "strategy": strategy, **found,
                     "passed": found["gain"] <= LIMIT})
    (root / CHECKS_FILE).write_text(json.dumps(
        {"check_budget": exp.check_budget, "cells": rows}, indent=2))
    return pl.DataFrame(rows)


def check_lines(record: RunRecord) -> list[str]:
    """The bot check as console lines (none without one): how many cells pass, and each
    cell that fails with its exploiter's gain and what to do."""
    if record.checks is None:
        return []
    failed = record.checks.filter(~pl.col("passed"))
    out = [f"bot check: {record.checks.height - failed.height} of {record.checks.height} "
           f"cells pass (no exploiter gains more than {LIMIT:g} win-rate points over the "
           "fair share against their bots)"]
    out += [f"  {r['cell']}: bot-limited: the {r['family']} exploiter gains "
            f"{r['gain']:+.1f} [{r['gain_low']:+.1f}, {r['gain_high']:+.1f}] win-rate points "
            f"against {r['strategy']}" for r in failed.iter_rows(named=True)]
    if failed.height:
        out.append("  their strong and weak verdicts read bot-limited in the report; judge "
                   "those sets with citadels balance (bots prepared for the set and count)")
    return out


def _read_checks(exp: Experiment, root: Path) -> pl.DataFrame | None:
    """A finished run's bot check (None without one); a run whose check is unfinished is
    refused."""
    if not exp.checked():
        return None
    file = root / CHECKS_FILE
    done = json.loads(file.read_text()) if file.exists() else {}
    if done.get("check_budget") != exp.check_budget:
        raise ConfigError(f"the bot check of {root} is not finished; rerun the experiment "
                          "to finish it.")
    return pl.DataFrame(done["cells"])


def load_run(root: str | Path) -> RunRecord:
    """Summarise a finished run directory again from its Parquet chunks (bounded memory)."""
    root = Path(root)
    if not (root / "experiment.toml").exists():
        raise ConfigError(f"{str(root)!r} is not an experiment run (no experiment.toml).")
    copy = root / STRATEGIES_COPY
    exp = load(root / "experiment.toml", name=root.name,
               strategies_file=copy if copy.exists() else None)
    summaries = {}
    for cell in exp.cells:
        summary = Summary()
        for r in range(len(cell.rotations)):
            path = root / cell.slug / f"rot-{r}"
            meta = path / "meta.json"
            info = json.loads(meta.read_text()) if meta.exists() else {}
            if info.get("status") != "complete":
                raise ConfigError(f"{path} is not complete; rerun the experiment to finish it.")
            if info.get("kernel_version") != KERNEL_VERSION:
                raise ConfigError(f"{path} was played by kernel version "
                                  f"{info.get('kernel_version')}, this is version "
                                  f"{KERNEL_VERSION}: its games and tables differ; rerun the "
                                  "experiment into a new directory.")
            for frames in store.iter_chunks(path):
                summary.add(frames)
        summaries[cell.slug] = summary
    timing = root / "timing.json"
    return RunRecord(exp, summaries, json.loads(timing.read_text()) if timing.exists() else {},
                     root, _read_checks(exp, root))
