"""Commands that make and test bots: tune (CMA-ES against a league), harden (tune against its
own exploiters, round after round), prepare (the bot a balance test prepares for a game)
and exploit (how much a tuned exploiter gains against a bot).

Each command is a pair: ``add_NAME(parser)`` declares its options, ``NAME(args)`` runs it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from . import options as o
from .studies import write_report


def add_tune(p: argparse.ArgumentParser) -> None:
    o.add_game(p)
    p.add_argument("--family", default=None,
                   help="the family to tune (default: the --start strategy's)")
    p.add_argument("--league", default=None,
                   help="comma-separated opponents each opponent seat draws from (presets "
                        "or FILE.toml:NAME; default: the start and every other shipped "
                        "preset but random and the bots made for one player count)")
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
                   help="games per candidate per generation, at least one per seat for each "
                        "league member (default 500)")
    p.add_argument("--popsize", type=int, default=None,
                   help="CMA-ES population (default 4 + 3 ln d)")
    p.add_argument("--sigma", type=float, default=None,
                   help="CMA-ES initial step, parameters scaled to [0, 1] (default 0.2)")
    o.add_seed(p)
    p.add_argument("--name", default=None,
                   help="run, report and tuned preset name, a plain file name (default "
                        "tuned-FAMILY-RULESET-Np)")
    p.add_argument("--validate-games", type=int, default=None,
                   help="held-out games of the validation (default 100000; 0: none)")
    o.add_sprt(p, " (default 0,0.02)")
    p.add_argument("--sprt-games", type=int, default=None,
                   help="most deals of the SPRT against the champion (default 20000)")
    p.add_argument("--no-sprt", action="store_true", help="no SPRT against the champion")
    p.add_argument("--fresh", action="store_true",
                   help="start again instead of resuming the run's checkpoint")
    o.add_execution(p)
    o.add_dirs(p)
    o.add_strategies_file(p)


def tune(a: argparse.Namespace) -> None:
    from citadels_sim.studies.tune import DEFAULT_SPRT, tune
    test = o.sprt(a, None if a.no_sprt else DEFAULT_SPRT)
    if a.no_sprt and test:
        raise ValueError("--no-sprt leaves the SPRT out: leave out --sprt-elo and "
                         "--sprt-delta too.")
    given = {k: getattr(a, k) for k in ("games", "popsize", "sigma", "validate_games",
                                        "sprt_games") if getattr(a, k) is not None}
    with o.cluster(a) as executor:
        result = tune(a.family, o.config(a), a.league, a.budget, start=a.start,
                      champion=a.champion, seed=a.seed, name=a.name, runs_dir=a.runs,
                      sprt=test, workers=a.workers, progress=o.progress(a),
                      fresh=a.fresh, copies=a.copies, executor=executor, **given)
    print(result.text())
    path = write_report(result, Path(a.reports) / result.plan.name)
    print(f"strategy written to {path / 'strategy.toml'}; checkpoint: "
          f"{Path(a.runs) / result.plan.name}")


def add_harden(p: argparse.ArgumentParser) -> None:
    o.add_game(p)
    p.add_argument("--start", required=True,
                   help="the strategy to harden (a preset or FILE.toml:NAME; of a mixture, "
                        "such as the 2-player bots, its likeliest component, or with --mix "
                        "the mixture, its components joining the population)")
    p.add_argument("--rounds", type=int, default=4,
                   help="tuning rounds (default 4, at most 100; 0 only measures the start)")
    p.add_argument("--exploit-family", default="heuristic",
                   help="the family of the exploiters searched, or several "
                        "comma-separated (heuristic,reference: one of each per round), "
                        "and self: the round's bot's own family searched from the bot; "
                        "default heuristic")
    p.add_argument("--extra", default="builder,heuristic",
                   help="presets in every round's league beside the exploiters "
                        "(default builder,heuristic)")
    from citadels_sim.studies import harden
    p.add_argument("--budget", type=int, default=harden.DEFAULT_BUDGET,
                   help=f"games of each round's tuning (default {harden.DEFAULT_BUDGET})")
    p.add_argument("--exploit-budget", type=int, default=harden.DEFAULT_EXPLOIT_BUDGET,
                   help=f"games of each exploit search (default "
                        f"{harden.DEFAULT_EXPLOIT_BUDGET})")
    p.add_argument("--validate-games", type=int, default=100_000,
                   help="held-out games of every search's validation (default 100000)")
    p.add_argument("--until", type=float, default=None,
                   help="stop before --rounds once a round's strongest exploiter gains at "
                        "most this many win-rate points (default: play every round)")
    p.add_argument("--mix", action="store_true",
                   help="after each round's tuning, mix the bots so far to concede least to "
                        "every exploiter found, and exploit the mixture (a per-game draw)")
    p.add_argument("--confirm", type=int, default=0, metavar="N",
                   help="give the exploit test (heuristic, reference and self searches, on "
                        "deals of another seed) to the N rounds whose searches gained least "
                        "and deploy the one it finds least exploited (default 0: deploy by "
                        "the rounds' own searches)")
    p.add_argument("--confirm-budget", type=int, default=harden.CONFIRM_BUDGET,
                   help=f"games of each search of that exploit test (default "
                        f"{harden.CONFIRM_BUDGET})")
    o.add_seed(p)
    p.add_argument("--name", default=None,
                   help="the hardened strategy's name and the runs' prefix, a plain file "
                        "name (default hardened-START)")
    o.add_execution(p)
    o.add_dirs(p)
    o.add_strategies_file(p)


def harden(a: argparse.Namespace) -> None:
    from citadels_sim.studies.harden import harden
    with o.cluster(a) as executor:
        result = harden(a.start, o.config(a), a.rounds, exploit_family=a.exploit_family,
                        extra=a.extra, budget=a.budget, exploit_budget=a.exploit_budget,
                        seed=a.seed, name=a.name, runs_dir=a.runs,
                        validate_games=a.validate_games, until=a.until, mix=a.mix,
                        confirm_rounds=a.confirm, confirm_budget=a.confirm_budget,
                        workers=a.workers,
                        progress=o.progress(a), executor=executor)
    print(result.text())
    path = write_report(result, Path(a.reports) / result.strategy.name)
    print(f"strategy written to {path / 'strategy.toml'}")


def add_exploit(p: argparse.ArgumentParser) -> None:
    p.add_argument("bot", help="the bot tested (a preset or FILE.toml:NAME); its copies fill "
                               "every seat but the exploiter's")
    o.add_game(p)
    p.add_argument("--families", default=None,
                   help="comma-separated exploiter families, one search each from the "
                        "family's preset, and self: the bot's own family searched from the "
                        "bot (default heuristic,reference,self; without self for a bot with "
                        "nothing to tune)")
    from citadels_sim.studies.exploit import DEFAULT_BUDGET
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                   help=f"games of each family's search (default {DEFAULT_BUDGET})")
    p.add_argument("--validate-games", type=int, default=100_000,
                   help="held-out games measuring each exploiter (default 100000)")
    o.add_seed(p)
    p.add_argument("--name", default=None,
                   help="the report's name and the runs' prefix, a plain file name (default "
                        "exploit-BOT-RULESET-Np)")
    o.add_execution(p)
    o.add_dirs(p)
    o.add_strategies_file(p)


def exploit(a: argparse.Namespace) -> None:
    from citadels_sim.studies.exploit import exploit
    with o.cluster(a) as executor:
        result = exploit(a.bot, o.config(a), families=a.families, budget=a.budget,
                         validate_games=a.validate_games, seed=a.seed, name=a.name,
                         runs_dir=a.runs, workers=a.workers, progress=o.progress(a),
                         executor=executor)
    print(result.text())
    write_report(result, Path(a.reports) / result.settings["name"])


def add_prepare(p: argparse.ArgumentParser) -> None:
    from citadels_sim.studies.prepare import MOST_PREPARATIONS
    o.add_game(p)
    o.add_bots_dir(p)
    p.add_argument("--preparation", type=int, default=1,
                   help=f"which preparation of the game: 1 (default), or 2 to "
                        f"{MOST_PREPARATIONS}, the same hardening on other deals (what "
                        "citadels balance --strategies prepared2 ... judges under)")
    o.add_execution(p)


def prepare(a: argparse.Namespace) -> None:
    from citadels_sim.studies.prepare import STRATEGY_FILE, prepare
    with o.cluster(a) as executor:
        result = prepare(o.config(a), a.bots_dir, preparation=a.preparation,
                         workers=a.workers, progress=o.progress(a), executor=executor)
    print(result.text())
    path = result.directory / STRATEGY_FILE
    print(f"strategy in {path}: play it as {path}:{result.strategy.name}")
