"""The ``heuristic`` family: values each character by what it earns now (income, cards, the
crown), weighs the threat of the Assassin and Thief, and attacks when the leader is close to
completing his city.

It writes every decision of the game: the other families (but ``random``) take from here the
decisions they do not write themselves (their ``BASE``).  Its parameters: ``PR_BASE`` ..
``PR_SWAP_MARGIN`` (layout).
"""

import math

from ..jit import hot, inline
from ..layout import (CH_ARCHITECT, CH_ASSASSIN, CH_BISHOP, CH_KING, CH_MAGICIAN, CH_MERCHANT,
                      CH_THIEF, CH_WARLORD, DECK_CAP, D_BASILICA, D_FRAMEWORK, D_NECROPOLIS,
                      G_BUILDS_LEFT, G_CROWN, G_DECK_HEAD, G_DECK_N, G_FACEUP, G_INCOME,
                      G_MERCHANT_GOLD, G_NP, G_NRANKS, G_N_COMPLETE, G_RANK_CHAR, K_COST, K_TYPE,
                      PAY_FRAMEWORK, PAY_GOLD, PAY_NECROPOLIS, PR_BASE, PR_CARD_NEED,
                      PR_GOLD_RESERVE, PR_SWAP_MARGIN, PR_W_AGGRESSION, PR_W_INCOME,
                      PR_W_NEW_TYPE, PR_W_THREAT, P_CITY_N, P_GOLD, P_HAND_N, T_TRADE)
from ..rules import (affordable, armory_target, build_cost, can_build, destroyable, exchange_cost,
                     exchangeable, framework_build, has, income_count, income_type, marshal_cost,
                     may_confiscate, necropolis_build, seizable, slot_cost, warlord_cost,
                     within_limit)
from ..state import beautified, city_size
from .common import (NEG, NOTHING, card_payment_range, card_value, dry_deck,
                     ends_behind, exchange_parts, leader, missing_type, offer, opponents_most,
                     richest, slot_option, split_slot, threats_for, unseen, useful_cards,
                     warrant_pending, warrants_for)

#: the family whose decisions this one does not write itself (none: it writes them all)
BASE = None


# ---- what a character is worth ---------------------------------------------------------------
@inline
def character_value(st, tb, s, r, viewer, ld, useful):
    """Value of the rank-``r`` character to seat ``s``, judged with ``viewer``'s parameters.

    ``ld`` is the leader as ``s`` sees it and ``useful`` the number of useful cards in his
    hand as ``viewer`` knows it (his own count, or the hand size of another seat).
    """
    ch = st.g[G_RANK_CHAR + r]
    v = st.params[viewer, PR_BASE + r]
    v += st.params[viewer, PR_W_INCOME] * (income_count(st, tb, s, income_type(ch))
                                           * st.g[G_INCOME + ch])
    lead = max(0, city_size(st, ld) - city_size(st, s)) if ld >= 0 else 0
    aggr = st.params[viewer, PR_W_AGGRESSION]
    if ch == CH_ASSASSIN or ch == CH_THIEF:
        v += aggr * lead
    elif ch == CH_WARLORD:
        v += aggr * lead
        if ld >= 0 and city_size(st, ld) >= st.g[G_N_COMPLETE] - 2:
            v += aggr * 2
    elif ch == CH_ARCHITECT:
        v += 0.5 * min(useful, 3) + (1.0 if st.p[s, P_GOLD] >= 4 else 0.0)
    elif ch == CH_MERCHANT:
        v += st.g[G_MERCHANT_GOLD]
    elif ch == CH_MAGICIAN:
        v += 0.5 * max(0, opponents_most(st, s, P_HAND_N) - st.p[s, P_HAND_N] - 1)
        if useful == 0:
            v += 1.0
    elif ch == CH_BISHOP:
        v += 0.2 * city_size(st, s)
    elif ch == CH_KING:
        v += 0.5 if st.g[G_CROWN] != s else 0.0
    threat = st.params[viewer, PR_W_THREAT]
    if threat != 0.0:
        # the Assassin and Thief aim at the characters that pay most; more so when rich
        if not (st.g[G_FACEUP] >> 0) & 1 and ch != CH_ASSASSIN:
            v -= threat * 0.1 * (v if v > 0 else 0)
        if st.g[G_RANK_CHAR + 1] == CH_THIEF and not (st.g[G_FACEUP] >> 1) & 1 and r > 1:
            v -= threat * 0.15 * st.p[s, P_GOLD]
    return v


@hot
def best_rank(st, tb, s, avail, sign):
    """The rank in ``avail`` with the highest ``sign`` x value to seat ``s`` (random ties)."""
    ld = leader(st, s)
    useful = useful_cards(st, tb, s)
    best, ties, pick = NOTHING
    for r in range(st.g[G_NRANKS]):
        if (avail >> r) & 1:
            best, ties, pick = offer(st, s, sign * character_value(st, tb, s, r, s, ld, useful),
                                     r, best, ties, pick)
    return pick


@hot
def predict_rank(st, tb, viewer, target, allowed):
    """The rank in bitmask ``allowed`` that ``viewer`` guesses ``target`` holds."""
    ld = leader(st, target) if target >= 0 else -1
    best, ties, pick = NOTHING
    for r in range(st.g[G_NRANKS]):
        if (allowed >> r) & 1:
            v = character_value(st, tb, target, r, viewer, ld,
                                st.p[target, P_HAND_N]) if target >= 0 else 0.0
            best, ties, pick = offer(st, viewer, v, r, best, ties, pick)
    return pick


@hot
def exchange_tally(st, mine, r, v, give, low, total, count):
    """One rank's part in a Theater owner's blind exchange: among his own ranks (``mine``) the
    one worth least (``give``, worth ``low``); over the ranks he cannot see that are not face
    up, the total worth and their number.  Returns the new ``(give, low, total, count)``."""
    if (mine >> r) & 1:
        if v < low:
            return r, v, total, count
    elif not (st.g[G_FACEUP] >> r) & 1:
        return give, low, total + v, count + 1
    return give, low, total, count


@hot
def exchange_target(ld, give, low, total, count):
    """(opponent, own rank to give) when the average unseen rank is worth at least 1 more
    than the one he gives, else (-1, -1)."""
    if count == 0 or total / count < low + 1.0:
        return -1, -1
    return ld, give


# ---- draft ------------------------------------------------------------------------------
@inline
def choose_character(st, tb, s, avail):
    """Rank index that seat ``s`` keeps from the bitmask ``avail`` of offered ranks."""
    return best_rank(st, tb, s, avail, 1.0)


@inline
def choose_draft_discard(st, tb, s, avail):
    """Rank index that seat ``s`` discards face down from ``avail`` (2-player draft).

    The one worth least to him."""
    return best_rank(st, tb, s, avail, -1.0)


@inline
def choose_theater(st, tb, s, mine):
    """Theater owner ``s``, after the selection: (opponent, own rank index to give) for a
    blind exchange, or (-1, -1); ``mine`` is the bitmask of his ranks.

    He gives the leader a character worth less than the average one he cannot see."""
    ld = leader(st, s)
    useful = useful_cards(st, tb, s)
    give, low, total, count = -1, -NEG, 0.0, 0
    for r in range(st.g[G_NRANKS]):
        give, low, total, count = exchange_tally(
            st, mine, r, character_value(st, tb, s, r, s, ld, useful), give, low, total, count)
    return exchange_target(ld, give, low, total, count)


# ---- gathering and building --------------------------------------------------------------
@inline
def choose_gather_cards(st, tb, s):
    """True to draw cards, False to take gold (the deck is not empty)."""
    return useful_cards(st, tb, s) < st.params[s, PR_CARD_NEED]


@inline
def choose_keep(st, tb, s, start, n):
    """Which of the ``n`` cards just drawn into ``hand[s, start:start + n]`` seat ``s``
    keeps (0-based among them)."""
    best, ties, pick = NOTHING
    for i in range(n):
        best, ties, pick = offer(st, s, card_value(st, tb, s, st.hand[s, start + i]), i,
                                 best, ties, pick)
    return pick


@inline
def best_build(st, tb, s, bonus, finish, wary):
    """Hand index of the dearest district worth building now (its cost, plus ``bonus`` for a
    type missing from the city), or -1; the completing one is left unbuilt when it would end
    the game more than ``finish`` points behind (:func:`.common.ends_behind`; ``inf``: never).
    Only a build the turn's limit allows and that can be paid one way or another is worth
    it, and destroying the Framework for a cheap district gains nothing.  A ``wary`` builder
    minds a warrant (:func:`.common.warrant_pending`), which his first paid build spends: a
    district the Magistrate could not take goes first, else, with another build left, the
    cheapest (a decoy)."""
    m = warrant_pending(st, s) if wary else -1
    decoy = m >= 0 and st.g[G_BUILDS_LEFT] >= 2
    best, ties, pick = NOTHING
    for i in range(st.p[s, P_HAND_N]):
        kind = st.hand[s, i]
        if not (within_limit(st, tb, kind) and can_build(st, tb, s, kind)):
            continue
        if (tb.kinds[K_COST, kind] < 5 and has(st, s, D_FRAMEWORK) and kind != D_NECROPOLIS
                and not affordable(st, tb, s, kind)):
            continue
        if finish < math.inf and ends_behind(st, tb, s, kind, finish):
            continue
        v = float(tb.kinds[K_COST, kind])
        if missing_type(st, tb, s, kind):
            v += bonus
        if m >= 0:
            if not may_confiscate(st, m, kind):
                v += 100.0
            elif decoy:
                v = 50.0 - tb.kinds[K_COST, kind]
        best, ties, pick = offer(st, s, v, i, best, ties, pick)
    return pick


@inline
def choose_build(st, tb, s):
    """Hand index of the district seat ``s`` builds now (within the turn's build limit),
    or -1 to stop building.

    The dearest worth building, PR_W_NEW_TYPE more for a type missing from his city; under
    a warrant a decoy first."""
    return best_build(st, tb, s, st.params[s, PR_W_NEW_TYPE], math.inf, True)


@hot
def income_before(st, tb, s, itype, i):
    """Take the colour income before building hand card ``i`` (the build chosen, or -1)?
    After, when that build is of the income type and affordable without it."""
    if i < 0:
        return True
    kind = st.hand[s, i]
    return not (tb.kinds[K_TYPE, kind] == itype and build_cost(st, tb, s, kind) <= st.p[s, P_GOLD])


@inline
def choose_income_first(st, tb, s, itype):
    """Take the colour income before building (True) or after (False)."""
    return income_before(st, tb, s, itype, choose_build(st, tb, s))


@inline
def choose_card_payment(st, tb, s, kind, cost):
    """Cards seat ``s`` pays toward ``kind`` (Thieves' Den): 0..max, gold pays the rest.

    He keeps the cards that are still useful; the useless ones pay first."""
    least, most = card_payment_range(st, s, kind, cost)
    return min(most, max(least, st.p[s, P_HAND_N] - 1 - useful_cards(st, tb, s)))


@inline
def choose_payment_card(st, tb, s):
    """Hand index of the least valuable card, to pay or discard."""
    best, ties, pick = NOTHING
    for i in range(st.p[s, P_HAND_N]):
        best, ties, pick = offer(st, s, -card_value(st, tb, s, st.hand[s, i]), i, best, ties,
                                 pick)
    return pick


@inline
def choose_build_mode(st, tb, s, kind):
    """How seat ``s`` pays for ``kind`` (legal and payable one way or another): PAY_*.

    He destroys to build only what he cannot pay for: the Framework for a district costing
    5 or more (or when the Necropolis is not an option), else the Necropolis by destroying his
    cheapest district."""
    necro = necropolis_build(st, s, kind) and choose_sacrifice(st, tb, s) >= 0
    if affordable(st, tb, s, kind):
        return PAY_GOLD
    if framework_build(st, s, kind) and (tb.kinds[K_COST, kind] >= 5 or not necro):
        return PAY_FRAMEWORK
    return PAY_NECROPOLIS


@inline
def choose_sacrifice(st, tb, s):
    """City index of the district seat ``s`` destroys to build the Necropolis (never the
    Necropolis itself).

    The least valuable."""
    best, ties, pick = NOTHING
    for i in range(st.p[s, P_CITY_N]):
        if st.city[s, i] != D_NECROPOLIS:
            best, ties, pick = offer(st, s, -float(slot_cost(st, tb, s, i)), i, best, ties, pick)
    return pick


# ---- district abilities ------------------------------------------------------------------
@inline
def choose_laboratory(st, tb, s):
    """Hand index to discard to the Laboratory, or -1.

    A useless card, or the least valuable of a hand of four or more."""
    if st.p[s, P_HAND_N] == 0:
        return -1
    i = choose_payment_card(st, tb, s)
    return i if card_value(st, tb, s, st.hand[s, i]) < 0 or st.p[s, P_HAND_N] > 3 else -1


@inline
def choose_smithy(st, tb, s):
    """Pay 2 gold for 3 cards with the Smithy?"""
    return (useful_cards(st, tb, s) <= 1
            and st.p[s, P_GOLD] - 2 >= st.params[s, PR_GOLD_RESERVE])


@inline
def choose_graveyard(st, tb, s, kind):
    """Pay 1 gold to take the destroyed ``kind`` into hand (Graveyard)?"""
    return tb.kinds[K_COST, kind] >= 3 and not has(st, s, kind)


@inline
def choose_lighthouse(st, tb, s):
    """Lighthouse: offset from the top of the deck of the card seat ``s`` takes."""
    best, ties, pick = NOTHING
    for j in range(st.g[G_DECK_N]):
        kind = st.deck[(st.g[G_DECK_HEAD] + j) % DECK_CAP]
        best, ties, pick = offer(st, s, card_value(st, tb, s, kind), j, best, ties, pick)
    return pick


@inline
def choose_bell_tower(st, tb, s):
    """Bell Tower: announce that cities are complete at 7?

    When no opponent's city is larger than his."""
    ld = leader(st, s)
    return ld < 0 or city_size(st, ld) <= city_size(st, s)


@inline
def choose_museum(st, tb, s):
    """Museum: hand index of the card seat ``s`` puts under it (+1 point), or -1.

    A card he cannot use, or the least valuable of a hand of five or more."""
    i = choose_payment_card(st, tb, s)
    return i if card_value(st, tb, s, st.hand[s, i]) < 0 or st.p[s, P_HAND_N] > 4 else -1


@inline
def choose_armory(st, tb, s):
    """Armory: (target seat, city index) to destroy by destroying the Armory, or (-1, -1).

    The leader's dearest district once he is 2 districts from completing."""
    ld = leader(st, s)
    if ld < 0 or city_size(st, ld) < st.g[G_N_COMPLETE] - 2:
        return -1, -1
    best, ties, pick = NOTHING
    for i in range(st.p[ld, P_CITY_N]):
        if armory_target(st, tb, s, ld, i):
            best, ties, pick = offer(st, s, float(slot_cost(st, tb, ld, i)), slot_option(ld, i),
                                     best, ties, pick)
    return split_slot(pick)


# ---- character abilities -------------------------------------------------------------------
@inline
def choose_target_rank(st, tb, s, allowed, own, rob):
    """Rank index for the Assassin (``rob`` False) or Thief (True) to name, from ``allowed``
    (``own``: the ranks seat ``s`` holds himself).

    Never his own: the leader's likeliest character once he is 3 districts from completing
    (the Assassin), else the richest opponent's."""
    hidden = unseen(st, allowed & ~own, allowed)
    ld = leader(st, s)
    if not rob and ld >= 0 and city_size(st, ld) >= st.g[G_N_COMPLETE] - 3:
        return predict_rank(st, tb, s, ld, hidden)
    return predict_rank(st, tb, s, richest(st, s), hidden)


@inline
def choose_magician(st, tb, s):
    """Magician: (mode, target): mode 0 nothing, 1 swap with seat target, 2 redraw.

    He swaps with the largest hand when it is PR_SWAP_MARGIN cards larger than his, or when
    the deck is dry (fewer cards than players) and nothing in his hand can be built; else
    redraws his useless cards."""
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s:
            best, ties, who = offer(st, s, float(st.p[o, P_HAND_N]), o, best, ties, who)
    stuck = dry_deck(st) and useful_cards(st, tb, s) == 0 and best > 0
    if stuck or best >= st.p[s, P_HAND_N] + st.params[s, PR_SWAP_MARGIN]:
        return 1, who
    if st.p[s, P_HAND_N] > useful_cards(st, tb, s) and st.g[G_DECK_N] > 0:
        return 2, -1
    return 0, -1


@inline
def choose_redraw(st, tb, s, i):
    """Does the Magician put hand card ``i`` back in a redraw?"""
    return card_value(st, tb, s, st.hand[s, i]) < 0


@inline
def choose_destroy(st, tb, s):
    """Warlord: (target seat, city index) to destroy, or (-1, -1).

    A free destruction, or a paid one on the leader once he is 2 districts from completing
    (keeping his gold reserve unless then)."""
    gold = st.p[s, P_GOLD]
    reserve = st.params[s, PR_GOLD_RESERVE]
    ld = leader(st, s)
    urgent = ld >= 0 and city_size(st, ld) >= st.g[G_N_COMPLETE] - 2
    best, ties, pick = NOTHING
    for o in range(st.g[G_NP]):
        if o == s:
            continue
        for i in range(st.p[o, P_CITY_N]):
            if not destroyable(st, tb, o, i):
                continue
            c = warlord_cost(st, tb, o, i)
            if c > gold or (gold - c < reserve and not urgent) or (c > 0 and not (
                    urgent and o == ld)):
                continue
            v = float(tb.kinds[K_COST, st.city[o, i]]) + (10.0 if o == ld else 0.0) - c * 0.5
            best, ties, pick = offer(st, s, v, slot_option(o, i), best, ties, pick)
    return split_slot(pick)


@inline
def choose_income_cards(st, tb, s, n):
    """How many of ``n`` per-district resources seat ``s`` takes as cards (2016 Abbot)."""
    return min(n, max(0, int(st.params[s, PR_CARD_NEED]) - useful_cards(st, tb, s)))


@inline
def choose_navigator_cards(st, tb, s):
    """Navigator: True for 4 cards, False for 4 gold."""
    return st.g[G_DECK_N] > 0 and useful_cards(st, tb, s) < st.params[s, PR_CARD_NEED]


@inline
def choose_scholar(st, tb, s):
    """Scholar: draw 7, keep 1 and shuffle the deck?"""
    return True


@inline
def choose_crown_recipient(st, tb, s):
    """Emperor: the seat that receives the crown (not ``s``, not its holder unless ``s``).

    The least threatening player, who also has something to give."""
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o == s or (o == st.g[G_CROWN] and st.g[G_CROWN] != s):
            continue
        v = -city_size(st, o) * 10.0 + min(st.p[o, P_GOLD], 1) + min(st.p[o, P_HAND_N], 1)
        best, ties, who = offer(st, s, v, o, best, ties, who)
    return who


@inline
def choose_tribute_card(st, tb, s):
    """Classic Emperor's tribute, chosen by the new crowned seat ``s``: hand index of the
    card to give, or -1 to give 1 gold.

    A useless card, or any card when he has no gold."""
    if st.p[s, P_HAND_N] == 0:
        return -1
    i = choose_payment_card(st, tb, s)
    if st.p[s, P_GOLD] == 0 or card_value(st, tb, s, st.hand[s, i]) < 0:
        return i
    return -1


@inline
def choose_emperor_card(st, tb, s, target):
    """2016 Emperor ``s``: take a random card (True) rather than 1 gold from ``target``."""
    return useful_cards(st, tb, s) < st.params[s, PR_CARD_NEED]


@inline
def choose_spy(st, tb, s):
    """Spy: (target seat, district type).

    The biggest hand (and stash to pay with), and the trade type, the most common in the
    deck."""
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s:
            v = st.p[o, P_HAND_N] + 0.5 * min(st.p[o, P_GOLD], st.p[o, P_HAND_N])
            best, ties, who = offer(st, s, v, o, best, ties, who)
    return who, T_TRADE


@inline
def choose_seize(st, tb, s):
    """Marshal: (target seat, city index) to seize, or (-1, -1).

    The dearest district he can pay for keeping his gold reserve, more so from the leader
    or of a missing type."""
    gold = st.p[s, P_GOLD]
    reserve = st.params[s, PR_GOLD_RESERVE]
    ld = leader(st, s)
    best, ties, pick = NOTHING
    for o in range(st.g[G_NP]):
        for i in range(st.p[o, P_CITY_N]):
            if not seizable(st, tb, s, o, i):
                continue
            c = marshal_cost(st, tb, o, i)
            if c > gold or gold - c < reserve:
                continue
            v = float(tb.kinds[K_COST, st.city[o, i]]) + (2.0 if o == ld else 0.0)
            if missing_type(st, tb, s, st.city[o, i]):
                v += st.params[s, PR_W_NEW_TYPE]
            best, ties, pick = offer(st, s, v, slot_option(o, i), best, ties, pick)
    return split_slot(pick)


@inline
def choose_wizard_target(st, tb, s):
    """Wizard: the seat whose hand he looks at (one with cards), or -1 if nobody has any.

    The largest hand."""
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s and st.p[o, P_HAND_N] > 0:
            best, ties, who = offer(st, s, float(st.p[o, P_HAND_N]), o, best, ties, who)
    return who


@inline
def choose_wizard_card(st, tb, s, target):
    """Wizard: index in ``target``'s hand of the card he takes (he sees the hand).

    The dearest, first among those he can pay for.  Under a warrant (``warrant_pending``) his
    immediate build is the one a Magistrate may confiscate, so he takes a decoy that spends
    the warrant: first a card the Magistrate could not take, the dearest of them; else the
    cheapest he can pay for, which leaves the gold for his normal build."""
    m = warrant_pending(st, s)
    best, ties, pick = NOTHING
    for i in range(st.p[target, P_HAND_N]):
        kind = st.hand[target, i]
        cost = float(tb.kinds[K_COST, kind])
        payable = build_cost(st, tb, s, kind) <= st.p[s, P_GOLD]
        if m >= 0 and payable:
            v = 40.0 + cost if not may_confiscate(st, m, kind) else 30.0 - cost
        else:
            v = cost + (5.0 if payable else 0.0)
        best, ties, pick = offer(st, s, v, i, best, ties, pick)
    return pick


@inline
def choose_wizard_build(st, tb, s, kind):
    """Wizard: build the card taken at once (True) rather than keep it."""
    return True


@inline
def choose_assist_donor(st, tb, s, short):
    """Cardinal: the player (with at least ``short`` gold) who gives the shortfall.

    The leader when he can, else the richest."""
    ld = leader(st, s)
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s and st.p[o, P_GOLD] >= short:
            best, ties, who = offer(st, s, (10.0 if o == ld else 0.0) + st.p[o, P_GOLD], o,
                                    best, ties, who)
    return who


@inline
def choose_exchange(st, tb, s):
    """Diplomat: (own city index, target seat, target city index) to swap, or (-1, -1, -1).

    Only for a gain in district value net of the payment, taking from the leader first."""
    gold = st.p[s, P_GOLD]
    ld = leader(st, s)
    best, ties, pick = NOTHING
    for o in range(st.g[G_NP]):
        if o == s:
            continue
        for j in range(st.p[o, P_CITY_N]):
            for i in range(st.p[s, P_CITY_N]):
                if not exchangeable(st, tb, s, i, o, j):
                    continue
                c = exchange_cost(st, tb, s, i, o, j)
                if c > gold:
                    continue
                v = float(tb.kinds[K_COST, st.city[o, j]] - tb.kinds[K_COST, st.city[s, i]]
                          - c) + (0.5 if o == ld else 0.0)
                if v > 0.0:
                    best, ties, pick = offer(st, s, v, slot_option(slot_option(o, j), i),
                                             best, ties, pick)
    return exchange_parts(pick)


@inline
def choose_confiscate(st, tb, s, kind):
    """Magistrate ``s``: take the district ``kind`` just paid for under his signed warrant?"""
    return True


@inline
def choose_bewitch(st, tb, s, allowed, optional):
    """Witch: rank index to bewitch from bitmask ``allowed``, or -1 (only when ``optional``,
    classic).

    The character whose powers pay most on her own city, among those that may be in play."""
    return best_rank(st, tb, s, unseen(st, allowed, allowed), 1.0)


@inline
def choose_warrants(st, tb, s, allowed):
    """Magistrate: (signed, other, other) rank indices from bitmask ``allowed``.

    The signed warrant on the character he expects the leader to hold."""
    return warrants_for(st, s, allowed, predict_rank(st, tb, s, leader(st, s),
                                                     unseen(st, allowed, allowed)))


@inline
def choose_threats(st, tb, s, allowed):
    """Blackmailer: (real, bluff) rank indices from bitmask ``allowed``.

    The flower on the character she expects the richest player to hold."""
    return threats_for(st, s, allowed, predict_rank(st, tb, s, richest(st, s),
                                                    unseen(st, allowed, allowed)))


@inline
def choose_bribe(st, tb, s, amount):
    """Threatened seat ``s``: pay the bribe ``amount`` (True) or refuse (False)?

    Half the stash for sure against, at worst, the whole stash: he pays."""
    return True


@inline
def choose_reveal_threat(st, tb, s, real):
    """Blackmailer ``s``, refused: reveal the marker (she knows whether it is the flower)?"""
    return real


@inline
def choose_beautify(st, tb, s):
    """Artist: city index of a district seat ``s`` beautifies now (1 gold), or -1.

    Spare gold (beyond his reserve, or any gold once a city is 2 districts from complete) on
    his dearest district; with a Basilica, even costs first."""
    if st.p[s, P_GOLD] < 1:
        return -1
    ld = leader(st, s)
    late = max(city_size(st, s), city_size(st, ld) if ld >= 0 else 0) >= st.g[G_N_COMPLETE] - 2
    if not late and st.p[s, P_GOLD] - 1 < st.params[s, PR_GOLD_RESERVE] + 3:
        return -1
    best, ties, pick = NOTHING
    for i in range(st.p[s, P_CITY_N]):
        if beautified(st, s, i):
            continue
        v = float(slot_cost(st, tb, s, i))
        if has(st, s, D_BASILICA) and slot_cost(st, tb, s, i) % 2 == 0:
            v += 3.0
        best, ties, pick = offer(st, s, v, i, best, ties, pick)
    return pick


@inline
def choose_abbot_payer(st, tb, s):
    """Abbot ``s``: which of the richest players pays him.

    One of them at random."""
    return richest(st, s)
