"""District effects used during a turn, dispatched by district kind.

Gather modifiers (Observatory, Library, Gold Mine), build payment (Factory via
``rules.build_cost``, Thieves' Den, Framework, Necropolis) and build triggers (2016 tax,
Lighthouse, Bell Tower), turn actions (Laboratory, Smithy, Museum, Armory), end-of-turn
effects (Poor House, Park) and what happens to a destroyed district (Museum cards,
Graveyard, Bell Tower).  Scoring effects live in ``scoring``; the
rules that forbid or price an action live in ``rules``.  A new district adds its case to
the function that handles the moment it acts.

Decisions where the rules leave a choice open (docs/rules.md K12, K13, K17): the Museum and
the Armory are used before building (the Armory's target is destroyed first, then the
Armory; both go to the bottom of the deck, never to a Graveyard, D29); the Lighthouse's card
is found by searching the deck, which is then shuffled; the Theater's random card (2-3
players) comes from the draft stream.
"""

from .jit import hot

from .layout import (BUILDER_SHIFT, CH_TAX_COLLECTOR, DECK_CAP, D_ARMORY, D_BELL_TOWER, D_FRAMEWORK,
                     D_GOLD_MINE, D_GRAVEYARD, D_LABORATORY, D_LIBRARY, D_LIGHTHOUSE, D_MUSEUM,
                     D_OBSERVATORY, D_PARK, D_POOR_HOUSE, D_SMITHY, G_BELL, G_DECK_HEAD, G_DECK_N,
                     G_GATHER_DRAW, G_GATHER_GOLD, G_GATHER_KEEP, G_MAGISTRATE, G_NP, G_N_COMPLETE,
                     G_RANK_CHAR, G_ROUND, G_RULESET, G_TAX, G_TAX_PILE, G_TURN_BUILD_GOLD,
                     G_TURN_BUILT, G_TURN_CHAR, G_TURN_RANK, G_TURN_SEAT, G_TURN_USED, G_WARRANT,
                     PAY_FRAMEWORK, PAY_GOLD, P_CITY_N, P_GOLD, P_HAND_N, RANK_9, R_2016, R_CLASSIC,
                     U_ASSIST, U_LABORATORY, U_MUSEUM, U_SMITHY, U_WARRANT)
from .log import (EV_ARMORY, EV_ASSIST, EV_BELL_TOWER, EV_BUILD, EV_CONFISCATE, EV_DESTROY,
                  EV_GATHER_CARDS, EV_GATHER_GOLD, EV_GRAVEYARD, EV_LABORATORY, EV_LIGHTHOUSE,
                  EV_MUSEUM, EV_PARK, EV_POOR_HOUSE, EV_SACRIFICE, EV_SMITHY, EV_TAX, event)
from .bots.dispatch import (choose_armory, choose_assist_donor, choose_bell_tower,
                            choose_build_mode, choose_card_payment, choose_confiscate,
                            choose_gather_cards, choose_graveyard, choose_keep, choose_laboratory,
                            choose_lighthouse, choose_museum, choose_payment_card,
                            choose_sacrifice, choose_smithy)
from .rules import build_cost, framework_build, may_confiscate, necropolis_build
from .state import (city_add, city_take, draw, gain, gain_cards, hand_add, hand_take, has, pay,
                    pile_to_bottom, shuffle_deck, to_bottom, transfer, tuck)


@hot
def gather(st, tb, s, r):
    """The mandatory gather action: 2 gold (+1 Gold Mine), or draw 2 keep 1 (Observatory:
    draw 1 more; Library: keep all); a house rule may change the three numbers.  The draw
    option needs a non-empty deck."""
    g = st.g
    if g[G_DECK_N] > 0 and choose_gather_cards(st, tb, s):
        want = g[G_GATHER_DRAW] + (1 if has(st, s, D_OBSERVATORY) else 0)
        start = st.p[s, P_HAND_N]
        n = 0
        while n < want:
            card = draw(st)
            if card < 0:
                break
            hand_add(st, s, card)
            n += 1
        keep = n if has(st, s, D_LIBRARY) else min(n, g[G_GATHER_KEEP])
        kept = st.hand[s, start]
        if keep < n:
            for j in range(keep):  # the j-th card kept moves to start + j, the rest keep order
                k = choose_keep(st, tb, s, start + j, n - j)
                card = st.hand[s, start + j + k]
                for i in range(start + j + k, start + j, -1):
                    st.hand[s, i] = st.hand[s, i - 1]
                st.hand[s, start + j] = card
            kept = st.hand[s, start]
            for i in range(start + n - 1, start + keep - 1, -1):
                to_bottom(st, hand_take(st, s, i))
        event(st, EV_GATHER_CARDS, s, r, n, keep, kept, 0)
    else:
        n = g[G_GATHER_GOLD] + (1 if g[G_RULESET] == R_2016 and has(st, s, D_GOLD_MINE) else 0)
        gain(st, s, n)
        event(st, EV_GATHER_GOLD, s, r, n, 0, 0, 0)


@hot
def build_from_hand(st, tb, s, r, i, paid):
    """Build hand card ``i`` into seat ``s``'s city: paying gold (and cards: Thieves' Den;
    a shortfall taken by the Cardinal), or for free by destroying the Framework or, for the
    Necropolis, one of his districts, unless ``paid`` requires a paid build (the Wizard's
    immediate build, see ``characters._wizard``).  A paid build may be confiscated by the
    Magistrate."""
    g = st.g
    kind = st.hand[s, i]
    cost = build_cost(st, tb, s, kind)
    mode = PAY_GOLD
    if not paid and (framework_build(st, s, kind) or necropolis_build(st, s, kind)):
        mode = choose_build_mode(st, tb, s, kind)  # decided while the card is in hand
    gold, cards, donor, short, owner = 0, 0, -1, 0, s
    if mode != PAY_GOLD:
        hand_take(st, s, i)
        j = _find(st, s, D_FRAMEWORK) if mode == PAY_FRAMEWORK else choose_sacrifice(st, tb, s)
        gone = destroy_slot(st, tb, s, j)
        to_bottom(st, gone)
        event(st, EV_SACRIFICE, s, r, gone, 0, 0, 0)
    else:
        cards = choose_card_payment(st, tb, s, kind, cost)
        hand_take(st, s, i)
        for _ in range(cards):
            to_bottom(st, hand_take(st, s, choose_payment_card(st, tb, s)))
        short = cost - cards - st.p[s, P_GOLD]
        if short > 0:  # the Cardinal takes exactly the shortfall, 1 card per gold (D32)
            g[G_TURN_USED] |= U_ASSIST
            donor = choose_assist_donor(st, tb, s, short)
            transfer(st, donor, s, short)
            for _ in range(short):
                hand_add(st, donor, hand_take(st, s, choose_payment_card(st, tb, s)))
        gold = cost - cards
        pay(st, s, gold)
        m = _confiscator(st, tb, s, kind)
        if m >= 0:  # the builder gets his gold back, not his cards; the Magistrate is taxed
            owner = m
            gain(st, s, gold)
    city_add(st, tb, owner, kind, g[G_ROUND] | (owner << BUILDER_SHIFT))
    if owner == s:
        g[G_TURN_BUILD_GOLD] += gold
        g[G_TURN_BUILT] += 1
        event(st, EV_BUILD, s, r, kind, cost, gold, cards)
    else:
        event(st, EV_CONFISCATE, s, r, owner, kind, gold, cards)
    if donor >= 0:
        event(st, EV_ASSIST, s, r, donor, short, 0, 0)
    build_triggers(st, tb, owner, r, kind, owner == s and g[G_TURN_CHAR] == CH_TAX_COLLECTOR)


@hot
def _find(st, s, kind):
    """City index of district ``kind`` in seat ``s``'s city (-1 if absent)."""
    for i in range(st.p[s, P_CITY_N]):
        if st.city[s, i] == kind:
            return i
    return -1


@hot
def _confiscator(st, tb, s, kind):
    """The Magistrate's seat if he confiscates this paid build of ``kind``, else -1.

    His signed warrant applies to the first paid build in the signed character's turn: he
    may take the district if it could enter his city (no same name, even with a Quarry;
    not a Monument into 5+ districts; D33), and the warrant is spent either way.  The first
    paid build of any turn marks it spent (U_WARRANT), signed or not: that is what the
    builder knows, and what the bots read (``bots.common.warrant_pending``)."""
    g = st.g
    m = g[G_MAGISTRATE]
    if m < 0 or m == s or g[G_TURN_SEAT] != s or g[G_TURN_USED] & U_WARRANT:
        return -1
    g[G_TURN_USED] |= U_WARRANT
    if g[G_WARRANT] != g[G_TURN_RANK]:
        return -1
    if not may_confiscate(st, m, kind) or not choose_confiscate(st, tb, m, kind):
        return -1
    return m


@hot
def build_triggers(st, tb, s, r, kind, untaxed):
    """After district ``kind`` entered seat ``s``'s city, in order (docs/rules.md §2.5.3): the
    2016 tax, 1 gold to the pile if he has any (not on builds in the Tax Collector's own
    turn, D49); the Lighthouse's search of the deck; the Bell Tower's announcement."""
    g = st.g
    if g[G_RANK_CHAR + RANK_9] == CH_TAX_COLLECTOR and not untaxed and st.p[s, P_GOLD] >= 1:
        tax = min(g[G_TAX], st.p[s, P_GOLD])
        st.p[s, P_GOLD] -= tax
        g[G_TAX_PILE] += tax
        event(st, EV_TAX, s, r, tax, 0, 0, 0)
    if kind == D_LIGHTHOUSE and g[G_DECK_N] > 0:
        j = choose_lighthouse(st, tb, s)
        head = g[G_DECK_HEAD]
        at = (head + j) % DECK_CAP
        card = st.deck[at]
        st.deck[at] = st.deck[head]
        st.deck[head] = card
        hand_add(st, s, draw(st))
        shuffle_deck(st)
        event(st, EV_LIGHTHOUSE, s, r, card, 0, 0, 0)
    if (kind == D_BELL_TOWER and g[G_N_COMPLETE] > 7 and g[G_RULESET] == R_CLASSIC
            and choose_bell_tower(st, tb, s)):
        g[G_N_COMPLETE] = 7
        g[G_BELL] = 1
        event(st, EV_BELL_TOWER, s, r, 7, 0, 0, 0)


@hot
def turn_actions(st, tb, s, r):
    """District actions taken before building: Laboratory, Smithy and Museum (once per
    turn each), the Armory (destroyed when used)."""
    g = st.g
    if has(st, s, D_LABORATORY) and not g[G_TURN_USED] & U_LABORATORY:
        i = choose_laboratory(st, tb, s)
        if i >= 0:
            g[G_TURN_USED] |= U_LABORATORY
            card = hand_take(st, s, i)
            to_bottom(st, card)
            bonus = 2 if g[G_RULESET] == R_2016 else 1
            gain(st, s, bonus)
            event(st, EV_LABORATORY, s, r, card, bonus, 0, 0)
    if (has(st, s, D_SMITHY) and not g[G_TURN_USED] & U_SMITHY and st.p[s, P_GOLD] >= 2
            and g[G_DECK_N] > 0 and choose_smithy(st, tb, s)):
        g[G_TURN_USED] |= U_SMITHY
        pay(st, s, 2)
        event(st, EV_SMITHY, s, r, gain_cards(st, s, 3), 0, 0, 0)
    if has(st, s, D_MUSEUM) and not g[G_TURN_USED] & U_MUSEUM and st.p[s, P_HAND_N] > 0:
        i = choose_museum(st, tb, s)
        if i >= 0:
            g[G_TURN_USED] |= U_MUSEUM
            card = hand_take(st, s, i)
            tuck(st, card)
            event(st, EV_MUSEUM, s, r, card, 0, 0, 0)
    if has(st, s, D_ARMORY):
        target, i = choose_armory(st, tb, s)
        if target >= 0:
            kind = destroy_slot(st, tb, target, i)
            to_bottom(st, kind)
            to_bottom(st, destroy_slot(st, tb, s, _find(st, s, D_ARMORY)))
            event(st, EV_ARMORY, s, r, target, kind, 0, 0)


@hot
def end_of_turn_districts(st, tb, s, r):
    """Poor House (stash 0: +1 gold) and Park (empty hand: gain 2 cards), before the
    Alchemist's refund (docs/rules.md §2.5, step 7)."""
    if has(st, s, D_POOR_HOUSE) and st.p[s, P_GOLD] == 0:
        gain(st, s, 1)
        event(st, EV_POOR_HOUSE, s, r, 1, 0, 0, 0)
    if has(st, s, D_PARK) and st.p[s, P_HAND_N] == 0:
        event(st, EV_PARK, s, r, gain_cards(st, s, 2), 0, 0, 0)


@hot
def destroy_slot(st, tb, s, i):
    """District ``i`` of seat ``s``'s city leaves play; returns its kind for the caller to
    place.  The cards under a Museum go to the bottom of the deck, a beautified district's
    gold stays with the bank (D21), and a destroyed Bell Tower restores N (D48)."""
    kind = city_take(st, tb, s, i)
    if kind == D_MUSEUM:
        pile_to_bottom(st)
    if kind == D_BELL_TOWER and st.g[G_BELL]:
        st.g[G_BELL] = 0
        st.g[G_N_COMPLETE] = tb.cfg[G_N_COMPLETE]
    return kind


@hot
def destroy_district(st, tb, s, r, target, i, cost):
    """District ``i`` of ``target``'s city is destroyed by the Warlord of seat ``s``: it goes
    to the bottom of the deck, unless a Graveyard owner (not the Warlord) buys it for 1."""
    kind = destroy_slot(st, tb, target, i)
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
    event(st, EV_DESTROY, s, r, target, kind, cost, 0)
    if saver >= 0:
        event(st, EV_GRAVEYARD, saver, -1, kind, 0, 0, 0)
