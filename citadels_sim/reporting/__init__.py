"""Reports: the document (:mod:`.document`: text, tables and figures as report.md,
report.html and files), figures and their facets, and one module per report kind
(:mod:`.experiment`, :mod:`.balance`, :mod:`.tune`, :mod:`.harden`,
:mod:`.exploit`, :mod:`.sweep`), each with
``build(result)`` (the document) and ``write(result, path)`` (its files).

:func:`write` writes the report of any study's result, by the result's type (:data:`KINDS`).
"""

from __future__ import annotations

from pathlib import Path

from citadels_sim.studies.balance import BalanceResult
from citadels_sim.studies.experiment import RunRecord
from citadels_sim.studies.exploit import Exploit
from citadels_sim.studies.harden import Hardening
from citadels_sim.studies.sweep import SweepResult
from citadels_sim.studies.tune import Tuning
from . import balance, experiment, exploit, harden, sweep, tune

#: the report kind of each study's result
KINDS = {RunRecord: experiment, BalanceResult: balance, Tuning: tune, Hardening: harden,
         Exploit: exploit, SweepResult: sweep}


def write(result: RunRecord | BalanceResult | Tuning | Hardening | Exploit | SweepResult,
          path: str | Path) -> Path:
    """Write the report of ``result`` into directory ``path``; returns it."""
    kind = KINDS.get(type(result))
    if kind is None:
        raise TypeError(f"no report for a {type(result).__name__}; there are reports of "
                        f"{', '.join(t.__name__ for t in KINDS)}.")
    return kind.write(result, path)
