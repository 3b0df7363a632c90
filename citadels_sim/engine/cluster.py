"""Dask distributed: the only module that imports it (``pip install "citadels-sim[cluster]"``).

:func:`connect` turns a ``--cluster`` value into a ``distributed.Client``: ``local`` starts a
``LocalCluster`` sized to this machine, an address (``tcp://HOST:8786``) joins a running
scheduler, a JSON file is a scheduler file (``dask scheduler --scheduler-file``).
:func:`open_cluster` gives its chunk executor (:func:`.executor.client_executor`): chunks go
to the workers as tasks (:func:`citadels_sim.engine.simulate.play_task`); a worker that dies costs
only its chunks in flight, which the scheduler gives to another worker.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citadels_sim.game.config import ConfigError
from .executor import Pool, client_executor

try:
    import distributed
    from distributed.comm.registry import backends
except ImportError as err:  # pragma: no cover - only without the optional extra
    raise ConfigError("running on a cluster needs Dask: pip install "
                      "'citadels-sim[cluster]' (dask[distributed]).") from err

_HELP = ("give 'local' (a Dask LocalCluster on this machine), a scheduler address such as "
         "tcp://HOST:8786, or a scheduler file written by `dask scheduler "
         "--scheduler-file FILE.json`")


def machine_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def local(n_workers: int | None = None, threads_per_worker: int = 1, **kwargs
          ) -> distributed.Client:
    """A client of a new ``LocalCluster`` on the loopback interface: ``n_workers`` worker
    processes (default: one per core) of ``threads_per_worker`` threads, each playing its
    chunks on as many numba threads (``NUMBA_NUM_THREADS``).  ``kwargs`` go to
    ``LocalCluster`` (e.g. ``dashboard_address=None``)."""
    n_workers = n_workers or max(1, machine_cores() // threads_per_worker)
    cluster = distributed.LocalCluster(
        n_workers=n_workers, threads_per_worker=threads_per_worker, processes=True,
        host="127.0.0.1", env={"NUMBA_NUM_THREADS": str(threads_per_worker)}, **kwargs)
    return distributed.Client(cluster)


def _scheduler(spec: str) -> dict:
    """The ``distributed.Client`` arguments of a scheduler address or scheduler file."""
    if "://" in spec:
        scheme, _, rest = spec.partition("://")
        host, _, port = rest.rpartition(":")
        if scheme not in backends or not host or not port.isdigit():
            raise ConfigError(f"cluster {spec!r} is not a scheduler address "
                              f"(protocols: {', '.join(sorted(backends))}); {_HELP}.")
        return {"address": spec}
    if spec.endswith(".json") or Path(spec).is_file():
        if not Path(spec).is_file():
            raise ConfigError(f"cluster scheduler file {spec!r} does not exist; {_HELP}.")
        return {"scheduler_file": spec}
    raise ConfigError(f"cluster {spec!r} is not understood: {_HELP}.")


def connect(spec: str) -> distributed.Client:
    """A client for a ``--cluster`` value (see the module docstring); unreachable
    schedulers and malformed values are clear errors."""
    if spec == "local":
        return local()
    kwargs = _scheduler(spec)
    try:
        client = distributed.Client(**kwargs)
    except (OSError, TimeoutError) as err:
        raise ConfigError(f"could not reach a Dask scheduler at {spec!r}: {err}. Start one "
                          "with `dask scheduler` and workers with `dask worker ADDRESS`, "
                          "or use --cluster local.") from None
    if not client.nthreads():
        print(f"the scheduler at {client.scheduler.address} has no workers yet: chunks "
              "wait until one joins (dask worker ADDRESS)", file=sys.stderr)
    return client


@contextmanager
def open_cluster(spec: str) -> Iterator[Pool]:
    """The chunk executor of a ``--cluster`` value, for the length of a command; a local
    cluster is shut down afterwards."""
    client = connect(spec)
    cluster = client.cluster if spec == "local" else None
    try:
        if cluster is not None and "dashboard" in client.scheduler_info()["services"]:
            print(f"Dask dashboard: {client.dashboard_link}", file=sys.stderr)
        yield client_executor(client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
