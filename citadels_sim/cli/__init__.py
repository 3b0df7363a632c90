"""The ``citadels`` command line: simulate, replay, bench, warmup, list, experiment, report,
compare, balance, tune, harden."""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext

from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import StrategyError, presets, register_file


def _add_config_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", default="classic", help="classic, 2016 or four_color")
    p.add_argument("--players", type=int, default=4, help="2-8 players (default 4)")
    p.add_argument("--characters", default=None,
                   help="a named set or comma-separated character names, one per rank")
    p.add_argument("--districts", default=None,
                   help="2016: 14 unique districts or a named set; classic: bonus purples")
    p.add_argument("--removed", default=None,
                   help="classic: base purple cards taken out, one per bonus purple beyond 3")
    p.add_argument("--quick", action="store_true", help="classic quick game (7 districts)")
    p.add_argument("--max-rounds", type=int, default=100, help="safety cap on rounds")


def _add_strategies_file(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategies-file", action="append", default=[], metavar="FILE",
                   help="a strategy file (TOML, as strategies/presets.toml) whose presets "
                        "may then be named like shipped ones; repeatable. FILE.toml:NAME "
                        "names one preset of a file without this option")


def _add_game_args(p: argparse.ArgumentParser) -> None:
    _add_config_args(p)
    p.add_argument("--strategies", default="heuristic",
                   help="one strategy for all seats or one per seat, comma-separated "
                        "(presets: " + ", ".join(presets()) + ", or FILE.toml:NAME)")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    _add_strategies_file(p)


def _names(value: str | None) -> str | tuple[str, ...] | None:
    """A named set's name as it is, or a comma-separated list as a tuple of names."""
    if value is None or "," not in value:
        return value
    return tuple(x.strip() for x in value.split(","))


def _config(a: argparse.Namespace) -> GameConfig:
    removed = tuple(x.strip() for x in a.removed.split(",")) if a.removed else None
    return GameConfig(ruleset=a.ruleset, players=a.players, characters=_names(a.characters),
                      districts=_names(a.districts), removed=removed, quick=a.quick,
                      max_rounds=a.max_rounds)


def _cluster(a: argparse.Namespace):
    """A context giving the chunk executor of ``--cluster`` (None: this machine's threads;
    Dask is imported only when a cluster is asked for)."""
    if a.cluster is None:
        return nullcontext(None)
    if a.workers is not None:
        raise ValueError("--workers sets this machine's threads; with --cluster each worker "
                         "plays on its own threads: leave --workers out.")
    from citadels_sim.engine.cluster import open_cluster
    return open_cluster(a.cluster)


def _simulate(a: argparse.Namespace) -> None:
    from citadels_sim.engine.simulate import simulate
    with _cluster(a) as executor:
        results = simulate(_config(a), a.strategies, games=a.games, seed=a.seed,
                           workers=a.workers, chunk_size=a.chunk_size, picks=a.picks,
                           out=a.out, progress=not a.no_progress, executor=executor)
    print(results.summary())
    if a.out:
        print(f"results written to {a.out}")


def _replay(a: argparse.Namespace) -> None:
    from citadels_sim.engine.replay import replay, to_json_lines, to_text
    events = replay(_config(a), a.strategies, a.seed, a.game)
    print(to_json_lines(events) if a.json else to_text(events))


def _bench(a: argparse.Namespace) -> None:
    from citadels_sim.engine import bench
    rows = bench.run(games=a.games, cold=not a.no_cold)
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")


def _warmup(a: argparse.Namespace) -> None:
    import time

    import numba

    from citadels_sim.engine.warmup import ensure_kernel
    start = time.perf_counter()
    timings = ensure_kernel()
    compiled = sum(1 for _, _, c in timings if c)
    how = f"compiled {compiled} of {len(timings)} functions" if compiled else \
        f"{len(timings)} functions loaded from the cache"
    print(f"kernel ready in {time.perf_counter() - start:.1f} s ({how}); "
          f"cache: {numba.config.CACHE_DIR}")


def _list(a: argparse.Namespace) -> None:
    from citadels_sim.game.catalogue import text
    print(text())


def _write_report(record, reports: str) -> None:
    from pathlib import Path

    from citadels_sim import reporting
    path = reporting.write(record, Path(reports) / record.experiment.name)
    print(f"report written to {path}/report.md and {path}/report.html")


def _experiment(a: argparse.Namespace) -> None:
    from citadels_sim.studies import experiment
    exp = experiment.load(a.file)
    print(f"{exp.title}: {len(exp.cells)} cells, {exp.total_games:,} games"
          + (f" ({len(exp.skipped)} cells skipped)" if exp.skipped else ""))
    with _cluster(a) as executor:
        record = experiment.run(exp, a.runs, workers=a.workers, progress=not a.no_progress,
                                executor=executor)
    _write_report(record, a.reports)


def _report(a: argparse.Namespace) -> None:
    from citadels_sim.studies import experiment
    _write_report(experiment.load_run(a.run_dir), a.reports)


def verdict_sdm() -> float:
    """The default smallest difference that matters, in points."""
    from citadels_sim.stats.verdict import SDM
    return SDM * 100


def _ints(value: str) -> list[int]:
    try:
        return [int(x) for x in value.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {value!r}"
                                         ) from None


def _pair(value: str) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected two numbers 'X0,X1', got {value!r}"
                                         ) from None
    return lo, hi


def _sprt(a: argparse.Namespace):
    """The SPRT of ``--sprt-elo`` or ``--sprt-delta`` (with ``--alpha``, ``--beta``), or
    None."""
    from citadels_sim.studies.compare import Sprt
    if a.sprt_elo and a.sprt_delta:
        raise ValueError("give --sprt-elo or --sprt-delta, not both.")
    if a.sprt_elo:
        return Sprt.from_elo(*a.sprt_elo, alpha=a.alpha, beta=a.beta)
    if a.sprt_delta:
        return Sprt(*a.sprt_delta, alpha=a.alpha, beta=a.beta)
    return None


def _add_sprt_args(p: argparse.ArgumentParser, delta_default: str = "") -> None:
    p.add_argument("--sprt-elo", type=_pair, metavar="ELO0,ELO1",
                   help="sequential test of logistic Elo elo0 against elo1")
    p.add_argument("--sprt-delta", type=_pair, metavar="D0,D1",
                   help="sequential test of win-rate difference A-B d0 against d1"
                        + delta_default)
    p.add_argument("--alpha", type=float, default=0.05, help="SPRT type I error (0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="SPRT type II error (0.05)")


def _compare(a: argparse.Namespace) -> None:
    from citadels_sim.studies.compare import compare
    with _cluster(a) as executor:
        result = compare(a.a, a.b, _config(a), a.games, a.seed, crn=not a.no_crn,
                         sprt=_sprt(a), chunk_size=a.chunk_size, workers=a.workers,
                         progress=not a.no_progress, executor=executor)
    print(result.text())


def _balance(a: argparse.Namespace) -> None:
    from citadels_sim import reporting
    from citadels_sim.studies import balance
    removed = tuple(x.strip() for x in a.removed.split(",")) if a.removed else None
    spec = balance.Balance(
        characters=_names(a.characters), ruleset=a.ruleset, players=tuple(a.players),
        games=a.games, deals=a.deals, seed=a.seed,
        strategies=tuple(x.strip() for x in a.strategies.split(",")),
        districts=_names(a.districts), removed=removed, sdm=a.sdm / 100,
        skip_invalid=a.skip_invalid, chunk_size=a.chunk_size)
    out = a.out or spec.default_out()
    print(f"balance of the {spec.label} set: districts {spec.districts_text()}; "
          f"results in {out}")
    with _cluster(a) as executor:
        result = balance.run(spec, out, workers=a.workers, progress=not a.no_progress,
                             executor=executor)
    print(result.text())
    path = reporting.write(result, out)
    print(f"report written to {path}/report.md and {path}/report.html")


def _add_cluster_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cluster", default=None, metavar="SPEC",
                   help="play the chunks on a Dask cluster: 'local' (a LocalCluster on this "
                        "machine), a scheduler address tcp://HOST:8786, or a scheduler "
                        "file (.json); default: this machine's threads, without Dask")


def _tune(a: argparse.Namespace) -> None:
    from pathlib import Path

    from citadels_sim import reporting
    from citadels_sim.studies.tune import DEFAULT_SPRT, tune
    given = {k: getattr(a, k) for k in ("games", "popsize", "sigma", "validate_games",
                                        "sprt_games") if getattr(a, k) is not None}
    with _cluster(a) as executor:
        result = tune(a.family, _config(a), a.league, a.budget, start=a.start,
                      champion=a.champion, seed=a.seed, name=a.name, runs_dir=a.runs,
                      sprt=None if a.no_sprt else _sprt(a) or DEFAULT_SPRT,
                      workers=a.workers, progress=not a.no_progress, fresh=a.fresh,
                      copies=a.copies, executor=executor, **given)
    path = reporting.write(result, Path(a.reports) / result.plan.name)
    print(result.text())
    print(f"strategy written to {path / 'strategy.toml'}; report: {path / 'report.md'}, "
          f"{path / 'report.html'}; checkpoint: {Path(a.runs) / result.plan.name}")


def _harden(a: argparse.Namespace) -> None:
    from pathlib import Path

    from citadels_sim import reporting
    from citadels_sim.studies.harden import harden
    with _cluster(a) as executor:
        result = harden(a.start, _config(a), a.rounds, exploit_family=a.exploit_family,
                        extra=a.extra, budget=a.budget, exploit_budget=a.exploit_budget,
                        seed=a.seed, name=a.name, runs_dir=a.runs,
                        validate_games=a.validate_games, workers=a.workers,
                        progress=not a.no_progress, executor=executor)
    path = reporting.write(result, Path(a.reports) / result.strategy.name)
    print(result.text())
    print(f"strategy written to {path / 'strategy.toml'}; report: {path / 'report.md'}, "
          f"{path / 'report.html'}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``citadels`` command."""
    parser = argparse.ArgumentParser(prog="citadels", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("simulate", help="play many games and print win rates")
    _add_game_args(p)
    p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    p.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    p.add_argument("--chunk-size", type=int, default=100_000, help="games per chunk")
    p.add_argument("--out", default=None, help="directory for Parquet results (resumable)")
    picks = p.add_mutually_exclusive_group()
    picks.add_argument("--picks", dest="picks", action="store_true", default=None,
                       help="keep the per-round character table")
    picks.add_argument("--no-picks", dest="picks", action="store_false")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_cluster_arg(p)
    p.set_defaults(run=_simulate)
    p = sub.add_parser("replay", help="play-by-play of one game of a run")
    _add_game_args(p)
    p.add_argument("--game", type=int, default=0, help="game index within the run")
    p.add_argument("--json", action="store_true", help="JSON Lines, one event per line")
    p.set_defaults(run=_replay)
    p = sub.add_parser("bench", help="games/second on one and all cores, start-up times")
    p.add_argument("--games", type=int, default=200_000)
    p.add_argument("--no-cold", action="store_true", help="skip the cold-start measurement")
    p.set_defaults(run=_bench)
    p = sub.add_parser("warmup", help="compile the kernel now (first run, new install, "
                                      "each cluster node), or check that it is cached")
    p.set_defaults(run=_warmup)
    p = sub.add_parser("list", help="rulesets, characters (with their player counts), every "
                                    "district card, the 2016 named sets, strategy presets "
                                    "and their parameters")
    p.set_defaults(run=_list)

    def common(p: argparse.ArgumentParser, runs: bool = True) -> None:
        p.add_argument("--workers", type=int, default=None, help="threads (default: all)")
        p.add_argument("--no-progress", action="store_true", help="no progress bar")
        _add_cluster_arg(p)
        if runs:
            p.add_argument("--runs", default="runs", help="directory of run data (runs/)")
            p.add_argument("--reports", default="reports", help="report directory (reports/)")

    p = sub.add_parser("experiment", help="run an experiment file and write its report")
    p.add_argument("file", help="experiments/NAME.toml")
    common(p)
    _add_strategies_file(p)
    p.set_defaults(run=_experiment)
    p = sub.add_parser("report", help="write the report of a finished experiment run")
    p.add_argument("run_dir", metavar="RUN", help="the run directory, e.g. runs/NAME")
    p.add_argument("--reports", default="reports", help="report directory (reports/)")
    p.set_defaults(run=_report)
    p = sub.add_parser("compare", help="strategy A against B: seat rotation, common random "
                                       "numbers, optional SPRT")
    p.add_argument("a", help="strategy A (preset, or preset:param=value,...)")
    p.add_argument("b", help="strategy B")
    _add_config_args(p)
    p.add_argument("--games", type=int, default=20_000,
                   help="deals (each played once per rotation; default 20000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--chunk-size", type=int, default=5_000,
                   help="deals per chunk (the SPRT checks after each)")
    p.add_argument("--no-crn", action="store_true",
                   help="independent deals for each rotation instead of common ones")
    _add_sprt_args(p)
    common(p, runs=False)
    _add_strategies_file(p)
    p.set_defaults(run=_compare)
    p = sub.add_parser("balance", help="which characters of a set to change: restricted play "
                                       "and the set against the base set on common deals")
    p.add_argument("--characters", required=True,
                   help="a named set or comma-separated character names, one per rank")
    p.add_argument("--ruleset", default="classic", help="classic, 2016 or four_color")
    p.add_argument("--players", type=_ints, default=[4, 5],
                   help="comma-separated player counts (default 4,5)")
    p.add_argument("--districts", default=None,
                   help="2016: 14 unique districts or a named set (default: a named set's "
                        "own); classic: bonus purples")
    p.add_argument("--removed", default=None,
                   help="classic: base purple cards taken out (the Graveyard with the Diplomat)")
    p.add_argument("--strategies", default="heuristic,reference",
                   help="comma-separated populations of bots, each playing every seat; "
                        "verdicts that change direction between them are bot-dependent "
                        "(default heuristic,reference)")
    p.add_argument("--games", type=int, default=100_000,
                   help="games per set, player count and population (100000)")
    p.add_argument("--deals", type=int, default=20_000,
                   help="restricted-play deals per character and seat (20000)")
    p.add_argument("--sdm", type=float, default=verdict_sdm(),
                   help="smallest difference that matters, in win-rate points (2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--chunk-size", type=int, default=20_000, help="games per chunk")
    p.add_argument("--skip-invalid", action="store_true",
                   help="leave out player counts the rules refuse for the set (and say so)")
    p.add_argument("--out", default=None,
                   help="directory of the run and its report (default: runs/balance-<set>-"
                        "<options>-<hash>; a rerun resumes)")
    common(p, runs=False)
    _add_strategies_file(p)
    p.set_defaults(run=_balance)
    p = sub.add_parser("tune", help="tune a strategy family's parameters for a game with "
                                    "CMA-ES against a league; checkpointed, resumable")
    _add_config_args(p)
    p.add_argument("--family", default=None,
                   help="the family to tune (default: the --start strategy's)")
    p.add_argument("--league", default=None,
                   help="comma-separated opponents each opponent seat draws from (presets "
                        "or FILE.toml:NAME; default: the start and every other shipped "
                        "preset but random)")
    p.add_argument("--start", default=None,
                   help="strategy the search starts from (default: the family's preset)")
    p.add_argument("--copies", action="store_true",
                   help="the candidate in every seat but one, each league member alone in "
                        "the last; fitness: the copies' share together (tune against "
                        "exploiters to be hard to exploit)")
    p.add_argument("--champion", default=None,
                   help="strategy the SPRT tests against (default: the league's first)")
    p.add_argument("--budget", type=int, default=200_000,
                   help="games of the search (default 200000)")
    p.add_argument("--games", type=int, default=None,
                   help="games per candidate per generation (default 500)")
    p.add_argument("--popsize", type=int, default=None,
                   help="CMA-ES population (default 4 + 3 ln d)")
    p.add_argument("--sigma", type=float, default=None,
                   help="CMA-ES initial step, parameters scaled to [0, 1] (default 0.2)")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--name", default=None,
                   help="run, report and tuned preset name (default "
                        "tuned-FAMILY-RULESET-Np)")
    p.add_argument("--validate-games", type=int, default=None,
                   help="held-out games of the validation (default 100000; 0: none)")
    _add_sprt_args(p, " (default 0,0.02)")
    p.add_argument("--sprt-games", type=int, default=None,
                   help="most deals of the SPRT against the champion (default 20000)")
    p.add_argument("--no-sprt", action="store_true", help="no SPRT against the champion")
    p.add_argument("--fresh", action="store_true",
                   help="start again instead of resuming the run's checkpoint")
    common(p)
    _add_strategies_file(p)
    p.set_defaults(run=_tune)
    p = sub.add_parser("harden", help="make a strategy hard to exploit: exploit it, tune it "
                                      "against its exploiters (tune --copies), repeat")
    _add_config_args(p)
    p.add_argument("--start", required=True,
                   help="the strategy to harden (a preset or FILE.toml:NAME)")
    p.add_argument("--rounds", type=int, default=4, help="tuning rounds (default 4)")
    p.add_argument("--exploit-family", default="heuristic",
                   help="the family of the exploiters searched (default heuristic)")
    p.add_argument("--extra", default="builder,heuristic",
                   help="presets in every round's league beside the exploiters "
                        "(default builder,heuristic)")
    p.add_argument("--budget", type=int, default=1_500_000,
                   help="games of each round's tuning (default 1500000)")
    p.add_argument("--exploit-budget", type=int, default=700_000,
                   help="games of each exploit search (default 700000)")
    p.add_argument("--validate-games", type=int, default=100_000,
                   help="held-out games of every search's validation (default 100000)")
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    p.add_argument("--name", default=None,
                   help="the hardened strategy's name and the runs' prefix (default "
                        "hardened-START)")
    common(p)
    _add_strategies_file(p)
    p.set_defaults(run=_harden)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``citadels`` console script."""
    args = build_parser().parse_args(argv)
    try:
        for path in getattr(args, "strategies_file", []):
            register_file(path)
        args.run(args)
    except (ConfigError, StrategyError, ValueError) as err:
        print(f"citadels: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into a command that stopped reading (| head)
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
