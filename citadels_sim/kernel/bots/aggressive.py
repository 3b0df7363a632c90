"""The ``aggressive`` family: picks the Assassin, Thief and Warlord (its parameters say so)
and turns them on the leader.  It takes the heuristic's decisions where it does not write its
own."""

from ..jit import inline
from ..layout import G_NP, K_COST, P_CITY_N, P_GOLD
from ..rules import destroyable, warlord_cost
from .common import NOTHING, leader, offer, slot_option, split_slot, unseen
from .heuristic import predict_rank

#: the family whose decisions this one does not write itself
BASE = "heuristic"


@inline
def choose_target_rank(st, tb, s, allowed, own, rob):
    """The Assassin and the Thief name the leader's likeliest character."""
    return predict_rank(st, tb, s, leader(st, s), unseen(st, allowed & ~own, allowed))


@inline
def choose_destroy(st, tb, s):
    """The leader's dearest district, paid for if need be; elsewhere only free ones."""
    gold = st.p[s, P_GOLD]
    ld = leader(st, s)
    best, ties, pick = NOTHING
    for o in range(st.g[G_NP]):
        if o == s:
            continue
        for i in range(st.p[o, P_CITY_N]):
            if not destroyable(st, tb, o, i):
                continue
            c = warlord_cost(st, tb, o, i)
            if c <= gold and (o == ld or c <= 0):
                v = float(tb.kinds[K_COST, st.city[o, i]]) + (10.0 if o == ld else 0.0)
                best, ties, pick = offer(st, s, v, slot_option(o, i), best, ties, pick)
    return split_slot(pick)
