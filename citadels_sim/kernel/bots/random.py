"""The ``random`` family: uniformly random legal decisions, the baseline every other family is
measured against.  It writes every decision that takes judgement; the one it takes from the
heuristic (which of the richest players pays the Abbot) is a random tie-break there too."""

from ..jit import hot, inline
from ..layout import (D_NECROPOLIS, G_CROWN, G_DECK_N, G_NP, N_TYPES, PAY_FRAMEWORK, PAY_GOLD,
                      PAY_NECROPOLIS, P_CITY_N, P_GOLD, P_HAND_N)
from ..rules import (affordable, armory_target, can_build, destroyable, exchange_cost,
                     exchangeable, framework_build, marshal_cost, necropolis_build, seizable,
                     warlord_cost, within_limit)
from ..state import beautified
from .common import (NOTHING, PASS, card_payment_range, coin, exchange_parts, leader, offer,
                     random_opponent, random_rank, roll, slot_option, split_slot, threats_for,
                     warrants_for)

#: the family whose decisions this one does not write itself
BASE = "heuristic"


@hot
def random_index(st, s, n):
    """A uniformly random index in [0, ``n``), -1 if ``n`` is 0 (drawn like any choice among
    equal options)."""
    best, ties, pick = NOTHING
    for i in range(n):
        best, ties, pick = offer(st, s, 0.0, i, best, ties, pick)
    return pick


# ---- draft ------------------------------------------------------------------------------
@inline
def choose_character(st, tb, s, avail):
    return random_rank(st, s, avail)


@inline
def choose_draft_discard(st, tb, s, avail):
    return random_rank(st, s, avail)


@inline
def choose_theater(st, tb, s, mine):
    if coin(st, s):
        return -1, -1
    t = random_opponent(st, s)
    return t, random_rank(st, s, mine)


# ---- gathering and building --------------------------------------------------------------
@inline
def choose_gather_cards(st, tb, s):
    return not coin(st, s)


@inline
def choose_keep(st, tb, s, start, n):
    return random_index(st, s, n)


@inline
def choose_build(st, tb, s):
    best, ties, pick = PASS
    for i in range(st.p[s, P_HAND_N]):
        kind = st.hand[s, i]
        if within_limit(st, tb, kind) and can_build(st, tb, s, kind):
            best, ties, pick = offer(st, s, 0.0, i, best, ties, pick)
    return pick


@inline
def choose_income_first(st, tb, s, itype):
    return coin(st, s)


@inline
def choose_card_payment(st, tb, s, kind, cost):
    least, most = card_payment_range(st, s, kind, cost)
    return least + roll(st, s, most - least + 1)


@inline
def choose_payment_card(st, tb, s):
    return random_index(st, s, st.p[s, P_HAND_N])


@inline
def choose_build_mode(st, tb, s, kind):
    gold_ok = affordable(st, tb, s, kind)
    frame = framework_build(st, s, kind)
    necro = necropolis_build(st, s, kind) and choose_sacrifice(st, tb, s) >= 0
    j = roll(st, s, (1 if gold_ok else 0) + (1 if frame else 0) + (1 if necro else 0))
    if gold_ok:
        if j == 0:
            return PAY_GOLD
        j -= 1
    if frame and j == 0:
        return PAY_FRAMEWORK
    return PAY_NECROPOLIS


@inline
def choose_sacrifice(st, tb, s):
    best, ties, pick = NOTHING
    for i in range(st.p[s, P_CITY_N]):
        if st.city[s, i] != D_NECROPOLIS:
            best, ties, pick = offer(st, s, 0.0, i, best, ties, pick)
    return pick


# ---- district abilities ------------------------------------------------------------------
@inline
def choose_laboratory(st, tb, s):
    if st.p[s, P_HAND_N] == 0 or coin(st, s):
        return -1
    return roll(st, s, st.p[s, P_HAND_N])


@inline
def choose_smithy(st, tb, s):
    return coin(st, s)


@inline
def choose_graveyard(st, tb, s, kind):
    return coin(st, s)


@inline
def choose_lighthouse(st, tb, s):
    return random_index(st, s, st.g[G_DECK_N])


@inline
def choose_bell_tower(st, tb, s):
    return coin(st, s)


@inline
def choose_museum(st, tb, s):
    if coin(st, s):
        return -1
    return roll(st, s, st.p[s, P_HAND_N])


@inline
def choose_armory(st, tb, s):
    leader(st, s)  # a draw the seat's stream has always made here (golden games)
    best, ties, pick = 0.0, 3, -1  # not using it is the likelier option
    for o in range(st.g[G_NP]):
        for i in range(st.p[o, P_CITY_N]):
            if armory_target(st, tb, s, o, i):
                best, ties, pick = offer(st, s, 0.0, slot_option(o, i), best, ties, pick)
    return split_slot(pick)


# ---- character abilities -------------------------------------------------------------------
@inline
def choose_target_rank(st, tb, s, allowed, own, rob):
    return random_rank(st, s, allowed)


@inline
def choose_magician(st, tb, s):
    mode = roll(st, s, 3)
    if mode == 1:
        return 1, random_opponent(st, s)
    return mode, -1


@inline
def choose_redraw(st, tb, s, i):
    return coin(st, s)


@inline
def choose_destroy(st, tb, s):
    gold = st.p[s, P_GOLD]
    leader(st, s)  # a draw the seat's stream has always made here (golden games)
    best, ties, pick = PASS
    for o in range(st.g[G_NP]):
        for i in range(st.p[o, P_CITY_N]):
            if destroyable(st, tb, o, i) and warlord_cost(st, tb, o, i) <= gold:
                best, ties, pick = offer(st, s, 0.0, slot_option(o, i), best, ties, pick)
    return split_slot(pick)


@inline
def choose_income_cards(st, tb, s, n):
    return roll(st, s, n + 1)


@inline
def choose_navigator_cards(st, tb, s):
    return coin(st, s)


@inline
def choose_scholar(st, tb, s):
    return coin(st, s)


@inline
def choose_crown_recipient(st, tb, s):
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s and not (o == st.g[G_CROWN] and st.g[G_CROWN] != s):
            best, ties, who = offer(st, s, 0.0, o, best, ties, who)
    return who


@inline
def choose_tribute_card(st, tb, s):
    if st.p[s, P_HAND_N] == 0:
        return -1
    i = choose_payment_card(st, tb, s)
    if st.p[s, P_GOLD] == 0 or coin(st, s):
        return i
    return -1


@inline
def choose_emperor_card(st, tb, s, target):
    return coin(st, s)


@inline
def choose_spy(st, tb, s):
    t = random_opponent(st, s)
    return t, roll(st, s, N_TYPES)


@inline
def choose_seize(st, tb, s):
    gold = st.p[s, P_GOLD]
    leader(st, s)  # a draw the seat's stream has always made here (golden games)
    best, ties, pick = PASS
    for o in range(st.g[G_NP]):
        for i in range(st.p[o, P_CITY_N]):
            if seizable(st, tb, s, o, i) and marshal_cost(st, tb, o, i) <= gold:
                best, ties, pick = offer(st, s, 0.0, slot_option(o, i), best, ties, pick)
    return split_slot(pick)


@inline
def choose_wizard_target(st, tb, s):
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s and st.p[o, P_HAND_N] > 0:
            best, ties, who = offer(st, s, 0.0, o, best, ties, who)
    return who


@inline
def choose_wizard_card(st, tb, s, target):
    return random_index(st, s, st.p[target, P_HAND_N])


@inline
def choose_wizard_build(st, tb, s, kind):
    return coin(st, s)


@inline
def choose_assist_donor(st, tb, s, short):
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s and st.p[o, P_GOLD] >= short:
            best, ties, who = offer(st, s, 0.0, o, best, ties, who)
    return who


@inline
def choose_exchange(st, tb, s):
    gold = st.p[s, P_GOLD]
    best, ties, pick = PASS
    for o in range(st.g[G_NP]):
        if o == s:
            continue
        for j in range(st.p[o, P_CITY_N]):
            for i in range(st.p[s, P_CITY_N]):
                if exchangeable(st, tb, s, i, o, j) and exchange_cost(st, tb, s, i, o, j) <= gold:
                    best, ties, pick = offer(st, s, 0.0, slot_option(slot_option(o, j), i),
                                             best, ties, pick)
    return exchange_parts(pick)


@inline
def choose_confiscate(st, tb, s, kind):
    return coin(st, s)


@inline
def choose_bewitch(st, tb, s, allowed, optional):
    if optional and roll(st, s, 4) == 0:
        return -1
    return random_rank(st, s, allowed)


@inline
def choose_warrants(st, tb, s, allowed):
    return warrants_for(st, s, allowed, random_rank(st, s, allowed))


@inline
def choose_threats(st, tb, s, allowed):
    return threats_for(st, s, allowed, random_rank(st, s, allowed))


@inline
def choose_bribe(st, tb, s, amount):
    return amount == 0 or coin(st, s)


@inline
def choose_reveal_threat(st, tb, s, real):
    return coin(st, s)


@inline
def choose_beautify(st, tb, s):
    if st.p[s, P_GOLD] < 1:
        return -1
    best, ties, pick = PASS
    for i in range(st.p[s, P_CITY_N]):
        if not beautified(st, s, i):
            best, ties, pick = offer(st, s, 0.0, i, best, ties, pick)
    return pick
