"""Exact-situation tests for the two rule errors an outside audit of 11,000 replayed games
found (issue 9): a Diplomat exchange must not change who completed first (D25, §5.1), and
the Wizard's immediate build must be paid (§3 Wizard), never by a Framework or Necropolis
sacrifice."""

from __future__ import annotations

import kernel_helpers as h
import pytest

from citadels_sim.kernel import characters, game
from citadels_sim.kernel import layout as L

setup, cset, play, types_in = h.roster_setup, h.cset, h.play_turn_events, h.types_in
M, W = 2, 7  # rank indices of the Wizard and the Diplomat
SEVEN = ["Manor", "Castle", "Palace", "Temple", "Church", "Monastery", "Cathedral"]
SEVEN_B = ["Tavern", "Market", "Docks", "Harbor", "Town Hall", "Watchtower", "Prison"]


def diplomat_setup(ruleset):
    kw = {"removed": ("Graveyard",)} if ruleset == "classic" else {}
    st, tb = setup(ruleset, 2, "random", cset(ruleset, "Diplomat"), **kw)
    assert tb.cfg[L.G_RANK_CHAR + W] == L.CH_DIPLOMAT
    h.set_holders(st, {W: 0})
    return st, tb


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_diplomat_exchange_keeps_who_completed_first(ruleset):
    """D25 / §5.1: the moment a city last rose to 7 (or 8) is reset only when the city
    drops below that size.  An exchange swaps one district for one, so it never changes
    it: with two cities of 7 (N = 8, so both open to the Diplomat), seat 1 reached 7 first
    and, once a Bell Tower brings N to 7 (classic; the audit's case), is the first
    completer whatever the two players swap."""
    st0, tb = diplomat_setup(ruleset)
    h.set_city(st0, 1, SEVEN_B)  # seat 1 reaches 7 first ...
    h.set_city(st0, 0, SEVEN)  # ... then seat 0
    h.set_gold(st0, 0, 20)
    assert int(st0.g[L.G_N_COMPLETE]) == 8
    before = [int(st0.p[s, L.P_AT7]) for s in range(2)]
    assert 0 <= before[1] < before[0]
    exchanged = 0
    for seed in range(60):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        characters.end_of_turn(st, tb, L.CH_DIPLOMAT, 0, W)
        if not h.of_type(h.events(st), "exchange"):
            continue
        exchanged += 1
        assert [int(st.p[s, L.P_AT7]) for s in range(2)] == before
        assert [int(st.p[s, L.P_CITY_N]) for s in range(2)] == [7, 7]
        st.g[L.G_N_COMPLETE] = 7  # as an announced Bell Tower does
        assert game._first_completer(st) == 1
        assert h.kinds_consistent(st) and h.gold_conserved(st)
    assert exchanged >= 10


def test_monument_exchange_is_a_real_change_of_size():
    """2016: the Monument counts as 2 districts; a city that gives it away really drops in
    size, and the moment it reached that size is forgotten (D25), while a city that keeps
    its size keeps its moment."""
    st, tb = diplomat_setup("2016")
    h.set_city(st, 1, SEVEN_B[:5] + ["Monument"])  # size 7 (Monument counts 2)
    h.set_city(st, 0, SEVEN)
    assert int(st.p[1, L.P_AT7]) >= 0
    at0 = int(st.p[0, L.P_AT7])
    from citadels_sim.kernel import state
    state.city_swap(st, tb, 0, 0, 1, 5)  # seat 0's Manor for seat 1's Monument
    assert int(st.p[1, L.P_AT7]) == -1  # seat 1 is down to 6
    assert int(st.p[0, L.P_AT7]) == at0  # seat 0 went from 7 to 8: still at 7 since then
    assert int(st.p[0, L.P_AT8]) >= 0
    assert h.kinds_consistent(st)


def wizard_setup(city, hand_of_1, gold):
    st, tb = setup("2016", 4, "builder", cset("2016", "Wizard"))
    assert tb.cfg[L.G_RANK_CHAR + M] == L.CH_WIZARD
    h.set_holders(st, {M: 0})
    h.set_city(st, 0, city)
    h.set_hand(st, 1, hand_of_1)  # the only card he can take
    h.set_deck(st, [])  # he gathers gold (+2)
    h.set_gold(st, 0, gold)
    return st, tb


@pytest.mark.parametrize("city, card", [(["Watchtower", "Temple"], "Necropolis"),
                                        (["Framework", "Temple"], "Palace")])
def test_wizard_immediate_build_is_never_paid_by_a_sacrifice(city, card):
    """§3 Wizard: he 'must immediately pay to build' the card he takes.  Destroying the
    Framework or a district for the Necropolis is building 'instead of paying', so he keeps
    the card when he cannot pay for it, and no district is destroyed for it."""
    st, tb = wizard_setup(city, [card], 0)  # 2 gold after gathering: he cannot pay 5
    evs = play(st, tb, M, 0)
    (wz,) = h.of_type(evs, "wizard")
    assert (wz.a, h.key(wz.b), wz.c) == (1, card.lower(), 0)  # taken, not built at once
    before = types_in(evs)[:evs.index(wz) + 1]
    assert "sacrifice" not in before and "build" not in before
    for b in h.of_type(evs, "build"):  # a later normal build may still sacrifice
        assert evs.index(b) > evs.index(wz)
    assert h.kinds_consistent(st) and h.gold_conserved(st)


def test_wizard_immediate_build_paid_with_gold():
    """The immediate build happens when he can pay it, and he pays its cost in gold."""
    st, tb = wizard_setup(["Watchtower", "Temple"], ["Necropolis"], 3)  # 5 after gathering
    evs = play(st, tb, M, 0)
    (wz,) = h.of_type(evs, "wizard")
    assert wz.c == 1
    build = evs[evs.index(wz) + 1]
    assert build.type == "build" and h.key(build.a) == "necropolis"
    assert (build.b, build.c, build.d) == (5, 5, 0)  # cost 5, paid 5 gold, 0 cards
    assert "sacrifice" not in types_in(evs)
    assert h.city_list(st, 0)[:2] == h.kinds(["Watchtower", "Temple"])
