"""One character's turn (RULES.md §2.5), in the order the rules fix.

1. reveal: the theft, then the character's on-reveal effects;
2. start-of-turn abilities; 3. gather; 4. after-gather extras;
5. colour income, before or after building as the strategy prefers;
6. district actions (Laboratory, Smithy), then builds up to the limit;
7. end-of-turn abilities.

Character-specific work happens only in the hooks of :mod:`characters` and district work
in :mod:`districts`; this loop never names a character or a district.
"""

from .jit import hot

from .characters import after_gather, before_gather, end_of_turn, on_reveal, robbery, take_income
from .districts import build_from_hand, gather, turn_actions
from .layout import (G_BUILDS_LEFT, G_RANK_CHAR, G_RULESET, G_TURN_BUILD_GOLD, G_TURN_BUILT,
                     G_TURN_CHAR, G_TURN_RANK, G_TURN_SEAT, G_TURN_USED, P_REVEALED, R_FOUR_COLOR,
                     U_GATHERED, U_INCOME)
from .log import EV_CALL, event
from .policy import choose_build, choose_income_first
from .rules import build_limit, counts_toward_limit, income_type


@hot
def play_turn(st, tb, r, s):
    """Seat ``s`` plays the rank-``r`` character's turn."""
    g = st.g
    ch = st.g[G_RANK_CHAR + r]
    g[G_TURN_RANK] = r
    g[G_TURN_SEAT] = s
    g[G_TURN_USED] = 0
    g[G_TURN_CHAR] = ch
    g[G_TURN_BUILD_GOLD] = 0
    g[G_TURN_BUILT] = 0
    g[G_BUILDS_LEFT] = build_limit(ch)
    st.p[s, P_REVEALED] = max(st.p[s, P_REVEALED], r + 1)
    event(st, EV_CALL, s, r)
    robbery(st, s, r)
    on_reveal(st, tb, ch, s, r)
    before_gather(st, tb, ch, s, r)
    gather(st, tb, s, r)
    g[G_TURN_USED] |= U_GATHERED
    after_gather(st, tb, ch, s, r)
    itype = income_type(ch)
    if (itype >= 0 and g[G_RULESET] != R_FOUR_COLOR
            and choose_income_first(st, tb, s, itype)):
        take_income(st, tb, ch, s, r)
    turn_actions(st, tb, s, r)
    while True:  # choose_build offers only builds the limit still allows
        i = choose_build(st, tb, s)
        if i < 0:
            break
        if counts_toward_limit(st, tb, st.hand[s, i]):
            g[G_BUILDS_LEFT] -= 1
        build_from_hand(st, tb, s, r, i)
    if itype >= 0 and not g[G_TURN_USED] & U_INCOME:
        take_income(st, tb, ch, s, r)
    end_of_turn(st, tb, ch, s, r)
    g[G_TURN_RANK] = -1
    g[G_TURN_SEAT] = -1
    g[G_TURN_CHAR] = -1
