"""Scripted strategies: one dispatcher per decision point, switching on the strategy family.

A strategy is a family id (``F_*``) plus a row of float parameters (``PR_*``), so presets
and tuning need no recompilation.  Every decision sees only what its seat may know: its own
hand and characters, the public state (stashes, hand sizes, cities, face-up discards, the
crown), and the cards passed to it in the draft.  Ties between equally good options are
broken at random from the seat's own stream, never by seat order.

Families
--------
``F_RANDOM``      uniformly random legal decisions (the baseline).
``F_BUILDER``     builds as much and as dear as it can; uses attacks only for its own gain.
``F_AGGRESSIVE``  picks the Assassin, Thief and Warlord, and turns them on the leader.
``F_HEURISTIC``   values each character by what it earns now (income, cards, crown), weighs
                  the threat of the Assassin and Thief, and attacks when the leader is close
                  to completing his city.
``F_REFERENCE``   the reference bot: a desire per *character* plus what its power is worth in
                  the present state; infers from the draft's offers who may hold which
                  character; aims the Assassin, Thief, Witch, Magistrate, Blackmailer and
                  Warlord by expected effect over the possible holders; draws cards by a
                  state-dependent rule; bribes or refuses by the odds of the flower; times
                  the completing build by the score (section "the reference family").

Adding a family: give it an ``F_*`` id, add its branch to the decisions where it differs
(the others fall through to the shared heuristics) and register a preset in ``strategies/``.
"""

import math

from .jit import hot

from .layout import (CH_ABBOT, CH_ALCHEMIST, CH_ARCHITECT, CH_ARTIST, CH_ASSASSIN, CH_BISHOP,
                     CH_BLACKMAILER, CH_CARDINAL, CH_DIPLOMAT, CH_EMPEROR, CH_KING, CH_MAGICIAN,
                     CH_MAGISTRATE, CH_MARSHAL, CH_MERCHANT, CH_NAVIGATOR, CH_PATRICIAN,
                     CH_QUEEN, CH_SCHOLAR, CH_SEER, CH_SPY, CH_TAX_COLLECTOR,
                     CH_TAX_COLLECTOR_CLASSIC, CH_THIEF, CH_TRADER, CH_WARLORD, CH_WITCH,
                     CH_WIZARD, DECK_CAP, D_BASILICA, D_FRAMEWORK, D_NECROPOLIS, G_BLACKMAILER,
                     G_CROWN, G_DECK_HEAD, G_DECK_N, G_FACEUP, G_HOLDER, G_KILLED, G_MAX_ROUNDS,
                     G_NP, G_NRANKS, G_N_COMPLETE, G_PICKER, G_PICKS, G_RANK_CHAR, G_ROUND,
                     G_TAX_PILE, G_TURN_RANK, K_COST, K_COUNT, K_TYPE, N_CHARACTERS, N_KINDS,
                     N_TYPES, P_CITY_N, P_DOWN, P_FAMILY, P_GOLD, P_HAND_N, P_KINDS, P_OFFER,
                     P_STEP, P_TYPES, RANK_KING, RNG_SEAT0, T_TRADE)
from .rng import below
from .rules import (INCOME_CARDS, affordable, armory_target, build_cost, build_limit, can_build,
                    destroyable, exchange_cost, exchangeable, framework_build, has,
                    income_count, income_kind, income_type, is_complete, marshal_cost,
                    max_card_payment, necropolis_build, seizable, slot_cost, warlord_cost,
                    within_limit)
from .state import beautified, city_size, own_ranks

F_RANDOM = 0
F_BUILDER = 1
F_AGGRESSIVE = 2
F_HEURISTIC = 3
F_REFERENCE = 4
FAMILY_NAMES = ("random", "builder", "aggressive", "heuristic", "reference")

# parameter indices (one row of floats per seat)
PR_BASE = 0            # PR_BASE + r: base desire for the rank-r character (r = 0..8)
PR_W_INCOME = 9        # value of each district that pays the character's income
PR_W_AGGRESSION = 10   # value of attacking characters per district of the leader's lead
PR_W_THREAT = 11       # penalty on characters the Assassin/Thief are likely to name
PR_CARD_NEED = 12      # gather cards while fewer than this many buildable cards are in hand
PR_GOLD_RESERVE = 13   # gold kept back when paying for attacks or the Smithy
PR_W_NEW_TYPE = 14     # build/keep bonus for a district type missing from the city
PR_SWAP_MARGIN = 15    # Magician swaps when another hand is this many cards larger
# the reference family's own parameters (it also reads PR_W_INCOME, PR_W_AGGRESSION,
# PR_W_THREAT, PR_GOLD_RESERVE, PR_W_NEW_TYPE and PR_SWAP_MARGIN; all values in gold)
PR_CHAR = 16           # PR_CHAR + ch: desire for character ch (layout.CH_*), whatever its rank
PR_R_CARD = PR_CHAR + N_CHARACTERS  # value of a card gained
PR_R_CROWN = PR_R_CARD + 1   # value of taking the crown (picking first next round)
PR_R_URGENCY = PR_R_CARD + 2  # extra weight of harm to a seat per (share of his city built)^2
PR_R_DRAW_NEED = PR_R_CARD + 3  # draw cards while fewer useful cards in hand than this ...
PR_R_DRAW_GOLD = PR_R_CARD + 4  # ... plus this many per 4 gold in the stash
PR_R_BRIBE = PR_R_CARD + 5   # pay a bribe of at most this x P(flower) x stash
PR_R_FINISH = PR_R_CARD + 6  # complete the city first only when at most this many points behind
PR_R_BUILD = PR_R_CARD + 7   # value of one build this turn (build limits, a lost turn)
PR_R_DENY = PR_R_CARD + 8    # 2 players: weight of the opponent's gain in the face-down discard

NEG = -1.0e9


@hot
def _rng(s):
    return RNG_SEAT0 + s


@hot
def _better(st, s, v, best, ties):
    """Random tie-break helper: returns (take_it, new_best, new_ties)."""
    if v > best:
        return True, v, 1
    if v == best:
        ties += 1
        return below(st, _rng(s), ties) == 0, best, ties
    return False, best, ties


@hot
def _param(tb, s, k):
    return tb.params[s, k]


@hot
def leader(st, s):
    """The opponent of ``s`` closest to completing (size, then city value); random ties."""
    best, ties, who = NEG, 0, -1
    for o in range(st.g[G_NP]):
        if o == s:
            continue
        v = city_size(st, o) * 100.0 + st.p[o, P_CITY_N]
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            who = o
    return who


@hot
def richest(st, s):
    """The opponent of ``s`` with the largest stash; random ties."""
    best, ties, who = NEG, 0, -1
    for o in range(st.g[G_NP]):
        if o != s:
            take, best, ties = _better(st, s, float(st.p[o, P_GOLD]), best, ties)
            if take:
                who = o
    return who


@hot
def useful_cards(st, tb, s):
    """Hand cards seat ``s`` could still build some day (not blocked by its city)."""
    n = 0
    for i in range(st.p[s, P_HAND_N]):
        kind = st.hand[s, i]
        if tb.kinds[K_COST, kind] > 0 and not has(st, s, kind):
            n += 1
    return n


@hot
def card_need(st, tb, s):
    """Useful cards seat ``s`` wants in hand before it takes cards rather than gold: the
    reference family's state-dependent :func:`ref_card_need`, else PR_CARD_NEED."""
    if st.p[s, P_FAMILY] == F_REFERENCE:
        return ref_card_need(st, tb, s)
    return _param(tb, s, PR_CARD_NEED)


@hot
def _missing_type(st, tb, s, kind):
    return st.p[s, P_TYPES + tb.kinds[K_TYPE, kind]] == 0


@hot
def card_value(st, tb, s, kind):
    """How much seat ``s`` wants district card ``kind`` in hand or city."""
    if has(st, s, kind):
        return -5.0 + tb.kinds[K_COST, kind] * 0.1
    v = float(tb.kinds[K_COST, kind])
    if _missing_type(st, tb, s, kind):
        v += _param(tb, s, PR_W_NEW_TYPE)
    short = tb.kinds[K_COST, kind] - st.p[s, P_GOLD] - 2
    if short > 0:
        v -= 0.5 * short
    return v


# ---- draft ------------------------------------------------------------------------------
@hot
def character_value(st, tb, s, r, viewer, ld, useful):
    """Value of the rank-``r`` character to seat ``s``, judged with ``viewer``'s parameters.

    ``ld`` is the leader as ``s`` sees it and ``useful`` the number of useful cards in his
    hand as ``viewer`` knows it (his own count, or the hand size of another seat).
    """
    ch = st.g[G_RANK_CHAR + r]
    v = _param(tb, viewer, PR_BASE + r)
    v += _param(tb, viewer, PR_W_INCOME) * income_count(st, tb, s, income_type(ch))
    lead = max(0, city_size(st, ld) - city_size(st, s)) if ld >= 0 else 0
    aggr = _param(tb, viewer, PR_W_AGGRESSION)
    n_complete = st.g[G_N_COMPLETE]
    if ch == CH_ASSASSIN or ch == CH_THIEF:
        v += aggr * lead
    elif ch == CH_WARLORD:
        v += aggr * lead
        if ld >= 0 and city_size(st, ld) >= n_complete - 2:
            v += aggr * 2
    elif ch == CH_ARCHITECT:
        v += 0.5 * min(useful, 3) + (1.0 if st.p[s, P_GOLD] >= 4 else 0.0)
    elif ch == CH_MERCHANT:
        v += 1.0
    elif ch == CH_MAGICIAN:
        most = 0
        for o in range(st.g[G_NP]):
            if o != s:
                most = max(most, st.p[o, P_HAND_N])
        v += 0.5 * max(0, most - st.p[s, P_HAND_N] - 1)
        if useful == 0:
            v += 1.0
    elif ch == CH_BISHOP:
        v += 0.2 * city_size(st, s)
    elif ch == CH_KING:
        v += 0.5 if st.g[G_CROWN] != s else 0.0
    threat = _param(tb, viewer, PR_W_THREAT)
    if threat != 0.0:
        # the Assassin and Thief aim at the characters that pay most; more so when rich
        if not (st.g[G_FACEUP] >> 0) & 1 and ch != CH_ASSASSIN:
            v -= threat * 0.1 * (v if v > 0 else 0)
        if st.g[G_RANK_CHAR + 1] == CH_THIEF and not (st.g[G_FACEUP] >> 1) & 1 and r > 1:
            v -= threat * 0.15 * st.p[s, P_GOLD]
    return v


@hot
def _best_rank(st, tb, s, avail, sign):
    """The rank in ``avail`` with the highest ``sign`` x value to seat ``s`` (random ties)."""
    best, ties, pick = NEG, 0, -1
    fam = st.p[s, P_FAMILY]
    ld = leader(st, s) if fam != F_RANDOM else -1
    useful = useful_cards(st, tb, s) if fam != F_RANDOM else 0
    for r in range(st.g[G_NRANKS]):
        if not (avail >> r) & 1:
            continue
        v = 0.0 if fam == F_RANDOM else sign * character_value(st, tb, s, r, s, ld, useful)
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = r
    return pick


@hot
def choose_character(st, tb, s, avail):
    """Rank index that seat ``s`` keeps from the bitmask ``avail`` of offered ranks."""
    if st.p[s, P_FAMILY] == F_REFERENCE:
        return ref_pick(st, tb, s, avail, 1.0)
    return _best_rank(st, tb, s, avail, 1.0)


@hot
def choose_draft_discard(st, tb, s, avail):
    """Rank index that seat ``s`` discards face down (2-player draft): the least useful one."""
    if st.p[s, P_FAMILY] == F_REFERENCE:
        return ref_pick(st, tb, s, avail, -1.0)
    return _best_rank(st, tb, s, avail, -1.0)


# ---- gathering and building ----------------------------------------------------------------
@hot
def choose_gather_cards(st, tb, s):
    """True to draw cards, False to take gold (the deck is not empty)."""
    fam = st.p[s, P_FAMILY]
    if fam == F_RANDOM:
        return below(st, _rng(s), 2) == 1
    if fam == F_REFERENCE:
        return ref_wants_cards(st, tb, s)
    useful = useful_cards(st, tb, s)
    if fam == F_BUILDER:
        return useful == 0
    return useful < _param(tb, s, PR_CARD_NEED)


@hot
def choose_keep(st, tb, s, start, n):
    """Which of the ``n`` cards just drawn into ``hand[s, start:start + n]`` seat ``s``
    keeps (0-based among them)."""
    best, ties, pick = NEG, 0, 0
    fam = st.p[s, P_FAMILY]
    for i in range(n):
        v = 0.0 if fam == F_RANDOM else card_value(st, tb, s, st.hand[s, start + i])
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = i
    return pick


@hot
def choose_build(st, tb, s):
    """Hand index of the district seat ``s`` builds now (within the turn's build limit),
    or -1 to stop building."""
    fam = st.p[s, P_FAMILY]
    best, ties, pick = NEG, 0, -1
    if fam == F_RANDOM:
        best = 0.0
        ties = 1  # "build nothing" is one of the options
    for i in range(st.p[s, P_HAND_N]):
        kind = st.hand[s, i]
        if not (within_limit(st, tb, kind) and can_build(st, tb, s, kind)):
            continue
        if (fam != F_RANDOM and tb.kinds[K_COST, kind] < 5 and has(st, s, D_FRAMEWORK)
                and kind != D_NECROPOLIS and not affordable(st, tb, s, kind)):
            continue  # destroying the Framework for a cheap district gains nothing
        if fam == F_REFERENCE and ref_holds_back(st, tb, s, kind):
            continue
        if fam == F_RANDOM:
            v = 0.0
        else:
            v = float(tb.kinds[K_COST, kind])
            if fam != F_BUILDER and _missing_type(st, tb, s, kind):
                v += _param(tb, s, PR_W_NEW_TYPE)
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = i
    return pick


@hot
def choose_card_payment(st, tb, s, kind, cost):
    """Cards seat ``s`` pays toward ``kind`` (Thieves' Den): 0..max, gold pays the rest."""
    most = min(max_card_payment(st, s, kind), cost)
    least = min(most, max(0, cost - st.p[s, P_GOLD]))  # (a Cardinal's assist covers the rest)
    if st.p[s, P_FAMILY] == F_RANDOM:
        return least + below(st, _rng(s), most - least + 1)
    # keep cards that are still useful; pay with the useless ones first
    spare = st.p[s, P_HAND_N] - 1 - useful_cards(st, tb, s)
    return min(most, max(least, spare))


@hot
def choose_payment_card(st, tb, s):
    """Hand index of the least valuable card, to pay or discard."""
    best, ties, pick = NEG, 0, -1
    fam = st.p[s, P_FAMILY]
    for i in range(st.p[s, P_HAND_N]):
        v = 0.0 if fam == F_RANDOM else -card_value(st, tb, s, st.hand[s, i])
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = i
    return pick


@hot
def choose_income_first(st, tb, s, itype):
    """Take the colour income before building (True) or after (False)."""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    # build first when the best build is of the income type and affordable without income
    i = choose_build(st, tb, s)
    if i < 0:
        return True
    kind = st.hand[s, i]
    return not (tb.kinds[K_TYPE, kind] == itype and build_cost(st, tb, s, kind) <= st.p[s, P_GOLD])


# ---- district abilities ------------------------------------------------------------------
@hot
def choose_laboratory(st, tb, s):
    """Hand index to discard to the Laboratory, or -1."""
    if st.p[s, P_HAND_N] == 0:
        return -1
    if st.p[s, P_FAMILY] == F_RANDOM:
        if below(st, _rng(s), 2) == 0:
            return -1
        return below(st, _rng(s), st.p[s, P_HAND_N])
    i = choose_payment_card(st, tb, s)
    return i if card_value(st, tb, s, st.hand[s, i]) < 0 or st.p[s, P_HAND_N] > 3 else -1


@hot
def choose_smithy(st, tb, s):
    """Pay 2 gold for 3 cards with the Smithy?"""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return (useful_cards(st, tb, s) <= 1
            and st.p[s, P_GOLD] - 2 >= _param(tb, s, PR_GOLD_RESERVE))


@hot
def choose_graveyard(st, tb, s, kind):
    """Pay 1 gold to take the destroyed ``kind`` into hand (Graveyard)?"""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return tb.kinds[K_COST, kind] >= 3 and not has(st, s, kind)


# ---- character abilities -------------------------------------------------------------------
@hot
def predict_rank(st, tb, viewer, target, allowed):
    """The rank in bitmask ``allowed`` that ``viewer`` guesses ``target`` holds."""
    best, ties, pick = NEG, 0, -1
    ld = leader(st, target) if target >= 0 else -1
    for r in range(st.g[G_NRANKS]):
        if not (allowed >> r) & 1:
            continue
        v = character_value(st, tb, target, r, viewer, ld,
                            st.p[target, P_HAND_N]) if target >= 0 else 0.0
        take, best, ties = _better(st, viewer, v, best, ties)
        if take:
            pick = r
    return pick


@hot
def _unseen(st, candidates, fallback):
    """The ranks in bitmask ``candidates`` not discarded face up (which everyone knows are
    out of play); ``fallback`` when that leaves none."""
    m = candidates & ~st.g[G_FACEUP]
    return m if m else fallback


@hot
def _random_rank(st, s, allowed):
    best, ties, pick = NEG, 0, -1
    for r in range(st.g[G_NRANKS]):
        if (allowed >> r) & 1:
            take, best, ties = _better(st, s, 0.0, best, ties)
            if take:
                pick = r
    return pick


@hot
def choose_target_rank(st, tb, s, allowed, own, rob):
    """Rank index for the Assassin (``rob`` False) or Thief (True) to name, from ``allowed``.

    ``own`` is the bitmask of ranks the seat holds itself; smart families never name those.
    """
    fam = st.p[s, P_FAMILY]
    if fam == F_RANDOM:
        return _random_rank(st, s, allowed)
    if fam == F_REFERENCE:
        return ref_target(st, tb, s, allowed, AIM_ROB if rob else AIM_KILL)
    hidden = _unseen(st, allowed & ~own, allowed)
    if fam == F_BUILDER:
        return predict_rank(st, tb, s, richest(st, s), hidden) if rob else _random_rank(
            st, s, hidden)
    if fam == F_AGGRESSIVE:
        return predict_rank(st, tb, s, leader(st, s), hidden)
    ld = leader(st, s)
    if not rob and ld >= 0 and city_size(st, ld) >= st.g[G_N_COMPLETE] - 3:
        return predict_rank(st, tb, s, ld, hidden)
    return predict_rank(st, tb, s, richest(st, s), hidden)


@hot
def choose_magician(st, tb, s):
    """Magician: returns (mode, target): mode 0 nothing, 1 swap with seat target, 2 redraw."""
    n = st.g[G_NP]
    fam = st.p[s, P_FAMILY]
    if fam == F_RANDOM:
        mode = below(st, _rng(s), 3)
        if mode == 1:
            t = below(st, _rng(s), n - 1)
            return 1, t if t < s else t + 1
        return mode, -1
    best, ties, who = NEG, 0, -1
    for o in range(n):
        if o != s:
            take, best, ties = _better(st, s, float(st.p[o, P_HAND_N]), best, ties)
            if take:
                who = o
    if best >= st.p[s, P_HAND_N] + _param(tb, s, PR_SWAP_MARGIN):
        return 1, who
    if st.p[s, P_HAND_N] > useful_cards(st, tb, s) and st.g[G_DECK_N] > 0:
        return 2, -1
    return 0, -1


@hot
def choose_redraw(st, tb, s, i):
    """Does the Magician put hand card ``i`` back in a redraw?"""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return card_value(st, tb, s, st.hand[s, i]) < 0


@hot
def choose_destroy(st, tb, s):
    """Warlord: (target seat, city index) to destroy, or (-1, -1)."""
    fam = st.p[s, P_FAMILY]
    if fam == F_REFERENCE:
        return ref_destroy(st, tb, s)
    gold = st.p[s, P_GOLD]
    reserve = 0.0 if fam == F_RANDOM else _param(tb, s, PR_GOLD_RESERVE)
    ld = leader(st, s)
    urgent = ld >= 0 and city_size(st, ld) >= st.g[G_N_COMPLETE] - 2
    best, ties, tgt, idx = NEG, 0, -1, -1
    if fam == F_RANDOM:
        best, ties = 0.0, 1
    for o in range(st.g[G_NP]):
        for i in range(st.p[o, P_CITY_N]):
            if not destroyable(st, tb, o, i):
                continue
            c = warlord_cost(st, tb, o, i)
            if c > gold:
                continue
            if fam == F_RANDOM:
                v = 0.0
            elif o == s:
                continue
            else:
                worth = float(tb.kinds[K_COST, st.city[o, i]])
                if fam == F_BUILDER:
                    if c > 0:
                        continue
                    v = worth
                elif fam == F_AGGRESSIVE:
                    if o != ld and c > 0:
                        continue
                    v = worth + (10.0 if o == ld else 0.0)
                else:
                    if gold - c < reserve and not urgent:
                        continue
                    if c > 0 and not (urgent and o == ld):
                        continue
                    v = worth + (10.0 if o == ld else 0.0) - c * 0.5
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                tgt, idx = o, i
    return tgt, idx


@hot
def choose_income_cards(st, tb, s, n):
    """How many of ``n`` per-district resources seat ``s`` takes as cards (2016 Abbot)."""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), n + 1)
    need = card_need(st, tb, s)  # the reference's is fractional: rounded up
    whole = math.ceil(need) if st.p[s, P_FAMILY] == F_REFERENCE else int(need)
    return min(n, max(0, whole - useful_cards(st, tb, s)))


@hot
def choose_navigator_cards(st, tb, s):
    """Navigator: True for 4 cards, False for 4 gold."""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return st.g[G_DECK_N] > 0 and useful_cards(st, tb, s) < card_need(st, tb, s)


@hot
def choose_scholar(st, tb, s):
    """Scholar: draw 7, keep 1 and shuffle the deck?"""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return True


@hot
def choose_crown_recipient(st, tb, s):
    """Emperor: the seat that receives the crown (not ``s``, not its holder unless ``s``)."""
    fam = st.p[s, P_FAMILY]
    best, ties, who = NEG, 0, -1
    for o in range(st.g[G_NP]):
        if o == s or (o == st.g[G_CROWN] and st.g[G_CROWN] != s):
            continue
        # smart seats crown the least threatening player, who also has something to give
        v = 0.0 if fam == F_RANDOM else -city_size(st, o) * 10.0 + min(st.p[o, P_GOLD], 1) + \
            min(st.p[o, P_HAND_N], 1)
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            who = o
    return who


@hot
def choose_tribute_card(st, tb, s):
    """Classic Emperor's tribute, chosen by the new crowned seat ``s``: hand index of the
    card to give, or -1 to give 1 gold (a card when he has no gold)."""
    if st.p[s, P_HAND_N] == 0:
        return -1
    i = choose_payment_card(st, tb, s)
    if st.p[s, P_GOLD] == 0:
        return i
    if st.p[s, P_FAMILY] == F_RANDOM:
        return i if below(st, _rng(s), 2) == 0 else -1
    return i if card_value(st, tb, s, st.hand[s, i]) < 0 else -1


@hot
def choose_emperor_card(st, tb, s, target):
    """2016 Emperor ``s``: take a random card (True) rather than 1 gold from ``target``."""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return useful_cards(st, tb, s) < card_need(st, tb, s)


@hot
def choose_spy(st, tb, s):
    """Spy: (target seat, district type).  Smart seats look at the biggest hand and name
    the type they expect most of (trade: the most common in the deck)."""
    n = st.g[G_NP]
    if st.p[s, P_FAMILY] == F_RANDOM:
        t = below(st, _rng(s), n - 1)
        return (t if t < s else t + 1), below(st, _rng(s), N_TYPES)
    if st.p[s, P_FAMILY] == F_REFERENCE:
        return ref_spy(st, tb, s)
    best, ties, who = NEG, 0, -1
    for o in range(n):
        if o != s:
            v = st.p[o, P_HAND_N] + 0.5 * min(st.p[o, P_GOLD], st.p[o, P_HAND_N])
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                who = o
    return who, T_TRADE


@hot
def choose_seize(st, tb, s):
    """Marshal: (target seat, city index) to seize, or (-1, -1)."""
    fam = st.p[s, P_FAMILY]
    gold = st.p[s, P_GOLD]
    reserve = 0.0 if fam == F_RANDOM else _param(tb, s, PR_GOLD_RESERVE)
    ld = leader(st, s)
    best, ties, tgt, idx = NEG, 0, -1, -1
    if fam == F_RANDOM:
        best, ties = 0.0, 1
    for o in range(st.g[G_NP]):
        for i in range(st.p[o, P_CITY_N]):
            if not seizable(st, tb, s, o, i):
                continue
            c = marshal_cost(st, tb, o, i)
            if c > gold or (fam != F_RANDOM and gold - c < reserve):
                continue
            if fam == F_RANDOM:
                v = 0.0
            else:
                v = float(tb.kinds[K_COST, st.city[o, i]]) + (2.0 if o == ld else 0.0)
                if _missing_type(st, tb, s, st.city[o, i]):
                    v += _param(tb, s, PR_W_NEW_TYPE)
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                tgt, idx = o, i
    return tgt, idx


@hot
def choose_wizard_target(st, tb, s):
    """Wizard: the seat whose hand he looks at (one with cards), or -1 if nobody has any."""
    fam = st.p[s, P_FAMILY]
    best, ties, who = NEG, 0, -1
    for o in range(st.g[G_NP]):
        if o != s and st.p[o, P_HAND_N] > 0:
            v = 0.0 if fam == F_RANDOM else float(st.p[o, P_HAND_N])
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                who = o
    return who


@hot
def choose_wizard_card(st, tb, s, target):
    """Wizard: index in ``target``'s hand of the card he takes (he sees the hand)."""
    fam = st.p[s, P_FAMILY]
    best, ties, pick = NEG, 0, 0
    for i in range(st.p[target, P_HAND_N]):
        kind = st.hand[target, i]
        v = 0.0 if fam == F_RANDOM else float(tb.kinds[K_COST, kind]) + (
            5.0 if build_cost(st, tb, s, kind) <= st.p[s, P_GOLD] else 0.0)
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = i
    return pick


@hot
def choose_wizard_build(st, tb, s, kind):
    """Wizard: build the card taken at once (True) rather than keep it."""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return True


@hot
def choose_assist_donor(st, tb, s, short):
    """Cardinal: the player (with at least ``short`` gold) who gives the shortfall; smart
    seats take it from the leader when they can."""
    fam = st.p[s, P_FAMILY]
    ld = leader(st, s) if fam != F_RANDOM else -1
    best, ties, who = NEG, 0, -1
    for o in range(st.g[G_NP]):
        if o != s and st.p[o, P_GOLD] >= short:
            v = 0.0 if fam == F_RANDOM else (10.0 if o == ld else 0.0) + st.p[o, P_GOLD]
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                who = o
    return who


@hot
def choose_exchange(st, tb, s):
    """Diplomat: (own city index, target seat, target city index) to swap, or (-1, -1, -1).
    Smart seats swap only for a gain in district value net of the payment, preferring to
    take from the leader."""
    fam = st.p[s, P_FAMILY]
    gold = st.p[s, P_GOLD]
    ld = leader(st, s) if fam != F_RANDOM else -1
    best, ties = (0.0, 1) if fam == F_RANDOM else (0.0, 0)
    mine, tgt, theirs = -1, -1, -1
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
                if fam == F_RANDOM:
                    v = 0.0
                else:
                    v = float(tb.kinds[K_COST, st.city[o, j]] - tb.kinds[K_COST, st.city[s, i]]
                              - c) + (0.5 if o == ld else 0.0)
                    if v <= 0.0:
                        continue
                take, best, ties = _better(st, s, v, best, ties)
                if take:
                    mine, tgt, theirs = i, o, j
    return mine, tgt, theirs


# ---- the rest of the roster: build payments and district actions ---------------------------
PAY_GOLD = 0        # pay the cost (gold, Thieves' Den cards, a Cardinal's assist)
PAY_FRAMEWORK = 1   # destroy the Framework instead (2016)
PAY_NECROPOLIS = 2  # build the Necropolis by destroying one of his districts (2016)


@hot
def choose_build_mode(st, tb, s, kind):
    """How seat ``s`` pays for ``kind`` (legal and affordable one way or another): PAY_*.
    Smart seats destroy to build only what they cannot pay for: the Framework for a district
    costing 5 or more (or when the Necropolis is not an option), else the Necropolis by
    destroying their cheapest district."""
    gold_ok = affordable(st, tb, s, kind)
    frame = framework_build(st, s, kind)
    necro = necropolis_build(st, s, kind) and choose_sacrifice(st, tb, s) >= 0
    fam = st.p[s, P_FAMILY]
    if fam == F_RANDOM:
        n = (1 if gold_ok else 0) + (1 if frame else 0) + (1 if necro else 0)
        j = below(st, _rng(s), n)
        if gold_ok:
            if j == 0:
                return PAY_GOLD
            j -= 1
        if frame:
            if j == 0:
                return PAY_FRAMEWORK
        return PAY_NECROPOLIS
    if gold_ok:
        return PAY_GOLD
    if frame and (tb.kinds[K_COST, kind] >= 5 or not necro):
        return PAY_FRAMEWORK
    return PAY_NECROPOLIS


@hot
def choose_sacrifice(st, tb, s):
    """City index of the district seat ``s`` destroys to build the Necropolis: the least
    valuable (never the Necropolis itself)."""
    best, ties, pick = NEG, 0, -1
    fam = st.p[s, P_FAMILY]
    for i in range(st.p[s, P_CITY_N]):
        if st.city[s, i] == D_NECROPOLIS:
            continue
        v = 0.0 if fam == F_RANDOM else -slot_cost(st, tb, s, i)
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = i
    return pick


@hot
def choose_confiscate(st, tb, s, kind):
    """Magistrate ``s``: take the district ``kind`` just paid for under his signed warrant?"""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return True


@hot
def choose_lighthouse(st, tb, s):
    """Lighthouse: offset from the top of the deck of the card seat ``s`` takes."""
    fam = st.p[s, P_FAMILY]
    g = st.g
    best, ties, pick = NEG, 0, 0
    for j in range(g[G_DECK_N]):
        kind = st.deck[(g[G_DECK_HEAD] + j) % DECK_CAP]
        v = 0.0 if fam == F_RANDOM else card_value(st, tb, s, kind)
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = j
    return pick


@hot
def choose_bell_tower(st, tb, s):
    """Bell Tower: announce that cities are complete at 7?  Smart seats do when no opponent's
    city is larger than theirs."""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    ld = leader(st, s)
    return ld < 0 or city_size(st, ld) <= city_size(st, s)


@hot
def choose_museum(st, tb, s):
    """Museum: hand index of the card seat ``s`` puts under it (+1 point), or -1.  Smart
    seats tuck a card they cannot use."""
    if st.p[s, P_FAMILY] == F_RANDOM:
        if below(st, _rng(s), 2) == 0:
            return -1
        return below(st, _rng(s), st.p[s, P_HAND_N])
    i = choose_payment_card(st, tb, s)
    return i if card_value(st, tb, s, st.hand[s, i]) < 0 or st.p[s, P_HAND_N] > 4 else -1


@hot
def choose_armory(st, tb, s):
    """Armory: (target seat, city index) to destroy by destroying the Armory, or (-1, -1).
    Smart seats use it on the leader's dearest district once he is 2 districts from
    completing."""
    fam = st.p[s, P_FAMILY]
    ld = leader(st, s)
    if fam != F_RANDOM and (ld < 0 or city_size(st, ld) < st.g[G_N_COMPLETE] - 2):
        return -1, -1
    best, ties, tgt, idx = NEG, 0, -1, -1
    if fam == F_RANDOM:
        best, ties = 0.0, 3  # not using it is the likelier option
    for o in range(st.g[G_NP]):
        if fam != F_RANDOM and o != ld:
            continue
        for i in range(st.p[o, P_CITY_N]):
            if not armory_target(st, tb, s, o, i):
                continue
            v = 0.0 if fam == F_RANDOM else float(slot_cost(st, tb, o, i))
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                tgt, idx = o, i
    return tgt, idx


# ---- the rest of the roster: character abilities -----------------------------------------
@hot
def choose_bewitch(st, tb, s, allowed, optional):
    """Witch: rank index to bewitch from bitmask ``allowed``, or -1 (only when ``optional``,
    classic).  Smart seats pick the character whose powers pay most on their own city,
    among those that may be in play."""
    fam = st.p[s, P_FAMILY]
    if fam == F_RANDOM:
        if optional and below(st, _rng(s), 4) == 0:
            return -1
        return _random_rank(st, s, allowed)
    if fam == F_REFERENCE:
        return ref_bewitch(st, tb, s, allowed, optional)
    hidden = _unseen(st, allowed, allowed)
    ld = leader(st, s)
    useful = useful_cards(st, tb, s)
    best, ties, pick = NEG, 0, -1
    for r in range(st.g[G_NRANKS]):
        if (hidden >> r) & 1:
            v = character_value(st, tb, s, r, s, ld, useful)
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                pick = r
    return pick


@hot
def choose_warrants(st, tb, s, allowed):
    """Magistrate: (signed, other, other) rank indices from bitmask ``allowed``.  Smart
    seats sign the warrant on the character they expect the leader to hold."""
    fam = st.p[s, P_FAMILY]
    if fam == F_RANDOM:
        signed = _random_rank(st, s, allowed)
    elif fam == F_REFERENCE:
        signed = ref_target(st, tb, s, allowed, AIM_WARRANT)
    else:
        signed = predict_rank(st, tb, s, leader(st, s), _unseen(st, allowed, allowed))
    a = _random_rank(st, s, allowed & ~(1 << signed))
    b = _random_rank(st, s, allowed & ~(1 << signed) & ~(1 << a))
    return signed, a, b


@hot
def choose_threats(st, tb, s, allowed):
    """Blackmailer: (real, bluff) rank indices from bitmask ``allowed``.  Smart seats put
    the flower on the character they expect the richest player to hold."""
    fam = st.p[s, P_FAMILY]
    if fam == F_RANDOM:
        real = _random_rank(st, s, allowed)
    elif fam == F_REFERENCE:
        return ref_threats(st, tb, s, allowed)
    else:
        real = predict_rank(st, tb, s, richest(st, s), _unseen(st, allowed, allowed))
    rest = allowed & ~(1 << real)
    return real, _random_rank(st, s, _unseen(st, rest, rest))


@hot
def choose_bribe(st, tb, s, amount):
    """Threatened seat ``s``: pay the bribe ``amount`` (True) or refuse (False)?  Half the
    stash for sure against, at worst, the whole stash: cautious seats pay, the builder
    gambles."""
    if amount == 0:
        return True
    fam = st.p[s, P_FAMILY]
    if fam == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    if fam == F_REFERENCE:
        return ref_bribe(st, tb, s, amount)
    return fam != F_BUILDER


@hot
def choose_reveal_threat(st, tb, s, real):
    """Blackmailer ``s``, refused: reveal the marker (she knows whether it is the flower)?"""
    if st.p[s, P_FAMILY] == F_RANDOM:
        return below(st, _rng(s), 2) == 0
    return real


@hot
def choose_beautify(st, tb, s):
    """Artist: city index of a district seat ``s`` beautifies now (1 gold), or -1.  Smart
    seats spend spare gold (beyond their reserve, or any gold once a city is 2 districts
    from complete) on their dearest district; with a Basilica, even costs first."""
    fam = st.p[s, P_FAMILY]
    if st.p[s, P_GOLD] < 1:
        return -1
    if fam != F_RANDOM:
        ld = leader(st, s)
        late = max(city_size(st, s), city_size(st, ld) if ld >= 0 else 0) >= st.g[G_N_COMPLETE] - 2
        if not late and st.p[s, P_GOLD] - 1 < _param(tb, s, PR_GOLD_RESERVE) + 3:
            return -1
    best, ties, pick = NEG, 0, -1
    if fam == F_RANDOM:
        best, ties = 0.0, 1
    for i in range(st.p[s, P_CITY_N]):
        if beautified(st, s, i):
            continue
        v = 0.0
        if fam != F_RANDOM:
            v = float(slot_cost(st, tb, s, i))
            if has(st, s, D_BASILICA) and slot_cost(st, tb, s, i) % 2 == 0:
                v += 3.0
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = i
    return pick


@hot
def choose_theater(st, tb, s, mine):
    """Theater owner ``s``, after the selection: (opponent, own rank index to give) for a
    blind exchange, or (-1, -1).  ``mine`` is the bitmask of his ranks.  Smart seats give
    away a character worth less than the average one they cannot see, to the leader."""
    fam = st.p[s, P_FAMILY]
    n = st.g[G_NP]
    if fam == F_RANDOM:
        if below(st, _rng(s), 2) == 0:
            return -1, -1
        t = below(st, _rng(s), n - 1)
        return (t if t < s else t + 1), _random_rank(st, s, mine)
    ld = leader(st, s)
    useful = useful_cards(st, tb, s)
    give, low = -1, -NEG
    total, count = 0.0, 0
    for r in range(st.g[G_NRANKS]):
        if fam == F_REFERENCE:
            v = ref_desire(st, tb, s, r, 0, _known_out(st, s), ready_builds(st, tb, s, s))
        else:
            v = character_value(st, tb, s, r, s, ld, useful)
        if (mine >> r) & 1:
            if v < low:
                give, low = r, v
        elif not (st.g[G_FACEUP] >> r) & 1:
            total += v
            count += 1
    if count == 0 or total / count < low + 1.0:
        return -1, -1
    return ld, give


# ---- the reference family ------------------------------------------------------------------
# What a reference seat knows of the draft: the ranks offered at each of its picks and the
# pick numbers (layout P_OFFER, P_STEP), the order in which the seats picked (G_PICKER), the
# face-up discards and its own face-down discards (P_DOWN); during the turns, the holders of
# the characters already called.  Values are in gold; harm to a seat is weighted by how
# close he is to winning (``danger``).

# the powers aimed at a rank (``aim``)
AIM_KILL = 0      # the Assassin's kill
AIM_ROB = 1       # the Thief's robbery
AIM_WARRANT = 2   # the Magistrate's signed warrant
AIM_THREAT = 3    # the Blackmailer's threat
AIM_BEWITCH = 4   # the Witch's bewitchment


@hot
def _bits(m):
    """Number of set bits of ``m``."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@hot
def total_picks(st):
    """Character picks in one round's draft: 4 with 2 players, 6 with 3, else one per seat."""
    n = st.g[G_NP]
    return 4 if n == 2 else (6 if n == 3 else n)


@hot
def _known_out(st, s):
    """Bitmask of the ranks no opponent of ``s`` holds, as he knows: face up, his own and
    those he discarded face down."""
    return st.g[G_FACEUP] | own_ranks(st, s) | st.p[s, P_DOWN]


@hot
def _gets_face_down(st, k):
    """Is pick ``k`` offered the face-down card too (4+ players: the last picker, when one
    card is left for him, RULES.md §2.3)?"""
    g = st.g
    n = g[G_NP]
    return n >= 4 and k == n - 1 and g[G_NRANKS] - _bits(g[G_FACEUP]) == n + 1


@hot
def _could_take(st, s, k, r):
    """Could pick number ``k`` (another seat's) have taken rank ``r``, as ``s`` knows?  A
    rank offered to ``s`` was still there after every earlier pick; one not offered to him
    was gone before his (or lay face down, which the last picker may be offered)."""
    if _gets_face_down(st, k):
        return True
    for j in range(2):
        step = st.p[s, P_STEP + j]
        if step >= 0:
            seen = (st.p[s, P_OFFER + j] >> r) & 1
            if (step < k and not seen) or (step > k and seen):
                return False
    return True


@hot
def holder_weight(st, s, o, r):
    """How many of seat ``o``'s picks this round could have taken rank ``r``, as ``s``
    knows."""
    n = 0.0
    for k in range(st.g[G_PICKS]):
        if st.g[G_PICKER + k] == o and _could_take(st, s, k, r):
            n += 1.0
    return n


@hot
def _nobody_odds(st, s, out):
    """The chance that a rank ``s`` cannot place lies face down: the face-down cards he did
    not discard himself over all the ranks he cannot place (``out``: ``_known_out``)."""
    g = st.g
    unknown = g[G_NRANKS] - _bits(out)
    down = g[G_NRANKS] - _bits(g[G_FACEUP]) - total_picks(st) - _bits(st.p[s, P_DOWN])
    return max(0, down) / unknown if unknown > 0 else 0.0


@hot
def odds_scale(st, s, r, out):
    """The factor that turns ``holder_weight(st, s, o, r)`` into P(``o`` holds rank ``r``)
    as ``s`` knows it (``out``: ``_known_out``): each pick that could have taken it counts
    alike, after the chance that it lies face down; 0 when no opponent can hold it."""
    if (out >> r) & 1:
        return 0.0
    total = 0.0
    for k in range(st.g[G_PICKS]):
        if st.g[G_PICKER + k] != s and _could_take(st, s, k, r):
            total += 1.0
    return (1.0 - _nobody_odds(st, s, out)) / total if total > 0.0 else 0.0


@hot
def holder_odds(st, s, o, r):
    """P(seat ``o`` holds rank ``r``) as seat ``s`` knows it: his own ranks he knows; a
    character already called (and not killed) has shown its holder; otherwise
    ``holder_weight`` x ``odds_scale`` (:func:`rank_effect` sums the same odds pick by pick)."""
    g = st.g
    if o == s:
        return 1.0 if g[G_HOLDER + r] == s else 0.0
    if r < g[G_TURN_RANK] and r != g[G_KILLED]:
        return 1.0 if g[G_HOLDER + r] == o else 0.0
    return holder_weight(st, s, o, r) * odds_scale(st, s, r, _known_out(st, s))


@hot
def attacker_odds(st, s, a, avail, out):
    """During the draft: the chance that rank ``a`` will be played by an opponent of ``s``,
    who is choosing from ``avail`` (``out``: ``_known_out``): passed on to a later picker,
    or taken by an earlier one (else face down)."""
    if (out >> a) & 1:
        return 0.0
    if (avail >> a) & 1:
        return 0.7 if st.g[G_PICKS] + 1 < total_picks(st) else 0.0
    return 1.0 - _nobody_odds(st, s, out) if st.g[G_PICKS] > 0 else 0.0


@hot
def visible_score(st, tb, o):
    """The points seat ``o``'s city shows: district costs, +3 once it has all five types."""
    v = 0
    for i in range(st.p[o, P_CITY_N]):
        v += slot_cost(st, tb, o, i)
    types = 0
    for t in range(N_TYPES):
        if st.p[o, P_TYPES + t] > 0:
            types += 1
    return v + (3 if types == N_TYPES else 0)


@hot
def _closeness(st, o):
    """How close seat ``o`` is to completing: (share of his city built)^2."""
    share = city_size(st, o) / st.g[G_N_COMPLETE]
    return share * share


@hot
def danger(st, tb, viewer, o):
    """What harm to seat ``o`` is worth to ``viewer``, per gold of harm: 1, plus
    PR_R_URGENCY x his closeness to completing."""
    return 1.0 + _param(tb, viewer, PR_R_URGENCY) * _closeness(st, o)


@hot
def _attack(st, tb, o, viewer):
    """What the attacking powers are worth to ``o``, as ``viewer`` judges: PR_W_AGGRESSION x
    the most dangerous opponent's danger beyond 1."""
    most = 0.0
    for q in range(st.g[G_NP]):
        if q != o:
            most = max(most, _closeness(st, q))
    return _param(tb, viewer, PR_W_AGGRESSION) * _param(tb, viewer, PR_R_URGENCY) * most


@hot
def _most(st, o, i):
    """The largest ``p[q, i]`` among the opponents ``q`` of ``o`` (stash, hand size ...)."""
    most = 0
    for q in range(st.g[G_NP]):
        if q != o:
            most = max(most, st.p[q, i])
    return most


@hot
def ready_builds(st, tb, o, viewer):
    """Districts seat ``o`` could build this turn, as ``viewer`` knows: his own useful cards
    payable with his stash and a gather's 2 gold; another seat's guessed from his hand and
    stash."""
    gold = st.p[o, P_GOLD] + 2
    if o != viewer:
        return min(st.p[o, P_HAND_N], gold // 3)
    n = 0
    for i in range(st.p[o, P_HAND_N]):
        kind = st.hand[o, i]
        if tb.kinds[K_COST, kind] > 0 and not has(st, o, kind) and build_cost(
                st, tb, o, kind) <= gold:
            n += 1
    return n


@hot
def power_worth(st, tb, o, ch, viewer):
    """What character ``ch``'s power is worth to its holder ``o`` this round, in gold, as
    ``viewer`` judges it (income and build limits apart: :func:`ref_worth`)."""
    card = _param(tb, viewer, PR_R_CARD)
    gold = st.p[o, P_GOLD]
    if ch == CH_ASSASSIN:
        return 2.0 * _attack(st, tb, o, viewer)
    if ch == CH_WITCH:
        return 1.5 * _attack(st, tb, o, viewer) + 1.0
    if ch == CH_MAGISTRATE:
        return _attack(st, tb, o, viewer) + 1.0
    if ch == CH_THIEF:
        return 0.5 * _most(st, o, P_GOLD)
    if ch == CH_SPY:
        return 0.25 * _most(st, o, P_HAND_N) * (1.0 + card)
    if ch == CH_BLACKMAILER:
        return 0.5 * _most(st, o, P_GOLD)
    if ch == CH_TAX_COLLECTOR_CLASSIC:
        return 0.4 * (st.g[G_NP] - 1)
    if ch == CH_MAGICIAN:
        gain = 0.5 * max(0, _most(st, o, P_HAND_N) - st.p[o, P_HAND_N] - 1)
        if o == viewer and useful_cards(st, tb, o) == 0 and st.p[o, P_HAND_N] > 0:
            gain += 1.0
        return card * gain
    if ch == CH_WIZARD:
        return (card if _most(st, o, P_HAND_N) > 0 else 0.0) + 0.5
    if ch == CH_SEER:
        n = 0
        for q in range(st.g[G_NP]):
            if q != o and st.p[q, P_HAND_N] > 0:
                n += 1
        return 0.3 * card * n
    if ch == CH_KING or ch == CH_PATRICIAN:
        return _param(tb, viewer, PR_R_CROWN) * (0.3 if st.g[G_CROWN] == o else 1.0)
    if ch == CH_EMPEROR:
        return 1.0
    if ch == CH_BISHOP:
        return 0.15 * city_size(st, o)
    if ch == CH_ABBOT:
        return 1.0 if _most(st, o, P_GOLD) > gold else 0.0
    if ch == CH_CARDINAL or ch == CH_TRADER:
        return 0.5
    if ch == CH_DIPLOMAT or ch == CH_MARSHAL:
        return 0.5 + 0.5 * _attack(st, tb, o, viewer)
    if ch == CH_MERCHANT:
        return 1.0
    if ch == CH_ALCHEMIST:
        return 0.5 * min(gold, 5)
    if ch == CH_ARCHITECT:
        return 2.0 * card
    if ch == CH_NAVIGATOR:
        return 4.0 * max(card, 1.0)
    if ch == CH_SCHOLAR:
        return 1.5 * card
    if ch == CH_WARLORD:
        return 1.5 * _attack(st, tb, o, viewer)
    if ch == CH_QUEEN:
        return 3.0 * _queen_odds(st, o, viewer)
    if ch == CH_ARTIST:
        return 0.5 * min(gold, 2)
    if ch == CH_TAX_COLLECTOR:
        return st.g[G_TAX_PILE] + 0.5
    return 0.0


@hot
def _queen_odds(st, o, viewer):
    """The chance, as ``viewer`` knows, that a neighbour of seat ``o`` holds the rank-4
    character (the Queen's +3)."""
    n = st.g[G_NP]
    p = holder_odds(st, viewer, (o + 1) % n, RANK_KING)
    if n > 2:
        p += holder_odds(st, viewer, (o + n - 1) % n, RANK_KING)
    return min(1.0, p)


@hot
def ref_worth(st, tb, o, r, viewer, ready):
    """What playing rank ``r`` this round is worth to seat ``o``, in gold, as ``viewer``
    judges it: the income (gold, or cards at PR_R_CARD), the builds its limit allows beyond
    one (PR_R_BUILD each, as far as he can pay for them: ``ready`` =
    ``ready_builds(st, tb, o, viewer)``) and its power."""
    ch = st.g[G_RANK_CHAR + r]
    unit = _param(tb, viewer, PR_R_CARD) if income_kind(st, ch) == INCOME_CARDS else 1.0
    v = _param(tb, viewer, PR_W_INCOME) * income_count(st, tb, o, income_type(ch)) * unit
    v += _param(tb, viewer, PR_R_BUILD) * (min(build_limit(ch), ready) - min(1, ready))
    return v + power_worth(st, tb, o, ch, viewer)


@hot
def exposure(st, tb, s, r, avail, out, v):
    """Seat ``s``'s expected loss, in gold, to the rank-1 and rank-2 characters actually in
    the set if he takes rank ``r`` (worth ``v``) from ``avail`` (``out``: ``_known_out``):
    each attacker's odds of being played against him, a third of the time on him, times
    what it would take."""
    g = st.g
    gold = st.p[s, P_GOLD]
    loss = 0.0
    if r > 0:
        a = g[G_RANK_CHAR]
        p = attacker_odds(st, s, 0, avail, out)
        if a == CH_ASSASSIN:
            loss += p * (2.0 + v + _param(tb, s, PR_R_BUILD))
        elif a == CH_WITCH:
            loss += p * (v + _param(tb, s, PR_R_BUILD))
        elif a == CH_MAGISTRATE:
            loss += p * min(gold, 4)
    if r > 1:
        b = g[G_RANK_CHAR + 1]
        p = attacker_odds(st, s, 1, avail, out)
        if b == CH_THIEF:
            loss += p * gold
        elif b == CH_BLACKMAILER:
            loss += p * 0.5 * gold
    return _param(tb, s, PR_W_THREAT) * loss / 3.0


@hot
def ref_desire(st, tb, s, r, avail, out, ready):
    """How much seat ``s`` wants rank ``r`` from the offered ``avail`` (``out``:
    ``_known_out``, ``ready``: his ``ready_builds``): his desire for its character
    (PR_CHAR) and for its place in the calling order (PR_BASE), plus its worth now, less
    his exposure to the attackers."""
    w = ref_worth(st, tb, s, r, s, ready)
    v = _param(tb, s, PR_CHAR + st.g[G_RANK_CHAR + r]) + _param(tb, s, PR_BASE + r) + w
    return v - exposure(st, tb, s, r, avail, out, w)


@hot
def ref_pick(st, tb, s, avail, sign):
    """The rank the reference seat keeps (``sign`` 1) from ``avail``, or discards face down
    (``sign`` -1, 2 players: the one worth least to him and most, by PR_R_DENY, to the
    opponent who picks next)."""
    best, ties, pick = NEG, 0, -1
    deny = _param(tb, s, PR_R_DENY) if sign < 0 else 0.0
    o = 1 - s if st.g[G_NP] == 2 else -1
    out = _known_out(st, s)
    ready = ready_builds(st, tb, s, s)
    theirs = ready_builds(st, tb, o, s) if o >= 0 else 0
    for r in range(st.g[G_NRANKS]):
        if not (avail >> r) & 1:
            continue
        v = sign * ref_desire(st, tb, s, r, avail, out, ready)
        if deny != 0.0 and o >= 0:
            v += deny * (_param(tb, s, PR_CHAR + st.g[G_RANK_CHAR + r])
                         + ref_worth(st, tb, o, r, s, theirs))
        take, best, ties = _better(st, s, v, best, ties)
        if take:
            pick = r
    return pick


@hot
def harm(st, tb, s, o, r, aim):
    """What power ``aim`` (AIM_*) aimed at rank ``r`` takes from its holder ``o``, in gold, as
    ``s`` judges it: his stash (robbery), half of it (a threat: bribe or flower), his first
    paid build (a warrant; the Magistrate gains it too), or his turn (a kill, a
    bewitchment)."""
    gold = st.p[o, P_GOLD]
    if aim == AIM_ROB:
        return float(gold)
    if aim == AIM_THREAT:
        return 0.5 * gold
    cards = min(1, st.p[o, P_HAND_N])
    if aim == AIM_WARRANT:
        return 2.0 * min(gold + 2, 4) * cards
    turn = ref_worth(st, tb, o, r, s, ready_builds(st, tb, o, s))
    turn += _param(tb, s, PR_R_BUILD) * cards
    return turn + (2.0 if aim == AIM_KILL else 0.0)


@hot
def _on(st, tb, s, o, r, aim):
    """The effect for ``s`` of power ``aim`` hitting seat ``o`` on rank ``r``: harm x danger."""
    return harm(st, tb, s, o, r, aim) * danger(st, tb, s, o)


@hot
def rank_effect(st, tb, s, r, aim, out):
    """Expected effect for seat ``s`` of aiming power ``aim`` at rank ``r`` (``out``:
    ``_known_out``): over the opponents' picks that may have taken it, P(that holder) x
    harm x danger (a character already called shows its holder); the Witch also plays the
    character herself when it is in play."""
    g = st.g
    v = 0.0
    live = 0.0
    if r < g[G_TURN_RANK] and r != g[G_KILLED]:
        o = g[G_HOLDER + r]
        if o >= 0 and o != s:
            live = 1.0
            v = _on(st, tb, s, o, r, aim)
    else:
        scale = odds_scale(st, s, r, out)
        if scale > 0.0:
            for j in range(g[G_PICKS]):
                o = g[G_PICKER + j]
                if o != s and _could_take(st, s, j, r):
                    live += scale
                    v += scale * _on(st, tb, s, o, r, aim)
    if aim == AIM_BEWITCH:
        v += live * (ref_worth(st, tb, s, r, s, ready_builds(st, tb, s, s))
                     + _param(tb, s, PR_R_BUILD))
    return v


@hot
def ref_target(st, tb, s, allowed, aim):
    """The rank in ``allowed`` with the best expected effect of power ``aim`` (random ties);
    never one of his own unless nothing else is allowed."""
    best, ties, pick = NEG, 0, -1
    own = own_ranks(st, s)
    out = _known_out(st, s)
    for r in range(st.g[G_NRANKS]):
        if (allowed >> r) & 1:
            v = -1.0 if (own >> r) & 1 else rank_effect(st, tb, s, r, aim, out)
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                pick = r
    return pick


@hot
def ref_destroy(st, tb, s):
    """Warlord: the district whose loss harms an opponent most for its cost: its points
    (+3 when he is one district from completing) x danger x 2/players, less the gold paid;
    only a gain, and keeping PR_GOLD_RESERVE unless the target is dangerous."""
    gold = st.p[s, P_GOLD]
    n = st.g[G_NP]
    best, ties, tgt, idx = 0.0, 0, -1, -1
    for o in range(n):
        if o == s:
            continue
        d = danger(st, tb, s, o)
        near = 3.0 if city_size(st, o) >= st.g[G_N_COMPLETE] - 1 else 0.0
        for i in range(st.p[o, P_CITY_N]):
            if not destroyable(st, tb, o, i):
                continue
            c = warlord_cost(st, tb, o, i)
            if c > gold or (gold - c < _param(tb, s, PR_GOLD_RESERVE) and d < 2.0):
                continue
            v = (slot_cost(st, tb, o, i) + near) * d * 2.0 / n - c
            take, best, ties = _better(st, s, v, best, ties)
            if take and v > 0.0:
                tgt, idx = o, i
    return tgt, idx


@hot
def _final_round(st):
    """Is some city complete (the game ends with this round)?"""
    for o in range(st.g[G_NP]):
        if is_complete(st, o):
            return True
    return False


@hot
def ref_card_need(st, tb, s):
    """Useful cards seat ``s`` wants in hand: PR_R_DRAW_NEED, plus PR_R_DRAW_GOLD per 4
    gold in his stash, but no more than the districts his city still needs."""
    need = _param(tb, s, PR_R_DRAW_NEED) + _param(tb, s, PR_R_DRAW_GOLD) * st.p[s, P_GOLD] / 4.0
    return min(need, float(st.g[G_N_COMPLETE] - city_size(st, s)))


@hot
def ref_wants_cards(st, tb, s):
    """The reference draw rule: cards while short of useful ones (:func:`ref_card_need`);
    in the last round, only when nothing in hand is payable with 2 more gold."""
    if _final_round(st):
        return ready_builds(st, tb, s, s) == 0
    return useful_cards(st, tb, s) < ref_card_need(st, tb, s)


@hot
def ref_holds_back(st, tb, s, kind):
    """End-game timing: does seat ``s`` leave unbuilt the district ``kind`` that would
    complete his city first, because he would end the game more than PR_R_FINISH points
    behind, while no opponent is about to complete (and the game is young enough)?"""
    g = st.g
    n = g[G_N_COMPLETE]
    if city_size(st, s) + 1 < n or _final_round(st) or g[G_ROUND] * 2 > g[G_MAX_ROUNDS]:
        return False
    mine = visible_score(st, tb, s) + tb.kinds[K_COST, kind] + 4
    behind = False
    for o in range(g[G_NP]):
        if o == s:
            continue
        if city_size(st, o) >= n - 1:
            return False
        if visible_score(st, tb, o) - mine > _param(tb, s, PR_R_FINISH):
            behind = True
    return behind


@hot
def ref_bribe(st, tb, s, amount):
    """Threatened reference seat ``s``: pay when the bribe is at most PR_R_BRIBE x P(flower)
    x stash, the flower being likelier (2/3) on the Blackmailer's richest opponent."""
    b = st.g[G_BLACKMAILER]
    p = 0.65 if st.p[s, P_GOLD] >= _most(st, b, P_GOLD) else 0.35
    return amount <= _param(tb, s, PR_R_BRIBE) * p * st.p[s, P_GOLD]


@hot
def _likely_type(st, tb):
    """The district type with the most cards not in any city (the Spy's guess)."""
    best, pick = -1, T_TRADE
    for t in range(N_TYPES):
        n = 0
        for kind in range(N_KINDS):
            if tb.kinds[K_TYPE, kind] == t:
                n += tb.kinds[K_COUNT, kind]
                for o in range(st.g[G_NP]):
                    n -= st.p[o, P_KINDS + kind]
        if n > best:
            best, pick = n, t
    return pick


@hot
def ref_spy(st, tb, s):
    """Spy: the likeliest type, and the opponent from whom it should take most: expected
    matches (a third of his hand), in gold as far as his stash goes and in cards, x danger."""
    best, ties, who = NEG, 0, -1
    for o in range(st.g[G_NP]):
        if o != s:
            m = st.p[o, P_HAND_N] / 3.0
            v = (min(m, st.p[o, P_GOLD]) + m * _param(tb, s, PR_R_CARD)) * danger(st, tb, s, o)
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                who = o
    return who, _likely_type(st, tb)


@hot
def ref_bewitch(st, tb, s, allowed, optional):
    """Witch: the rank whose bewitchment does most (:func:`rank_effect`); in classic, where
    she may decline, only when that beats her own turn's build (PR_R_BUILD)."""
    r = ref_target(st, tb, s, allowed, AIM_BEWITCH)
    if optional and rank_effect(st, tb, s, r, AIM_BEWITCH, _known_out(st, s)) < _param(
            tb, s, PR_R_BUILD):
        return -1
    return r


@hot
def ref_threats(st, tb, s, allowed):
    """Blackmailer: (flower, bluff) on the two ranks in ``allowed`` where a threat should
    take most (:func:`rank_effect`; random ties for the flower), in one pass."""
    best, ties, real = NEG, 0, -1
    second, bluff = NEG, -1
    own = own_ranks(st, s)
    out = _known_out(st, s)
    for r in range(st.g[G_NRANKS]):
        if (allowed >> r) & 1:
            v = -1.0 if (own >> r) & 1 else rank_effect(st, tb, s, r, AIM_THREAT, out)
            was, prev = best, real
            take, best, ties = _better(st, s, v, best, ties)
            if take:
                real = r
                if prev >= 0 and was >= second:
                    second, bluff = was, prev
            elif v > second:
                second, bluff = v, r
    return real, bluff
