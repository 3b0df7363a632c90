"""On-disk layout of a run, written chunk by chunk so that an interrupted run resumes.

::

    RUN/meta.json                      the run's config, strategies, seed, versions, timing
    RUN/seats/part-<first game>.parquet
    RUN/characters/part-<first game>.parquet
    RUN/districts/part-<first game>.parquet
    RUN/picks/part-<first game>.parquet   (when the per-round table is kept)

Each part is written to a temporary name and renamed, ``seats`` last, so a chunk counts as
done only once all its parts exist; an interruption loses at most the chunks in flight.
Chunks may be written in any order (an executor hands them back as they finish): each is
found by its first game, and every reader sorts the parts into game order.

A directory holds one run, marked by one file (:data:`MARKERS`): :func:`open_run_dir` refuses
a file, a directory holding another kind of run, or one holding files and no run, before
anything is written.
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import polars as pl

from citadels_sim.game.config import ConfigError

TABLES = ("characters", "districts", "picks", "seats")  # seats last: marks a finished chunk
#: what must match for a rerun to resume into an existing directory
FINGERPRINT = ("kernel_version", "results_version", "config", "strategies", "seed", "games",
               "chunk_size", "picks")


#: the file marking each kind of run directory, and what it holds
MARKERS = {"meta.json": "a simulate run", "experiment.toml": "an experiment's run",
           "balance.json": "a balance test's run", "checkpoint.json": "a tuning run",
           "sweep.json": "a sweep's run"}
#: a run's name: a plain file name (no path, not hidden)
_NAME = re.compile(r"[^/\\\x00.][^/\\\x00]*")


def open_run_dir(path: Path, marker: str) -> None:
    """Make ``path`` the directory of a run marked by ``marker`` (a key of :data:`MARKERS`):
    created if need be; refused, before anything is written, if it is a file, holds another
    kind of run or holds files and no run; a clear error if it cannot be created."""
    where = f"cannot write the run to {str(path)!r}"
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{where}: it is a file; give a directory (a new one, or one "
                          "holding this run to resume it).")
    if path.is_dir() and not (path / marker).exists():
        other = next((m for m in MARKERS if (path / m).exists()), None)
        if other:
            raise ConfigError(f"{where}: it holds {MARKERS[other]} ({other}), not "
                              f"{MARKERS[marker]}; give another directory.")
        if any(path.iterdir()):
            raise ConfigError(f"{where}: it holds files but no run; give a new or empty "
                              "directory (or one holding this run to resume it).")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ConfigError(f"{where}: {err.strerror or err}; give a directory you can write "
                          "to.") from None


def check_name(name: str, what: str) -> str:
    """``name`` if it is a plain file name (a run's directory, a report's), else an error
    naming ``what`` it names."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"{what} {name!r} is not a plain file name: no / or \\, not "
                          "empty, not starting with a dot.")
    return name


def chunks_written(path: Path) -> int:
    """How many chunks the runs in ``path`` and below have written (an interrupted run's
    progress)."""
    return sum(1 for _ in path.glob("**/seats/part-*.parquet")) if path.is_dir() else 0


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C; its text says what was kept (``resumable``: the same call
    again resumes from there)."""

    def __init__(self, kept: str, resumable: bool = True):
        super().__init__(kept)
        self.resumable = resumable


@contextmanager
def on_interrupt(kept: Callable[[], str], resumable: bool = True) -> Iterator[None]:
    """Turn Ctrl-C inside the block into :class:`Interrupted` saying ``kept()``."""
    try:
        yield
    except KeyboardInterrupt:
        raise Interrupted(kept(), resumable) from None


def part_name(first: int) -> str:
    return f"part-{first:012d}.parquet"


@contextmanager
def ctrl_c_after() -> Iterator[None]:
    """Hold a Ctrl-C pressed inside the block until the block ends, then raise it.

    polars' parquet writer panics (a Rust message on stderr) when Ctrl-C reaches it
    mid-write; held, the chunk is written whole and the run stops just after.  Only the
    main thread receives signals, so elsewhere the block runs as is."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is None):  # a handler set outside Python
        yield
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed and callable(previous):
        previous(signal.SIGINT, None)  # Python's default raises KeyboardInterrupt
    elif pressed and previous == signal.SIG_DFL:
        raise KeyboardInterrupt


def write_frames(path: Path, first: int, frames: dict[str, pl.DataFrame]) -> None:
    """Write one chunk's frames atomically (temporary file, then rename), a Ctrl-C held
    until they are written."""
    with ctrl_c_after():
        _write_parts(path, first, frames)


def _write_parts(path: Path, first: int, frames: dict[str, pl.DataFrame]) -> None:
    for table in TABLES:
        if table not in frames:
            continue
        folder = path / table
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / (part_name(first) + ".tmp")
        frames[table].write_parquet(tmp)
        os.replace(tmp, folder / part_name(first))


def read_table(path: Path, table: str) -> pl.DataFrame | None:
    """All parts of one table, in game order, or None if there are none."""
    parts = sorted((path / table).glob("part-*.parquet"))
    return pl.concat([pl.read_parquet(p) for p in parts]) if parts else None


def iter_chunks(path: Path, tables: tuple[str, ...] = ("seats", "characters", "districts")
                ) -> Iterator[dict[str, pl.DataFrame]]:
    """Each finished chunk's frames (those of the named tables it has), in game order, one
    chunk at a time."""
    for part in sorted((path / "seats").glob("part-*.parquet")):
        yield {t: pl.read_parquet(path / t / part.name) for t in tables
               if (path / t / part.name).exists()}


def write_json(path: Path, data, indent: int | None = None) -> None:
    """Write ``data`` as JSON to ``path`` atomically (a temporary file, then a rename), its
    folder made if need be: an interruption leaves the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=indent))
    os.replace(tmp, path)


def write_meta(path: Path, meta: dict) -> None:
    write_json(path / "meta.json", meta, indent=2)


class ChunkWriter:
    """Writes a run's chunks into ``path`` as they finish, and finds those already there."""

    def __init__(self, path: Path, meta: dict):
        self.path = path
        open_run_dir(path, "meta.json")
        old = path / "meta.json"
        if old.exists():
            previous = json.loads(old.read_text())
            diff = [k for k in FINGERPRINT if previous.get(k) != meta.get(k)]
            if diff:
                raise ConfigError(f"{path} already holds a different run (differs in: "
                                  f"{', '.join(diff)}); choose another output or delete it.")
        write_meta(path, {**meta, "status": "running"})
        self.tables = [t for t in TABLES if t != "picks" or meta["picks"]]

    def load(self, first: int) -> dict[str, pl.DataFrame] | None:
        """The frames of the chunk starting at game ``first`` if it was written before."""
        if not (self.path / "seats" / part_name(first)).exists():
            return None
        return {t: pl.read_parquet(self.path / t / part_name(first)) for t in self.tables}

    def write(self, first: int, frames: dict[str, pl.DataFrame]) -> None:
        write_frames(self.path, first, frames)

    def finish(self, meta: dict) -> None:
        write_meta(self.path, {**meta, "status": "complete"})
