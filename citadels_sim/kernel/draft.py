"""The selection phase (docs/rules.md §2.3): discards, then picking, for every player count.

Ranks travel as bitmasks; ``st.g[G_HOLDER + r]`` receives the seat that keeps rank ``r``.
Random discards use the draft stream, choices use each seat's own stream (``bots``).
"""

from .jit import hot

from .layout import (D_THEATER, G_CROWN, G_FACEUP, G_FORBID, G_HOLDER, G_NP, G_NRANKS,
                     G_N_FACEUP, G_PICKER, G_PICKS, G_RULESET, P_DOWN, P_OFFER, P_OFFERED,
                     P_PICKED, P_STEP, RANK_KING, RNG_DRAFT, R_2016)
from .log import EV_THEATER, EV_DISCARD_DOWN, EV_DISCARD_UP, EV_PICK, event
from .bots.dispatch import choose_character, choose_draft_discard, choose_theater
from .rng import below
from .state import has, own_ranks


@hot
def random_rank(st, mask):
    """A uniformly random rank from the bitmask ``mask`` (draft stream)."""
    n = 0
    m = mask
    while m:
        m &= m - 1
        n += 1
    j = below(st, RNG_DRAFT, n)
    for r in range(st.g[G_NRANKS]):
        if (mask >> r) & 1:
            if j == 0:
                return r
            j -= 1
    return -1


@hot
def _discard_down(st, r):
    event(st, EV_DISCARD_DOWN, -1, -1, r, 0, 0, 0)


@hot
def _keep(st, tb, s, offered):
    """Seat ``s`` keeps one of the ``offered`` ranks; returns the ranks left.

    Restricted play: the seat chooses among the offered ranks it may pick
    (``G_FORBID + s``), and takes a forbidden one only when nothing else is offered (the
    pick is counted, so the forced share can be reported).  The offer and the pick are
    counted in ``P_OFFERED + r`` and ``P_PICKED + r``; the seat remembers the offer and
    the pick's number (:func:`_remember`).
    """
    allowed = offered & ~st.g[G_FORBID + s]
    r = choose_character(st, tb, s, allowed if allowed else offered)
    for q in range(st.g[G_NRANKS]):
        if (offered >> q) & 1:
            st.p[s, P_OFFERED + q] += 1
    st.p[s, P_PICKED + r] += 1
    _remember(st, s, offered)
    st.g[G_HOLDER + r] = s
    event(st, EV_PICK, s, -1, r, 0, 0, 0)
    return offered & ~(1 << r)


@hot
def _remember(st, s, offered):
    """Record pick number ``g[G_PICKS]``: its seat (public) and, for the seat, the ranks it
    was offered (its first or second pick of the round)."""
    g = st.g
    j = 0 if st.p[s, P_STEP] < 0 else 1
    st.p[s, P_OFFER + j] = offered
    st.p[s, P_STEP + j] = g[G_PICKS]
    g[G_PICKER + g[G_PICKS]] = s
    g[G_PICKS] += 1


@hot
def _discard_choice(st, tb, s, offered):
    r = choose_draft_discard(st, tb, s, offered)
    _discard_down(st, r)
    st.p[s, P_DOWN] |= 1 << r
    return offered & ~(1 << r)


@hot
def draft(st, tb):
    """Deal the characters of one round, then the Theater's exchange."""
    _deal(st, tb)
    for s in range(st.g[G_NP]):
        if has(st, s, D_THEATER):
            _theater(st, tb, s)


@hot
def _theater(st, tb, s):
    """Theater (2016, D35): its owner may exchange one of his characters, blind, with an
    opponent's; with 2-3 players he gives the one he chooses and takes one of the
    opponent's two at random."""
    g = st.g
    o, give = choose_theater(st, tb, s, own_ranks(st, s))
    if o < 0:
        return
    take = random_rank(st, own_ranks(st, o))
    g[G_HOLDER + give] = o
    g[G_HOLDER + take] = s
    event(st, EV_THEATER, s, -1, o, give, take, 0)


@hot
def _deal(st, tb):
    """Discards and picks (docs/rules.md §2.3)."""
    g = st.g
    n = g[G_NP]
    crown = g[G_CROWN]
    deck = (1 << g[G_NRANKS]) - 1
    if n >= 4:
        down = -1
        if g[G_RULESET] != R_2016:  # classic, four_color: face down first (D50)
            down = random_rank(st, deck)
            deck &= ~(1 << down)
        for _ in range(g[G_N_FACEUP]):  # the rank-4 character is never face up
            r = random_rank(st, deck & ~(1 << RANK_KING))
            deck &= ~(1 << r)
            g[G_FACEUP] |= 1 << r
            event(st, EV_DISCARD_UP, -1, -1, r, 0, 0, 0)
        if down < 0:
            down = random_rank(st, deck)
            deck &= ~(1 << down)
        for i in range(n):
            s = (crown + i) % n
            offered = deck
            if i == n - 1 and (deck & (deck - 1)) == 0:
                offered |= 1 << down  # the last picker also takes the face-down card
                down = -1
            deck = _keep(st, tb, s, offered)
        if down >= 0:
            _discard_down(st, down)
        for r in range(g[G_NRANKS]):
            if (deck >> r) & 1:
                _discard_down(st, r)
    elif n == 2:
        r = random_rank(st, deck)
        _discard_down(st, r)
        deck &= ~(1 << r)
        for step in range(4):  # A keeps; then B, A, B each keep one and discard one
            s = crown if step % 2 == 0 else 1 - crown
            deck = _keep(st, tb, s, deck)
            if step > 0:
                deck = _discard_choice(st, tb, s, deck)
    else:  # three players: classic/four_color with 8 characters, 2016 with 9 (§2.3.4)
        r = random_rank(st, deck)
        _discard_down(st, r)
        deck &= ~(1 << r)
        for i in range(6):
            if i == 3 and g[G_NRANKS] == 9:  # 2016: C discards one of the five at random
                r = random_rank(st, deck)
                _discard_down(st, r)
                deck &= ~(1 << r)
            deck = _keep(st, tb, (crown + i) % 3, deck)
        for r in range(g[G_NRANKS]):
            if (deck >> r) & 1:
                _discard_down(st, r)
