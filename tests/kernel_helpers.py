"""Helpers for tests that put the numba kernel into an exact situation.

The kernel's functions are numba-compiled but callable from Python with the ``State`` and
``Tables`` named tuples (layout in :mod:`citadels_sim.kernel.layout`).  These helpers build
a game, then edit hands, cities, gold, the deck and the characters in play so that a test
can call one kernel function (``turn.play_turn``, ``districts.gather``, ``scoring.score_game``
...) and check the outcome.

Every card edit goes through the kernel's own primitives (``state.hand_add``, ``hand_take``,
``city_add``, ``city_take``, ``to_bottom``), so the ``P_KINDS`` counts, ``P_CITY_N``,
``P_HAND_N`` and the first-completer indices stay consistent.

The later sections hold what several rule test files (``tests/rules/``) share: the rank
indices, named character sets, a district deck with every district those tests play, the
draft, logged base and roster games, and a final position scored by the kernel and by
:mod:`independent_scoring`.
"""

from __future__ import annotations

import functools
import types
import weakref
from collections import Counter, namedtuple

import numpy as np

import independent_scoring as independent
from citadels_sim.game import cards, sampling, strategies
from citadels_sim.game.config import GameConfig
from citadels_sim.kernel import layout as L, log as klog, state as S
from citadels_sim.kernel.rng import seed_streams

#: face-up discards by (number of characters, players), docs/rules.md §1.2 (written out here
#: independently of citadels_sim.game.config)
RULES_FACE_UP = {8: {4: 2, 5: 1, 6: 0, 7: 0}, 9: {4: 3, 5: 2, 6: 1, 7: 0, 8: 0}}

BASE_RANK = {"assassin": 0, "thief": 1, "magician": 2, "king": 3, "bishop": 4, "merchant": 5,
             "architect": 6, "warlord": 7}
#: rank indices as the rule tests write them (0-based: rank 9 is index 8)
A, T, M, K, B, ME, AR, W, R9 = range(9)

_ALIASES = {"haunted_city": "haunted", "haunted_quarter": "haunted", "barracks": "battlefield"}


# ---- names --------------------------------------------------------------------------------
def kind(name) -> int:
    """District kind id from a printed name ("Thieves' Den"), a key ("thieves_den") or an id."""
    if isinstance(name, (int, np.integer)):
        return int(name)
    key = cards.key_of(name)
    return L.DISTRICT_KEYS.index(_ALIASES.get(key, key))


def kinds(names) -> list[int]:
    return [kind(n) for n in names]


def key(k: int) -> str:
    """Kernel key of a district kind id."""
    return L.DISTRICT_KEYS[int(k)]


def rank(name) -> int:
    """0-based rank index of a base character name (or an int passed through)."""
    if isinstance(name, (int, np.integer)):
        return int(name)
    return BASE_RANK[cards.key_of(name)]


# ---- strategies and tables ----------------------------------------------------------------
def strategy(spec):
    """A Strategy from a preset name, "preset:param=value" or a Strategy."""
    return strategies.get(spec)


def custom(family: str, base=None, **params):
    """A Strategy of ``family`` with explicit rank desires ``base`` and parameters."""
    base = tuple(float(x) for x in (base if base is not None else (1.0,) * 9))
    return strategies.Strategy(f"test-{family}", family, base,
                               {k: float(v) for k, v in params.items()})


def strategy_arrays(families, players):
    """family int32[8] and params float64[8, N_PARAMS] for the given strategy specs."""
    family = np.zeros(L.MAX_SEATS, np.int32)
    params = np.zeros((L.MAX_SEATS, L.N_PARAMS), np.float64)
    if families is None:
        families = ("heuristic",) * players
    if isinstance(families, (str, strategies.Strategy)):
        families = (families,) * players
    if len(families) != players:
        raise ValueError(f"{len(families)} strategies for {players} players")
    for s, spec in enumerate(families):
        strat = strategy(spec)
        family[s] = strat.family_id
        params[s] = strat.row()
    return family, params


def make_config(ruleset="classic", players=4, **kwargs) -> GameConfig:
    return GameConfig(ruleset=ruleset, players=players, **kwargs)


def make_tables(ruleset="classic", players=4, families=None, **cfg_kwargs):
    """(Tables, GameConfig) for a configuration and one strategy per seat."""
    cfg = make_config(ruleset, players, **cfg_kwargs)
    t = cfg.tables()
    family, params = strategy_arrays(families, players)
    t["cfg"][L.G_FAMILY:L.G_FAMILY + L.MAX_SEATS] = family
    tb = S.new_tables(t["kinds"], t["cfg"], params)
    return tb, cfg


def make_state(ruleset="classic", players=4, families=None, seed=0, game=0, log=False,
               **cfg_kwargs):
    """A freshly set-up game (shuffled deck, 4 cards and 2 gold each unless a house rule says otherwise): returns (st, tb).

    Extra keyword arguments go to GameConfig (``crown_seat``, ``quick``, ``max_rounds`` ...).
    """
    tb, _ = make_tables(ruleset, players, families, **cfg_kwargs)
    st = S.new_state(tb, seed, game, log)
    address = _address(st)

    def forget(ref):
        if _TABLES.get(address, (None,))[0] is ref:
            del _TABLES[address]

    # a weak reference: a state (about 9 MB with its log) is freed when its test drops it
    _TABLES[address] = (weakref.ref(st, forget), tb)
    return st, tb


_TABLES: dict = {}


def _address(st) -> int:
    return st.g.__array_interface__["data"][0]


def tables_of(st):
    """The Tables a state made by :func:`make_state` was set up with."""
    ref, tb = _TABLES[_address(st)]
    assert ref() is st, "tables_of: this state was not made by make_state"
    return tb


def set_strategy(st, tb, s, spec):
    """Give seat ``s`` another strategy (family and parameter row)."""
    strat = strategy(spec)
    tb.cfg[L.G_FAMILY + s] = strat.family_id
    st.g[L.G_FAMILY + s] = strat.family_id
    tb.params[s, 0] = strat.row()
    st.params[s] = strat.row()
    st.p[s, L.P_FAMILY] = strat.family_id


def reseed(st, seed, game=0):
    """Restart every random stream of the state (deck, draft, seats) from (seed, game)."""
    seed_streams(st, seed, game)


def copy_state(st):
    """A copy of ``st`` as the kernel reads it: every field, the event log up to its end."""
    out = S.new_record(L.STATE_DTYPE)
    for field in L.STATE_DTYPE.names:
        if field == "log":
            out.log[:st.g[L.G_LOG_N]] = st.log[:st.g[L.G_LOG_N]]
        else:
            out[field][...] = st[field]
    return out


def n_players(st) -> int:
    return int(st.g[L.G_NP])


# ---- gold ---------------------------------------------------------------------------------
def set_gold(st, s, n):
    """Set seat ``s``'s stash (the bank accounts absorb the difference)."""
    d = int(n) - int(st.p[s, L.P_GOLD])
    if d > 0:
        st.g[L.G_BANK_OUT] += d
    else:
        st.g[L.G_BANK_IN] -= d
    st.p[s, L.P_GOLD] = n


def gold(st, s) -> int:
    return int(st.p[s, L.P_GOLD])


# ---- deck ---------------------------------------------------------------------------------
def deck_list(st) -> list[int]:
    """Deck contents, top first."""
    head, n = int(st.g[L.G_DECK_HEAD]), int(st.g[L.G_DECK_N])
    return [int(st.deck[(head + i) % L.DECK_CAP]) for i in range(n)]


def set_deck(st, names):
    """Replace the deck by ``names`` (top first)."""
    st.deck[:L.DECK_CAP] = -1  # (the Museum pile beyond it stays)
    st.g[L.G_DECK_HEAD] = 0
    st.g[L.G_DECK_N] = 0
    for k in kinds(names):
        S.to_bottom(st, k)


def take_from_deck(st, k) -> bool:
    """Remove one copy of kind ``k`` from the deck (order of the others kept)."""
    cards_ = deck_list(st)
    if k not in cards_:
        return False
    cards_.remove(k)
    set_deck(st, cards_)
    return True


# ---- hands --------------------------------------------------------------------------------
def hand_list(st, s) -> list[int]:
    return [int(x) for x in st.hand[s, :st.p[s, L.P_HAND_N]]]


def clear_hand(st, s, to_deck=True) -> list[int]:
    """Empty seat ``s``'s hand; the cards go to the bottom of the deck unless ``to_deck`` is
    False."""
    out = []
    while st.p[s, L.P_HAND_N] > 0:
        card = int(S.hand_take(st, s, st.p[s, L.P_HAND_N] - 1))
        out.append(card)
        if to_deck:
            S.to_bottom(st, card)
    return out


def set_hand(st, s, names, from_deck=False, to_deck=True):
    """Give seat ``s`` exactly the cards ``names`` (old hand to the deck bottom by default).

    With ``from_deck`` each card is taken out of the deck when a copy is there, which keeps
    the number of cards in the game constant.
    """
    clear_hand(st, s, to_deck=to_deck)
    for k in kinds(names):
        if from_deck:
            take_from_deck(st, k)
        S.hand_add(st, s, k)


# ---- cities -------------------------------------------------------------------------------
def city_list(st, s) -> list[int]:
    return [int(x) for x in st.city[s, :st.p[s, L.P_CITY_N]]]


def clear_city(st, s, to_deck=False) -> list[int]:
    out = []
    while st.p[s, L.P_CITY_N] > 0:
        card = int(S.city_take(st, tables_of(st), s, st.p[s, L.P_CITY_N] - 1))
        out.append(card)
        if to_deck:
            S.to_bottom(st, card)
    return out


def add_city(st, s, names, rnd=0):
    """Build ``names`` into seat ``s``'s city (no payment), as if by ``s`` in round ``rnd``."""
    for k in kinds(names):
        S.city_add(st, tables_of(st), s, k, rnd | (s << L.BUILDER_SHIFT))


def set_city(st, s, names, rnd=0):
    """Replace seat ``s``'s city by ``names`` (each recorded as built in round ``rnd``)."""
    clear_city(st, s)
    add_city(st, s, names, rnd)


def beautified(st, s) -> np.ndarray:
    """Per city slot of seat ``s`` (all CITY_CAP of them), 1 where the district is
    beautified; slots beyond the city are 0."""
    flags = (st.city_round[s].astype(np.int64) & L.BEAUTIFIED) // L.BEAUTIFIED
    flags[int(st.p[s, L.P_CITY_N]):] = 0
    return flags


def beautify(st, s, slots):
    """Mark the given city slots of seat ``s`` as beautified (no gold moves; the city's
    value rises by 1 each, as the Artist's does)."""
    for i in slots:
        if not st.city_round[s, i] & L.BEAUTIFIED:
            st.city_round[s, i] |= L.BEAUTIFIED
            st.p[s, L.P_CITY_VALUE] += 1


def pile(st) -> list[int]:
    """The cards under the Museum."""
    return [int(x) for x in st.deck[L.DECK_CAP:L.DECK_CAP + st.g[L.G_PILE_N]]]


def kinds_consistent(st) -> bool:
    """The ``P_KINDS`` counts and the city's value ``P_CITY_VALUE`` agree with the city
    arrays for every seat."""
    cost = {d.kind: d.cost for d in cards.districts(L.RULESET_NAMES[int(st.g[L.G_RULESET])])}
    for s in range(n_players(st)):
        counts = np.bincount(np.asarray(city_list(st, s), np.int64), minlength=L.N_KINDS)
        recorded = st.p[s, L.P_KINDS:L.P_KINDS + L.N_KINDS].astype(np.int64)
        if not np.array_equal(counts[:L.N_KINDS], recorded):
            return False
        value = sum(cost[k] for k in city_list(st, s)) + int(
            beautified(st, s).sum())
        if st.p[s, L.P_CITY_VALUE] != value:
            return False
    return True


def total_cards(st) -> int:
    """Cards in the deck, hands, cities and under the Museum."""
    n = n_players(st)
    return int(st.g[L.G_DECK_N] + st.p[:n, L.P_HAND_N].sum() + st.p[:n, L.P_CITY_N].sum()
               + st.g[L.G_PILE_N])


# ---- characters ---------------------------------------------------------------------------
def set_holders(st, mapping):
    """Set the characters in play: ``mapping`` {rank (index or name): seat}; the rest unheld."""
    st.g[L.G_HOLDER:L.G_HOLDER + L.MAX_RANKS] = -1
    for r, s in mapping.items():
        st.g[L.G_HOLDER + rank(r)] = s


def start_round(st, rnd=None):
    """Clear the round's states (as the kernel's start of round does) and reset reveals."""
    if rnd is not None:
        st.g[L.G_ROUND] = rnd
    S.clear_round(st)


def kill(st, r):
    st.g[L.G_KILLED] = rank(r)


def rob(st, r, robber):
    st.g[L.G_ROBBED] = rank(r)
    st.g[L.G_ROBBER] = robber


def only_target(st, target, actor_rank=None):
    """Mark every rank but ``target`` (and ``actor_rank``) face up, so that a non-random
    strategy's Assassin or Thief can only name ``target`` (face-up ranks are its last resort)."""
    m = ((1 << int(st.g[L.G_NRANKS])) - 1) & ~(1 << rank(target))
    if actor_rank is not None:
        m &= ~(1 << rank(actor_rank))
    st.g[L.G_FACEUP] = m


def set_faceup_count(st):
    """Write the docs/rules.md §1.2 number of face-up discards into ``g[G_N_FACEUP]``."""
    st.g[L.G_N_FACEUP] = RULES_FACE_UP.get(int(st.g[L.G_NRANKS]), {}).get(n_players(st), 0)


# ---- event log ----------------------------------------------------------------------------
EVENT_NAMES = tuple(e[0] for e in klog.EVENTS)
EV = {name: i for i, name in enumerate(EVENT_NAMES)}
Event = namedtuple("Event", ["type", "round", "seat", "rank", "a", "b", "c", "d", "crown",
                             "deck_n", "gold", "hand_n", "city_n", "row"])


def city_at(e, s) -> list[int]:
    """Seat ``s``'s city (district kinds) in the snapshot taken after event ``e``."""
    base = L.L_CITY + s * L.CITY_CAP
    return [int(k) for k in e.row[base:base + e.city_n[s]]]


def events(st_or_rows, players=None):
    """The logged events as ``Event`` tuples (``type`` is the event name)."""
    if isinstance(st_or_rows, np.record):
        rows = st_or_rows.log[:st_or_rows.g[L.G_LOG_N]]
        small = rows.astype(np.int16)  # half the memory of the games cached below
        rows = small if np.array_equal(small, rows) else rows.copy()
        players = n_players(st_or_rows)
    else:
        rows = st_or_rows
        players = players or L.MAX_SEATS
    out = []
    for row, v in zip(rows, rows.tolist()):  # v: the row as Python ints
        out.append(Event(EVENT_NAMES[v[L.L_TYPE]], v[L.L_ROUND], v[L.L_SEAT], v[L.L_RANK],
                         v[L.L_A], v[L.L_B], v[L.L_C], v[L.L_D], v[L.L_CROWN], v[L.L_DECK_N],
                         tuple(v[L.L_GOLD:L.L_GOLD + players]),
                         tuple(v[L.L_HAND_N:L.L_HAND_N + players]),
                         tuple(v[L.L_CITY_N:L.L_CITY_N + players]), row))
    return out


def clear_log(st):
    st.g[L.G_LOG_N] = 0


def of_type(evs, *names):
    return [e for e in evs if e.type in names]


def turns(evs):
    """Split events into turns: lists that start with a 'call' event and run up to the next
    call, skip, heir or round end."""
    out, cur = [], None
    for e in evs:
        if e.type == "call":
            cur = [e]
            out.append(cur)
        elif e.type in ("skip_killed", "round_end", "heir", "game_end", "discard_face_up",
                        "discard_face_down", "pick", "setup"):
            cur = None
        elif cur is not None:
            cur.append(e)
    return out


def rounds(evs):
    """Events grouped by round number (dict round -> list)."""
    out: dict[int, list] = {}
    for e in evs:
        out.setdefault(e.round, []).append(e)
    return out


# ---- whole games --------------------------------------------------------------------------
def play_game(st, tb):
    """Play the game in ``st`` to its end with the kernel (scores in P_SCORE / P_PLACE)."""
    from citadels_sim.kernel import game
    held = np.zeros((L.MAX_SEATS, L.MAX_RANKS), np.int16)
    records = np.zeros((L.MAX_SEATS, L.MAX_RANKS, L.C_LEN), np.int32)
    game.play_game(st, tb, held, records, np.zeros((0, L.MAX_RANKS, 2), np.int8))
    return st


def logged_game(tb, seed, game=0):
    """Play one logged game with ``run.run_logged``: returns the list of events."""
    from citadels_sim.kernel import run
    rows, _, _ = run.run_logged(tb, seed, game)
    return events(rows, int(tb.cfg[L.G_NP]))


# ---- exact situations shared by the rule tests ------------------------------------------
def cset(ruleset, *names):
    """The base eight with ``names`` swapped in at their ranks (a rank-9 name is appended)."""
    from citadels_sim.game.config import BASE_CHARACTERS
    ranks = {c.name: c.rank for c in cards.characters(ruleset)}
    out = list(BASE_CHARACTERS)
    extra = None
    for n in names:
        if ranks[n] == 9:
            extra = n
        else:
            out[ranks[n] - 1] = n
    return tuple(out) + ((extra,) if extra else ())


def empty_state(ruleset="classic", players=4, families="builder", chars=None, seed=0, log=True,
                **kw):
    """A state with every hand and city empty and 0 gold, for an exact situation."""
    fams = (families,) * players if isinstance(families, (str, strategies.Strategy)) \
        else families
    if chars is not None:
        kw["characters"] = chars
    st, tb = make_state(ruleset, players, fams, seed=seed, log=log, **kw)
    for s in range(players):
        clear_hand(st, s)
        set_gold(st, s, 0)
    st.g[L.G_ROUND] = 1
    return st, tb


def play_turn_events(st, tb, rank, seat):
    """Play one turn with a fresh log; returns its events."""
    from citadels_sim.kernel import turn
    clear_log(st)
    turn.play_turn(st, tb, rank, seat)
    return events(st)


def types_in(evs):
    return [e.type for e in evs]


def tax_pile(st) -> int:
    return int(st.g[L.G_TAX_PILE])


def gold_conserved(st) -> bool:
    """Stashes + tax pile = the starting gold (2 each by the rules) + what the bank paid
    out - what it received."""
    n = n_players(st)
    return (int(st.p[:n, L.P_GOLD].sum()) + tax_pile(st)
            == int(st.g[L.G_START_GOLD]) * n + int(st.g[L.G_BANK_OUT]) - int(st.g[L.G_BANK_IN]))


def golds(st):
    return [gold(st, s) for s in range(n_players(st))]


FAMILIES = ("random", "builder", "aggressive", "heuristic")


def finished(st):
    """A finished game's state without its event log (about 9 MB of the record), for the
    cached games below: its fields read from Python as the record's do."""
    return types.SimpleNamespace(**{f: np.array(getattr(st, f)) for f in L.STATE_DTYPE.names
                                    if f != "log"})


@functools.cache
def played_games(ruleset, players, chars, seed, games):
    """``games`` logged whole games with the four strategy families rotated over the seats,
    as a tuple of (events, state, tables); cached per arguments."""
    out = []
    for g in range(games):
        fams = tuple(FAMILIES[(i + g) % 4] for i in range(players))
        st, tb = make_state(ruleset, players, fams, seed=seed, game=g, log=True,
                            characters=chars)
        play_game(st, tb)
        assert st.g[L.G_LOG_N] < L.LOG_CAP, "log overflow"
        out.append((events(st), finished(st), tb))
    return tuple(out)


def keys(kinds) -> list[str]:
    """Kernel keys of district kinds, in their order."""
    return [key(k) for k in kinds]


def sorted_keys(kinds) -> list[str]:
    return sorted(key(k) for k in kinds)


def city_keys(st, s) -> list[str]:
    """Seat ``s``'s city as sorted kernel keys."""
    return sorted_keys(city_list(st, s))


def hand_keys(st, s) -> list[str]:
    """Seat ``s``'s hand as sorted kernel keys."""
    return sorted_keys(hand_list(st, s))


def cost(tb, name) -> int:
    """The printed cost of a district."""
    return int(tb.kinds[L.K_COST, kind(name)])


def reseeded(st0, seed):
    """A copy of ``st0`` with every random stream restarted from ``seed``."""
    st = copy_state(st0)
    reseed(st, seed)
    return st


GATHERS = ("gather_gold", "gather_cards")


def destroy_targets(st0, tb, warlord_seat, tries=60):
    """(target seat, district kind) destroyed by a Warlord over many random seeds."""
    from citadels_sim.kernel import characters
    out = Counter()
    for seed in range(tries):
        st = copy_state(st0)
        reseed(st, seed)
        clear_log(st)
        characters.end_of_turn(st, tb, L.CH_WARLORD, warlord_seat, W)
        for e in events(st):
            if e.type == "destroy":
                out[(e.a, e.b)] += 1
    return out


# ---- named character sets of the rule tests ----------------------------------------------
C_QUEEN = cset("classic", "Queen")
C_ABBOT = cset("classic", "Abbot")
C_ALCHEMIST = cset("classic", "Alchemist")
C_NAVIGATOR = cset("classic", "Navigator")
C_TC = cset("classic", "Tax Collector")
P_TC = cset("2016", "Tax Collector")
P_QUEEN = cset("2016", "Queen")
P_PATRICIAN = cset("2016", "Patrician")
P_ABBOT = cset("2016", "Abbot")
P_ALCHEMIST_TC = cset("2016", "Alchemist", "Tax Collector")
P_TRADER = cset("2016", "Trader")
P_NAVIGATOR = cset("2016", "Navigator")
P_SCHOLAR = cset("2016", "Scholar")
P_NOBLES_TC = cset("2016", "Patrician", "Trader", "Tax Collector")


# ---- a district deck holding every district the district tests play -----------------------
#: 14 unique districts holding every 2016 district these tests play
P14 = ["Armory", "Museum", "Framework", "Necropolis", "Stables", "Theater", "Quarry",
       "Monument", "Keep", "Great Wall", "Thieves' Den", "Library", "Dragon Gate", "Gold Mine"]
#: classic bonus purples these tests play (k = 6: three base purple cards out, the Graveyard
#: among them so that the Diplomat may be in the set)
C_BONUS = ("Lighthouse", "Armory", "Museum", "Bell Tower", "Hospital", "Throne Room")
C_REMOVED = ("Graveyard", "Dragon Gate", "University")


def deck_kw(ruleset):
    """The district deck holding every district of these tests."""
    if ruleset == "classic":
        return {"districts": C_BONUS, "removed": C_REMOVED}
    return {"districts": P14}


def rsetup(ruleset, players=4, families="builder", chars=None, **kw):
    """:func:`empty_state` with the district deck of :func:`deck_kw`."""
    return empty_state(ruleset, players, families, chars, **deck_kw(ruleset), **kw)


def put_city(st, s, names):
    """``set_city`` taking each district out of the deck when a copy is there, so that the
    number of cards in the game stays the deck's."""
    for k in kinds(names):
        take_from_deck(st, k)
    set_city(st, s, names)


# ---- the draft ------------------------------------------------------------------------------
def draft_once(st, tb):
    """One selection phase on a fresh round, with a fresh log."""
    from citadels_sim.kernel import draft
    start_round(st)
    clear_log(st)
    draft.draft(st, tb)


def draft_events(st):
    return [e for e in events(st) if e.type in ("pick", "discard_face_down", "discard_face_up")]


def king_lovers(players):
    """``players`` strategies that always pick the rank-4 card."""
    return (custom("builder", base=[0, 0, 0, 1000, 0, 0, 0, 0, 0]),) * players


# ---- logged whole games the rule tests check ------------------------------------------------
#: base-game configurations (the 8 base characters, the default districts)
BASE_GAME_CONFIGS = ([("classic", n) for n in range(2, 8)]
                     + [("2016", n) for n in (2, 4, 5, 6, 7)]
                     + [("four_color", n) for n in range(2, 8)])
BASE_GAMES_PER_CONFIG = 8


def lineup(players, shift=0):
    """The four strategy families over the seats, rotated by ``shift``."""
    return tuple(FAMILIES[(i + shift) % 4] for i in range(players))


@functools.lru_cache(maxsize=None)
def base_games(ruleset, players, games=BASE_GAMES_PER_CONFIG):
    """Played base games with their event logs: list of (events, final state, tables)."""
    out = []
    for g in range(games):
        st, tb = make_state(ruleset, players, lineup(players, g), seed=20240, game=g, log=True)
        play_game(st, tb)
        assert st.g[L.G_LOG_N] < L.LOG_CAP, "log overflow"
        out.append((events(st), finished(st), tb))
    return out


def all_base_games():
    """(ruleset, players, events, state, tables) for every game of every BASE_GAME_CONFIGS."""
    for ruleset, players in BASE_GAME_CONFIGS:
        for evs, st, tb in base_games(ruleset, players):
            yield ruleset, players, evs, st, tb


def draft_rounds(evs):
    """Per round: (picks [(seat, rank)], face-up ranks, face-down ranks, crown at the draft)."""
    out = []
    for rnd, es in sorted(rounds(evs).items()):
        if rnd == 0:
            continue
        picks = [(e.seat, e.a) for e in es if e.type == "pick"]
        up = [e.a for e in es if e.type == "discard_face_up"]
        down = [e.a for e in es if e.type == "discard_face_down"]
        crown = next(e.crown for e in es if e.type in ("pick", "discard_face_up",
                                                       "discard_face_down"))
        out.append((rnd, es, picks, up, down, crown))
    return out


#: roster configurations (characters beyond the base eight) whose played games are checked
ROSTER_GAME_CONFIGS = [
    ("2016", 3, P_ALCHEMIST_TC),
    ("2016", 3, P_NOBLES_TC),
    ("2016", 4, P_TC),
    ("2016", 5, cset("2016", "Patrician", "Abbot", "Trader", "Scholar", "Tax Collector")),
    ("2016", 8, cset("2016", "Abbot", "Alchemist", "Navigator", "Queen")),
    ("2016", 6, cset("2016", "Patrician", "Abbot", "Trader", "Navigator", "Queen")),
    ("classic", 8, cset("classic", "Abbot", "Alchemist", "Navigator", "Queen")),
    ("classic", 5, C_QUEEN),
]


def roster_games(ruleset, players, chars):
    """Played, logged games of a roster configuration: list of (events, state, tables)."""
    return list(played_games(ruleset, players, tuple(chars), 9090, 6))


# ---- scoring a final position ---------------------------------------------------------------
def kernel_scores(ruleset, players, cities, gold=None, hands=None, crown=0, first=-1, rnd=5,
                  revealed=None):
    """Score a finished position with the kernel; cities are lists of names."""
    from citadels_sim.kernel import scoring
    st, tb = empty_state(ruleset, players, "builder")
    st.g[L.G_ROUND] = rnd
    for s, city in enumerate(cities):
        set_city(st, s, city, rnd=1)
        set_gold(st, s, (gold or [0] * players)[s])
        set_hand(st, s, ["Temple"] * (hands or [0] * players)[s], to_deck=False)
        st.p[s, L.P_REVEALED] = (revealed or [0] * players)[s]
    st.g[L.G_CROWN] = crown
    st.g[L.G_FIRST] = first
    scoring.score_game(st, tb)
    return ([int(x) for x in st.p[:players, L.P_SCORE]],
            [int(x) for x in st.p[:players, L.P_PLACE]], st)


def independent_scores(ruleset, cities, gold=None, hands=None, crown=0, first=-1, n=None,
                       revealed=None):
    """The same position scored by :mod:`independent_scoring`."""
    players = len(cities)
    n = n or GameConfig(ruleset=ruleset, players=players).complete_size
    seats = [independent.Seat(list(c), gold=(gold or [0] * players)[s],
                              hand=(hands or [0] * players)[s],
                              revealed=(revealed or [0] * players)[s])
             for s, c in enumerate(cities)]
    return independent.score(ruleset, seats, crown, first, n)


# ---- random valid configurations ---------------------------------------------------------
def random_configs(seed: int, n: int) -> list:
    """``n`` valid random configurations (:func:`sampling.random_config`), each with a random
    strategy family per seat: a list of (config, line-up)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        config = sampling.random_config(rng)
        if config is not None:
            out.append((config, [FAMILIES[int(k)] for k in rng.integers(0, 4, config.players)]))
    return out
