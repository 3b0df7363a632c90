"""Option groups shared by the commands, and the values the commands build from them.

Each ``add_*`` function declares one group on a command's parser; :func:`config`,
:func:`sprt` and :func:`cluster` turn the parsed options into the package's objects.  Every
check of a value lives in the package (``GameConfig``, ``Strategy``, the studies' specs), so
the Python API refuses what the command line refuses, with the same message.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import AbstractContextManager, nullcontext

from citadels_sim.game import house_rules
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import default_for, made_for, player_count_presets, presets
from citadels_sim.studies import prepare as preparing


# ---- argument types -----------------------------------------------------------------------
def names(value: str | None) -> tuple[str, ...]:
    """A comma-separated list of names as a tuple (blanks around each dropped)."""
    return tuple(x.strip() for x in value.split(",")) if value else ()


def name_or_names(value: str | None) -> str | tuple[str, ...] | None:
    """A name as it is (a named set), or a comma-separated list as a tuple of names."""
    return value if value is None or "," not in value else names(value)


def ints(value: str) -> list[int]:
    """``"4,5"`` -> ``[4, 5]`` (an argparse type)."""
    try:
        return [int(x) for x in value.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {value!r}"
                                         ) from None


def pair(value: str) -> tuple[float, float]:
    """``"0,0.02"`` -> ``(0.0, 0.02)`` (an argparse type)."""
    try:
        lo, hi = (float(x) for x in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected two numbers 'X0,X1', got {value!r}"
                                         ) from None
    return lo, hi


# ---- the game -----------------------------------------------------------------------------
def add_game(p: argparse.ArgumentParser, *, player_counts: list[int] | None = None,
             characters_required: bool = False, variants: bool = True,
             districts_default: str = "first_game") -> None:
    """The game's options.  ``player_counts``: ``--players`` takes a comma-separated list,
    by default these; ``variants``: also ``--quick`` and ``--max-rounds``;
    ``districts_default``: what the 2016 districts are when none are given, in words."""
    p.add_argument("--ruleset", default="classic", help="classic, 2016 or four_color")
    if player_counts is None:
        p.add_argument("--players", type=int, default=4, help="2-8 players (default 4)")
    else:
        p.add_argument("--players", type=ints, default=player_counts,
                       help="comma-separated player counts (default "
                            + ",".join(map(str, player_counts)) + ")")
    p.add_argument("--characters", default=None, required=characters_required,
                   help="a named set (2016: first_game ...; classic: base) or comma-separated "
                        "character names, one per rank")
    p.add_argument("--districts", default=None,
                   help=f"2016: 14 unique districts or a named set (default {districts_default});"
                        " classic: bonus purples")
    p.add_argument("--removed", default=None,
                   help="classic: base purple cards taken out, one per bonus purple beyond 3 "
                        "(and the Graveyard with the Diplomat)")
    p.add_argument("--variants", default=None, metavar="FILE",
                   help="a variants file (TOML): characters defined as a published one with "
                        "other numbers, added effects or an added power (kill, rob, "
                        "swap_hands, destroy, bewitch), which --characters may then name "
                        "(docs/house_rules.md#card-variants)")
    if variants:
        p.add_argument("--quick", action="store_true", help="classic quick game (7 districts)")
        p.add_argument("--max-rounds", type=int, default=100, help="safety cap on rounds")
        add_rules(p)


def add_rules(p: argparse.ArgumentParser) -> None:
    """``--rule NAME=VALUE``, repeatable: the house rules."""
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a house rule, e.g. thief_share=50 (repeat for more; the names, "
                        "defaults and ranges: docs/house_rules.md)")


def config(a: argparse.Namespace) -> GameConfig:
    """The GameConfig of the game options (one player count)."""
    return GameConfig(ruleset=a.ruleset, players=a.players,
                      characters=name_or_names(a.characters),
                      districts=name_or_names(a.districts), removed=names(a.removed) or None,
                      quick=a.quick, max_rounds=a.max_rounds, rules=rules(a.rule),
                      variants=a.variants)


def rules(texts: list[str]) -> tuple[tuple[str, int], ...]:
    """The ``--rule NAME=VALUE`` options as pairs (checked by the GameConfig)."""
    try:
        return tuple(house_rules.parse(t) for t in texts)
    except house_rules.HouseRuleError as err:
        raise ConfigError(str(err)) from None


def add_seed(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, help="master seed (default 0)")


# ---- strategies ---------------------------------------------------------------------------
#: the --strategies default of simulate and replay, in words
DEFAULT_STRATEGIES = ("the shipped reference bot made for the set and player count: "
                      "reference_classic for the classic base characters, reference_<set> "
                      "for a 2016 named set (both tuned at 4 players), or their bot for that "
                      "count, PRESET_Np, where one is shipped; else reference")


def add_strategies(p: argparse.ArgumentParser, default: str | None = None,
                   what: str = "one strategy for all seats or one per seat, "
                               "comma-separated") -> None:
    counts = player_count_presets()
    parts = {part.name for s in counts.values() for _, part in s.mixture}
    p.add_argument("--strategies", default=default,
                   help=f"{what} (default {default or DEFAULT_STRATEGIES}; presets: "
                        + ", ".join(name for name in presets() if name not in counts)
                        + ", the bots made for one player count (PRESET_Np: "
                        + ", ".join(sorted(set(counts) - parts))
                        + "), or FILE.toml:NAME; PRESET:param=value,... tweaks one)")


def lineup(a: argparse.Namespace, config: GameConfig, executor=None):
    """What ``--strategies`` names for ``config``: ``prepared`` is the bot prepared for the
    game (prepared now the first time, kept in ``--bots-dir``); with none named, the default
    (a line says so when it was not tuned for this set and player count)."""
    if a.bots_dir is not None:
        preparing.check_bots_dir(a.bots_dir, "--bots-dir")
    named = [s.strip() for s in (a.strategies or "").split(",")]
    if preparing.PREPARED in named and len(named) > 1:
        raise ConfigError(f"--strategies {a.strategies!r}: 'prepared' plays the bot prepared "
                          "for the game in every seat; give it alone.")
    if a.strategies == preparing.PREPARED:
        prepared = preparing.prepare(config, a.bots_dir, workers=a.workers,
                                     progress=progress(a), executor=executor)
        print(prepared.text(), flush=True)
        return prepared.strategy
    if a.strategies is None and not made_for(config):
        tuned = ("under these house rules" if config.rules
                 else "under the four_color rules (it plays the classic base game's)"
                 if config.ruleset == "four_color"
                 else f"for this set at {config.players} players")
        print(f"note: the default bot, {default_for(config)}, was not tuned {tuned}: an "
              f"exploiter may gain tens of win-rate points "
              "against it. --strategies prepared plays a bot hardened for this game "
              "(prepared the first time, in minutes, and kept in --bots-dir).", flush=True)
    return a.strategies


def add_strategies_file(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategies-file", action="append", default=[], metavar="FILE",
                   help="a strategy file (TOML, the format of the shipped presets) whose "
                        "presets may then be named like shipped ones; repeatable. "
                        "FILE.toml:NAME names one preset of a file without this option")


# ---- where games are played, where runs go ------------------------------------------------
def add_bots_dir(p: argparse.ArgumentParser) -> None:
    """``--bots-dir``: where prepared bots are kept (shared by every command that prepares)."""
    p.add_argument("--bots-dir", default=None,
                   help="where prepared bots are kept, reused by every later run of the same "
                        "game: prepare, simulate --strategies prepared, balance "
                        "(default runs/bots)")


def add_execution(p: argparse.ArgumentParser) -> None:
    """``--workers``, ``--no-progress`` and ``--cluster``."""
    p.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (none either when the error stream is not a "
                        "terminal: a log or a pipe)")
    p.add_argument("--cluster", default=None, metavar="SPEC",
                   help="play the chunks on a Dask cluster: 'local' (a LocalCluster on this "
                        "machine), a scheduler address tcp://HOST:8786, or a scheduler "
                        "file (.json); default: this machine's threads, without Dask")


def progress(a: argparse.Namespace) -> bool:
    """Show progress bars: on a terminal, unless ``--no-progress`` (a log or a pipe would
    keep every redraw of the bar)."""
    return not a.no_progress and sys.stderr.isatty()


def cluster(a: argparse.Namespace) -> AbstractContextManager:
    """A context giving the chunk executor of ``--cluster`` (None: this machine's threads;
    Dask is imported only when a cluster is asked for)."""
    if a.cluster is None:
        return nullcontext(None)
    if a.workers is not None:
        raise ValueError("--workers sets this machine's threads; with --cluster each worker "
                         "plays on its own threads: leave --workers out.")
    from citadels_sim.engine.cluster import open_cluster
    return open_cluster(a.cluster)


def add_dirs(p: argparse.ArgumentParser, runs: bool = True) -> None:
    """``--runs`` (unless not ``runs``) and ``--reports``."""
    if runs:
        p.add_argument("--runs", default="runs", help="directory of run data (runs/)")
    p.add_argument("--reports", default="reports", help="report directory (reports/)")


# ---- sequential tests ---------------------------------------------------------------------
def add_sprt(p: argparse.ArgumentParser, delta_default: str = "") -> None:
    p.add_argument("--sprt-elo", type=pair, metavar="ELO0,ELO1",
                   help="sequential test of logistic Elo elo0 against elo1")
    p.add_argument("--sprt-delta", type=pair, metavar="D0,D1",
                   help="sequential test of win-rate difference A-B d0 against d1"
                        + delta_default)
    p.add_argument("--alpha", type=float, default=None,
                   help="SPRT type I error, in (0, 0.5) (default 0.05)")
    p.add_argument("--beta", type=float, default=None,
                   help="SPRT type II error, in (0, 0.5) (default 0.05)")


def sprt(a: argparse.Namespace, default: tuple[float, float] | None = None):
    """The SPRT of ``--sprt-elo`` or ``--sprt-delta`` (else of the deltas ``default``) with
    ``--alpha`` and ``--beta``, or None when there is none."""
    from citadels_sim.studies.compare import Sprt
    if a.sprt_elo and a.sprt_delta:
        raise ValueError("give --sprt-elo or --sprt-delta, not both.")
    errors = {k: v for k, v in (("alpha", a.alpha), ("beta", a.beta)) if v is not None}
    if a.sprt_elo:
        return Sprt.from_elo(*a.sprt_elo, **errors)
    if a.sprt_delta or default:
        return Sprt(*(a.sprt_delta or default), **errors)
    if errors:
        raise ValueError(f"--{next(iter(errors))} sets an error of the SPRT: give "
                         "--sprt-elo or --sprt-delta too.")
    return None
