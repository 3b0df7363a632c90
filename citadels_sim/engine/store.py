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
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from citadels_sim.game.config import ConfigError

TABLES = ("characters", "districts", "picks", "seats")  # seats last: marks a finished chunk
#: what must match for a rerun to resume into an existing directory
FINGERPRINT = ("kernel_version", "config", "strategies", "seed", "games", "chunk_size", "picks")


def part_name(first: int) -> str:
    return f"part-{first:012d}.parquet"


def write_frames(path: Path, first: int, frames: dict[str, pl.DataFrame]) -> None:
    """Write one chunk's frames atomically (temporary file, then rename)."""
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


def write_meta(path: Path, meta: dict) -> None:
    tmp = path / "meta.json.tmp"
    tmp.write_text(json.dumps(meta, indent=2))
    os.replace(tmp, path / "meta.json")


class ChunkWriter:
    """Writes a run's chunks into ``path`` as they finish, and finds those already there."""

    def __init__(self, path: Path, meta: dict):
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
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
