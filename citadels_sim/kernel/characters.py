"""Character powers, dispatched by character id at fixed points of a turn.

The turn loop (:mod:`citadels_sim.kernel.turn`) calls four hooks, each a ``switch`` on the
character id; a new character adds its cases here (and its decisions in ``policy``) without
touching the turn loop:

``on_reveal``      Step 1 effects after the theft (crown, four_color automatic income)
``before_gather``  abilities used at the start of the turn (Assassin, Thief, Magician)
``after_gather``   extras granted after the gather action (Merchant +1, Architect +2 cards)
``end_of_turn``    abilities used at the end of the turn (Warlord destroy)
"""

from .jit import hot, hot_inline

from .districts import destroy_district
from .layout import (CH_ARCHITECT, CH_ASSASSIN, CH_KING, CH_MAGICIAN, CH_MERCHANT, CH_THIEF,
                     CH_WARLORD, G_CROWN, G_HOLDER, G_KILLED, G_NRANKS, G_ROBBED, G_ROBBER,
                     G_RULESET, G_TURN_USED, P_GOLD, P_HAND_N, R_FOUR_COLOR, U_INCOME)
from .log import (EV_BONUS_CARDS, EV_BONUS_GOLD, EV_CROWN, EV_INCOME, EV_KILL, EV_REDRAW,
                  EV_ROB, EV_SWAP, EV_THEFT, event)
from .policy import choose_destroy, choose_magician, choose_redraw, choose_target_rank
from .rules import income_count, income_type, warlord_cost
from .state import gain, gain_cards, hand_take, pay, to_bottom, transfer


@hot_inline
def take_crown(st, s, r):
    """Seat ``s`` takes the crown (rank index ``r`` acting)."""
    prev = st.g[G_CROWN]
    st.g[G_CROWN] = s
    event(st, EV_CROWN, s, r, prev)


@hot_inline
def take_income(st, tb, ch, s, r):
    """Colour income: 1 gold per district of the character's type (once, all at once)."""
    it = income_type(ch)
    if it < 0 or st.g[G_TURN_USED] & U_INCOME:
        return
    st.g[G_TURN_USED] |= U_INCOME
    n = income_count(st, tb, s, it)
    gain(st, s, n)
    event(st, EV_INCOME, s, r, n, it)


@hot_inline
def _extras(st, ch, s, r):
    if ch == CH_MERCHANT:
        gain(st, s, 1)
        event(st, EV_BONUS_GOLD, s, r, 1)
    elif ch == CH_ARCHITECT:
        event(st, EV_BONUS_CARDS, s, r, gain_cards(st, s, 2))


@hot_inline
def on_reveal(st, tb, ch, s, r):
    """Step 1 effects of the character, after any theft."""
    if st.g[G_RULESET] == R_FOUR_COLOR:
        take_income(st, tb, ch, s, r)
        _extras(st, ch, s, r)
    if ch == CH_KING:
        take_crown(st, s, r)


@hot
def own_ranks(st, s):
    """Bitmask of the ranks seat ``s`` holds this round."""
    m = 0
    for r in range(st.g[G_NRANKS]):
        if st.g[G_HOLDER + r] == s:
            m |= 1 << r
    return m


@hot_inline
def before_gather(st, tb, ch, s, r):
    """Abilities the character uses at the start of its turn."""
    g = st.g
    everyone = (1 << g[G_NRANKS]) - 1
    if ch == CH_ASSASSIN:
        target = choose_target_rank(st, tb, s, everyone & ~(1 << r), own_ranks(st, s), False)
        g[G_KILLED] = target
        event(st, EV_KILL, s, r, target)
    elif ch == CH_THIEF:
        # never rank 1, the killed character or himself (C, P, F alike for the base set)
        allowed = everyone & ~1 & ~(1 << r)
        if g[G_KILLED] >= 0:
            allowed &= ~(1 << g[G_KILLED])
        target = choose_target_rank(st, tb, s, allowed, own_ranks(st, s), True)
        g[G_ROBBED] = target
        g[G_ROBBER] = s
        event(st, EV_ROB, s, r, target)
    elif ch == CH_MAGICIAN:
        _magic(st, tb, s, r)


@hot_inline
def _magic(st, tb, s, r):
    mode, target = choose_magician(st, tb, s)
    if mode == 1:
        gave = st.p[s, P_HAND_N]
        got = st.p[target, P_HAND_N]
        for i in range(max(gave, got)):
            t = st.hand[s, i]
            st.hand[s, i] = st.hand[target, i]
            st.hand[target, i] = t
        st.p[s, P_HAND_N] = got
        st.p[target, P_HAND_N] = gave
        event(st, EV_SWAP, s, r, target, gave, got)
    elif mode == 2:
        # D5: the cards go to the bottom first, then as many are drawn from the top
        n = 0
        i = st.p[s, P_HAND_N] - 1
        while i >= 0:
            if choose_redraw(st, tb, s, i):
                to_bottom(st, hand_take(st, s, i))
                n += 1
            i -= 1
        gain_cards(st, s, n)
        event(st, EV_REDRAW, s, r, n)


@hot_inline
def after_gather(st, tb, ch, s, r):
    """Extras that come after the gather action (classic and 2016; four_color: on reveal)."""
    if st.g[G_RULESET] != R_FOUR_COLOR:
        _extras(st, ch, s, r)


@hot_inline
def end_of_turn(st, tb, ch, s, r):
    """Abilities used at the end of the turn (classic timing; legal in 2016 and four_color)."""
    if ch == CH_WARLORD:
        target, i = choose_destroy(st, tb, s)
        if target >= 0:
            cost = warlord_cost(st, tb, target, i)
            pay(st, s, cost)
            destroy_district(st, tb, s, r, target, i, cost)


@hot_inline
def robbery(st, s, r):
    """On reveal of the robbed character: the Thief's holder takes the whole stash."""
    g = st.g
    if g[G_ROBBED] != r:
        return
    gold = st.p[s, P_GOLD]
    transfer(st, s, g[G_ROBBER], gold)
    event(st, EV_THEFT, g[G_ROBBER], r, s, gold)
