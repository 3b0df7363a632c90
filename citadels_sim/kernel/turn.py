"""One character's turn (docs/rules.md §2.5), in the order the rules fix.

1. reveal: the theft; a threatened character gathers and answers the Blackmailer; then the
   character's on-reveal effects;
2. start-of-turn abilities; 3. gather (unless done); 4. after-gather extras and abilities;
5. colour income, before or after building as the strategy prefers;
6. district actions (Laboratory, Smithy, Museum, Armory), then builds up to the limit;
7. end-of-turn abilities and effects.

Three variants share these steps: a bewitched character's call (its holder only gathers)
followed by the Witch's resumed turn as that character, and the classic Hospital's turn
for a killed holder (reveal and gather only).  Character-specific work happens only in the
hooks of :mod:`characters` and district work in :mod:`districts`; this module never names
a character or a district.
"""

from .jit import hot, inline

from .characters import (after_gather, before_gather, end_of_turn, on_reveal, resolve_threat,
                         robbery, take_income)
from .districts import build_from_hand, gather, turn_actions
from .layout import (G_BEWITCHED, G_BUILDS_LEFT, G_RANK_CHAR, G_RULESET, G_THREATS,
                     G_TURN_BUILD_GOLD, G_TURN_BUILT, G_TURN_CHAR, G_TURN_OVER, G_TURN_RANK,
                     G_TURN_SEAT, G_TURN_USED, P_REVEALED, P_SHOWN, R_FOUR_COLOR, U_GATHERED,
                     U_INCOME)
from .log import EV_CALL, EV_RESUME, event
from .bots.dispatch import choose_build, choose_income_first
from .rules import build_limit, counts_toward_limit, income_type


@hot
def _open(st, ch, r, s):
    """Start the turn of rank ``r`` (character ``ch``) played by seat ``s``."""
    g = st.g
    g[G_TURN_RANK] = r
    g[G_TURN_SEAT] = s
    g[G_TURN_USED] = 0
    g[G_TURN_CHAR] = ch
    g[G_TURN_BUILD_GOLD] = 0
    g[G_TURN_BUILT] = 0
    g[G_TURN_OVER] = 0
    g[G_BUILDS_LEFT] = build_limit(st, r)


@hot
def _close(st):
    st.g[G_TURN_RANK] = -1
    st.g[G_TURN_SEAT] = -1
    st.g[G_TURN_CHAR] = -1


@hot
def _reveal(st, r, s):
    """Seat ``s`` reveals rank ``r``: the call, then the theft."""
    st.p[s, P_REVEALED] = max(st.p[s, P_REVEALED], r + 1)
    st.p[s, P_SHOWN + r] += 1
    event(st, EV_CALL, s, r, 0, 0, 0, 0)
    robbery(st, s, r)


@hot
def _gather(st, tb, s, r):
    gather(st, tb, s, r)
    st.g[G_TURN_USED] |= U_GATHERED


@inline
def _play(st, tb, ch, s, r):
    """Steps 1 (on-reveal effects) to 7 of the turn; the gather only if not yet done (inlined
    into :func:`play_turn`, its one caller: one compiled copy of the turn, not two)."""
    g = st.g
    on_reveal(st, tb, ch, s, r)
    before_gather(st, tb, ch, s, r)
    if not g[G_TURN_USED] & U_GATHERED:
        _gather(st, tb, s, r)
    after_gather(st, tb, ch, s, r)
    if g[G_TURN_OVER]:  # a power ended the turn at once (the Witch named her victim)
        return
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
        build_from_hand(st, tb, s, r, i, False)
    if itype >= 0 and not g[G_TURN_USED] & U_INCOME:
        take_income(st, tb, ch, s, r)
    end_of_turn(st, tb, ch, s, r)


@inline
def play_turn(st, tb, r, s):
    """Seat ``s`` plays the rank-``r`` character's turn.

    The bewitched rank's holder only gathers (:func:`gather_only_turn`), so its turn here is
    the Witch's: ``s`` resumes her turn as that character, with its abilities and limits on
    her own city, hand and stash, without revealing or gathering again; her end-of-turn
    effects come at its end (docs/rules.md §3 Witch).  One body serves both, inlined into
    :func:`.game.play_game`'s one call of it."""
    ch = st.g[G_RANK_CHAR + r]
    _open(st, ch, r, s)
    if st.g[G_BEWITCHED] == r:
        st.g[G_TURN_USED] |= U_GATHERED
        event(st, EV_RESUME, s, r, 0, 0, 0, 0)
    else:
        _reveal(st, r, s)
        if (st.g[G_THREATS] >> r) & 1:  # threatened: gather first, then answer the threat
            _gather(st, tb, s, r)
            resolve_threat(st, tb, s, r)
    _play(st, tb, ch, s, r)
    _close(st)


@hot
def gather_only_turn(st, tb, r, s):
    """A call in which the holder ``s`` of rank ``r`` reveals it and gathers (with his
    gather-time district effects) and does nothing else: a bewitched character's holder
    (docs/rules.md §3 Witch), or a killed holder who owns the classic Hospital (D28)."""
    _open(st, st.g[G_RANK_CHAR + r], r, s)
    _reveal(st, r, s)
    _gather(st, tb, s, r)
    _close(st)
