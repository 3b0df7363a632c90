"""The one seam through which every chunk of games is played.

A chunk's results depend only on its task (config, strategies, seed, first game, size), so
where it is played changes nothing but speed.  Two ways to play them:

- :class:`Local` (the default): here, in this process, one chunk after another in the order
  given, on numba's threads, the next one playing while the caller handles the one before.
  No other process, no Dask.
- :class:`Pool`: as tasks on any :class:`concurrent.futures.Executor` -- a
  ``ProcessPoolExecutor``, or a Dask cluster's ``client.get_executor()`` (built by
  :mod:`citadels_sim.engine.cluster`, the only module that imports Dask).  A bounded number of
  tasks is in flight at once (twice the executor's capacity), so the driver holds only a
  few chunks' results whatever the size of the run; chunks come back as they finish, in
  any order.

Everything that plays games (``simulate``, ``Run``, experiments, ``compare``, balance) takes
an ``executor=`` (one of these, or a plain ``concurrent.futures.Executor``) or a Dask
``client=``, and passes it through :func:`resolve`.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from citadels_sim.game.config import ConfigError

T = TypeVar("T")
R = TypeVar("R")


class ChunkExecutor(ABC):
    """Plays tasks and hands back ``(task, result)`` pairs as they finish."""

    #: True when chunks are played one after another in this process (timing is then the
    #: sum of the chunks' times; otherwise chunks overlap and the wall clock counts)
    sequential: bool = False

    @abstractmethod
    def imap(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[tuple[T, R]]:
        """``fn(task)`` for every task, yielded as ``(task, result)`` when it finishes.
        Closing the iterator early cancels the tasks still in flight."""

    @abstractmethod
    def capacity(self) -> int:
        """How many chunks can be played at once (threads of this machine, or of the
        cluster's workers now)."""

    @abstractmethod
    def describe(self) -> str:
        """A short description for the run's metadata."""


class Local(ChunkExecutor):
    """This process, in the order given (the default).  The tasks run on background
    threads, :data:`AHEAD` at a time, so that while the caller handles one chunk's results
    the next ones are played and built (the kernel releases the GIL; one chunk at a time
    plays in it, :func:`~.simulate.kernel_slot`)."""

    sequential = True
    #: tasks in flight while the caller handles the one before: one in the kernel, one
    #: building its frames (so at most two chunks' kernel arrays are held at once)
    AHEAD = 2

    def imap(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[tuple[T, R]]:
        with cf.ThreadPoolExecutor(self.AHEAD, thread_name_prefix="citadels-chunks") as pool:
            ahead: list[tuple[T, cf.Future]] = []  # submitted, in the order given
            try:
                for task in tasks:
                    ahead.append((task, pool.submit(fn, task)))
                    if len(ahead) > self.AHEAD:
                        done, future = ahead.pop(0)
                        yield done, future.result()
                while ahead:
                    done, future = ahead.pop(0)
                    yield done, future.result()
            finally:  # closed early or failed: the chunks started finish, no other starts
                for _, future in ahead:
                    future.cancel()

    def capacity(self) -> int:
        return 1

    def describe(self) -> str:
        return "local"


class Pool(ChunkExecutor):
    """Tasks on a :class:`concurrent.futures.Executor`, at most ``in_flight`` at a time.

    ``capacity``: how many tasks the executor runs at once, as a number or a function asked
    again as the run goes (a cluster can grow); default: the executor's ``_max_workers``
    when it has one (thread and process pools), else this machine's cores.  ``in_flight``
    (default twice the capacity) bounds the tasks submitted and not yet handed back, and so
    the driver's memory.
    """

    def __init__(self, executor: cf.Executor, capacity: int | Callable[[], int] | None = None,
                 in_flight: int | None = None, description: str | None = None):
        if not isinstance(executor, cf.Executor):
            raise ConfigError(f"executor must be a concurrent.futures.Executor, got "
                              f"{type(executor).__name__}.")
        if in_flight is not None and in_flight < 1:
            raise ConfigError(f"in_flight must be positive, got {in_flight}.")
        self.executor = executor
        self._capacity = capacity or getattr(executor, "_max_workers", None) or os.cpu_count()
        self.in_flight = in_flight
        self.description = description or type(executor).__name__

    def capacity(self) -> int:
        c = self._capacity() if callable(self._capacity) else self._capacity
        return max(1, int(c))

    def describe(self) -> str:
        return self.description

    def _window(self) -> int:
        return self.in_flight or 2 * self.capacity()

    def imap(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[tuple[T, R]]:
        tasks = iter(tasks)
        running: dict[cf.Future, T] = {}
        more = True
        try:
            while True:
                window = self._window()
                while more and len(running) < window:
                    task = next(tasks, _END)
                    if task is _END:
                        more = False
                    else:
                        running[self.executor.submit(fn, task)] = task
                if not running:
                    return
                done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    yield running.pop(future), future.result()
        finally:
            for future in running:
                future.cancel()


_END: Any = object()
LOCAL = Local()


def client_executor(client: Any) -> Pool:
    """The chunk executor of a Dask ``distributed.Client``: twice the workers' threads in
    flight, counted again as workers come and go (the client's own methods; Dask is not
    imported here)."""
    return Pool(client.get_executor(), capacity=lambda: sum(client.nthreads().values()),
                description=f"dask scheduler {client.scheduler.address}")


def resolve(executor: ChunkExecutor | cf.Executor | None = None, client: Any = None
            ) -> ChunkExecutor:
    """The chunk executor for an ``executor=`` / ``client=`` pair of arguments: none (this
    process), a :class:`ChunkExecutor`, any ``concurrent.futures.Executor``, or a Dask
    ``distributed.Client`` (whose workers then play the chunks)."""
    if client is not None:
        if executor is not None:
            raise ConfigError("give executor= or client=, not both.")
        return client_executor(client)
    if executor is None:
        return LOCAL
    if isinstance(executor, ChunkExecutor):
        return executor
    return Pool(executor)
