"""The 2016 Spy (docs/rules.md §3 Rank 2; checklist rule 67): gold and cards for the matching
cards of the named type, counting the printed types.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
from kernel_helpers import T, cset, empty_state as setup, gold_conserved, play_turn_events as play
from citadels_sim.kernel import characters, layout as L


P_SPY = cset("2016", "Spy")


def _spy_case(target_hand, target_gold, deck=("Castle", "Palace", "Cathedral", "Fortress")):
    st, tb = setup("2016", 4, "builder", P_SPY)
    assert tb.cfg[L.G_RANK_CHAR + T] == L.CH_SPY
    h.set_holders(st, {T: 0})
    h.set_hand(st, 2, target_hand)
    h.set_hand(st, 1, ["Manor"])  # smaller hands: the builder looks at seat 2 (biggest)
    h.set_gold(st, 2, target_gold)
    h.set_deck(st, list(deck))
    evs = play(st, tb, T, 0)
    spy = h.of_type(evs, "spy")
    assert len(spy) == 1 and evs[1].type == "spy"
    return st, evs, spy[0]


def test_rule_067_spy():
    """67. Spy: with m matching cards, take min(m, target's stash) gold and gain m cards."""
    hand = ["Tavern", "Market", "Docks", "Manor", "Temple"]
    for gold, took in ((5, 3), (1, 1), (0, 0)):
        st, _, e = _spy_case(hand, gold)
        assert (e.seat, e.a, e.b, e.c, e.d) == (0, 2, L.T_TRADE, 3, took)
        assert e.gold[0] == took and e.gold[2] == gold - took  # before the Spy gathers
        assert e.hand_n[0] == 3 and e.hand_n[2] == 5
        assert h.hand_list(st, 2) == h.kinds(hand)  # he only looks at the hand
        assert st.g[L.G_DECK_N] <= 1  # the 3 cards came from the top of the deck
        mine = Counter(h.hand_list(st, 0) + h.city_list(st, 0))
        assert all(mine[k] for k in h.kinds(["Castle", "Palace", "Cathedral"]))
        assert gold_conserved(st)
    # no match: nothing
    _, _, e = _spy_case(["Manor", "Temple", "Castle"], 4)
    assert (e.c, e.d) == (0, 0) and e.gold[2] == 4 and e.hand_n[0] == 0


def test_rule_067_spy_counts_printed_types():
    """67 (D31). Spy: the matching cards are counted by printed type (the Haunted Quarter and
    the School of Magic are unique), whichever player and type are named."""
    hand = ["Haunted Quarter", "School of Magic", "Manor", "Castle", "Tavern", "Watchtower",
            "Temple", "Keep"]
    st0, tb = setup("2016", 4, "random", P_SPY)
    h.set_holders(st0, {T: 0})
    h.set_hand(st0, 1, hand)
    h.set_gold(st0, 1, 2)
    h.set_hand(st0, 2, ["Haunted Quarter", "Market"])
    h.set_gold(st0, 2, 5)
    seen = Counter()
    for seed in range(80):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        deck0 = int(st.g[L.G_DECK_N])
        characters.before_gather(st, tb, L.CH_SPY, 0, T)
        (e,) = h.of_type(h.events(st), "spy")
        target, t, m, took = e.a, e.b, e.c, e.d
        assert target in (1, 2, 3)
        printed = [int(tb.kinds[L.K_TYPE, k]) for k in h.hand_list(st0, target)]
        assert m == printed.count(t)
        assert took == min(m, h.gold(st0, target))
        assert h.gold(st, 0) == took and h.gold(st, target) == h.gold(st0, target) - took
        assert int(st.p[0, L.P_HAND_N]) == m == deck0 - int(st.g[L.G_DECK_N])
        assert h.hand_list(st, target) == h.hand_list(st0, target)
        seen[(target, t)] += 1
    assert {t for _, t in seen} == set(range(L.N_TYPES))
    assert {s for s, _ in seen} == {1, 2, 3}
    # the unique type counts the Haunted Quarter, the School of Magic and the Keep: 3
    assert [int(tb.kinds[L.K_TYPE, k]) for k in h.kinds(hand)].count(L.T_UNIQUE) == 3
