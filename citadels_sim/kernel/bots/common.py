"""What every bot family shares: the best option with random ties, the seat's own random draws,
and the public facts that decisions read (the leader, the richest opponent, useful cards, a
card's worth).

A decision scans its options and keeps a running choice ``(best, ties, pick)``, starting
from :data:`NOTHING` (or :data:`PASS` when doing nothing is one of the options), each
option offered with :func:`offer`.  Ties between equally good options are broken at random
from the seat's own stream, never by seat order.  An option with two or more parts (a seat
and a city slot) is offered as one number, ``seat * CITY_CAP + slot`` (:func:`slot_option`,
:func:`split_slot`).
"""

from ..jit import hot, inline
from ..layout import (CITY_CAP, G_DECK_N, G_FACEUP, G_MAGISTRATE, G_MAX_ROUNDS, G_NP, G_NRANKS,
                      G_N_COMPLETE, G_ROUND, G_TURN_RANK, G_TURN_USED, G_WARRANTS, K_COST, K_TYPE,
                      N_TYPES, PR_W_NEW_TYPE, P_CITY_N, P_GOLD, P_HAND_N, P_TYPES, RNG_SEAT0,
                      U_WARRANT)
from ..rng import below
from ..rules import has, is_complete, max_card_payment, slot_cost
from ..state import city_size

NEG = -1.0e9
#: a choice with no option offered yet: (best value, ties, option)
NOTHING = (NEG, 0, -1)
#: a choice in which doing nothing (option -1) is already offered, at value 0
PASS = (0.0, 1, -1)


@hot
def offer(st, s, v, option, best, ties, pick):
    """Offer ``option`` of value ``v`` to seat ``s``'s running choice ``(best, ties, pick)``:
    a better value takes it; an equal one takes it with chance 1/(ties + 1), drawn from the
    seat's own stream.  Returns the new ``(best, ties, pick)``."""
    if v > best:
        return v, 1, option
    if v == best:
        ties += 1
        if below(st, RNG_SEAT0 + s, ties) == 0:
            return best, ties, option
    return best, ties, pick


@hot
def slot_option(o, i):
    """Seat ``o``'s city slot ``i`` as one option number."""
    return o * CITY_CAP + i


@hot
def split_slot(pick):
    """(seat, city slot) of an option number, or (-1, -1) for none."""
    if pick < 0:
        return -1, -1
    return pick // CITY_CAP, pick % CITY_CAP


@hot
def exchange_parts(pick):
    """(own slot, seat, his slot) of an exchange's option number
    ``slot_option(slot_option(seat, his slot), own slot)``, or (-1, -1, -1) for none."""
    if pick < 0:
        return -1, -1, -1
    o, j = split_slot(pick // CITY_CAP)
    return pick % CITY_CAP, o, j


@hot
def roll(st, s, n):
    """A uniform whole number in [0, ``n``) from seat ``s``'s stream."""
    return below(st, RNG_SEAT0 + s, n)


@hot
def dry_deck(st):
    """Is the deck dry: fewer cards in it than players?"""
    return st.g[G_DECK_N] < st.g[G_NP]


@hot
def coin(st, s):
    """A fair coin from seat ``s``'s stream."""
    return below(st, RNG_SEAT0 + s, 2) == 0


@hot
def random_opponent(st, s):
    """A uniformly random other seat than ``s``."""
    t = below(st, RNG_SEAT0 + s, st.g[G_NP] - 1)
    return t if t < s else t + 1


@hot
def random_rank(st, s, allowed):
    """A uniformly random rank of bitmask ``allowed`` (-1 if it is empty)."""
    best, ties, pick = NOTHING
    for r in range(st.g[G_NRANKS]):
        if (allowed >> r) & 1:
            best, ties, pick = offer(st, s, 0.0, r, best, ties, pick)
    return pick


@hot
def unseen(st, candidates, fallback):
    """The ranks in bitmask ``candidates`` not discarded face up (which everyone knows are
    out of play); ``fallback`` when that leaves none."""
    m = candidates & ~st.g[G_FACEUP]
    return m if m else fallback


@hot
def leader(st, s):
    """The opponent of ``s`` closest to completing (size, then city value); random ties."""
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s:
            best, ties, who = offer(st, s, city_size(st, o) * 100.0 + st.p[o, P_CITY_N], o,
                                    best, ties, who)
    return who


@hot
def richest(st, s):
    """The opponent of ``s`` with the largest stash; random ties."""
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s:
            best, ties, who = offer(st, s, float(st.p[o, P_GOLD]), o, best, ties, who)
    return who


@hot
def useful_cards(st, tb, s):
    """Hand cards seat ``s`` could still build some day (not blocked by its city)."""
    n = 0
    for i in range(st.p[s, P_HAND_N]):
        kind = st.hand[s, i]
        if tb.kinds[K_COST, kind] > 0 and not has(st, s, kind):
            n += 1
    return n


@hot
def missing_type(st, tb, s, kind):
    """Is ``kind``'s district type missing from seat ``s``'s city?"""
    return st.p[s, P_TYPES + tb.kinds[K_TYPE, kind]] == 0


@hot
def opponents_most(st, s, i):
    """The largest ``p[o, i]`` (stash, hand size ...) among the opponents ``o`` of ``s``."""
    most = 0
    for o in range(st.g[G_NP]):
        if o != s:
            most = max(most, st.p[o, i])
    return most


@hot
def card_value(st, tb, s, kind):
    """How much seat ``s`` wants district card ``kind`` in hand or city."""
    if has(st, s, kind):
        return -5.0 + tb.kinds[K_COST, kind] * 0.1
    v = float(tb.kinds[K_COST, kind])
    if missing_type(st, tb, s, kind):
        v += st.params[s, PR_W_NEW_TYPE]
    short = tb.kinds[K_COST, kind] - st.p[s, P_GOLD] - 2
    if short > 0:
        v -= 0.5 * short
    return v


@inline
def card_payment_range(st, s, kind, cost):
    """(least, most) cards seat ``s`` may pay toward ``kind`` (the Thieves' Den), gold paying
    the rest (a Cardinal's assist covers what gold does not)."""
    most = min(max_card_payment(st, s, kind), cost)
    return min(most, max(0, cost - st.p[s, P_GOLD])), most


@hot
def warrants_for(st, s, allowed, signed):
    """The Magistrate's warrants: ``signed`` and two other random ranks of ``allowed``."""
    a = random_rank(st, s, allowed & ~(1 << signed))
    b = random_rank(st, s, allowed & ~(1 << signed) & ~(1 << a))
    return signed, a, b


@hot
def warrant_pending(st, s):
    """The Magistrate's seat when seat ``s``'s next paid build this turn may be confiscated,
    else -1: another seat placed the warrants, one of them (face down, so perhaps the
    signed one) is on the character whose turn it is, and no paid build has spent it."""
    g = st.g
    m = g[G_MAGISTRATE]
    if (m < 0 or m == s or not (g[G_WARRANTS] >> g[G_TURN_RANK]) & 1
            or g[G_TURN_USED] & U_WARRANT):
        return -1
    return m


@hot
def threats_for(st, s, allowed, real):
    """The Blackmailer's threats: the flower on ``real``, the bluff on a random other rank of
    ``allowed`` not discarded face up."""
    rest = allowed & ~(1 << real)
    return real, random_rank(st, s, unseen(st, rest, rest))


# ---- end-game timing --------------------------------------------------------------------------
@hot
def final_round(st):
    """Is some city complete (the game ends with this round)?"""
    for o in range(st.g[G_NP]):
        if is_complete(st, o):
            return True
    return False


@hot
def visible_score(st, tb, o):
    """The points seat ``o``'s city shows: district costs, +3 once it has all five types."""
    v = 0
    for i in range(st.p[o, P_CITY_N]):
        v += slot_cost(st, tb, o, i)
    types = 0
    for t in range(N_TYPES):
        if st.p[o, P_TYPES + t] > 0:
            types += 1
    return v + (3 if types == N_TYPES else 0)


@hot
def ends_behind(st, tb, s, kind, finish):
    """Would building ``kind``, which completes seat ``s``'s city first, end the game with him
    more than ``finish`` points behind (his city's points, the district's and 4 for
    completing first, against each opponent's city), while no opponent is about to complete
    and the game is young enough (within the first half of the round cap)?"""
    g = st.g
    n = g[G_N_COMPLETE]
    if city_size(st, s) + 1 < n or final_round(st) or g[G_ROUND] * 2 > g[G_MAX_ROUNDS]:
        return False
    mine = visible_score(st, tb, s) + tb.kinds[K_COST, kind] + 4
    behind = False
    for o in range(g[G_NP]):
        if o == s:
            continue
        if city_size(st, o) >= n - 1:
            return False
        if visible_score(st, tb, o) - mine > finish:
            behind = True
    return behind
