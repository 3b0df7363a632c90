"""The ``citadels`` command line.

:data:`COMMANDS` maps each command to the function declaring its options and the function
running it, grouped in one module per kind of command (:mod:`.play`, :mod:`.studies`,
:mod:`.bots`); the option groups they share are in :mod:`.options`.  :func:`main` answers
bad input with one line ``citadels: error: ...`` (exit code 2) and Ctrl-C with what was
kept and how to resume (exit code 130).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple, NoReturn

from citadels_sim.engine.store import Interrupted
from citadels_sim.game.strategies import register_file
from . import bots, play, studies


class Command(NamedTuple):
    """A command: what declares its options (None: it has none), what runs it, and its line
    in ``citadels --help``."""

    options: Callable[[argparse.ArgumentParser], None] | None
    run: Callable[[argparse.Namespace], None]
    summary: str


COMMANDS: dict[str, Command] = {
    "simulate": Command(play.add_simulate, play.simulate,
                        "play many games and print win rates"),
    "replay": Command(play.add_replay, play.replay, "play-by-play of one game of a run"),
    "bench": Command(play.add_bench, play.bench,
                     "games/second on one and all cores, start-up times"),
    "warmup": Command(None, play.warmup,
                      "compile the kernel now (first run, new install, each cluster node), "
                      "or check that it is cached"),
    "list": Command(None, play.list_all,
                    "rulesets, characters (with their player counts), every district card, "
                    "named sets, strategy presets and their parameters' ranges"),
    "experiment": Command(studies.add_experiment, studies.experiment,
                          "run an experiment file and write its report"),
    "report": Command(studies.add_report, studies.report,
                      "write the report of a finished experiment run"),
    "compare": Command(studies.add_compare, studies.compare,
                       "strategy A against B: seat rotation, common random numbers, "
                       "optional SPRT"),
    "balance": Command(studies.add_balance, studies.balance,
                       "which characters of a set to change: restricted play and the set "
                       "against the base set on common deals"),
    "sweep": Command(studies.add_sweep, studies.sweep,
                     "what to change a number to: one house rule over a list of values, a "
                     "balance test of the set at each, on the same deals"),
    "tune": Command(bots.add_tune, bots.tune,
                    "tune a strategy family's parameters for a game with CMA-ES against a "
                    "league; checkpointed, resumable"),
    "harden": Command(bots.add_harden, bots.harden,
                      "make a strategy hard to exploit: exploit it, tune it against its "
                      "exploiters (tune --copies), repeat"),
    "prepare": Command(bots.add_prepare, bots.prepare,
                       "the bot citadels balance judges a game under: the shipped bot made "
                       "for the set, hardened for the set and player count (kept, reused)"),
    "exploit": Command(bots.add_exploit, bots.exploit,
                       "how exploitable is a bot: tune an exploiter of each family against "
                       "its copies, measure its gain over the fair share"),
}


class UsageError(Exception):
    """Options argparse refuses (an unknown option, a value of the wrong type)."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors become :class:`UsageError` (one line from
    :func:`main`) instead of argparse's usage text and exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} ({self.prog} --help lists the options)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``citadels`` command."""
    parser = Parser(prog="citadels", description="Citadels simulator: " + ", ".join(COMMANDS))
    sub = parser.add_subparsers(dest="command", required=True)
    for name, command in COMMANDS.items():
        p = sub.add_parser(name, help=command.summary, description=command.summary)
        if command.options:
            command.options(p)
        p.set_defaults(run=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``citadels`` console script."""
    with _one_ctrl_c():
        try:
            args = build_parser().parse_args(argv)
            for path in getattr(args, "strategies_file", []):
                register_file(path)
            args.run(args)
        except (UsageError, ValueError) as err:  # ConfigError and StrategyError among them
            print(f"citadels: error: {err}", file=sys.stderr)
            return 2
        except Interrupted as stop:
            print(f"citadels: interrupted: {stop}"
                  + ("; rerun the same command to resume" if stop.resumable else ""),
                  file=sys.stderr)
            return 130
        except KeyboardInterrupt:
            print("citadels: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:  # output piped into a command that stopped reading (| head)
            sys.stderr.close()
            return 0
    return 0


@contextmanager
def _one_ctrl_c() -> Iterator[None]:
    """One Ctrl-C, one message.  polars catches Ctrl-C in its queries and raises
    KeyboardInterrupt itself, and Python's own handler raises a second one at the next call:
    when that one lands in a finalizer (a generator closed while the first unwinds, as a
    run's chunk stream), Python would print it as "Exception ignored ... KeyboardInterrupt"
    with a traceback.  Such KeyboardInterrupts are dropped here; other unraisable
    exceptions are printed as before."""
    default = sys.unraisablehook

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            default(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = default


if __name__ == "__main__":
    sys.exit(main())
