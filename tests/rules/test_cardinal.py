"""The 2016 Cardinal (docs/rules.md §3 Rank 5; checklist rule 94): the shortfall taken from one
player for cards, then the build; his income in cards.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
from kernel_helpers import (
    B, cset, empty_state as setup, gold_conserved, golds, play_turn_events as play,
)
from citadels_sim.kernel import layout as L, rules


P_CARDINAL = cset("2016", "Cardinal")


def test_rule_094_cardinal_assist():
    """94. Cardinal: he takes exactly the shortfall from one player, gives 1 card per gold,
    and then must build that district (never the card being built; once per turn)."""
    donors = Counter()
    for seed in range(30):
        st, tb = setup("2016", 4, "builder", P_CARDINAL, seed=seed)
        assert tb.cfg[L.G_RANK_CHAR + B] == L.CH_CARDINAL
        h.set_holders(st, {B: 0})
        h.set_hand(st, 0, ["Palace", "Stables", "Tavern", "Temple", "Watchtower", "Market"])
        h.set_deck(st, ["Docks", "Harbor", "Fortress"])
        h.set_gold(st, 1, 2)  # too poor to give 3
        h.set_gold(st, 2, 3)
        h.set_gold(st, 3, 5)
        g0, hand0 = golds(st), Counter(h.hand_list(st, 0))
        evs = play(st, tb, B, 0)
        builds, assists = h.of_type(evs, "build"), h.of_type(evs, "assist")
        # Palace (5) with 2 gold from gathering: shortfall 3 from one player who has it
        assert [h.key(e.a) for e in builds] == ["palace"] and len(assists) == 1
        (a,) = assists
        assert a.b == 3 and a.a in (2, 3)
        donors[a.a] += 1
        assert evs.index(a) == evs.index(builds[0]) + 1
        assert h.gold(st, 0) == 0 and h.gold(st, a.a) == g0[a.a] - 3
        # he gave exactly 3 cards, never the Palace, to the donor
        given = Counter(h.hand_list(st, a.a))
        assert sum(given.values()) == 3 and h.kind("Palace") not in given
        assert given + Counter(h.hand_list(st, 0)) + Counter([h.kind("Palace")]) == hand0
        # once per turn: the Stables (not limited) is not built with a second assist,
        # although seat 1 or 3 still has 2 gold
        assert h.kind("Stables") not in h.city_list(st, 0)
        assert gold_conserved(st)
    assert donors and set(donors) <= {2, 3}  # seat 1 (2 gold) never gives
    # no player has the shortfall: no assist, no build
    st, tb = setup("2016", 4, "builder", P_CARDINAL)
    h.set_holders(st, {B: 0})
    h.set_hand(st, 0, ["Palace", "Tavern", "Temple", "Watchtower"])
    h.set_deck(st, ["Docks"])
    h.set_gold(st, 1, 2)
    h.set_gold(st, 0, 2)  # shortfall 3, three other cards
    st.g[L.G_TURN_CHAR], st.g[L.G_TURN_SEAT], st.g[L.G_TURN_USED] = L.CH_CARDINAL, 0, 0
    assert not rules.can_build(st, tb, 0, h.kind("Palace"))
    h.set_gold(st, 2, 5)
    assert rules.can_build(st, tb, 0, h.kind("Palace"))
    # too few other cards to give: no assist
    h.set_hand(st, 0, ["Palace", "Tavern"])
    assert not rules.can_build(st, tb, 0, h.kind("Palace"))
    st.g[L.G_TURN_CHAR] = L.CH_BISHOP  # only the Cardinal
    h.set_hand(st, 0, ["Palace", "Tavern", "Temple", "Watchtower", "Market", "Manor"])
    assert not rules.can_build(st, tb, 0, h.kind("Palace"))
    st.g[L.G_TURN_CHAR], st.g[L.G_TURN_SEAT], st.g[L.G_TURN_USED] = -1, -1, 0


def test_rule_094_cardinal_income_in_cards():
    """94 (with 93-style income). Cardinal: 1 card (no gold) per religious district."""
    st, tb = setup("2016", 4, "builder", P_CARDINAL)
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, ["Temple", "Church", "Manor"])
    h.set_hand(st, 0, ["Cathedral"])  # useful but unaffordable: the builder takes gold
    h.set_deck(st, ["Docks", "Harbor", "Fortress", "Castle"])
    evs = play(st, tb, B, 0)
    (inc,) = h.of_type(evs, "income")
    assert (inc.a, inc.b, inc.c) == (0, L.T_RELIGIOUS, 2)
    assert h.gold(st, 0) == 2  # gathering only
    assert Counter(h.hand_list(st, 0)) == Counter(h.kinds(["Cathedral", "Docks", "Harbor"]))
