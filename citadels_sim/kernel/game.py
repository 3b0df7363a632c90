"""A whole game: rounds of draft, calls and end of round, then scoring (docs/rules.md §2.2,
§2.6, §5)."""

from .jit import hot, inline

from .characters import give_crown, queen_neighbour, take_crown
from .state import clear_round, gain, has
from .draft import draft
from .layout import (CH_EMPEROR, CH_KING, CH_PATRICIAN, CH_QUEEN, C_BUILT, C_GOLD, C_KILLED,
                     C_OFFERED, C_PICKED, C_ROBBED, D_HOSPITAL, G_BELL, G_BEWITCHED, G_CAP_HIT,
                     G_COLOUR_BONUS, G_CROWN, G_FIRST, G_FIRST_CROWN, G_HOLDER, G_KILLED,
                     G_MAX_ROUNDS, G_NP, G_NRANKS, G_OVER, G_QUEEN_GOLD, G_RANK_CHAR, G_ROBBED,
                     G_ROUND, G_ROUND_SCORE, G_RULESET, G_TURN_BUILT, G_WITCH, G_WITCH_RANK,
                     LED_ROUNDS, N_TYPES, P_AT_BELL, P_AT_FULL, P_BEHIND, P_CITY_VALUE, P_GOLD,
                     P_LED, P_OFFERED, P_PICKED, P_PLACE, P_REVEALED, P_SCORE, P_SHOWN, P_TYPES,
                     RANK_9, RANK_KING, R_2016, R_FOUR_COLOR)
from .log import EV_GAME_END, EV_HEIR, EV_QUEEN, EV_ROUND_END, EV_SETUP, EV_SKIP_KILLED, event
from .rules import is_complete
from .scoring import score_game
from .turn import gather_only_turn, play_turn


@hot
def _start_round(st):
    g = st.g
    g[G_ROUND] += 1
    clear_round(st)


@hot
def _end_round(st, tb):
    """Killed King or Patrician: his holder reveals him and takes the crown as heir (a killed
    2016 Emperor's holder moves it; a killed classic Emperor leaves it); a living Queen next
    to the killed rank-4 character gets her gold (3) now (docs/rules.md §2.6)."""
    g = st.g
    k = g[G_KILLED]
    ch = g[G_RANK_CHAR + k] if k >= 0 else -1
    if k == RANK_KING and g[G_HOLDER + k] >= 0 and (
            ch == CH_KING or ch == CH_PATRICIAN or (ch == CH_EMPEROR and g[G_RULESET] == R_2016)):
        s = g[G_HOLDER + k]
        st.p[s, P_REVEALED] = max(st.p[s, P_REVEALED], k + 1)
        st.p[s, P_SHOWN + k] += 1
        event(st, EV_HEIR, s, k, 0, 0, 0, 0)
        if ch == CH_EMPEROR:  # 2016: the killed Emperor's holder moves the crown, no tribute
            give_crown(st, tb, s, k, False)
        else:
            take_crown(st, s, k)
    q = g[G_HOLDER + RANK_9]
    if (k == RANK_KING and q >= 0 and g[G_RANK_CHAR + RANK_9] == CH_QUEEN
            and queen_neighbour(st, q)):
        gain(st, q, g[G_QUEEN_GOLD])
        event(st, EV_QUEEN, q, RANK_9, g[G_QUEEN_GOLD], 0, 0, 0)
    event(st, EV_ROUND_END, -1, -1, 0, 0, 0, 0)


@hot
def _first_completer(st):
    """Among complete cities, the one that reached the final N earliest (D25)."""
    g = st.g
    best, who = -1, -1
    for s in range(g[G_NP]):
        if is_complete(st, s):
            at = st.p[s, P_AT_BELL] if g[G_BELL] else st.p[s, P_AT_FULL]
            if best < 0 or at < best:
                best, who = at, s
    return who


@hot
def track_lead(st, final):
    """The game-quality counters at a round's end.  A seat's standing is his districts'
    value plus the all-types bonus if his city has every type (after the last round: his
    final score, which adds the completion bonus and the district extras).  The seat ahead
    alone (after the last round: the winner, when he is alone in first place) gets the
    round's bit in ``P_LED``; each seat's ``P_BEHIND`` keeps the most points it has trailed
    the leading standing by."""
    g = st.g
    n = g[G_NP]
    need = N_TYPES - 1 if g[G_RULESET] == R_FOUR_COLOR else N_TYPES
    best, ahead, first = -1, 0, 0
    for s in range(n):
        if final:
            v = st.p[s, P_SCORE]
            first += st.p[s, P_PLACE] == 1
        else:
            v = st.p[s, P_CITY_VALUE]
            t = 0
            while t < need and st.p[s, P_TYPES + t] > 0:
                t += 1
            if t == need:
                v += g[G_COLOUR_BONUS]
        g[G_ROUND_SCORE + s] = v
        if v > best:
            best, ahead = v, 1
        elif v == best:
            ahead += 1
    bit = 1 << (g[G_ROUND] - 1) if g[G_ROUND] <= LED_ROUNDS else 0
    for s in range(n):
        v = g[G_ROUND_SCORE + s]
        st.p[s, P_BEHIND] = max(st.p[s, P_BEHIND], best - v)
        if (st.p[s, P_PLACE] == 1 and first == 1) if final else (v == best and ahead == 1):
            st.p[s, P_LED] |= bit


@inline
def play_game(st, tb, held, records, picks):
    """Play one game to its end and score it, filling the per-character records (inlined
    into :func:`.run.play_games`, its one caller in the kernel; called from Python it compiles
    on first use).

    ``held[s, r]`` counts the rounds seat ``s`` held rank ``r``; ``records[s, r, C_*]`` adds
    up what happened to that character (killed, robbed, gold and districts gained in its
    turns, draft picks in which it was offered to the seat and that took it).  When ``picks`` has rows, ``picks[round - 1, r]`` receives (holder, 1 killed |
    2 robbed).
    """
    g = st.g
    n = g[G_NP]
    g[G_FIRST_CROWN] = g[G_CROWN]
    event(st, EV_SETUP, -1, -1, g[G_CROWN], 0, 0, 0)
    while True:
        _start_round(st)
        draft(st, tb)
        for r in range(g[G_NRANKS]):
            s = st.g[G_HOLDER + r]
            if s < 0:
                continue
            held[s, r] += 1
            killed = g[G_KILLED] == r
            gold = st.p[s, P_GOLD]
            if killed:
                records[s, r, C_KILLED] += 1
                if has(st, s, D_HOSPITAL):
                    gather_only_turn(st, tb, r, s)
                else:
                    event(st, EV_SKIP_KILLED, s, r, 0, 0, 0, 0)
            else:  # one call of the turn (inlined once): his, or the Witch's resumed as rank r
                bewitched = g[G_BEWITCHED] == r
                if bewitched:
                    gather_only_turn(st, tb, r, s)
                    records[s, r, C_GOLD] += st.p[s, P_GOLD] - gold
                w = g[G_WITCH] if bewitched else s
                k = g[G_WITCH_RANK] if bewitched else r  # a resumed turn counts for the bewitcher
                before = st.p[w, P_GOLD]
                play_turn(st, tb, r, w)
                records[w, k, C_BUILT] += g[G_TURN_BUILT]
                if bewitched:
                    records[w, k, C_GOLD] += st.p[w, P_GOLD] - before
                    gold = st.p[s, P_GOLD]
                elif g[G_ROBBED] == r:
                    records[s, r, C_ROBBED] += 1
            records[s, r, C_GOLD] += st.p[s, P_GOLD] - gold
            if picks.shape[0] >= g[G_ROUND]:
                picks[g[G_ROUND] - 1, r, 0] = s
                picks[g[G_ROUND] - 1, r, 1] = (1 if killed else 0) + (2 if g[G_ROBBED] == r else 0)
        _end_round(st, tb)
        done = False
        for s in range(n):
            if is_complete(st, s):
                done = True
        if done:
            break
        if g[G_ROUND] >= g[G_MAX_ROUNDS]:
            g[G_CAP_HIT] = 1
            break
        track_lead(st, False)
    g[G_OVER] = 1
    g[G_FIRST] = _first_completer(st)
    score_game(st, tb)
    track_lead(st, True)
    for s in range(n):
        for r in range(g[G_NRANKS]):
            records[s, r, C_OFFERED] = st.p[s, P_OFFERED + r]
            records[s, r, C_PICKED] = st.p[s, P_PICKED + r]
    event(st, EV_GAME_END, -1, -1, g[G_FIRST], g[G_CAP_HIT], 0, 0)
