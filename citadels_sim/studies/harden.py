"""Harden a strategy against exploitation: exploit it, tune it against its exploiters,
exploit it again (a double-oracle loop of :func:`citadels_sim.studies.tune.tune` runs).

Round 0 measures the start: a strategy of each exploiting family (default ``heuristic``;
``heuristic,reference,self`` searches both from their presets and the start's own family
from the start, as the exploit test of :func:`citadels_sim.studies.exploit.exploit` does)
is tuned against copies of it in every other seat, and the largest held-out gain over the
fair share 1/N is how much the start concedes.  Each round then tunes the strategy with
``copies=True`` -- its copies in every seat but one, each exploiter found so far (and the
``extra`` presets, so that plain opponents stay beaten) alone in the last -- starting from
the previous round's strategy, and exploits the result again with fresh searches.  The
strategy deployed is the one whose strongest exploiter gained least (the start included: if no round
beats it, hardening returns the start); the exploit gains per round say how far hardening
got.  The loop need not converge -- a round can open a new exploit -- so read the curve.
A round's own searches read its gain roughly and picking the least of them is optimistic:
with ``confirm``, the rounds whose searches gained least are each given the exploit test
(:func:`.exploit.exploit`, on deals of another seed) and the one it finds least exploited
is deployed (:func:`confirm`).

Every search is a tuning run of its own (``runs_dir/NAME-exploitK``, or
``NAME-exploitK-FAMILY`` with several families, ``NAME-roundK`` and the exploit tests'
``NAME-confirm-roundK-FAMILY``), so a
killed run started again resumes where it stopped and ends with the same result.  A family
with nothing to tune, or a budget smaller than one generation of a search, is refused
before the first search starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl
from tqdm.auto import tqdm

from citadels_sim.engine import store
from citadels_sim.engine.executor import ChunkExecutor, resolve
from citadels_sim.engine.seeding import derive_seed
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.game.strategies import Strategy, get
from . import population
from .exploit import (DEFAULT_BUDGET as TEST_BUDGET, DEFAULT_SEARCHES, SELF, check_search,
                      exploit, search_names, searched_family, self_start)
from .tune import Tuning, check_budget, checkpointed, tunable_space, tune

#: the exploiting family searched by default
DEFAULT_EXPLOIT_FAMILY = "heuristic"
#: default games of each round's tuning of the strategy, and of each exploit search
DEFAULT_BUDGET = 1_500_000
DEFAULT_EXPLOIT_BUDGET = TEST_BUDGET
#: the most rounds a hardening plays (each round tunes and searches anew: 100 are days of play)
MAX_ROUNDS = 100
#: deals per exploiter of a mixing round's payoff matrix
MIX_GAMES = 12_000
#: games of each search of the exploit test that confirms a round (``confirm``)
CONFIRM_BUDGET = TEST_BUDGET


@dataclass
class Hardening:
    """What :func:`harden` did: the deployed strategy, per round the exploit search against
    that round's strategy (round 0: the start) and the tuning that made it."""

    strategy: Strategy
    config: GameConfig
    exploits: list[Tuning]   # exploits[k]: the strongest exploit of round k's strategy
    tunings: list[Tuning]    # tunings[k - 1]: round k's strategy
    settings: dict           # harden()'s arguments (start, rounds, budgets, ...) by name
    deployed: int            # the round whose strategy is deployed (:meth:`deploy`)
    #: every exploit search of round k, one per exploiting family (exploits[k] among them)
    searches: list[list[Tuning]] = field(default_factory=list)
    #: with ``mix``: round k's mixture of the bots so far (:mod:`.population`), the one
    #: its exploit searches played, and the population it was solved on
    mixtures: list[Strategy] = field(default_factory=list)
    populations: list[population.Population] = field(default_factory=list)
    #: with ``confirm``: the rounds given the exploit test, in the order tested, each with
    #: its strongest exploiter's family and held-out gain (:func:`exploit_test`)
    confirmed: list[dict] = field(default_factory=list)

    def candidate(self, k: int) -> Strategy:
        """Round ``k``'s strategy (the one its exploit searches played): the start, the
        round's tuned bot, or with ``mix`` the round's mixture."""
        if k == 0:
            return self.exploits[0].plan.league[0]
        return self.mixtures[k - 1] if self.mixtures else self.tunings[k - 1].strategy

    def deploy(self, k: int, why: str = "the least exploited") -> Hardening:
        """This hardening with round ``k``'s strategy deployed (``why``: the reason, in the
        strategy's description), named ``settings["name"]``."""
        chosen, s = self.candidate(k), self.settings
        what = "a mixture" if chosen.mixture else f"round {k}"
        strategy = replace(chosen, name=s["name"], description=(
            f"{self.candidate(0).name} hardened by citadels harden in {len(self.tunings)} rounds"
            + (", mixing the bots after each" if self.mixtures else "")
            + f" ({what} deployed, {why}): {self.config.ruleset}, {self.config.players} "
            f"players, exploiters of family {s['exploit_family'].replace(',', ', ')}, extra "
            f"{', '.join(s['extra'])}, seed {s['seed']}."))
        return replace(self, strategy=strategy, deployed=k)

    def search_name(self, k: int) -> str:
        """The family (or ``self``) of round ``k``'s strongest exploit search."""
        names = self.settings["exploit_family"].split(",")
        return next(n for n, ex in zip(names, self.searches[k]) if ex is self.exploits[k])

    def rounds(self) -> pl.DataFrame:
        """One row per round: the strategy, its copies' held-out share against the league
        it was tuned on, and the exploit found against it (win share and gain over the
        fair share, with 95% intervals)."""
        rows = []
        for k, ex in enumerate(self.exploits):
            v, fair = ex.validation["tuned"], ex.fair
            t = self.tunings[k - 1] if k else None
            rows.append({
                "round": k,
                "strategy": self.candidate(k).name,
                "copies_share": t.validation["tuned"]["share"] if t else None,
                "exploit_family": self.search_name(k),
                "exploit_share": v["share"], "exploit_low": v["low"], "exploit_high": v["high"],
                "gain_points": 100 * (v["share"] - fair),
                "gain_low": 100 * (v["low"] - fair), "gain_high": 100 * (v["high"] - fair),
                "deployed": k == self.deployed})
        return pl.DataFrame(rows, schema_overrides={"copies_share": pl.Float64})

    def text(self) -> str:
        """A plain-text summary, one line per round."""
        why = "in the exploit test" if self.confirmed else "by its searches"
        lines = [f"{self.strategy.name}: hardened in {len(self.tunings)} rounds "
                 f"({self.config.ruleset}, {self.config.players} players); deployed: round "
                 f"{self.deployed}, the least exploited {why}"]
        for r in self.rounds().iter_rows(named=True):
            lines.append(f"  round {r['round']}: {r['strategy']:<32} a tuned "
                         f"{r['exploit_family']} exploiter wins "
                         f"{r['exploit_share']:.4f} [{r['exploit_low']:.4f}, "
                         f"{r['exploit_high']:.4f}]: {r['gain_points']:+.1f} points over fair")
        if self.confirmed:
            s = self.settings
            lines.append(f"  the exploit test ({s['confirm_budget']:,} games a search, seed "
                         f"{s['confirm_seed']}) of the least exploited rounds:")
            lines += [f"    round {r['round']}: a {r['exploit_family']} exploiter "
                      f"{r['gain_points']:+.1f} [{r['gain_low']:+.1f}, {r['gain_high']:+.1f}] "
                      "points over fair" for r in self.confirmed]
        return "\n".join(lines)


def _gain(found: list[Tuning]) -> float:
    """The strongest of one round's exploiters: its held-out gain over the fair share, in
    win-rate points."""
    return max(100 * (ex.validation["tuned"]["share"] - ex.fair) for ex in found)


def exploit_test(bot: Strategy, config: GameConfig, name: str, *, budget: int, seed: int,
                 validate_games: int, runs_dir: str | Path, workers: int | None = None,
                 progress: bool = False, executor: ChunkExecutor | None = None) -> dict:
    """The exploit test of ``bot`` (:func:`.exploit.exploit`, its default families, runs
    ``runs_dir/NAME-*``): its strongest exploiter's family and held-out gain over the fair
    share (win-rate points, 95% interval)."""
    worst = exploit(bot, config, budget=budget, validate_games=validate_games, seed=seed,
                    name=name, runs_dir=runs_dir, workers=workers, progress=progress,
                    executor=executor).strongest()
    return {"exploit_family": worst["family"], "gain_points": worst["gain"],
            "gain_low": worst["gain_low"], "gain_high": worst["gain_high"]}


def confirm(found: Hardening, count: int, prefix: str, **test) -> list[dict]:
    """The exploit test (:func:`exploit_test` with ``test``, runs named
    ``PREFIXconfirm-roundK``) of the ``count`` rounds of ``found`` whose searches gained
    least, in that order: per round its strongest exploiter's family and gain.  A round
    that plays as one chosen before it (a mixing round can keep the last mixture) is not
    counted, and a round whose searches already gained more than the test found for a round
    tested before it is passed over (the test would find at least that much); none is
    tested when there is one round."""
    gains = found.rounds()["gain_points"].to_list()
    chosen: list[int] = []
    for k in sorted(range(len(gains)), key=gains.__getitem__):
        if len(chosen) < count and not any(found.candidate(k).plays()
                                           == found.candidate(j).plays() for j in chosen):
            chosen.append(k)
    rows: list[dict] = []
    for k in chosen if len(chosen) > 1 else ():
        if rows and gains[k] > min(r["gain_points"] for r in rows):
            continue
        rows.append({"round": k, **exploit_test(found.candidate(k), found.config,
                                                f"{prefix}confirm-round{k}", **test)})
    return rows


def _strategies(specs: str | Sequence[str | Strategy]) -> list[Strategy]:
    items = specs.split(",") if isinstance(specs, str) else list(specs)
    return [get(s) for s in items if not isinstance(s, str) or s.strip()]


def _check_budgets(start: Strategy, config: GameConfig, rounds: int, families: list[str],
                   extra: int, budget: int, exploit_budget: int) -> None:
    """Refuse, before any search, a family with nothing to tune or a budget smaller than one
    generation of a search (an exploit search's league is one strategy; round k's holds the
    k x len(families) exploiters found so far and the ``extra`` presets)."""
    tunable_space(start.family, f"start strategy {start.name!r}")
    players = config.players
    for search in families:
        check_search(start, search, "--exploit-family")
        family = searched_family(start, search)
        check_budget(exploit_budget, family, players, "exploit_budget (--exploit-budget)",
                     "an exploit search")
    if rounds:
        check_budget(budget, start.family, players, "budget (--budget)", "a round's tuning",
                     range(len(families) + extra, rounds * len(families) + extra + 1,
                           len(families)))


def harden(start: str | Strategy, config: GameConfig | None = None, rounds: int = 4, *,
           exploit_family: str | Sequence[str] = DEFAULT_EXPLOIT_FAMILY,
           extra: str | Sequence[str | Strategy] = "builder,heuristic",
           budget: int = DEFAULT_BUDGET, exploit_budget: int = DEFAULT_EXPLOIT_BUDGET,
           seed: int = 0, name: str | None = None, runs_dir: str | Path = "runs",
           validate_games: int = 100_000, until: float | None = None, mix: bool = False,
           mix_games: int = MIX_GAMES, confirm_rounds: int = 0,
           confirm_budget: int = CONFIRM_BUDGET, confirm_seed: int | None = None,
           workers: int | None = None, progress: bool = True,
           executor: ChunkExecutor | Executor | None = None, client=None) -> Hardening:
    """Harden ``start`` for ``config`` in ``rounds`` rounds (see the module docstring).

    Parameters
    ----------
    start : the strategy to harden (a preset, ``FILE.toml:NAME`` or a Strategy).  Of a
        mixed strategy, the tuning starts from its likeliest component; with ``mix``, round 0
        exploits the mixture itself and its components join the population (hardening
        goes on from an earlier ``mix``), without, the likeliest component is hardened.
    config : the game (default: 4-player classic base game).
    rounds : tuning rounds (each followed by an exploit search); 0 only measures the start.
    exploit_family : the family (or families, comma-separated or a sequence) whose tuned
        strategies exploit it; every round searches one exploiter of each, from the
        family's preset; ``self`` searches the round's bot's own family from the bot (a
        mixture: from its likeliest component).
    extra : presets in every round's league beside the exploiters.
    budget, exploit_budget : games of each round's tuning and of each exploit search.
    seed : master seed of every search: the deals depend on it alone (not on the run's
        name), so every search plays the same sequence of deals; check a result on fresh
        deals with another seed.
    name : the deployed strategy's name and the runs' prefix (default ``hardened-START``,
        START the strategy round 0 searches against).
    validate_games : held-out games of every search's validation.
    until : stop before ``rounds`` once a round's strongest exploiter gains at most this
        many win-rate points over the fair share (None: play every round).
    mix : after each round's tuning, play every bot so far against every exploiter found
        (``mix_games`` deals per exploiter), mix the bots to concede least
        (:mod:`.population`), and search the round's exploiters against that mixture
        instead of the newest bot; the mixture of the least exploited round is deployed.
    confirm_rounds : give the exploit test (its three families, ``confirm_budget`` games a
        search, ``validate_games`` held-out games) to this many of the rounds whose searches
        gained least, on deals of ``confirm_seed`` (default: derived from ``seed``), and
        deploy the one it finds least exploited (:func:`confirm`); 0: deploy by the
        searches alone.
    workers, executor, client : where the games are played, as for :func:`.tune.tune`.
    """
    spec = start if isinstance(start, str) else start.name  # as given, for the command
    given = get(start)
    start = self_start(given)  # a tuning starts from a plain strategy
    config = config or GameConfig()
    if not isinstance(rounds, int) or rounds < 0:
        raise ConfigError(f"rounds must be a whole number of at least 0, got {rounds!r}.")
    if rounds > MAX_ROUNDS:
        raise ConfigError(f"rounds {rounds:,} is more than {MAX_ROUNDS} (each round tunes and "
                          f"searches anew: days of play); give at most {MAX_ROUNDS}.")
    if until is not None and (isinstance(until, bool) or not isinstance(until, (int, float))
                              or not -100 < until < 100):
        raise ConfigError(f"until must be a number of win-rate points between -100 and 100, "
                          f"got {until!r}.")
    if isinstance(mix_games, bool) or not isinstance(mix_games, int) or mix_games < 1:
        raise ConfigError(f"mix_games must be a positive number of games, got {mix_games!r}.")
    if isinstance(confirm_rounds, bool) or not isinstance(confirm_rounds, int) \
            or not 0 <= confirm_rounds <= MAX_ROUNDS + 1:
        raise ConfigError(f"confirm_rounds (--confirm) must be a whole number of rounds from 0 "
                          f"to {MAX_ROUNDS + 1}, got {confirm_rounds!r}.")
    if validate_games < 1:
        raise ConfigError("hardening reads every exploit from its held-out validation: "
                          f"validate_games must be positive, got {validate_games}.")
    extra = _strategies(extra)
    current = given if mix else start  # what round 0 searches against
    name = store.check_name(name or f"hardened-{current.name}", "hardened strategy name")
    families = list(search_names(exploit_family, start, "--exploit-family",
                                 DEFAULT_EXPLOIT_FAMILY))
    _check_budgets(start, config, rounds, families, len(extra), budget, exploit_budget)
    for search in DEFAULT_SEARCHES:  # refused even unused: a bad value is a mistake
        check_budget(confirm_budget, searched_family(start, search), config.players,
                     "confirm_budget (--confirm-budget)", "an exploit test's search")
    confirm_seed = derive_seed(seed, "confirm") if confirm_seed is None else confirm_seed
    executor = resolve(executor, client)
    common = dict(config=config, seed=seed, runs_dir=runs_dir, sprt=None,
                  validate_games=validate_games, workers=workers, progress=False,
                  executor=executor)
    exploiters, searches, tunings = [], [], []
    names = {f: f"{name}-exploit{{k}}" + (f"-{f}" if len(families) > 1 else "")
             for f in families}
    per_round = len(families) + 1
    running = [names[families[0]].format(k=0)]

    def kept() -> str:
        done = len(exploiters) + len(tunings)
        return (f"{done} of {per_round * rounds + len(families)} searches finished; "
                + checkpointed(Path(runs_dir) / running[0]))

    bar = tqdm(total=per_round * rounds + len(families), unit="search",
               desc=f"hardening {start.name}", disable=not progress)
    mixtures, populations = [], []

    def exploit(k: int) -> list[Tuning]:
        found = []
        for family in families:
            running[0] = names[family].format(k=k)
            ex = tune(searched_family(current, family), league=[current],
                      start=self_start(current) if family == SELF else None,
                      budget=exploit_budget, name=running[0], **common)
            found.append(ex)
            exploiters.append(ex.strategy)
            bar.update()
        searches.append(found)
        return found

    with store.on_interrupt(kept), bar:
        bots = [part for _, part in given.mixture] if mix and given.mixture else [start]
        for k in range(rounds + 1):
            found = exploit(k)
            if k == rounds or until is not None and _gain(found) <= until:
                break
            running[0] = f"{name}-round{k + 1}"
            t = tune(start.family, league=exploiters + extra,
                     start=tunings[-1].strategy if tunings else start, budget=budget,
                     copies=True, name=running[0], **common)
            tunings.append(t)
            bots.append(t.strategy)
            current = t.strategy
            bar.update()
            if mix:  # exploiters of the bots' own family may be mixed in as well
                rows = bots + [x for x in exploiters if x.family == start.family]
                pop = population.solve(rows, exploiters, config, mix_games, seed, executor,
                                       workers, Path(runs_dir) / f"{name}-payoffs.json")
                populations.append(pop)
                current = pop.strategy(f"{name}-mix{k + 1}", "a mixture of the hardening's "
                                       f"bots, the best against its {len(exploiters)} "
                                       "exploiters")
                mixtures.append(current)
    exploits = [max(found, key=lambda ex: ex.validation["tuned"]["share"])
                for found in searches]
    gains = [_gain(found) for found in searches]
    best = min(range(len(gains)), key=gains.__getitem__)
    settings = {"start": spec, "rounds": rounds, "until": until,
                "exploit_family": ",".join(families),
                "extra": [s.name for s in extra], "budget": budget,
                "exploit_budget": exploit_budget, "seed": seed, "name": name,
                "validate_games": validate_games, "mix": bool(mix), "mix_games": mix_games,
                "confirm_rounds": confirm_rounds, "confirm_budget": confirm_budget,
                "confirm_seed": confirm_seed}
    found = Hardening(start, config, exploits, tunings, settings, best, searches, mixtures,
                      populations).deploy(best)
    if not confirm_rounds:
        return found
    with store.on_interrupt(lambda: f"the hardening's searches are done; its exploit tests "
                            f"resume from {Path(runs_dir) / name}-confirm-round*"):
        tested = confirm(found, confirm_rounds, f"{name}-", budget=confirm_budget,
                         seed=confirm_seed, validate_games=validate_games, runs_dir=runs_dir,
                         workers=workers, progress=progress, executor=executor)
    if not tested:
        return found
    least = min(tested, key=lambda r: r["gain_points"])["round"]
    return replace(found.deploy(least, "the least exploited in the exploit test"),
                   confirmed=tested)
