"""Character powers, dispatched by character id at fixed points of a turn.

The turn loop (:mod:`citadels_sim.kernel.turn`) calls four hooks, each a ``switch`` on the
character id; a new character adds its cases here (and its decisions in ``bots``) without
touching the turn loop:

``on_reveal``      Step 1 effects after the theft (crown, four_color automatic income,
                   the classic Tax Collector's retroactive tax)
``before_gather``  abilities used at the start of the turn (Assassin, Thief, Magician, Abbot,
                   Spy, Magistrate's warrants, Blackmailer's threats, the Tax Collector's pile),
                   then a card variant's added kill, theft or swap (``G_EXTRA_POWER``)
``after_gather``   extras after the gather action (Merchant +1, Architect +2 cards) and
                   abilities used before building (Navigator, Scholar, Wizard, Seer, Queen,
                   the Witch's naming, which ends her turn at once, or a variant's)
``end_of_turn``    the end of the turn (Warlord or a variant's added destruction, Diplomat,
                   Marshal, Artist, then the classic
                   tax, Poor House and Park, the Alchemist's refund)

Build limits (``rules.build_limit``, ``rules.counts_toward_limit``) and income
(``rules.income_type``, ``rules.income_kind``) are looked up by id in ``rules``.

Decisions where the rules leave a choice open (docs/rules.md §7):

* The Witch's resumed turn runs the bewitched character's hooks with her seat; a bewitched
  King's or Patrician's crown still goes to his holder (``on_reveal``), logged in her resumed
  turn.  Classic Witch naming a character not in play: as in 2016, she does not resume and
  her end-of-turn district effects do not apply.  For the per-character statistics her
  resumed turn counts for the Witch (rank 1), the short turn for the bewitched character (K4).
* Magistrate: a confiscated district is taxed to him even in the 2016 Tax Collector's own
  turn (the exemption covers the Tax Collector's builds, and this one is the Magistrate's; K9).
* The Artist beautifies at the end of her turn, after building; the Blackmailer and the
  Magistrate act at the start of theirs.  A threatened player may bribe 0 gold (stash 0 or 1;
  K10).
* The Wizard's immediate build must be paid (gold, Thieves' Den cards, a Cardinal's assist);
  the Framework or Necropolis cannot stand in for the payment (``_wizard``, K7).
* The Diplomat's exchange is one move (``state.city_swap``): a city that keeps its size keeps
  the moment it reached 7 or 8, so an exchange never changes who completed first (D25, K8).
"""

from .jit import hot

from .districts import build_from_hand, destroy_district, end_of_turn_districts
from .layout import (BEAUTIFIED, CH_ABBOT, CH_ALCHEMIST, CH_ARCHITECT, CH_ARTIST, CH_ASSASSIN,
                     CH_BLACKMAILER, CH_DIPLOMAT, CH_EMPEROR, CH_KING, CH_MAGICIAN, CH_MAGISTRATE,
                     CH_MARSHAL, CH_MERCHANT, CH_NAVIGATOR, CH_PATRICIAN, CH_QUEEN, CH_SCHOLAR,
                     CH_SEER, CH_SPY, CH_TAX_COLLECTOR, CH_TAX_COLLECTOR_CLASSIC, CH_THIEF,
                     CH_WARLORD, CH_WITCH, CH_WIZARD, D_THRONE_ROOM, G_ABBOT_TRIBUTE,
                     G_ARCHITECT_CARDS, G_ARTIST_BEAUTIFY, G_BEWITCHED, G_BLACKMAILER,
                     G_BRIBE_SHARE, G_CROWN, G_DECK_N, G_EXTRA_CARDS, G_EXTRA_GOLD, G_EXTRA_INCOME,
                     G_EXTRA_POWER, G_HOLDER, G_INCOME, G_KILLED, G_MAGISTRATE, G_MERCHANT_GOLD,
                     G_NAVIGATOR_GAIN, G_NP, G_NRANKS, G_QUEEN_GOLD, G_RANK1_BUILT, G_ROBBED,
                     G_ROBBER, G_RULESET, G_SCHOLAR_DRAW, G_TAX, G_TAXER, G_TAX_PILE, G_THIEF_SHARE,
                     G_THREAT, G_THREATS, G_TURN_BUILD_GOLD, G_TURN_BUILT, G_TURN_OVER, G_TURN_USED,
                     G_WARRANT, G_WARRANTS, G_WITCH, G_WITCH_RANK, K_TYPE, P_CITY_VALUE, P_GOLD,
                     P_HAND_N, POWER_BEWITCH, POWER_DESTROY, POWER_KILL, POWER_ROB,
                     POWER_SWAP_HANDS, RANK_KING, RNG_SEAT0, R_CLASSIC, R_FOUR_COLOR, U_INCOME)
from .log import (EV_BEAUTIFY, EV_BEWITCH, EV_BLACKMAIL, EV_BONUS_CARDS, EV_BONUS_GOLD, EV_BRIBE,
                  EV_CLASSIC_TAX, EV_CROWN, EV_CROWN_GIVEN, EV_EXCHANGE, EV_INCOME, EV_KILL,
                  EV_NAVIGATOR, EV_QUEEN, EV_REDRAW, EV_REFUND, EV_ROB, EV_SCHOLAR, EV_SEER,
                  EV_SEIZE, EV_SPY, EV_SWAP, EV_TAKE_PILE, EV_THEFT, EV_THREATS, EV_THRONE_ROOM,
                  EV_TRIBUTE, EV_WARRANTS, EV_WIZARD, event)
from .bots.dispatch import (choose_abbot_payer, choose_beautify, choose_bewitch, choose_bribe,
                            choose_crown_recipient, choose_destroy, choose_emperor_card,
                            choose_exchange, choose_income_cards, choose_keep, choose_magician,
                            choose_navigator_cards, choose_payment_card, choose_redraw,
                            choose_reveal_threat, choose_scholar, choose_seize, choose_spy,
                            choose_target_rank, choose_threats, choose_tribute_card,
                            choose_warrants, choose_wizard_build, choose_wizard_card,
                            choose_wizard_target)
from .rules import (INCOME_CARDS, INCOME_CHOICE, can_pay_build, exchange_cost, income_count,
                    income_kind, income_type, marshal_cost, threatenable, unclaimed_later,
                    warlord_cost)
from .rng import below
from .state import (city_move, city_swap, gain, gain_cards, hand_add, hand_take, has, own_ranks,
                    pay, shuffle_deck, to_bottom, transfer)


@hot
def take_crown(st, s, r):
    """Seat ``s`` takes the crown (rank index ``r`` acting); the classic Throne Room's owner
    gains 1 gold when the crown changes holder."""
    prev = st.g[G_CROWN]
    st.g[G_CROWN] = s
    event(st, EV_CROWN, s, r, prev, 0, 0, 0)
    if prev != s:
        for o in range(st.g[G_NP]):
            if has(st, o, D_THRONE_ROOM):
                gain(st, o, 1)
                event(st, EV_THRONE_ROOM, o, -1, 1, 0, 0, 0)


@hot
def take_income(st, tb, ch, s, r):
    """Per-district income: 1 gold (or card; a house rule may change it) per district of the
    character's type, taken once, all at once (the 2016 Abbot declares his mix of gold and
    cards)."""
    it = income_type(ch)
    if it < 0 or st.g[G_TURN_USED] & U_INCOME:
        return
    st.g[G_TURN_USED] |= U_INCOME
    n = income_count(st, tb, s, it) * st.g[G_INCOME + ch]
    kind = income_kind(st, ch)
    cards = 0
    if kind == INCOME_CARDS:
        cards = n
    elif kind == INCOME_CHOICE:
        cards = choose_income_cards(st, tb, s, n)
    gain(st, s, n - cards)
    event(st, EV_INCOME, s, r, n - cards, it, gain_cards(st, s, cards), 0)


@hot
def _extras(st, tb, ch, s, r):
    """The Merchant's gold and the Architect's cards, then a card variant's added gold,
    cards and income (game.variants: 1 gold per district of its type)."""
    g = st.g
    if ch == CH_MERCHANT:
        gain(st, s, g[G_MERCHANT_GOLD])
        event(st, EV_BONUS_GOLD, s, r, g[G_MERCHANT_GOLD], 0, 0, 0)
    elif ch == CH_ARCHITECT:
        event(st, EV_BONUS_CARDS, s, r, gain_cards(st, s, g[G_ARCHITECT_CARDS]), 0, 0, 0)
    if g[G_EXTRA_GOLD + r] > 0:
        gain(st, s, g[G_EXTRA_GOLD + r])
        event(st, EV_BONUS_GOLD, s, r, g[G_EXTRA_GOLD + r], 0, 0, 0)
    if g[G_EXTRA_CARDS + r] > 0:
        event(st, EV_BONUS_CARDS, s, r, gain_cards(st, s, g[G_EXTRA_CARDS + r]), 0, 0, 0)
    it = g[G_EXTRA_INCOME + r]
    if it >= 0:
        n = income_count(st, tb, s, it)
        gain(st, s, n)
        event(st, EV_INCOME, s, r, n, it, 0, 0)


@hot
def on_reveal(st, tb, ch, s, r):
    """Step 1 effects of the character, after any theft."""
    if st.g[G_RULESET] == R_FOUR_COLOR:
        take_income(st, tb, ch, s, r)
        _extras(st, tb, ch, s, r)
    if ch == CH_KING or ch == CH_PATRICIAN:
        # the holder takes the crown, even when the Witch plays his character
        take_crown(st, st.g[G_HOLDER + r] if st.g[G_BEWITCHED] == r else s, r)
    elif ch == CH_EMPEROR:
        give_crown(st, tb, s, r, True)
    elif ch == CH_TAX_COLLECTOR_CLASSIC:
        st.g[G_TAXER] = s  # collects from here to the end of the round (the Witch too, D51)
        # retroactive: the rank-1 character's holder pays if he built this round
        a = st.g[G_HOLDER]
        if a >= 0 and a != s and st.g[G_RANK1_BUILT] > 0 and st.p[a, P_GOLD] >= 1:
            tax = min(st.g[G_TAX], st.p[a, P_GOLD])
            transfer(st, a, s, tax)
            event(st, EV_CLASSIC_TAX, a, 0, s, tax, 0, 0)


@hot
def give_crown(st, tb, s, r, tribute):
    """Emperor: move the crown to another player (not himself, not its holder; D9).  With
    ``tribute``: classic, the new holder gives 1 gold or 1 card of his choice (D46); 2016,
    the Emperor takes 1 gold or 1 random card from him."""
    g = st.g
    to = choose_crown_recipient(st, tb, s)
    take_crown(st, to, r)
    if not tribute:
        event(st, EV_CROWN_GIVEN, s, r, to, 0, -1, 0)
        return
    gold, card = 0, -1
    if g[G_RULESET] == R_CLASSIC:
        i = choose_tribute_card(st, tb, to)
        if i >= 0:
            card = hand_take(st, to, i)
        elif st.p[to, P_GOLD] > 0:
            gold = 1
    elif st.p[to, P_HAND_N] > 0 and (st.p[to, P_GOLD] == 0
                                     or choose_emperor_card(st, tb, s, to)):
        card = hand_take(st, to, below(st, RNG_SEAT0 + s, st.p[to, P_HAND_N]))
    elif st.p[to, P_GOLD] > 0:
        gold = 1
    if card >= 0:
        hand_add(st, s, card)
    transfer(st, to, s, gold)
    event(st, EV_CROWN_GIVEN, s, r, to, gold, card, 0)


@hot
def before_gather(st, tb, ch, s, r):
    """Abilities the character uses at the start of its turn."""
    g = st.g
    everyone = (1 << g[G_NRANKS]) - 1
    if ch == CH_ASSASSIN:
        target = choose_target_rank(st, tb, s, everyone & ~(1 << r), own_ranks(st, s), False)
        g[G_KILLED] = target
        event(st, EV_KILL, s, r, target, 0, 0, 0)
    elif ch == CH_THIEF:
        # never rank 1, the killed or bewitched character or himself
        allowed = everyone & ~1 & ~(1 << r)
        if g[G_KILLED] >= 0:
            allowed &= ~(1 << g[G_KILLED])
        if g[G_BEWITCHED] >= 0:
            allowed &= ~(1 << g[G_BEWITCHED])
        target = choose_target_rank(st, tb, s, allowed, own_ranks(st, s), True)
        g[G_ROBBED] = target
        g[G_ROBBER] = s
        event(st, EV_ROB, s, r, target, 0, 0, 0)
    elif ch == CH_MAGICIAN:
        _magic(st, tb, s, r)
    elif ch == CH_ABBOT:
        _abbot_tribute(st, tb, s, r)
    elif ch == CH_SPY:
        _spy(st, tb, s, r)
    elif ch == CH_MAGISTRATE:
        signed, a, b = choose_warrants(st, tb, s, everyone & ~(1 << r))
        g[G_WARRANT] = signed
        g[G_WARRANTS] = (1 << signed) | (1 << a) | (1 << b)
        g[G_MAGISTRATE] = s
        event(st, EV_WARRANTS, s, r, signed, a, b, 0)
    elif ch == CH_BLACKMAILER:
        allowed = 0
        for t in range(g[G_NRANKS]):
            if t != r and threatenable(st, t):
                allowed |= 1 << t
        real, bluff = choose_threats(st, tb, s, allowed)
        g[G_THREAT] = real
        g[G_THREATS] = (1 << real) | (1 << bluff)
        g[G_BLACKMAILER] = s
        event(st, EV_THREATS, s, r, real, bluff, 0, 0)
    elif ch == CH_TAX_COLLECTOR and st.g[G_TAX_PILE] > 0:  # take the whole pile
        gold = st.g[G_TAX_PILE]
        st.g[G_TAX_PILE] = 0
        st.p[s, P_GOLD] += gold
        event(st, EV_TAKE_PILE, s, r, gold, 0, 0, 0)
    if g[G_EXTRA_POWER + r] > 0:
        _added_power(st, tb, s, r, g[G_EXTRA_POWER + r])


@hot
def _added_power(st, tb, s, r, power):
    """A card variant's added power (game.variants.POWERS), at the start of its turn after
    its base's own: the Magician's swap or redraw, or a kill or a theft naming a character
    later in the round that is not already killed, robbed or bewitched.  A round holds one
    killed and one robbed character: the power is not used when its slot is taken (the
    Assassin's kill, the Thief's theft stand) or no character is left to name."""
    g = st.g
    if power == POWER_SWAP_HANDS:
        _magic(st, tb, s, r)
        return
    if power != POWER_KILL and power != POWER_ROB:
        return  # destroy and bewitch: later in the turn
    slot = G_KILLED if power == POWER_KILL else G_ROBBED
    later = unclaimed_later(st, r)
    if g[slot] >= 0 or later == 0:
        return
    target = choose_target_rank(st, tb, s, later, own_ranks(st, s), power == POWER_ROB)
    g[slot] = target
    if power == POWER_ROB:
        g[G_ROBBER] = s
        event(st, EV_ROB, s, r, target, 0, 0, 0)
    else:
        event(st, EV_KILL, s, r, target, 0, 0, 0)


@hot
def _spy(st, tb, s, r):
    """Spy: name a player and a type; per matching card in his hand (printed type, D31)
    take 1 of his gold (as far as he has) and gain 1 card."""
    target, t = choose_spy(st, tb, s)
    m = 0
    for i in range(st.p[target, P_HAND_N]):
        if tb.kinds[K_TYPE, st.hand[target, i]] == t:
            m += 1
    gold = min(m, st.p[target, P_GOLD])
    transfer(st, target, s, gold)
    gain_cards(st, s, m)
    event(st, EV_SPY, s, r, target, t, m, gold)


@hot
def _abbot_tribute(st, tb, s, r):
    """The richest player pays the Abbot 1 gold (C: only a single richest other player;
    2016: when someone is strictly richer than the Abbot, one of the richest, D43)."""
    g = st.g
    most, count = -1, 0
    for o in range(g[G_NP]):
        gold = st.p[o, P_GOLD]
        if gold > most:
            most, count = gold, 1
        elif gold == most:
            count += 1
    if st.p[s, P_GOLD] == most or (g[G_RULESET] == R_CLASSIC and count > 1) or most == 0:
        return
    payer = choose_abbot_payer(st, tb, s)
    gold = min(g[G_ABBOT_TRIBUTE], st.p[payer, P_GOLD])
    transfer(st, payer, s, gold)
    event(st, EV_TRIBUTE, s, r, payer, gold, 0, 0)


@hot
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
        event(st, EV_SWAP, s, r, target, gave, got, 0)
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
        event(st, EV_REDRAW, s, r, n, 0, 0, 0)


@hot
def after_gather(st, tb, ch, s, r):
    """Extras that come after the gather action (classic and 2016; four_color: on reveal),
    and abilities used after gathering, before building (Navigator, Scholar, Queen)."""
    if st.g[G_RULESET] != R_FOUR_COLOR:
        _extras(st, tb, ch, s, r)
    if ch == CH_NAVIGATOR:
        n = st.g[G_NAVIGATOR_GAIN]
        if choose_navigator_cards(st, tb, s):
            event(st, EV_NAVIGATOR, s, r, 0, gain_cards(st, s, n), 0, 0)
        else:
            gain(st, s, n)
            event(st, EV_NAVIGATOR, s, r, n, 0, 0, 0)
    elif ch == CH_SCHOLAR:
        if st.g[G_DECK_N] > 0 and choose_scholar(st, tb, s):
            _scholar(st, tb, s, r)
    elif ch == CH_WIZARD:
        _wizard(st, tb, s, r)
    elif ch == CH_SEER:
        _seer(st, tb, s, r)
    elif ch == CH_QUEEN:
        if queen_neighbour(st, s) and st.g[G_KILLED] != RANK_KING:
            gain(st, s, st.g[G_QUEEN_GOLD])
            event(st, EV_QUEEN, s, r, st.g[G_QUEEN_GOLD], 0, 0, 0)
    elif ch == CH_WITCH:
        _bewitch(st, tb, s, r, ((1 << st.g[G_NRANKS]) - 1) & ~(1 << r),
                 st.g[G_RULESET] == R_CLASSIC)
    if st.g[G_EXTRA_POWER + r] == POWER_BEWITCH and st.g[G_BEWITCHED] < 0:
        later = unclaimed_later(st, r)  # a variant's; it may decline
        if later:
            _bewitch(st, tb, s, r, later, True)


@hot
def _bewitch(st, tb, s, r, allowed, optional):
    """Witch, after gathering: name a character of ``allowed`` and end the turn at once;
    she resumes it in that character's call (2016: she must; classic: she may, else a normal
    turn, D12; a variant with the power may)."""
    g = st.g
    t = choose_bewitch(st, tb, s, allowed, optional)
    if t < 0:
        return
    g[G_BEWITCHED] = t
    g[G_WITCH] = s
    g[G_WITCH_RANK] = r
    g[G_TURN_OVER] = 1
    event(st, EV_BEWITCH, s, r, t, 0, 0, 0)


@hot
def resolve_threat(st, tb, s, r):
    """The threatened character's holder, after gathering: bribe the Blackmailer with half
    his stash (rounded down), or refuse and let her reveal the marker: the flower takes his
    whole stash, a bluff nothing (docs/rules.md §3 Blackmailer)."""
    g = st.g
    b = g[G_BLACKMAILER]
    real = g[G_THREAT] == r
    g[G_THREATS] &= ~(1 << r)
    amount = st.p[s, P_GOLD] * g[G_BRIBE_SHARE] // 100
    if choose_bribe(st, tb, s, amount):
        transfer(st, s, b, amount)
        event(st, EV_BRIBE, s, r, b, amount, 0, 0)
        return
    shown = choose_reveal_threat(st, tb, b, real)
    taken = st.p[s, P_GOLD] if shown and real else 0
    transfer(st, s, b, taken)
    event(st, EV_BLACKMAIL, s, r, b, 1 if shown else 0, 1 if real else 0, taken)


@hot
def _wizard(st, tb, s, r):
    """Wizard: look at a player's hand, take 1 card, and keep it or build it at once, paying
    its cost, as an extra build (after gathering; it may duplicate a name, D18).

    The immediate build must be *paid* (2016 rulebook: "must immediately pay to build the
    chosen card"; docs/rules.md §3 Wizard): with gold, with cards where the Thieves' Den
    allows, or with a Cardinal's assist.  The Framework's and the Necropolis's "instead of
    paying its cost" is no payment, so neither can stand in for it (the 2016 rulebook's notes
    on both cards call such a build one "built without paying its build cost"); the taken
    card can still be built that way later in the turn, as a normal build.  (Decided for
    issue 9: docs/rules.md K7.)"""
    target = choose_wizard_target(st, tb, s)
    if target < 0:
        return
    kind = hand_take(st, target, choose_wizard_card(st, tb, s, target))
    hand_add(st, s, kind)
    build = can_pay_build(st, tb, s, kind) and choose_wizard_build(st, tb, s, kind)
    event(st, EV_WIZARD, s, r, target, kind, 1 if build else 0, 0)
    if build:
        build_from_hand(st, tb, s, r, st.p[s, P_HAND_N] - 1, True)


@hot
def _seer(st, tb, s, r):
    """Seer: take 1 random card from each other player who has one, then give each of them
    1 card of her choice back."""
    g = st.g
    took = 0
    for o in range(g[G_NP]):
        if o != s and st.p[o, P_HAND_N] > 0:
            hand_add(st, s, hand_take(st, o, below(st, RNG_SEAT0 + s, st.p[o, P_HAND_N])))
            took |= 1 << o
    n = 0
    for o in range(g[G_NP]):
        if (took >> o) & 1:
            hand_add(st, o, hand_take(st, s, choose_payment_card(st, tb, s)))
            n += 1
    event(st, EV_SEER, s, r, n, 0, 0, 0)


@hot
def queen_neighbour(st, s):
    """Does a seat next to ``s`` hold the rank-4 character this round?"""
    n = st.g[G_NP]
    king = st.g[G_HOLDER + RANK_KING]
    return king >= 0 and (king == (s + 1) % n or king == (s + n - 1) % n)


@hot
def _scholar(st, tb, s, r):
    """Draw 7 (all if fewer), keep 1, return the others and shuffle the whole deck."""
    start = st.p[s, P_HAND_N]
    n = gain_cards(st, s, st.g[G_SCHOLAR_DRAW])
    k = choose_keep(st, tb, s, start, n)
    kept = st.hand[s, start + k]
    for i in range(start + n - 1, start - 1, -1):
        if i != start + k:
            to_bottom(st, hand_take(st, s, i))
    shuffle_deck(st)
    event(st, EV_SCHOLAR, s, r, n, kept, 0, 0)


@hot
def end_of_turn(st, tb, ch, s, r):
    """End of the turn in the order of docs/rules.md §2.5, step 7 (D17): abilities used at the end
    (classic timing, legal in 2016 and four_color), then the Alchemist's refund."""
    if ch == CH_WARLORD or st.g[G_EXTRA_POWER + r] == POWER_DESTROY:  # or a variant's power
        target, i = choose_destroy(st, tb, s)
        if target >= 0:
            cost = warlord_cost(st, tb, target, i)
            pay(st, s, cost)
            destroy_district(st, tb, s, r, target, i, cost)
    if ch == CH_DIPLOMAT:
        mine, target, theirs = choose_exchange(st, tb, s)
        if mine >= 0:
            paid = exchange_cost(st, tb, s, mine, target, theirs)
            transfer(st, s, target, paid)
            a, b = city_swap(st, tb, s, mine, target, theirs)
            event(st, EV_EXCHANGE, s, r, target, a, b, paid)
    elif ch == CH_MARSHAL:
        target, i = choose_seize(st, tb, s)
        if target >= 0:
            cost = marshal_cost(st, tb, target, i)
            transfer(st, s, target, cost)
            kind = city_move(st, tb, target, i, s)
            event(st, EV_SEIZE, s, r, target, kind, cost, 0)
    elif ch == CH_ARTIST:  # beautify up to 2 districts, 1 gold each, once per game each
        for _ in range(st.g[G_ARTIST_BEAUTIFY]):
            i = choose_beautify(st, tb, s)
            if i < 0:
                break
            st.city_round[s, i] |= BEAUTIFIED
            st.p[s, P_CITY_VALUE] += 1
            pay(st, s, 1)
            event(st, EV_BEAUTIFY, s, r, st.city[s, i], 0, 0, 0)
    if r == 0:
        st.g[G_RANK1_BUILT] += st.g[G_TURN_BUILT]
    _classic_tax(st, s, r)
    end_of_turn_districts(st, tb, s, r)
    if ch == CH_ALCHEMIST and st.g[G_TURN_BUILD_GOLD] > 0:
        gain(st, s, st.g[G_TURN_BUILD_GOLD])
        event(st, EV_REFUND, s, r, st.g[G_TURN_BUILD_GOLD], 0, 0, 0)


@hot
def _classic_tax(st, s, r):
    """Classic Tax Collector, revealed and alive: a player other than its holder who built
    this turn pays it 1 gold, if he has any (once per turn; D16)."""
    g = st.g
    tc = g[G_TAXER]
    if tc >= 0 and tc != s and g[G_TURN_BUILT] > 0 and st.p[s, P_GOLD] >= 1:
        tax = min(g[G_TAX], st.p[s, P_GOLD])
        transfer(st, s, tc, tax)
        event(st, EV_CLASSIC_TAX, s, r, tc, tax, 0, 0)


@hot
def robbery(st, s, r):
    """On reveal of the robbed character: the Thief's holder takes the whole stash (or the
    share a house rule sets, rounded down)."""
    g = st.g
    if g[G_ROBBED] != r:
        return
    gold = st.p[s, P_GOLD] * g[G_THIEF_SHARE] // 100
    transfer(st, s, g[G_ROBBER], gold)
    event(st, EV_THEFT, g[G_ROBBER], r, s, gold, 0, 0)
