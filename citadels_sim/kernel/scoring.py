"""End of game: scores (docs/rules.md §5.2), tie-breaks and places (§5.3)."""

from .jit import hot

from .layout import (D_BASILICA, D_CAPITOL, D_DRAGON_GATE, D_HAUNTED, D_IMPERIAL_TREASURY,
                     D_IVORY_TOWER, D_MAP_ROOM, D_MUSEUM, D_SECRET_VAULT, D_STATUE, D_UNIVERSITY,
                     D_WISHING_WELL, G_COLOUR_BONUS, G_COMPLETE_BONUS, G_CROWN, G_FIRST,
                     G_FIRST_BONUS, G_NP, G_PILE_N, G_ROUND, G_RULESET, G_SCRATCH, K_TYPE, N_TYPES,
                     P_CITY_N, P_COLOURS, P_COMPLETE, P_EXTRAS, P_GOLD, P_HAND_N, P_PLACE,
                     P_REVEALED, P_SCORE, P_VALUE, R_2016, R_CLASSIC, R_FOUR_COLOR, T_UNIQUE)
from .rules import has, is_complete, slot_cost
from .state import built_by, built_round


@hot
def _bonus_and_extras(st, tb, s):
    """Colour bonus plus the type-dependent extras for the type counts in the scratch
    space ``g[G_SCRATCH:G_SCRATCH + N_TYPES]`` (filled by :func:`score_seat`)."""
    counts = st.g[G_SCRATCH:G_SCRATCH + N_TYPES]
    rs = st.g[G_RULESET]
    need = N_TYPES - 1 if rs == R_FOUR_COLOR else N_TYPES
    colours = st.g[G_COLOUR_BONUS]
    for t in range(need):
        if counts[t] == 0:
            colours = 0
    extra = 0
    if has(st, s, D_WISHING_WELL):
        # classic: other purple districts; 2016: unique districts, itself included
        extra += counts[T_UNIQUE] - (1 if rs == R_CLASSIC else 0)
    if has(st, s, D_CAPITOL):
        for t in range(N_TYPES):
            if counts[t] >= 3:
                extra += 3
                break
    if has(st, s, D_IVORY_TOWER) and counts[T_UNIQUE] == 1:
        extra += 5
    return colours, extra


@hot
def score_seat(st, tb, s):
    """Seat ``s``'s score in the final state as (total, district value, colour bonus,
    completion bonus, district extras); the Haunted City/Quarter takes the type that
    maximises the total (D23)."""
    g = st.g
    counts = st.g[G_SCRATCH:G_SCRATCH + N_TYPES]
    counts[:] = 0
    value = 0
    free = 0  # haunted districts whose type may be chosen
    for i in range(st.p[s, P_CITY_N]):
        kind = st.city[s, i]
        value += slot_cost(st, tb, s, i)
        # classic: no choice for the one who built it in the last round (D44)
        last_round = g[G_RULESET] == R_CLASSIC and built_round(st, s, i) == g[G_ROUND] \
            and built_by(st, s, i) == s
        if kind == D_HAUNTED and not last_round:
            free += 1
        else:
            counts[tb.kinds[K_TYPE, kind]] += 1
    complete = 0
    if is_complete(st, s):
        complete = g[G_FIRST_BONUS] if g[G_FIRST] == s else g[G_COMPLETE_BONUS]
    extras = 0
    if has(st, s, D_DRAGON_GATE):
        extras += 2
    if has(st, s, D_UNIVERSITY):
        extras += 2
    if has(st, s, D_IMPERIAL_TREASURY):
        extras += st.p[s, P_GOLD]
    if has(st, s, D_MAP_ROOM):
        extras += st.p[s, P_HAND_N]
    if has(st, s, D_STATUE) and g[G_CROWN] == s:
        extras += 5
    if has(st, s, D_BASILICA):
        for i in range(st.p[s, P_CITY_N]):
            extras += slot_cost(st, tb, s, i) % 2
    if has(st, s, D_MUSEUM):
        extras += g[G_PILE_N]
    for i in range(st.p[s, P_HAND_N]):  # the Secret Vault scores from the hand
        if st.hand[s, i] == D_SECRET_VAULT:
            extras += 3
    best, best_colours, best_extra = -1, 0, 0
    combos = N_TYPES ** free
    for c in range(combos):
        code = c
        for _ in range(free):
            counts[code % N_TYPES] += 1
            code //= N_TYPES
        colours, extra = _bonus_and_extras(st, tb, s)
        if colours + extra > best:
            best, best_colours, best_extra = colours + extra, colours, extra
        code = c
        for _ in range(free):
            counts[code % N_TYPES] -= 1
            code //= N_TYPES
    return (value + complete + extras + best, value, best_colours, complete,
            extras + best_extra)


@hot
def score_game(st, tb):
    """Fill P_SCORE, P_VALUE and P_PLACE for every seat (competition ranking)."""
    g = st.g
    n = g[G_NP]
    rs = g[G_RULESET]
    for s in range(n):
        total, value, colours, complete, extras = score_seat(st, tb, s)
        st.p[s, P_SCORE] = total
        st.p[s, P_VALUE] = value
        st.p[s, P_COLOURS] = colours
        st.p[s, P_COMPLETE] = complete
        st.p[s, P_EXTRAS] = extras
    for s in range(n):
        place = 1
        for o in range(n):
            if _beats(st, rs, o, s):
                place += 1
        st.p[s, P_PLACE] = place


@hot
def _beats(st, rs, a, b):
    """Does seat ``a`` finish strictly ahead of seat ``b`` under the ruleset's tie-break?"""
    pa, pb = st.p[a], st.p[b]
    if pa[P_SCORE] != pb[P_SCORE]:
        return pa[P_SCORE] > pb[P_SCORE]
    if rs == R_CLASSIC:
        if pa[P_VALUE] != pb[P_VALUE]:
            return pa[P_VALUE] > pb[P_VALUE]
        return pa[P_GOLD] > pb[P_GOLD]
    if rs == R_2016:
        return pa[P_REVEALED] > pb[P_REVEALED]
    return False
