"""The ``builder`` family: builds as much and as dear as it can, and uses attacks only for its
own gain (robbing the richest, free destructions).  It takes the heuristic's decisions where
it does not write its own."""

import math

from ..jit import inline
from ..layout import G_NP, K_COST, P_CITY_N
from ..rules import destroyable, warlord_cost
from .common import (NOTHING, leader, offer, random_rank, richest, slot_option, split_slot, unseen,
                     useful_cards)
from .heuristic import best_build, income_before, predict_rank

#: the family whose decisions this one does not write itself
BASE = "heuristic"


@inline
def choose_gather_cards(st, tb, s):
    """Cards only when no card in hand is buildable some day."""
    return useful_cards(st, tb, s) == 0


@inline
def choose_build(st, tb, s):
    """The dearest district worth building, whatever its type or a warrant."""
    return best_build(st, tb, s, 0.0, math.inf, False)


@inline
def choose_income_first(st, tb, s, itype):
    return income_before(st, tb, s, itype, choose_build(st, tb, s))


@inline
def choose_target_rank(st, tb, s, allowed, own, rob):
    """The Thief robs the richest opponent's likeliest character; the Assassin kills at
    random among the characters that may be in play."""
    hidden = unseen(st, allowed & ~own, allowed)
    if rob:
        return predict_rank(st, tb, s, richest(st, s), hidden)
    return random_rank(st, s, hidden)


@inline
def choose_destroy(st, tb, s):
    """Only free destructions (a cost-1 district), the dearest."""
    leader(st, s)  # a draw the seat's stream has always made here (golden games)
    best, ties, pick = NOTHING
    for o in range(st.g[G_NP]):
        if o == s:
            continue
        for i in range(st.p[o, P_CITY_N]):
            if destroyable(st, tb, o, i) and warlord_cost(st, tb, o, i) <= 0:
                best, ties, pick = offer(st, s, float(tb.kinds[K_COST, st.city[o, i]]),
                                         slot_option(o, i), best, ties, pick)
    return split_slot(pick)


@inline
def choose_bribe(st, tb, s, amount):
    """He gambles: refuses every bribe but a free one."""
    return amount == 0
