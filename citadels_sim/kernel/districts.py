"""District effects used during a turn, dispatched by district kind.

Gather modifiers (Observatory, Library, Gold Mine), build payment (Factory via
``rules.build_cost``, Thieves' Den), once-per-turn actions (Laboratory, Smithy) and what
happens to a destroyed district (Graveyard).  Scoring effects live in ``scoring``; the
rules that forbid or price an action live in ``rules``.  A new district adds its case to
the function that handles the moment it acts.
"""

from .jit import hot_inline

from .layout import (CH_TAX_COLLECTOR, D_GOLD_MINE, D_GRAVEYARD, D_LABORATORY, D_LIBRARY,
                     D_OBSERVATORY, D_PARK, D_POOR_HOUSE, D_SMITHY, G_DECK_N, G_NP, G_RANK_CHAR,
                     G_ROUND, G_RULESET, G_TAX_PILE, G_TURN_BUILD_GOLD, G_TURN_BUILT, G_TURN_CHAR,
                     G_TURN_USED, P_GOLD, P_HAND_N, RANK_9, R_2016, U_ASSIST, U_LABORATORY,
                     U_SMITHY)
from .log import (EV_ASSIST, EV_PARK, EV_POOR_HOUSE, EV_TAX, EV_BUILD, EV_DESTROY, EV_GATHER_CARDS, EV_GATHER_GOLD, EV_GRAVEYARD,
                  EV_LABORATORY, EV_SMITHY, event)
from .policy import (choose_assist_donor, choose_card_payment, choose_gather_cards,
                     choose_graveyard, choose_keep, choose_laboratory, choose_payment_card,
                     choose_smithy)
from .rules import build_cost
from .state import (city_add, city_take, draw, gain, gain_cards, hand_add, hand_take, has, pay,
                    to_bottom, transfer)


@hot_inline
def gather(st, tb, s, r):
    """The mandatory gather action: 2 gold (+1 Gold Mine), or draw 2 keep 1 (Observatory:
    draw 3; Library: keep all).  The draw option needs a non-empty deck."""
    if st.g[G_DECK_N] > 0 and choose_gather_cards(st, tb, s):
        want = 3 if has(st, s, D_OBSERVATORY) else 2
        start = st.p[s, P_HAND_N]
        n = 0
        while n < want:
            card = draw(st)
            if card < 0:
                break
            hand_add(st, s, card)
            n += 1
        keep_all = has(st, s, D_LIBRARY)
        kept = st.hand[s, start]
        if not keep_all and n > 1:
            k = choose_keep(st, tb, s, st.hand[s, start:start + n], n)
            kept = st.hand[s, start + k]
            for i in range(start + n - 1, start - 1, -1):
                if i != start + k:
                    to_bottom(st, hand_take(st, s, i))
        event(st, EV_GATHER_CARDS, s, r, n, n if keep_all else min(n, 1), kept)
    else:
        n = 3 if st.g[G_RULESET] == R_2016 and has(st, s, D_GOLD_MINE) else 2
        gain(st, s, n)
        event(st, EV_GATHER_GOLD, s, r, n)


@hot_inline
def build_from_hand(st, tb, s, r, i):
    """Build hand card ``i`` into seat ``s``'s city, paying gold (and cards: Thieves' Den)."""
    kind = st.hand[s, i]
    cost = build_cost(st, tb, s, kind)
    cards = choose_card_payment(st, tb, s, kind, cost)  # decided while the card is in hand
    hand_take(st, s, i)
    for _ in range(cards):
        to_bottom(st, hand_take(st, s, choose_payment_card(st, tb, s)))
    short = cost - cards - st.p[s, P_GOLD]
    donor = -1
    if short > 0:  # the Cardinal takes exactly the shortfall, 1 card per gold (D32)
        st.g[G_TURN_USED] |= U_ASSIST
        donor = choose_assist_donor(st, tb, s, short)
        transfer(st, donor, s, short)
        for _ in range(short):
            hand_add(st, donor, hand_take(st, s, choose_payment_card(st, tb, s)))
    pay(st, s, cost - cards)
    st.g[G_TURN_BUILD_GOLD] += cost - cards
    st.g[G_TURN_BUILT] += 1
    city_add(st, tb, s, kind, st.g[G_ROUND])
    event(st, EV_BUILD, s, r, kind, cost, cost - cards, cards)
    if donor >= 0:
        event(st, EV_ASSIST, s, r, donor, short)
    build_triggers(st, s, r)


@hot_inline
def build_triggers(st, s, r):
    """After each build (RULES.md §2.5.3): the 2016 tax, 1 gold to the pile if the builder
    has any, unless the Tax Collector's powers apply to this turn (D49)."""
    g = st.g
    if (g[G_RANK_CHAR + RANK_9] == CH_TAX_COLLECTOR and g[G_TURN_CHAR] != CH_TAX_COLLECTOR
            and st.p[s, P_GOLD] >= 1):
        st.p[s, P_GOLD] -= 1
        g[G_TAX_PILE] += 1
        event(st, EV_TAX, s, r, 1)


@hot_inline
def turn_actions(st, tb, s, r):
    """Once-per-turn district actions taken before building: Laboratory, Smithy."""
    g = st.g
    if has(st, s, D_LABORATORY) and not g[G_TURN_USED] & U_LABORATORY:
        i = choose_laboratory(st, tb, s)
        if i >= 0:
            g[G_TURN_USED] |= U_LABORATORY
            card = hand_take(st, s, i)
            to_bottom(st, card)
            bonus = 2 if g[G_RULESET] == R_2016 else 1
            gain(st, s, bonus)
            event(st, EV_LABORATORY, s, r, card, bonus)
    if (has(st, s, D_SMITHY) and not g[G_TURN_USED] & U_SMITHY and st.p[s, P_GOLD] >= 2
            and g[G_DECK_N] > 0 and choose_smithy(st, tb, s)):
        g[G_TURN_USED] |= U_SMITHY
        pay(st, s, 2)
        event(st, EV_SMITHY, s, r, gain_cards(st, s, 3))


@hot_inline
def end_of_turn_districts(st, tb, s, r):
    """Poor House (stash 0: +1 gold) and Park (empty hand: gain 2 cards), before the
    Alchemist's refund (RULES.md §2.5 Step 5)."""
    if has(st, s, D_POOR_HOUSE) and st.p[s, P_GOLD] == 0:
        gain(st, s, 1)
        event(st, EV_POOR_HOUSE, s, r, 1)
    if has(st, s, D_PARK) and st.p[s, P_HAND_N] == 0:
        event(st, EV_PARK, s, r, gain_cards(st, s, 2))


@hot_inline
def destroy_district(st, tb, s, r, target, i, cost):
    """District ``i`` of ``target``'s city is destroyed by the Warlord of seat ``s``: it goes
    to the bottom of the deck, unless a Graveyard owner (not the Warlord) buys it for 1."""
    kind = city_take(st, tb, target, i)
    saver = -1
    for o in range(st.g[G_NP]):
        if (o != s and has(st, o, D_GRAVEYARD) and st.p[o, P_GOLD] >= 1
                and choose_graveyard(st, tb, o, kind)):
            saver = o
            break
    if saver >= 0:
        pay(st, saver, 1)
        hand_add(st, saver, kind)
    else:
        to_bottom(st, kind)
    event(st, EV_DESTROY, s, r, target, kind, cost)
    if saver >= 0:
        event(st, EV_GRAVEYARD, saver, -1, kind)
