"""Commands that run studies and write their reports: experiment, report, compare, balance.

Each command is a pair: ``add_NAME(parser)`` declares its options, ``NAME(args)`` runs it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from citadels_sim.game.config import ConfigError
from . import options as o

if TYPE_CHECKING:
    from citadels_sim.studies.balance import Balance


def write_report(result, path: str | Path) -> Path:
    """Write ``result``'s report (an experiment's, a balance's, a tuning's, a hardening's,
    an exploit test's) into directory ``path`` and say where: the one place the commands
    write reports."""
    from citadels_sim import reporting
    path = reporting.write(result, path)
    print(f"report written to {path}/report.md and {path}/report.html")
    return path


def add_experiment(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="experiments/NAME.toml")
    o.add_execution(p)
    o.add_dirs(p)
    o.add_strategies_file(p)
    p.add_argument("--bots-dir", default=None,
                   help="where the 'prepared' line-up's bots are kept and reused (default: "
                        "the file's bots_dir, else runs/bots)")
    p.add_argument("--check-budget", type=int, default=None,
                   help="games of each exploit search of the bot check of every cell whose "
                        "seats all play one strategy (default: the file's check_budget, "
                        "else 0: no bot check)")


def experiment(a: argparse.Namespace) -> None:
    from citadels_sim.studies import experiment
    exp = experiment.load(a.file)
    if a.bots_dir is not None:
        exp.bots_dir = experiment.preparing.check_bots_dir(a.bots_dir, "--bots-dir")
    if a.check_budget is not None:
        if a.check_budget < 0:
            raise ConfigError(f"--check-budget {a.check_budget}: give 0 (no bot check) or "
                              "the games of each exploit search (200000 is the bot check "
                              "of citadels balance).")
        exp.check_budget = a.check_budget
    print(f"{exp.title}: {len(exp.cells)} cells, {exp.total_games:,} games"
          + (f" ({len(exp.skipped)} cells skipped)" if exp.skipped else ""))
    prepared = sum(c.prepared for c in exp.cells)
    if prepared:
        print(f"the bots of {prepared} 'prepared' cells are prepared first (each game once, "
              f"kept in {exp.bots_dir or experiment.preparing.BOTS_DIR} and reused later)")
    with o.cluster(a) as executor:
        record = experiment.run(exp, a.runs, workers=a.workers, progress=o.progress(a),
                                executor=executor,
                                on_prepared=lambda p: print(p.text(), flush=True))
    for line in experiment.check_lines(record):
        print(line)
    write_report(record, Path(a.reports) / exp.name)


def add_report(p: argparse.ArgumentParser) -> None:
    p.add_argument("run_dir", metavar="RUN", help="the run directory, e.g. runs/NAME")
    o.add_dirs(p, runs=False)


def report(a: argparse.Namespace) -> None:
    from citadels_sim.studies import experiment
    record = experiment.load_run(a.run_dir)
    write_report(record, Path(a.reports) / record.experiment.name)


def add_compare(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", help="strategy A (preset, or preset:param=value,...)")
    p.add_argument("b", help="strategy B")
    o.add_game(p)
    o.add_seed(p)
    p.add_argument("--games", type=int, default=20_000,
                   help="deals (each played once per rotation; default 20000)")
    p.add_argument("--chunk-size", type=int, default=5_000,
                   help="deals per chunk (the SPRT checks after each)")
    p.add_argument("--no-crn", action="store_true",
                   help="independent deals for each rotation instead of common ones")
    o.add_sprt(p)
    o.add_execution(p)
    o.add_strategies_file(p)


def compare(a: argparse.Namespace) -> None:
    from citadels_sim.studies.compare import compare
    test = o.sprt(a)
    with o.cluster(a) as executor:
        result = compare(a.a, a.b, o.config(a), a.games, a.seed, crn=not a.no_crn,
                         sprt=test, chunk_size=a.chunk_size, workers=a.workers,
                         progress=o.progress(a), executor=executor)
    print(result.text())


def add_balance(p: argparse.ArgumentParser) -> None:
    o.add_game(p, player_counts=[4, 5], characters_required=True, variants=False,
               districts_default="a named set's own, else first_game")
    o.add_strategies(p, "prepared",
                     "comma-separated populations of bots, each playing every seat: "
                     "'prepared' (the shipped bot made for the set, hardened for the set at "
                     "each player count and kept in --bots-dir), 'prepared2' to 'prepared5' "
                     "(the same hardening again on other deals: a strong or weak reading "
                     "stands only where every preparation gives it) or presets; verdicts "
                     "that change direction between them are bot-dependent")
    o.add_seed(p)
    p.add_argument("--games", type=int, default=100_000,
                   help="games per set, player count and population (100000)")
    p.add_argument("--deals", type=int, default=20_000,
                   help="restricted-play deals per character and seat (20000)")
    from citadels_sim.stats.verdict import SDM
    p.add_argument("--sdm", type=float, default=SDM * 100,
                   help=f"smallest difference that matters, in win-rate points ({SDM * 100:g})")
    p.add_argument("--chunk-size", type=int, default=20_000, help="games per chunk")
    p.add_argument("--skip-invalid", action="store_true",
                   help="leave out player counts the rules refuse for the set (and say so)")
    from citadels_sim.studies.exploit import DEFAULT_BUDGET
    p.add_argument("--check-budget", type=int, default=DEFAULT_BUDGET,
                   help="games of the bot check's exploit search of each family "
                        "(heuristic, reference) against each population and player count "
                        f"(default {DEFAULT_BUDGET}, the exploit test's; 0: none, the check "
                        "then reads the restricted-play values only)")
    o.add_rules(p)
    p.add_argument("--out", default=None,
                   help="directory of the run and its report (default: runs/balance-<set>-"
                        "<options>-<hash>; a rerun resumes)")
    o.add_bots_dir(p)
    o.add_execution(p)
    o.add_strategies_file(p)


def balance_spec(a: argparse.Namespace) -> Balance:
    """The :class:`~citadels_sim.studies.balance.Balance` of the ``balance`` options."""
    from citadels_sim.studies.balance import Balance
    return Balance(
        characters=o.name_or_names(a.characters), ruleset=a.ruleset, players=tuple(a.players),
        games=a.games, deals=a.deals, seed=a.seed, strategies=o.names(a.strategies),
        districts=o.name_or_names(a.districts), removed=o.names(a.removed) or None,
        sdm=a.sdm / 100, skip_invalid=a.skip_invalid, chunk_size=a.chunk_size,
        check_budget=a.check_budget, rules=o.rules(a.rule), variants=a.variants)


def preparing_line(spec, todo: list[int], bots_dir) -> str:
    """The line a balance test prints before it prepares bots at the player counts ``todo``
    (of ``spec``, a Balance): where, for which preparations, how long, where they are kept."""
    from citadels_sim.studies.prepare import BOTS_DIR
    which = (f", for {spec.prepared_text()} (those not kept yet)"
             if len(spec.prepared_populations) > 1 else "")
    return (f"preparing the bots first, at {', '.join(map(str, todo))} players{which}: each "
            f"is hardened for this set against tuned exploiters, a few minutes a player "
            f"count (up to about 10 at 2-3 players), then kept in {bots_dir or BOTS_DIR} and "
            f"reused by later tests")


def balance(a: argparse.Namespace) -> None:
    from citadels_sim.studies import balance
    spec = balance_spec(a)
    out = a.out or spec.default_out()
    print(f"balance of the {spec.label} set: districts {spec.districts_text()}; "
          f"results in {out}")
    with o.cluster(a) as executor:
        result = balance.run(spec, out, workers=a.workers, progress=o.progress(a),
                             executor=executor, bots_dir=a.bots_dir,
                             on_prepare=lambda todo: print(preparing_line(spec, todo,
                                                                          a.bots_dir),
                                                           flush=True))
    print(result.text())
    write_report(result, out)


def values(text: str) -> tuple[int, ...]:
    """``--values``: whole numbers, comma-separated (``25,50,75``) or a range ``LO:HI:STEP``
    (``0:100:25``, both ends included)."""
    try:
        if ":" in text:
            lo, hi, step = (int(x) for x in text.split(":"))
            if step < 1 or hi < lo:
                raise ValueError
            return tuple(range(lo, hi + 1, step))
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--values takes whole numbers, comma-separated (25,50,75) or LO:HI:STEP "
            f"(0:100:25, step at least 1); got {text!r}") from None


def target(text: str):
    """``--target``: a band on one measure (:class:`citadels_sim.studies.target.Target`)."""
    from citadels_sim.studies.target import Target
    try:
        return Target.parse(text)
    except ConfigError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_sweep(p: argparse.ArgumentParser) -> None:
    p.add_argument("parameter", nargs="+",
                   help="the house rule to sweep, e.g. thief_share, or two rules to sweep "
                        "every pair of their values (docs/house_rules.md lists them)")
    p.add_argument("--values", type=values, required=True, action="append",
                   help="its values: 25,50,75 or LO:HI:STEP (with two rules, give --values "
                        "twice, in the rules' order)")
    p.add_argument("--target", type=target, default=None,
                   help="search the value nearest the published one that meets a band on "
                        "one measure, playing nearest first and stopping there: "
                        "characters<=2 (every character within 2 points of the mean), "
                        "length=8:10, first_crown<=2, halfway_leader_wins<=60 ...")
    o.add_game(p, player_counts=[4], variants=False,
               districts_default="a named set's own, else first_game")
    p.set_defaults(characters="base")
    o.add_rules(p)
    o.add_strategies(p, None, "comma-separated populations of bots, each playing every "
                              "seat (default: the set's shipped bot; 'prepared' hardens a "
                              "bot for every value, minutes each)")
    o.add_seed(p)
    p.add_argument("--games", type=int, default=20_000,
                   help="games per value, player count and population (20000)")
    p.add_argument("--deals", type=int, default=5_000,
                   help="restricted-play deals per character and seat (5000)")
    p.add_argument("--out", default=None,
                   help="directory of the run and its report (default: runs/sweep-"
                        "<parameter>-<set>-<options>-<hash>; a rerun resumes)")
    o.add_bots_dir(p)
    o.add_execution(p)
    o.add_strategies_file(p)


def sweep(a: argparse.Namespace) -> None:
    from citadels_sim.studies import sweep as sweeping
    if len(a.parameter) > 2:
        raise ConfigError(f"a sweep takes one or two rules; got {len(a.parameter)} "
                          f"({', '.join(a.parameter)}).")
    if len(a.values) != len(a.parameter):
        raise ConfigError(f"give one --values per rule swept: got {len(a.parameter)} "
                          f"rule{'s' * (len(a.parameter) > 1)} ({', '.join(a.parameter)}) "
                          f"and {len(a.values)} --values.")
    second = dict(parameter2=a.parameter[1], values2=a.values[1]) if len(a.parameter) > 1 \
        else {}
    spec = sweeping.Sweep(
        a.parameter[0], a.values[0], **second, characters=o.name_or_names(a.characters),
        ruleset=a.ruleset,
        players=tuple(a.players), strategies=o.names(a.strategies), games=a.games,
        deals=a.deals, seed=a.seed, districts=o.name_or_names(a.districts),
        removed=o.names(a.removed) or None, rules=o.rules(a.rule), variants=a.variants)
    out = a.out or spec.default_out()
    print(f"sweep of {' and '.join(spec.names)}; results in {out}", flush=True)
    with o.cluster(a) as executor:
        result = sweeping.run(spec, out, workers=a.workers, progress=o.progress(a),
                              executor=executor, bots_dir=a.bots_dir, target=a.target)
    print(result.text())
    write_report(result, out)
