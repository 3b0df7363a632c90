"""Districts that destroy or save a district (docs/rules.md §4.2-§4.4; checklist rules 127-128):
the classic Graveyard and the Armory.  The Keep and the Great Wall are tested with the
Warlord, the Diplomat and the Marshal.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    B, ME, W, city_keys, empty_state as setup, gold_conserved, golds, play_turn_events as play,
    put_city, rsetup, sorted_keys, types_in,
)
from citadels_sim.kernel import characters, districts, layout as L, rules


def test_rule_127_graveyard():
    """127. C Graveyard: its owner (if not the Warlord's holder) may pay 1 gold to take a
    district destroyed by the Warlord into his hand."""
    st, tb = setup("classic", 4, ("aggressive", "builder", "heuristic", "builder"))
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Castle", "Manor"])
    h.set_city(st, 2, ["Graveyard"])
    h.set_gold(st, 0, 10)
    h.set_gold(st, 2, 3)
    deck = h.deck_list(st)
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_WARLORD, 0, W)
    names = types_in(h.events(st))
    assert names == ["destroy", "graveyard"]
    assert h.hand_list(st, 2) == [h.kind("Castle")] and h.gold(st, 2) == 2
    assert h.deck_list(st) == deck  # not to the bottom of the deck
    # the Warlord's own Graveyard does not act
    st, tb = setup("classic", 4, "aggressive")
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Castle", "Manor"])
    h.set_city(st, 0, ["Graveyard"])
    h.set_gold(st, 0, 10)
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_WARLORD, 0, W)
    assert types_in(h.events(st)) == ["destroy"]
    assert h.hand_list(st, 0) == [] and h.deck_list(st)[-1] == h.kind("Castle")


SEEDS = 80


def _complete(n):
    return ["Castle", "Palace", "Church", "Monastery", "Cathedral", "Market", "Docks",
            "Harbor"][:n]


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_128_armory(ruleset):
    """128. Armory: destroying it destroys one district (C: in another player's city); never
    in a complete city; ignores the Keep, Bishop and Great Wall."""
    st0, tb = rsetup(ruleset, 4, "random")
    n = int(st0.g[L.G_N_COMPLETE])
    h.set_holders(st0, {B: 1, ME: 0})  # seat 1's Bishop is alive: the Warlord could not
    put_city(st0, 0, ["Armory", "Tavern"])
    put_city(st0, 1, ["Keep", "Manor"])
    put_city(st0, 2, ["Great Wall", "Temple"])
    put_city(st0, 3, _complete(n))
    assert rules.bishop_protects(st0, tb, 1) and rules.is_complete(st0, 3)
    before = h.total_cards(st0)
    seen = Counter()
    for seed in range(3 * SEEDS):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        districts.turn_actions(st, tb, 0, ME)
        evs = h.of_type(h.events(st), "armory")
        if not evs:
            assert h.city_list(st, 0) == h.city_list(st0, 0)
            continue
        (e,) = evs
        seen[(e.a, h.key(e.b))] += 1
        assert "armory" not in city_keys(st, 0)  # it destroyed itself ...
        assert h.key(e.b) not in city_keys(st, e.a) or e.a == 0  # ... and the target
        assert sorted_keys(h.deck_list(st)[-2:]) == sorted([h.key(e.b), "armory"])  # deck bottom
        assert golds(st) == golds(st0) and h.total_cards(st) == before
    expected = {(1, "keep"), (1, "manor"), (2, "great_wall"), (2, "temple")}
    if ruleset == "2016":
        expected.add((0, "tavern"))  # 2016: his own city too (never the Armory itself)
    assert set(seen) == expected  # never the complete city of seat 3
    # his own city complete: the Armory cannot be destroyed, so it is not used (D24)
    st, tb = rsetup(ruleset, 4, "random")
    put_city(st, 0, ["Armory"] + _complete(n)[:n - 1])
    put_city(st, 1, ["Manor"])
    assert rules.is_complete(st, 0)
    assert not any(rules.armory_target(st, tb, 0, o, i)
                   for o in range(4) for i in range(st.p[o, L.P_CITY_N]))
    for seed in range(SEEDS // 2):
        h.reseed(st, seed)
        h.clear_log(st)
        districts.turn_actions(st, tb, 0, ME)
        assert not h.of_type(h.events(st), "armory") and "armory" in city_keys(st, 0)
    # a played turn: the builder blows up the Keep of the protected leader, his dearest
    st, tb = rsetup(ruleset, 4, "builder")
    h.set_holders(st, {ME: 0, B: 1})
    put_city(st, 0, ["Armory"])
    put_city(st, 1, ["Keep", "Temple", "Tavern", "Watchtower", "Church", "Market"])
    h.set_deck(st, [])
    before = h.total_cards(st)
    evs = play(st, tb, ME, 0)
    (e,) = h.of_type(evs, "armory")
    assert (e.a, h.key(e.b)) == (1, "keep")
    assert city_keys(st, 0) == [] and "keep" not in city_keys(st, 1)
    assert sorted_keys(h.deck_list(st)) == ["armory", "keep"]
    assert h.total_cards(st) == before and gold_conserved(st)
