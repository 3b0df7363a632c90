"""The ``reference`` family, the strongest: a desire per *character* (``PR_CHAR``) plus what
its power is worth in the present state; infers from the draft's offers who may hold which
character; aims the Assassin, Thief, Witch, Magistrate, Blackmailer and Warlord by expected
effect over the possible holders; draws cards by a state-dependent rule; bribes or refuses by
the odds of the flower; times the completing build by the score.  It takes the heuristic's
decisions where it does not write its own, read with its own parameters.

What a reference seat knows of the draft: the ranks offered at each of its picks and the pick
numbers (layout P_OFFER, P_STEP), the order in which the seats picked (G_PICKER), the face-up
discards and its own face-down discards (P_DOWN); during the turns, the holders of the
characters already called.  Values are in gold; harm to a seat is weighted by how close he is
to winning (:func:`danger`).
"""

import math

from ..jit import hot, inline
from ..layout import (CH_ABBOT, CH_ALCHEMIST, CH_ARCHITECT, CH_ARTIST, CH_ASSASSIN, CH_BISHOP,
                      CH_BLACKMAILER, CH_CARDINAL, CH_DIPLOMAT, CH_EMPEROR, CH_KING, CH_MAGICIAN,
                      CH_MAGISTRATE, CH_MARSHAL, CH_MERCHANT, CH_NAVIGATOR, CH_PATRICIAN, CH_QUEEN,
                      CH_SCHOLAR, CH_SEER, CH_SPY, CH_TAX_COLLECTOR, CH_TAX_COLLECTOR_CLASSIC,
                      CH_THIEF, CH_TRADER, CH_WARLORD, CH_WITCH, CH_WIZARD, G_ARCHITECT_CARDS,
                      G_BLACKMAILER, G_BRIBE_SHARE, G_CROWN, G_DECK_N, G_EXTRA_CARDS, G_EXTRA_GOLD,
                      G_EXTRA_INCOME, G_FACEUP, G_GATHER_GOLD, G_HOLDER, G_INCOME, G_KILLED,
                      G_MERCHANT_GOLD, G_NAVIGATOR_GAIN, G_NP, G_NRANKS, G_N_COMPLETE, G_PICKER,
                      G_PICKS, G_QUEEN_GOLD, G_RANK_CHAR, G_ROUND, G_TAX, G_TAX_PILE,
                      G_THIEF_SHARE, G_TURN_RANK, K_COST, K_COUNT, K_TYPE, N_KINDS,
                      N_TYPES, PR_BASE, PR_CHAR, PR_GOLD_RESERVE, PR_R_BRIBE, PR_R_BUILD, PR_R_CARD,
                      PR_R_CROWN, PR_R_DENY, PR_R_DRAW_GOLD, PR_R_DRAW_NEED, PR_R_FINISH,
                      PR_R_MEMORY, PR_R_READ, PR_R_URGENCY, PR_W_AGGRESSION, PR_W_INCOME,
                      PR_W_NEW_TYPE, PR_W_THREAT, P_CITY_N, P_DOWN, P_GOLD, P_HAND_N, P_KINDS,
                      P_OFFER, P_SHOWN, P_STEP, RANK_KING, T_TRADE, W_EFFECT, W_LIVE, W_READ,
                      W_SCALE)
from ..rules import (INCOME_CARDS, build_cost, build_limit, destroyable, has, income_count,
                     income_kind, income_type, slot_cost, warlord_cost)
from ..state import city_size, own_ranks
from .common import (NEG, NOTHING, dry_deck, final_round, leader, offer, opponents_most,
                     slot_option, split_slot, useful_cards, warrants_for)
from .heuristic import best_build, exchange_tally, exchange_target, income_before

#: the family whose decisions this one does not write itself
BASE = "heuristic"

# the powers aimed at a rank (``aim``)
AIM_KILL = 0      # the Assassin's kill
AIM_ROB = 1       # the Thief's robbery
AIM_WARRANT = 2   # the Magistrate's signed warrant
AIM_THREAT = 3    # the Blackmailer's threat
AIM_BEWITCH = 4   # the Witch's bewitchment


@hot
def bits(m):
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
def known_out(st, s):
    """Bitmask of the ranks no opponent of ``s`` holds, as he knows: face up, his own and
    those he discarded face down."""
    return st.g[G_FACEUP] | own_ranks(st, s) | st.p[s, P_DOWN]


@hot
def gets_face_down(st, k):
    """Is pick ``k`` offered the face-down card too (4+ players: the last picker, when one
    card is left for him, docs/rules.md §2.3.2)?"""
    g = st.g
    n = g[G_NP]
    return n >= 4 and k == n - 1 and g[G_NRANKS] - bits(g[G_FACEUP]) == n + 1


@hot
def could_take(st, s, k, r):
    """Could pick number ``k`` (another seat's) have taken rank ``r``, as ``s`` knows?  A
    rank offered to ``s`` was still there after every earlier pick; one not offered to him
    was gone before his (or lay face down, which the last picker may be offered)."""
    if gets_face_down(st, k):
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
        if st.g[G_PICKER + k] == o and could_take(st, s, k, r):
            n += 1.0
    return n


@hot
def nobody_odds(st, s, out):
    """The chance that a rank ``s`` cannot place lies face down: the face-down cards he did
    not discard himself over all the ranks he cannot place (``out``: ``_known_out``)."""
    g = st.g
    unknown = g[G_NRANKS] - bits(out)
    down = g[G_NRANKS] - bits(g[G_FACEUP]) - total_picks(st) - bits(st.p[s, P_DOWN])
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
        if st.g[G_PICKER + k] != s and could_take(st, s, k, r):
            total += 1.0
    return (1.0 - nobody_odds(st, s, out)) / total if total > 0.0 else 0.0


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
    return holder_weight(st, s, o, r) * odds_scale(st, s, r, known_out(st, s))


@hot
def attacker_odds(st, s, a, avail, out):
    """During the draft: the chance that rank ``a`` will be played by an opponent of ``s``,
    who is choosing from ``avail`` (``out``: ``_known_out``): passed on to a later picker,
    or taken by an earlier one (else face down)."""
    if (out >> a) & 1:
        return 0.0
    if (avail >> a) & 1:
        return 0.7 if st.g[G_PICKS] + 1 < total_picks(st) else 0.0
    return 1.0 - nobody_odds(st, s, out) if st.g[G_PICKS] > 0 else 0.0


@hot
def closeness(st, o):
    """How close seat ``o`` is to completing: (share of his city built)^2."""
    share = city_size(st, o) / st.g[G_N_COMPLETE]
    return share * share


@hot
def danger(st, tb, viewer, o):
    """What harm to seat ``o`` is worth to ``viewer``, per gold of harm: 1, plus
    PR_R_URGENCY x his closeness to completing."""
    return 1.0 + st.params[viewer, PR_R_URGENCY] * closeness(st, o)


@hot
def attack_worth(st, tb, o, viewer):
    """What the attacking powers are worth to ``o``, as ``viewer`` judges: PR_W_AGGRESSION x
    the most dangerous opponent's danger beyond 1."""
    most = 0.0
    for q in range(st.g[G_NP]):
        if q != o:
            most = max(most, closeness(st, q))
    return st.params[viewer, PR_W_AGGRESSION] * st.params[viewer, PR_R_URGENCY] * most


@hot
def ready_builds(st, tb, o, viewer):
    """Districts seat ``o`` could build this turn, as ``viewer`` knows: his own useful cards
    payable with his stash and a gather's gold; another seat's guessed from his hand and
    stash."""
    gold = st.p[o, P_GOLD] + st.g[G_GATHER_GOLD]
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
def power_worth(st, tb, o, ch, viewer, ready):
    """What character ``ch``'s power is worth to its holder ``o`` this round, in gold, as
    ``viewer`` judges it (income and build limits apart: :func:`ref_worth`)."""
    card = st.params[viewer, PR_R_CARD]
    gold = st.p[o, P_GOLD]
    if ch == CH_ASSASSIN:
        return 2.0 * attack_worth(st, tb, o, viewer)
    if ch == CH_WITCH:
        return 1.5 * attack_worth(st, tb, o, viewer) + 1.0
    if ch == CH_MAGISTRATE:
        return attack_worth(st, tb, o, viewer) + 1.0
    if ch == CH_THIEF:
        return 0.5 * opponents_most(st, o, P_GOLD) * st.g[G_THIEF_SHARE] / 100.0
    if ch == CH_SPY:
        return 0.25 * opponents_most(st, o, P_HAND_N) * (1.0 + card)
    if ch == CH_BLACKMAILER:
        return 0.5 * opponents_most(st, o, P_GOLD)
    if ch == CH_TAX_COLLECTOR_CLASSIC:
        return 0.4 * (st.g[G_NP] - 1)
    if ch == CH_MAGICIAN:
        gain = 0.5 * max(0, opponents_most(st, o, P_HAND_N) - st.p[o, P_HAND_N] - 1)
        if o == viewer and useful_cards(st, tb, o) == 0 and st.p[o, P_HAND_N] > 0:
            gain += 1.0
            if dry_deck(st):  # his one way to a buildable card
                return card * gain + st.params[viewer, PR_R_BUILD] + 2.0
        return card * gain
    if ch == CH_WIZARD:
        return (card if opponents_most(st, o, P_HAND_N) > 0 else 0.0) + 0.5
    if ch == CH_SEER:
        n = 0
        for q in range(st.g[G_NP]):
            if q != o and st.p[q, P_HAND_N] > 0:
                n += 1
        return 0.3 * card * n
    if ch == CH_KING or ch == CH_PATRICIAN:
        return st.params[viewer, PR_R_CROWN] * (0.3 if st.g[G_CROWN] == o else 1.0)
    if ch == CH_EMPEROR:
        return 1.0
    if ch == CH_BISHOP:
        return 0.15 * city_size(st, o)
    if ch == CH_ABBOT:
        return 1.0 if opponents_most(st, o, P_GOLD) > gold else 0.0
    if ch == CH_CARDINAL or ch == CH_TRADER:
        return 0.5
    if ch == CH_DIPLOMAT or ch == CH_MARSHAL:
        return 0.5 + 0.5 * attack_worth(st, tb, o, viewer)
    if ch == CH_MERCHANT:
        return float(st.g[G_MERCHANT_GOLD])
    if ch == CH_ALCHEMIST:
        return 0.5 * min(gold, 5)
    if ch == CH_ARCHITECT:
        return st.g[G_ARCHITECT_CARDS] * card
    if ch == CH_NAVIGATOR:  # 4 gold, or 4 cards of which only those he still needs count;
        n = st.g[G_NAVIGATOR_GAIN]
        # no build this turn: the district he could build waits (2 gold, as for a lost turn)
        hand = useful_cards(st, tb, o) if o == viewer else st.p[o, P_HAND_N]
        short = max(0, st.g[G_N_COMPLETE] - city_size(st, o) - hand)
        lost = 2.0 if ready > 0 else 0.0
        return max(float(n), card * min(n, short)) - lost
    if ch == CH_SCHOLAR:
        return 1.5 * card
    if ch == CH_WARLORD:
        return 1.5 * attack_worth(st, tb, o, viewer)
    if ch == CH_QUEEN:
        return st.g[G_QUEEN_GOLD] * queen_odds(st, o, viewer)
    if ch == CH_ARTIST:
        return 0.5 * min(gold, 2)
    if ch == CH_TAX_COLLECTOR:
        return st.g[G_TAX_PILE] + 0.5
    return 0.0


@hot
def builds_before(st, tb, o, viewer):
    """The builds the other seats may make this round before the rank-9 Tax Collector's
    turn (each pays his tax to the pile), as ``viewer`` knows: per seat, his ready builds,
    at most one a turn (two turns each with 2-3 players)."""
    n = st.g[G_NP]
    turns = 2 if n <= 3 else 1
    total = 0
    for q in range(n):
        if q != o:
            total += min(turns, ready_builds(st, tb, q, viewer))
    return total


@hot
def queen_odds(st, o, viewer):
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
    ``ready_builds(st, tb, o, viewer)``), a card variant's added gold, cards and income,
    and its power."""
    g = st.g
    ch = g[G_RANK_CHAR + r]
    unit = st.params[viewer, PR_R_CARD] if income_kind(st, ch) == INCOME_CARDS else 1.0
    v = (st.params[viewer, PR_W_INCOME]
         * (income_count(st, tb, o, income_type(ch)) * g[G_INCOME + ch]) * unit)
    v += st.params[viewer, PR_R_BUILD] * (min(build_limit(st, r), ready) - min(1, ready))
    if g[G_EXTRA_GOLD + r] or g[G_EXTRA_CARDS + r] or g[G_EXTRA_INCOME + r] >= 0:
        v += (g[G_EXTRA_GOLD + r] + st.params[viewer, PR_R_CARD] * g[G_EXTRA_CARDS + r]
              + st.params[viewer, PR_W_INCOME]
              * income_count(st, tb, o, g[G_EXTRA_INCOME + r]))
    return v + power_worth(st, tb, o, ch, viewer, ready)


@hot
def exposure(st, tb, s, r, v, odds_r1, odds_r2):
    """Seat ``s``'s expected loss, in gold, to the rank-1 and rank-2 characters actually in
    the set if he takes rank ``r`` (worth ``v``): each attacker's odds of being played
    against him (``odds_r1``, ``odds_r2``: :func:`attacker_odds` of ranks 0 and 1), a third
    of the time on him, times what it would take."""
    g = st.g
    gold = st.p[s, P_GOLD]
    loss = 0.0
    if r > 0:
        a = g[G_RANK_CHAR]
        if a == CH_ASSASSIN:
            loss += odds_r1 * (2.0 + v + st.params[s, PR_R_BUILD])
        elif a == CH_WITCH:
            loss += odds_r1 * (v + st.params[s, PR_R_BUILD])
        elif a == CH_MAGISTRATE:
            loss += odds_r1 * min(gold, 4)
    if r > 1:
        b = g[G_RANK_CHAR + 1]
        if b == CH_THIEF:
            loss += odds_r2 * gold
        elif b == CH_BLACKMAILER:
            loss += odds_r2 * 0.5 * gold
    return st.params[s, PR_W_THREAT] * loss / 3.0


@hot
def ref_desire(st, tb, s, r, ready, odds_r1, odds_r2):
    """How much seat ``s`` wants rank ``r`` (``ready``: his ``ready_builds``; ``odds_r1``,
    ``odds_r2``: the attackers' odds, :func:`exposure`): his desire for its character
    (PR_CHAR) and for its place in the calling order (PR_BASE), plus its worth now, less
    his exposure to the attackers."""
    w = ref_worth(st, tb, s, r, s, ready)
    v = st.params[s, PR_CHAR + st.g[G_RANK_CHAR + r]] + st.params[s, PR_BASE + r] + w
    return v - exposure(st, tb, s, r, w, odds_r1, odds_r2)


@hot
def ref_pick(st, tb, s, avail, sign):
    """The rank the reference seat keeps (``sign`` 1) from ``avail``, or discards face down
    (``sign`` -1, 2 players: the one worth least to him and most, by PR_R_DENY, to the
    opponent who picks next)."""
    best, ties, pick = NOTHING
    deny = st.params[s, PR_R_DENY] if sign < 0 else 0.0
    o = 1 - s if st.g[G_NP] == 2 else -1
    out = known_out(st, s)
    ready = ready_builds(st, tb, s, s)
    theirs = ready_builds(st, tb, o, s) if o >= 0 else 0
    odds_r1 = attacker_odds(st, s, 0, avail, out)
    odds_r2 = attacker_odds(st, s, 1, avail, out)
    for r in range(st.g[G_NRANKS]):
        if not (avail >> r) & 1:
            continue
        v = sign * ref_desire(st, tb, s, r, ready, odds_r1, odds_r2)
        if deny != 0.0 and o >= 0:
            v += deny * (st.params[s, PR_CHAR + st.g[G_RANK_CHAR + r]]
                         + ref_worth(st, tb, o, r, s, theirs))
        best, ties, pick = offer(st, s, v, r, best, ties, pick)
    return pick


@hot
def harm(st, tb, s, o, r, aim):
    """What power ``aim`` (AIM_*) aimed at rank ``r`` takes from its holder ``o``, in gold, as
    ``s`` judges it: his stash (robbery), half of it (a threat: bribe or flower), his first
    paid build (a warrant; the Magistrate gains it too), or his turn (a kill, a
    bewitchment)."""
    gold = st.p[o, P_GOLD]
    if aim == AIM_ROB:
        return gold * st.g[G_THIEF_SHARE] / 100.0
    if aim == AIM_THREAT:
        return gold * st.g[G_BRIBE_SHARE] / 100.0
    cards = min(1, st.p[o, P_HAND_N])
    if aim == AIM_WARRANT:
        return 2.0 * min(gold + st.g[G_GATHER_GOLD], 4) * cards
    turn = ref_worth(st, tb, o, r, s, ready_builds(st, tb, o, s))
    if st.g[G_RANK_CHAR + r] == CH_TAX_COLLECTOR:  # and the taxes he would collect
        turn += st.g[G_TAX] * builds_before(st, tb, o, s)
    turn += st.params[s, PR_R_BUILD] * cards
    return turn + (2.0 if aim == AIM_KILL else 0.0)


@hot
def effect_on(st, tb, s, o, r, aim):
    """The effect for ``s`` of power ``aim`` hitting seat ``o`` on rank ``r``: harm x danger."""
    return harm(st, tb, s, o, r, aim) * danger(st, tb, s, o)


@hot
def read_picks(st, tb, s, k, out):
    """How much likelier than the other ranks it could have taken (``out``: ``_known_out``)
    seat ``s`` reads that pick ``k`` (another seat's) kept each rank, into
    ``st.work[W_READ]``: 1 each when PR_R_READ and PR_R_MEMORY are 0 (every rank alike);
    else the picker's chance of keeping the rank, in proportion to exp(PR_R_READ x what it
    would be worth to ``s`` in his place (desire and worth now) + PR_R_MEMORY x the share of
    the earlier rounds in which the picker revealed it), times the number of ranks he could
    have kept (0 for a rank he could not).  A negative PR_R_READ reads that the picker keeps
    the one worth less (and leaves the other face down, or to ``s``); PR_R_MEMORY reads his
    habits (a player who never shows the Warlord keeps the other rank)."""
    g = st.g
    read = st.params[s, PR_R_READ]
    memory = st.params[s, PR_R_MEMORY]
    reads = st.work[W_READ]
    if read == 0.0 and memory == 0.0:
        for c in range(g[G_NRANKS]):
            reads[c] = 1.0
        return
    o = g[G_PICKER + k]
    ready = ready_builds(st, tb, o, s) if read != 0.0 else 0
    rounds = max(1, g[G_ROUND] - 1)
    total = 0.0
    n = 0
    for c in range(g[G_NRANKS]):
        reads[c] = 0.0
        if (out >> c) & 1 or not could_take(st, s, k, c):
            continue
        x = memory * st.p[o, P_SHOWN + c] / rounds
        if read != 0.0:
            x += read * (st.params[s, PR_CHAR + g[G_RANK_CHAR + c]] + st.params[s, PR_BASE + c]
                         + ref_worth(st, tb, o, c, s, ready))
        reads[c] = math.exp(min(50.0, x))
        total += reads[c]
        n += 1
    for c in range(g[G_NRANKS]):
        reads[c] = n * reads[c] / total if total > 0.0 else 1.0


@hot
def rank_effects(st, tb, s, wanted, aim, out):
    """Expected effect for seat ``s`` of aiming power ``aim`` at each rank in bitmask
    ``wanted`` (``out``: ``_known_out``), into ``st.work[W_EFFECT]`` (and the chance that an
    opponent plays it into ``st.work[W_LIVE]``): over the opponents' picks that may have
    taken it, P(that holder) x harm x danger (a character already called shows its holder;
    each pick read by :func:`read_picks`, once for every rank, and the read odds set against
    the chance that it lies face down, so that they sum to at most 1); the Witch also plays
    the character herself when it is in play."""
    g = st.g
    n = g[G_NRANKS]
    eff = st.work[W_EFFECT]
    live = st.work[W_LIVE]
    scale = st.work[W_SCALE]
    for r in range(n):
        eff[r] = 0.0
        live[r] = 0.0
        scale[r] = 0.0
        if not (wanted >> r) & 1:
            continue
        if r < g[G_TURN_RANK] and r != g[G_KILLED]:
            o = g[G_HOLDER + r]
            if o >= 0 and o != s:
                live[r] = 1.0
                eff[r] = effect_on(st, tb, s, o, r, aim)
        else:
            scale[r] = odds_scale(st, s, r, out)
    for j in range(g[G_PICKS]):
        o = g[G_PICKER + j]
        if o == s:
            continue
        read_picks(st, tb, s, j, out)
        for r in range(n):
            if scale[r] > 0.0 and could_take(st, s, j, r):
                p = scale[r] * st.work[W_READ, r]
                live[r] += p
                eff[r] += p * effect_on(st, tb, s, o, r, aim)
    reading = st.params[s, PR_R_READ] != 0.0 or st.params[s, PR_R_MEMORY] != 0.0
    for r in range(n):
        if reading and scale[r] > 0.0:
            # the reads weigh the picks against the chance that it lies face down
            total = live[r] + nobody_odds(st, s, out)
            live[r] /= total
            eff[r] /= total
        if aim == AIM_BEWITCH and (wanted >> r) & 1:
            eff[r] += live[r] * (ref_worth(st, tb, s, r, s, ready_builds(st, tb, s, s))
                                 + st.params[s, PR_R_BUILD])


@hot
def rank_effect(st, tb, s, r, aim, out):
    """Expected effect for seat ``s`` of aiming power ``aim`` at rank ``r``
    (:func:`rank_effects`)."""
    rank_effects(st, tb, s, 1 << r, aim, out)
    return st.work[W_EFFECT, r]


@hot
def ref_target(st, tb, s, allowed, aim):
    """The rank in ``allowed`` with the best expected effect of power ``aim`` (random ties);
    never one of his own unless nothing else is allowed."""
    best, ties, pick = NOTHING
    own = own_ranks(st, s)
    rank_effects(st, tb, s, allowed & ~own, aim, known_out(st, s))
    for r in range(st.g[G_NRANKS]):
        if (allowed >> r) & 1:
            v = -1.0 if (own >> r) & 1 else st.work[W_EFFECT, r]
            best, ties, pick = offer(st, s, v, r, best, ties, pick)
    return pick


@hot
def ref_destroy(st, tb, s):
    """Warlord: the district whose loss harms an opponent most for its cost: its points
    (+3 when he is one district from completing) x danger x 2/players, less the gold paid;
    only a gain, and keeping PR_GOLD_RESERVE unless the target is dangerous.  With the deck
    dry (fewer cards than players) he leaves a city one district from completing alone: the
    razed card would come back to be built again, round after round, and the game could
    only end at the round cap."""
    gold = st.p[s, P_GOLD]
    n = st.g[G_NP]
    best, ties, pick = 0.0, 0, -1
    for o in range(n):
        if o == s:
            continue
        d = danger(st, tb, s, o)
        near = 3.0 if city_size(st, o) >= st.g[G_N_COMPLETE] - 1 else 0.0
        if near > 0.0 and dry_deck(st):
            continue
        for i in range(st.p[o, P_CITY_N]):
            if not destroyable(st, tb, o, i):
                continue
            c = warlord_cost(st, tb, o, i)
            if c > gold or (gold - c < st.params[s, PR_GOLD_RESERVE] and d < 2.0):
                continue
            v = (slot_cost(st, tb, o, i) + near) * d * 2.0 / n - c
            # only a gain is taken; a tie at zero still draws, as it always has
            best, ties, chosen = offer(st, s, v, slot_option(o, i), best, ties, pick)
            if v > 0.0:
                pick = chosen
    return split_slot(pick)


@hot
def ref_card_need(st, tb, s):
    """Useful cards seat ``s`` wants in hand: PR_R_DRAW_NEED, plus PR_R_DRAW_GOLD per 4
    gold in his stash, but no more than the districts his city still needs."""
    need = st.params[s, PR_R_DRAW_NEED] + st.params[s, PR_R_DRAW_GOLD] * st.p[s, P_GOLD] / 4.0
    return min(need, float(st.g[G_N_COMPLETE] - city_size(st, s)))


@hot
def ref_wants_cards(st, tb, s):
    """The reference draw rule: cards while short of useful ones (:func:`ref_card_need`);
    in the last round, only when nothing in hand is payable with 2 more gold."""
    if final_round(st):
        return ready_builds(st, tb, s, s) == 0
    return useful_cards(st, tb, s) < ref_card_need(st, tb, s)


@hot
def ref_bribe(st, tb, s, amount):
    """Threatened reference seat ``s``: pay when the bribe is at most PR_R_BRIBE x P(flower)
    x stash, the flower being likelier (2/3) on the Blackmailer's richest opponent."""
    b = st.g[G_BLACKMAILER]
    p = 0.65 if st.p[s, P_GOLD] >= opponents_most(st, b, P_GOLD) else 0.35
    return amount <= st.params[s, PR_R_BRIBE] * p * st.p[s, P_GOLD]


@hot
def likely_type(st, tb):
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
    best, ties, who = NOTHING
    for o in range(st.g[G_NP]):
        if o != s:
            m = st.p[o, P_HAND_N] / 3.0
            v = (min(m, st.p[o, P_GOLD]) + m * st.params[s, PR_R_CARD]) * danger(st, tb, s, o)
            best, ties, who = offer(st, s, v, o, best, ties, who)
    return who, likely_type(st, tb)


@hot
def ref_bewitch(st, tb, s, allowed, optional):
    """Witch: the rank whose bewitchment does most (:func:`rank_effect`); in classic, where
    she may decline, only when that beats her own turn's build (PR_R_BUILD)."""
    r = ref_target(st, tb, s, allowed, AIM_BEWITCH)
    if optional and rank_effect(st, tb, s, r, AIM_BEWITCH, known_out(st, s)) < st.params[
            s, PR_R_BUILD]:
        return -1
    return r


@hot
def ref_threats(st, tb, s, allowed):
    """Blackmailer: (flower, bluff) on the two ranks in ``allowed`` where a threat should
    take most (:func:`rank_effect`; random ties for the flower), in one pass."""
    best, ties, real = NOTHING
    second, bluff = NEG, -1
    own = own_ranks(st, s)
    rank_effects(st, tb, s, allowed & ~own, AIM_THREAT, known_out(st, s))
    for r in range(st.g[G_NRANKS]):
        if (allowed >> r) & 1:
            v = -1.0 if (own >> r) & 1 else st.work[W_EFFECT, r]
            was, prev = best, real
            best, ties, real = offer(st, s, v, r, best, ties, real)
            if real == r:
                if prev >= 0 and was >= second:
                    second, bluff = was, prev
            elif v > second:
                second, bluff = v, r
    return real, bluff


# ---- the decisions it writes itself ---------------------------------------------------------
@inline
def choose_character(st, tb, s, avail):
    return ref_pick(st, tb, s, avail, 1.0)


@inline
def choose_draft_discard(st, tb, s, avail):
    return ref_pick(st, tb, s, avail, -1.0)


@inline
def choose_theater(st, tb, s, mine):
    """He gives away the character he desires least when the average one he cannot see is
    desired at least 1 more, to the leader."""
    ld = leader(st, s)
    out = known_out(st, s)
    ready = ready_builds(st, tb, s, s)
    odds_r1 = attacker_odds(st, s, 0, 0, out)
    odds_r2 = attacker_odds(st, s, 1, 0, out)
    give, low, total, count = -1, -NEG, 0.0, 0
    for r in range(st.g[G_NRANKS]):
        desire = ref_desire(st, tb, s, r, ready, odds_r1, odds_r2)
        give, low, total, count = exchange_tally(st, mine, r, desire, give, low, total, count)
    return exchange_target(ld, give, low, total, count)


@inline
def choose_gather_cards(st, tb, s):
    return ref_wants_cards(st, tb, s)


@inline
def choose_build(st, tb, s):
    """The heuristic's build (a decoy first under a warrant), with the completing one timed
    by the score (PR_R_FINISH)."""
    return best_build(st, tb, s, st.params[s, PR_W_NEW_TYPE], st.params[s, PR_R_FINISH], True)


@inline
def choose_income_first(st, tb, s, itype):
    return income_before(st, tb, s, itype, choose_build(st, tb, s))


@inline
def choose_target_rank(st, tb, s, allowed, own, rob):
    return ref_target(st, tb, s, allowed, AIM_ROB if rob else AIM_KILL)


@inline
def choose_destroy(st, tb, s):
    return ref_destroy(st, tb, s)


@inline
def choose_income_cards(st, tb, s, n):
    """As many cards as his (fractional, rounded up) card need asks for."""
    return min(n, max(0, math.ceil(ref_card_need(st, tb, s)) - useful_cards(st, tb, s)))


@inline
def choose_navigator_cards(st, tb, s):
    return st.g[G_DECK_N] > 0 and useful_cards(st, tb, s) < ref_card_need(st, tb, s)


@inline
def choose_emperor_card(st, tb, s, target):
    return useful_cards(st, tb, s) < ref_card_need(st, tb, s)


@inline
def choose_spy(st, tb, s):
    return ref_spy(st, tb, s)


@inline
def choose_bewitch(st, tb, s, allowed, optional):
    return ref_bewitch(st, tb, s, allowed, optional)


@inline
def choose_warrants(st, tb, s, allowed):
    return warrants_for(st, s, allowed, ref_target(st, tb, s, allowed, AIM_WARRANT))


@inline
def choose_threats(st, tb, s, allowed):
    return ref_threats(st, tb, s, allowed)


@inline
def choose_bribe(st, tb, s, amount):
    return amount == 0 or ref_bribe(st, tb, s, amount)
