"""District rules shared by every phase: build legality and cost, protection, destruction.

District effects are dispatched here by district kind (``D_*``); a new district adds its
case to the function that concerns it (build cost, build legality, destruction cost ...).
"""

from .jit import hot

from .layout import (CH_ABBOT, CH_BISHOP, CH_CARDINAL, CH_DIPLOMAT, CH_EMPEROR, CH_KING, CH_MARSHAL,
                     CH_MERCHANT, CH_NAVIGATOR, CH_PATRICIAN, CH_TRADER, CH_WARLORD, CH_WIZARD,
                     D_ARMORY, D_FACTORY, D_FRAMEWORK, D_GREAT_WALL, D_KEEP, D_MONUMENT,
                     D_NECROPOLIS, D_QUARRY, D_SCHOOL_OF_MAGIC, D_SECRET_VAULT, D_STABLES,
                     D_THIEVES_DEN, G_BEWITCHED, G_BUILD_LIMIT, G_BUILDS_LEFT, G_HOLDER, G_KILLED,
                     G_MARSHAL_MAX, G_NP, G_NRANKS, G_N_COMPLETE, G_RANK_CHAR, G_ROBBED, G_RULESET,
                     G_TURN_CHAR,
                     G_TURN_SEAT, G_TURN_USED, G_WARLORD_DISCOUNT, G_WITCH, K_COST, K_TYPE,
                     P_CITY_N, P_GOLD, P_HAND_N, P_KINDS, P_TYPES, RANK_BISHOP, R_2016, R_CLASSIC,
                     T_MILITARY, T_NOBLE, T_RELIGIOUS, T_TRADE, T_UNIQUE, U_ASSIST)
from .state import beautified, city_size, has


@hot
def is_complete(st, s):
    return city_size(st, s) >= st.g[G_N_COMPLETE]


@hot
def slot_cost(st, tb, s, i):
    """Cost of district ``i`` of seat ``s``'s city: printed, +1 if the Artist beautified it."""
    return tb.kinds[K_COST, st.city[s, i]] + beautified(st, s, i)


@hot
def build_cost(st, tb, s, kind):
    """Gold needed to build ``kind``: printed cost, less 1 for other purples with a Factory."""
    c = tb.kinds[K_COST, kind]
    if tb.kinds[K_TYPE, kind] == T_UNIQUE and kind != D_FACTORY and has(st, s, D_FACTORY):
        c -= 1
    return c


@hot
def duplicate_allowed(st, s, kind):
    """May seat ``s`` build ``kind`` although its name is already in his city?  (The whole
    Wizard's turn, D18; the Quarry.)"""
    if st.g[G_TURN_CHAR] == CH_WIZARD and st.g[G_TURN_SEAT] == s:
        return True
    if not has(st, s, D_QUARRY):
        return False
    if st.g[G_RULESET] == R_2016:
        return True
    # classic Quarry: at most one duplicated name in the city at a time (D45)
    n = st.p[s, P_CITY_N]
    for i in range(n):
        if st.p[s, P_KINDS + st.city[s, i]] > 1:
            return False
    return True


@hot
def max_card_payment(st, s, kind):
    """How many hand cards may pay toward building ``kind`` (Thieves' Den), the card itself excluded."""
    if kind == D_THIEVES_DEN:
        return st.p[s, P_HAND_N] - 1
    return 0


@hot
def counts_toward_limit(st, tb, kind):
    """Does building ``kind`` in this turn use up one of the turn's builds?"""
    if st.g[G_TURN_CHAR] == CH_TRADER and tb.kinds[K_TYPE, kind] == T_TRADE:
        return False
    return kind != D_STABLES


@hot
def within_limit(st, tb, kind):
    """Does this turn's build limit still allow building ``kind``?  (The Navigator builds
    nothing at all, not even the Stables.)"""
    if st.g[G_TURN_CHAR] == CH_NAVIGATOR:
        return False
    return st.g[G_BUILDS_LEFT] > 0 or not counts_toward_limit(st, tb, kind)


@hot
def may_enter(st, s, kind):
    """May district ``kind`` be built into (or confiscated into) seat ``s``'s city, payment
    aside?  Never the Secret Vault, nor the Monument into a city of 5 or more
    (docs/rules.md §4.3)."""
    return not (kind == D_SECRET_VAULT or (kind == D_MONUMENT and st.p[s, P_CITY_N] >= 5))


@hot
def may_confiscate(st, m, kind):
    """May the Magistrate at seat ``m`` take district ``kind`` into his city: none of its
    name there (even with a Quarry), and it may enter (D33)?"""
    return not has(st, m, kind) and may_enter(st, m, kind)


@hot
def affordable(st, tb, s, kind):
    """Can seat ``s`` pay for ``kind`` with gold, cards (Thieves' Den) and a Cardinal's assist?"""
    cards = max_card_payment(st, s, kind)
    short = build_cost(st, tb, s, kind) - st.p[s, P_GOLD] - cards
    return short <= 0 or assist_donor_exists(st, s, short, cards)


@hot
def framework_build(st, s, kind):
    """May seat ``s`` build ``kind`` by destroying his Framework instead of paying?  Not from
    a complete city (D24)."""
    return kind != D_FRAMEWORK and has(st, s, D_FRAMEWORK) and not is_complete(st, s)


@hot
def necropolis_build(st, s, kind):
    """May seat ``s`` build the Necropolis by destroying one of his districts?  Not from a
    complete city (D24)."""
    return kind == D_NECROPOLIS and st.p[s, P_CITY_N] > 0 and not is_complete(st, s)


@hot
def legal_build(st, s, kind):
    """May district ``kind`` enter seat ``s``'s city (duplicates and entry rules; cost and
    limit aside)?"""
    return may_enter(st, s, kind) and (not has(st, s, kind) or duplicate_allowed(st, s, kind))


@hot
def can_build(st, tb, s, kind):
    """Is the hand card ``kind`` legal and affordable for seat ``s`` (limit aside), paid or
    built by destroying the Framework or, for the Necropolis, a district?"""
    return legal_build(st, s, kind) and (affordable(st, tb, s, kind)
                                         or framework_build(st, s, kind)
                                         or necropolis_build(st, s, kind))


@hot
def can_pay_build(st, tb, s, kind):
    """Is the hand card ``kind`` legal for seat ``s`` and can he *pay* for it (gold, cards
    for the Thieves' Den, a Cardinal's assist)?  The Wizard's immediate build."""
    return legal_build(st, s, kind) and affordable(st, tb, s, kind)


@hot
def assist_donor_exists(st, s, short, cards):
    """Cardinal (D32): once per turn, may another player give the gold shortfall ``short``
    of a build, against as many cards from hand (not the card being built, nor the
    ``cards`` paying for it)?"""
    g = st.g
    if (g[G_TURN_CHAR] != CH_CARDINAL or g[G_TURN_SEAT] != s or g[G_TURN_USED] & U_ASSIST
            or st.p[s, P_HAND_N] - 1 - cards < short):
        return False
    for o in range(g[G_NP]):
        if o != s and st.p[o, P_GOLD] >= short:
            return True
    return False


@hot
def bishop_protects(st, tb, s):
    """Are seat ``s``'s districts protected by a living Bishop this round?  A bewitched
    Bishop protects the Witch's city, not his holder's (docs/rules.md §3 Witch)."""
    g = st.g
    if (g[G_RANK_CHAR + RANK_BISHOP] != CH_BISHOP or g[G_HOLDER + RANK_BISHOP] < 0
            or g[G_KILLED] == RANK_BISHOP):
        return False
    if g[G_BEWITCHED] == RANK_BISHOP:
        return g[G_WITCH] == s
    return g[G_HOLDER + RANK_BISHOP] == s


@hot
def warlord_cost(st, tb, target, i):
    """Gold the Warlord pays to destroy district ``i`` of ``target``'s city (Great Wall, D20)."""
    kind = st.city[target, i]
    c = max(0, slot_cost(st, tb, target, i) - st.g[G_WARLORD_DISCOUNT])
    if has(st, target, D_GREAT_WALL) and (st.g[G_RULESET] != R_CLASSIC or kind != D_GREAT_WALL):
        c += 1
    return c


@hot
def marshal_cost(st, tb, target, i):
    """Gold the Marshal pays the owner to seize district ``i`` of ``target``'s city (D20)."""
    return slot_cost(st, tb, target, i) + (1 if has(st, target, D_GREAT_WALL) else 0)


@hot
def seizable(st, tb, s, target, i):
    """May the Marshal of seat ``s`` seize district ``i`` of ``target``'s city (cost aside)?"""
    kind = st.city[target, i]
    return (target != s and slot_cost(st, tb, target, i) <= st.g[G_MARSHAL_MAX] and kind != D_KEEP
            and not has(st, s, kind) and not is_complete(st, target)
            and not bishop_protects(st, tb, target))


@hot
def exchange_cost(st, tb, s, mine, target, theirs):
    """Gold the Diplomat of seat ``s`` pays ``target`` to swap his district ``mine`` for the
    target's district ``theirs``: the positive cost difference, +1 in 2016 if the target's
    city has a Great Wall (D20)."""
    diff = slot_cost(st, tb, target, theirs) - slot_cost(st, tb, s, mine)
    wall = 1 if st.g[G_RULESET] == R_2016 and has(st, target, D_GREAT_WALL) else 0
    return max(0, diff) + wall


@hot
def exchangeable(st, tb, s, mine, target, theirs):
    """May the Diplomat of seat ``s`` swap district ``mine`` of his city for ``theirs`` of
    ``target``'s (cost aside)?  Never the Keep (either side, D19/D41), never a protected
    Bishop's districts (his own too, D8), never from a complete city (classic: nor from his
    own), never leaving two districts of one name in a city (the Quarry does not help)."""
    a = st.city[s, mine]
    b = st.city[target, theirs]
    if target == s or a == D_KEEP or b == D_KEEP:
        return False
    if bishop_protects(st, tb, target) or bishop_protects(st, tb, s):
        return False
    if is_complete(st, target) or (st.g[G_RULESET] == R_CLASSIC and is_complete(st, s)):
        return False
    return a == b or not (has(st, s, b) or has(st, target, a))


@hot
def armory_target(st, tb, s, target, i):
    """May seat ``s`` destroy his Armory to destroy district ``i`` of ``target``'s city?
    Classic: another player's city; 2016: any city.  Never in a complete city, his own
    included (D24, D30); the Keep, the Bishop and the Great Wall do not stop it."""
    if is_complete(st, s) or is_complete(st, target):
        return False
    if target == s:
        return st.g[G_RULESET] == R_2016 and st.city[s, i] != D_ARMORY
    return True


@hot
def destroyable(st, tb, target, i):
    """May the Warlord destroy district ``i`` of ``target``'s city (cost aside)?"""
    if is_complete(st, target) or bishop_protects(st, tb, target):
        return False
    return st.city[target, i] != D_KEEP


INCOME_GOLD = 0
INCOME_CARDS = 1
INCOME_CHOICE = 2  # 2016 Abbot: each district pays 1 gold or 1 card, as declared


@hot
def income_type(char):
    """District type that pays ``char``'s income (1 per district), -1 if none."""
    if char == CH_KING or char == CH_EMPEROR or char == CH_PATRICIAN:
        return T_NOBLE
    if char == CH_BISHOP or char == CH_ABBOT or char == CH_CARDINAL:
        return T_RELIGIOUS
    if char == CH_MERCHANT or char == CH_TRADER:
        return T_TRADE
    if char == CH_WARLORD or char == CH_DIPLOMAT or char == CH_MARSHAL:
        return T_MILITARY
    return -1


@hot
def income_count(st, tb, s, itype):
    """Districts of seat ``s`` paying income of type ``itype`` (School of Magic counts, D: any);
    each pays ``g[G_INCOME + ch]`` to the character ``ch`` (1 by the rules)."""
    if itype < 0:
        return 0
    return st.p[s, P_TYPES + itype] + st.p[s, P_KINDS + D_SCHOOL_OF_MAGIC]


@hot
def income_kind(st, char):
    """What ``char``'s per-district income pays: INCOME_GOLD, INCOME_CARDS or INCOME_CHOICE."""
    if char == CH_PATRICIAN or char == CH_CARDINAL:
        return INCOME_CARDS
    if char == CH_ABBOT and st.g[G_RULESET] == R_2016:
        return INCOME_CHOICE
    return INCOME_GOLD


@hot
def build_limit(st, r):
    """Builds allowed in the turn of rank ``r`` (set once per game by
    :func:`.state.rank_build_limits`)."""
    return st.g[G_BUILD_LIMIT + r]


@hot
def threatenable(st, r):
    """May the Blackmailer threaten rank ``r`` (rank 1, the killed and the bewitched
    characters excepted)?"""
    g = st.g
    return r > 0 and r != g[G_KILLED] and r != g[G_BEWITCHED]


@hot
def unclaimed_later(st, r):
    """Bitmask of the ranks after ``r`` that are not killed, robbed or bewitched: what a
    card variant's added kill, theft or bewitchment may name (game.variants.POWERS)."""
    g = st.g
    later = ((1 << g[G_NRANKS]) - 1) & ~((2 << r) - 1)
    for taken in (g[G_KILLED], g[G_ROBBED], g[G_BEWITCHED]):
        if taken >= 0:
            later &= ~(1 << taken)
    return later
