"""Game state: allocation, set-up and the primitive moves of cards and gold.

Every card movement in the kernel goes through the functions here (draw, bottom, hand and
city edits), which keeps the conservation of cards easy to check.  See
:mod:`citadels_sim.kernel.layout` for what each array holds.
"""

import mmap

import numpy as np

from .jit import hot
from .layout import (BEAUTIFIED, BUILDER_SHIFT, CH_ARCHITECT, CH_NAVIGATOR, CH_SCHOLAR, CH_SEER,
                     DECK_CAP, D_MONUMENT, G_ARCHITECT_BUILDS, G_BANK_IN, G_BANK_OUT, G_BEWITCHED,
                     G_BLACKMAILER, G_BUILD_LIMIT, G_CFG_LEN, G_CROWN, G_DECK_HEAD, G_DECK_N,
                     G_EVENT, G_FACEUP, G_FAMILY, G_FIRST, G_HOLDER, G_KILLED, G_LOG_N, G_LOG_ON,
                     G_MAGISTRATE, G_NP, G_NRANKS, G_N_FULL, G_PICKS, G_PILE_N, G_RANK1_BUILT,
                     G_RANK_CHAR, G_ROBBED, G_ROBBER, G_SCHOLAR_BUILDS, G_SEER_BUILDS,
                     G_START_CARDS, G_START_GOLD, G_TAXER, G_THREAT, G_THREATS, G_TURN_RANK,
                     G_WARRANT, G_WARRANTS, G_WITCH, G_WITCH_RANK, K_COST, K_COUNT, K_TYPE,
                     MAX_MIX, MAX_RANKS, MAX_SEATS, N_PARAMS, P_AT_BELL, P_AT_FULL, P_CITY_N,
                     P_CITY_VALUE, P_DOWN, P_FAMILY, P_GOLD, P_HAND_N, P_KINDS, P_OFFER,
                     P_REVEALED, P_STEP, P_TYPES,
                     RNG_DECK, RNG_DRAFT, RNG_MIX, ROUND_MASK, STATE_DTYPE, TABLES_DTYPE)
from .rng import below, seed_streams


def new_record(dtype: np.dtype):
    """A zeroed record of ``dtype`` (a ``STATE_DTYPE``) whose fields read
    as attributes from Python (``st.g``), as in compiled code.  Its memory is mapped from the
    system as zero pages, touched only where written: a ``State``'s event log (9 MB) costs
    nothing until a game is logged (``np.zeros`` cleared it: 0.33 ms a record)."""
    return np.frombuffer(mmap.mmap(-1, dtype.itemsize), dtype).view(np.recarray)[0]


def new_state(tb, seed: int, game: int, log_on: bool):
    """A fresh ``State`` record set up for game ``game`` of a run (from Python)."""
    st = new_record(STATE_DTYPE)
    setup_game(st, tb, seed, game, log_on)
    return st


def new_tables(kinds: np.ndarray, cfg: np.ndarray, params: np.ndarray,
               mix: np.ndarray | None = None):
    """A ``Tables`` record holding the district kinds, configuration and strategy
    parameters (copied): ``params`` one row per seat, or (with ``mix``, each seat's
    components' cumulative chances) ``MAX_MIX`` rows per seat."""
    # 30 KB, zeroed and filled field by field: 6 us, where a mapped record (new_record)
    # filled by attribute took 56 us, a tenth of a search's small table of games
    tb = np.zeros((), TABLES_DTYPE)
    tb["kinds"], tb["cfg"] = kinds, cfg
    if mix is None:
        tb["params"][:, 0] = params
        tb["mix"][:, 0] = 1.0
    else:
        tb["params"], tb["mix"] = params, mix
    return tb.view(np.recarray)[()]


def new_states(n: int) -> np.ndarray:
    """``n`` uninitialised ``State`` records (scratch for one thread each)."""
    return np.empty(n, STATE_DTYPE)


@hot
def rank_build_limits(st):
    """Each rank's build limit (docs/rules.md §2.5.1), where no card variant set one: the
    Architect's, the Scholar's and the Seer's (house rules may change them), the Navigator
    none, every other character 1."""
    g = st.g
    for r in range(g[G_NRANKS]):
        if g[G_BUILD_LIMIT + r] < 0:
            ch = g[G_RANK_CHAR + r]
            n = 1
            if ch == CH_ARCHITECT:
                n = g[G_ARCHITECT_BUILDS]
            elif ch == CH_SEER:
                n = g[G_SEER_BUILDS]
            elif ch == CH_SCHOLAR:
                n = g[G_SCHOLAR_BUILDS]
            elif ch == CH_NAVIGATOR:
                n = 0
            g[G_BUILD_LIMIT + r] = n


@hot
def setup_game(st, tb, seed, game, log_on):
    """Reset ``st`` to the start of game ``game`` of a run: configuration copied from ``tb``,
    the deck shuffled, each seat's starting cards and gold (4 and 2 by the rules).  The log's
    rows are not cleared (only the first ``g[G_LOG_N]`` are ever read)."""
    g = st.g
    g[:] = 0
    for i in range(G_CFG_LEN):
        g[i] = tb.cfg[i]
    rank_build_limits(st)
    st.p[:, :] = 0
    st.hand[:, :] = 0
    st.city[:, :] = -1
    st.city_round[:, :] = 0
    st.deck[:] = -1
    seed_streams(st, seed, game)
    g[G_LOG_ON] = 1 if log_on else 0
    g[G_LOG_N] = 0
    clear_round(st)
    g[G_TURN_RANK] = -1
    g[G_FIRST] = -1
    # the deck, shuffled (Fisher-Yates on the deck stream)
    n = 0
    for kind in range(tb.kinds.shape[1]):
        for _ in range(tb.kinds[K_COUNT, kind]):
            st.deck[n] = kind
            n += 1
    for i in range(n - 1, 0, -1):
        j = below(st, RNG_DECK, i + 1)
        t = st.deck[i]
        st.deck[i] = st.deck[j]
        st.deck[j] = t
    g[G_DECK_HEAD] = 0
    g[G_DECK_N] = n
    np_ = g[G_NP]
    for s in range(np_):
        _choose_params(st, tb, s)
        st.p[s, P_FAMILY] = g[G_FAMILY + s]
        st.p[s, P_GOLD] = g[G_START_GOLD]
        st.p[s, P_AT_BELL] = -1
        st.p[s, P_AT_FULL] = -1
        for _ in range(g[G_START_CARDS]):
            hand_add(st, s, draw(st))
    if g[G_CROWN] < 0:
        g[G_CROWN] = below(st, RNG_DRAFT, np_)


@hot
def _choose_params(st, tb, s):
    """Seat ``s``'s parameters this game: its strategy's row, or for a mixed strategy a
    component drawn by the chances ``tb.mix[s]`` (stream RNG_MIX, drawn only then)."""
    k = 0
    if tb.mix[s, 0] < 1.0:
        u = below(st, RNG_MIX, 1 << 30) / (1 << 30)
        while k < MAX_MIX - 1 and u >= tb.mix[s, k]:
            k += 1
    for i in range(N_PARAMS):
        st.params[s, i] = tb.params[s, k, i]


@hot
def clear_round(st):
    """Forget the previous round's characters and markers (holders, kill, theft, Witch,
    warrants, threats, the classic tax collector, face-up discards, reveals, what each seat
    saw in the draft)."""
    g = st.g
    for i in (G_KILLED, G_ROBBED, G_ROBBER, G_TAXER, G_BEWITCHED, G_WITCH, G_WITCH_RANK,
              G_WARRANT, G_MAGISTRATE, G_THREAT, G_BLACKMAILER):
        g[i] = -1
    g[G_FACEUP] = 0
    g[G_WARRANTS] = 0
    g[G_THREATS] = 0
    g[G_RANK1_BUILT] = 0
    g[G_HOLDER:G_HOLDER + MAX_RANKS] = -1
    g[G_PICKS] = 0
    for s in range(g[G_NP]):
        st.p[s, P_REVEALED] = 0
        st.p[s, P_OFFER] = 0
        st.p[s, P_OFFER + 1] = 0
        st.p[s, P_STEP] = -1
        st.p[s, P_STEP + 1] = -1
        st.p[s, P_DOWN] = 0


@hot
def own_ranks(st, s):
    """Bitmask of the ranks seat ``s`` holds this round."""
    m = 0
    for r in range(st.g[G_NRANKS]):
        if st.g[G_HOLDER + r] == s:
            m |= 1 << r
    return m


# ---- deck ---------------------------------------------------------------------------
@hot
def draw(st):
    """Take the top card of the deck (-1 if the deck is empty)."""
    g = st.g
    if g[G_DECK_N] == 0:
        return -1
    card = st.deck[g[G_DECK_HEAD]]
    st.deck[g[G_DECK_HEAD]] = -1
    g[G_DECK_HEAD] = (g[G_DECK_HEAD] + 1) % DECK_CAP
    g[G_DECK_N] -= 1
    return card


@hot
def to_bottom(st, card):
    """Put a card face down at the bottom of the deck."""
    g = st.g
    st.deck[(g[G_DECK_HEAD] + g[G_DECK_N]) % DECK_CAP] = card
    g[G_DECK_N] += 1


# ---- gold ---------------------------------------------------------------------------
@hot
def gain(st, s, n):
    """Seat ``s`` takes ``n`` gold from the bank."""
    st.p[s, P_GOLD] += n
    st.g[G_BANK_OUT] += n


@hot
def pay(st, s, n):
    """Seat ``s`` pays ``n`` gold to the bank (the caller checks he has it)."""
    st.p[s, P_GOLD] -= n
    st.g[G_BANK_IN] += n


@hot
def transfer(st, src, dst, n):
    """Move ``n`` gold from seat ``src``'s stash to seat ``dst``'s."""
    st.p[src, P_GOLD] -= n
    st.p[dst, P_GOLD] += n


# ---- hands --------------------------------------------------------------------------
@hot
def hand_add(st, s, card):
    st.hand[s, st.p[s, P_HAND_N]] = card
    st.p[s, P_HAND_N] += 1


@hot
def hand_take(st, s, i):
    """Remove and return the card at position ``i`` of seat ``s``'s hand."""
    n = st.p[s, P_HAND_N] - 1
    card = st.hand[s, i]
    st.hand[s, i] = st.hand[s, n]
    st.p[s, P_HAND_N] = n
    return card


@hot
def shuffle_deck(st):
    """Shuffle the deck in place (deck stream)."""
    g = st.g
    n = g[G_DECK_N]
    head = g[G_DECK_HEAD]
    for i in range(n - 1, 0, -1):
        j = below(st, RNG_DECK, i + 1)
        a = (head + i) % DECK_CAP
        b = (head + j) % DECK_CAP
        t = st.deck[a]
        st.deck[a] = st.deck[b]
        st.deck[b] = t


@hot
def gain_cards(st, s, n):
    """Seat ``s`` gains up to ``n`` cards from the top of the deck; returns how many."""
    got = 0
    for _ in range(n):
        card = draw(st)
        if card < 0:
            break
        hand_add(st, s, card)
        got += 1
    return got


# ---- cities -------------------------------------------------------------------------
@hot
def has(st, s, kind):
    """Is district ``kind`` in seat ``s``'s city?"""
    return st.p[s, P_KINDS + kind] > 0


@hot
def city_size(st, s):
    """Size toward completion: districts, +1 for the Monument (2016)."""
    return st.p[s, P_CITY_N] + (1 if st.p[s, P_KINDS + D_MONUMENT] > 0 else 0)


@hot
def _track_size(st, s):
    """Record the event index at which the city last reached 7 (an announced Bell Tower's
    N) and the configured N (D25)."""
    g = st.g
    g[G_EVENT] += 1
    size = city_size(st, s)
    if size < 7:
        st.p[s, P_AT_BELL] = -1
    elif st.p[s, P_AT_BELL] < 0:
        st.p[s, P_AT_BELL] = g[G_EVENT]
    if size < g[G_N_FULL]:
        st.p[s, P_AT_FULL] = -1
    elif st.p[s, P_AT_FULL] < 0:
        st.p[s, P_AT_FULL] = g[G_EVENT]


@hot
def city_add(st, tb, s, kind, info):
    """Put district ``kind`` into seat ``s``'s city with its ``city_round`` entry ``info``
    (``round | seat << BUILDER_SHIFT`` for a build)."""
    n = st.p[s, P_CITY_N]
    st.city[s, n] = kind
    st.city_round[s, n] = info
    st.p[s, P_CITY_N] = n + 1
    _count_kind(st, tb, s, kind, 1, info)
    _track_size(st, s)


@hot
def city_take(st, tb, s, i):
    """Remove and return the district at position ``i`` of seat ``s``'s city."""
    n = st.p[s, P_CITY_N] - 1
    kind = st.city[s, i]
    info = st.city_round[s, i]
    st.city[s, i] = st.city[s, n]
    st.city_round[s, i] = st.city_round[s, n]
    st.city[s, n] = -1
    st.p[s, P_CITY_N] = n
    _count_kind(st, tb, s, kind, -1, info)
    _track_size(st, s)
    return kind


@hot
def city_move(st, tb, src, i, dst):
    """Move district ``i`` of ``src``'s city into ``dst``'s, keeping the round it was built
    in and its beautification (Marshal; D21).  Returns its kind."""
    info = st.city_round[src, i]
    kind = city_take(st, tb, src, i)
    city_add(st, tb, dst, kind, info)
    return kind


@hot
def _count_kind(st, tb, s, kind, n, info):
    """Add ``n`` (+1 or -1) to seat ``s``'s counts of district ``kind`` and of its type, and
    its worth (cost, +1 if ``info`` says beautified) to his city's value."""
    st.p[s, P_KINDS + kind] += n
    st.p[s, P_TYPES + tb.kinds[K_TYPE, kind]] += n
    st.p[s, P_CITY_VALUE] += n * (tb.kinds[K_COST, kind] + (1 if info & BEAUTIFIED else 0))


@hot
def city_swap(st, tb, a, i, b, j):
    """Exchange district ``i`` of ``a``'s city with district ``j`` of ``b``'s, each keeping
    its round and beautification (Diplomat, D21).  One move, not a removal and an addition:
    a city that stays at its size keeps the moment it reached 7 or 8 (D25); only a size
    change (the 2016 Monument counts 2) is tracked.  Returns (a's old kind, b's old kind)."""
    ka, kb = st.city[a, i], st.city[b, j]
    ra, rb = st.city_round[a, i], st.city_round[b, j]
    st.city[a, i], st.city_round[a, i] = kb, rb
    st.city[b, j], st.city_round[b, j] = ka, ra
    _count_kind(st, tb, a, ka, -1, ra)
    _count_kind(st, tb, a, kb, 1, rb)
    _count_kind(st, tb, b, kb, -1, rb)
    _count_kind(st, tb, b, ka, 1, ra)
    _track_size(st, a)
    _track_size(st, b)
    return ka, kb


@hot
def beautified(st, s, i):
    """1 if district ``i`` of seat ``s``'s city is beautified, else 0."""
    return 1 if st.city_round[s, i] & BEAUTIFIED else 0


@hot
def built_round(st, s, i):
    """Round in which district ``i`` of seat ``s``'s city was built."""
    return st.city_round[s, i] & ROUND_MASK


@hot
def built_by(st, s, i):
    """The seat that built district ``i`` of seat ``s``'s city (it may since have changed
    city: Diplomat, Marshal)."""
    return (st.city_round[s, i] >> BUILDER_SHIFT) & (MAX_SEATS - 1)


@hot
def tuck(st, card):
    """Put a card face down under the Museum."""
    st.deck[DECK_CAP + st.g[G_PILE_N]] = card
    st.g[G_PILE_N] += 1


@hot
def pile_to_bottom(st):
    """The Museum was destroyed: the cards under it go to the bottom of the deck."""
    for i in range(DECK_CAP, DECK_CAP + st.g[G_PILE_N]):
        to_bottom(st, st.deck[i])
        st.deck[i] = -1
    st.g[G_PILE_N] = 0
