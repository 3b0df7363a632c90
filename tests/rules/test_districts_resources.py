"""Districts that give or trade gold and cards during play (docs/rules.md §4.2-§4.4; checklist
rules 118, 120-122, 129-130, 134): the Observatory and Library, the Laboratory, the Smithy,
the School of Magic, the Museum (cards under it), the Poor House and Park, and the classic
Throne Room.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    B, K, ME, T, W, city_keys, cset, deck_kw, empty_state as setup, gold_conserved,
    play_turn_events as play, put_city, rsetup, sorted_keys, types_in,
)
from citadels_sim.kernel import characters, districts, game, layout as L, rules, scoring, state as S


def test_rule_118_observatory_and_library():
    """118. Observatory: draw 3, keep 1. Library: keep all drawn. Both: draw 3, keep 3."""
    deck = ["Palace", "Temple", "Tavern", "Manor"]
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["Observatory"])
    h.set_deck(st, deck)
    districts.gather(st, tb, 0, K)
    assert h.hand_list(st, 0) == [h.kind("Palace")]
    rest = h.deck_list(st)
    assert rest[0] == h.kind("Manor") and sorted(rest[1:]) == sorted(h.kinds(["Temple", "Tavern"]))
    for ruleset in ("classic", "2016"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_city(st, 0, ["Library"])
        h.set_deck(st, deck)
        districts.gather(st, tb, 0, K)
        assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Palace", "Temple"]))
        assert h.deck_list(st) == h.kinds(["Tavern", "Manor"])
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["Library", "Observatory"])
    h.set_deck(st, deck)
    districts.gather(st, tb, 0, K)
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Palace", "Temple", "Tavern"]))
    assert h.deck_list(st) == [h.kind("Manor")]


@pytest.mark.parametrize("ruleset,bonus", [("classic", 1), ("2016", 2)])
def test_rule_120_laboratory(ruleset, bonus):
    """120. Laboratory: discard 1 card for +1 gold (C) or +2 gold (P), once per turn."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Laboratory"])
    h.set_hand(st, 0, ["Palace", "Cathedral", "Fortress", "Town Hall", "Palace"])
    evs = play(st, tb, T, 0)
    lab = h.of_type(evs, "laboratory")
    assert len(lab) == 1 and lab[0].b == bonus
    i = evs.index(lab[0])
    assert lab[0].gold[0] == evs[i - 1].gold[0] + bonus
    assert lab[0].hand_n[0] == evs[i - 1].hand_n[0] - 1
    assert h.deck_list(st)[-1] == lab[0].a  # the card went to the bottom
    assert h.gold(st, 0) == 2 + bonus


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_121_smithy(ruleset):
    """121. Smithy: pay 2 gold to gain 3 cards, once per turn."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Smithy"])
    h.set_gold(st, 0, 10)
    h.set_deck(st, ["Fortress", "Cathedral", "Palace", "Town Hall", "Castle", "Harbor",
                    "Docks", "Manor"])
    evs = play(st, tb, T, 0)
    sm = h.of_type(evs, "smithy")
    assert len(sm) == 1 and sm[0].a == 3
    i = evs.index(sm[0])
    assert sm[0].gold[0] == evs[i - 1].gold[0] - 2
    assert sm[0].hand_n[0] == evs[i - 1].hand_n[0] + 3
    assert sm[0].deck_n == evs[i - 1].deck_n - 3


def test_rule_122_school_of_magic():
    """122. School of Magic: counts as any type for resource abilities, as purple/unique for
    scoring."""
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["School of Magic"])
    for t in (L.T_NOBLE, L.T_RELIGIOUS, L.T_TRADE, L.T_MILITARY):
        assert rules.income_count(st, tb, 0, t) == 1
    # scoring: purple -- completes the five colours, but does not stand in for red
    h.set_city(st, 0, ["Manor", "Temple", "Tavern", "Watchtower", "School of Magic"])
    h.set_city(st, 1, ["Manor", "Temple", "Tavern", "School of Magic"])
    scoring.score_game(st, tb)
    assert st.p[0, L.P_SCORE] == 3 + 1 + 1 + 1 + 6 + 3
    assert st.p[1, L.P_SCORE] == 3 + 1 + 1 + 6
    for ruleset in ("classic", "2016"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_holders(st, {W: 0})
        h.set_city(st, 0, ["School of Magic", "Prison"])
        h.set_hand(st, 0, ["Palace", "Fortress"])
        evs = play(st, tb, W, 0)
        assert h.of_type(evs, "income")[0].a == 2


SEEDS = 80


def _score_extras(st, tb, s):
    return int(scoring.score_seat(st, tb, s)[4])


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_129_museum(ruleset):
    """129. Museum: tuck 1 card once per turn for +1 point each; destroyed → the cards go to
    the bottom of the deck; moved → the cards go with it."""
    # once per turn: a second use in the same turn does nothing; the next turn tucks again
    st, tb = rsetup(ruleset, 4, "builder")
    put_city(st, 0, ["Museum"])
    h.set_hand(st, 0, ["Tavern", "Temple", "Market", "Manor", "Castle", "Watchtower",
                       "Church"], from_deck=True)
    before = h.total_cards(st)
    tucked = []
    for turn_no in (1, 2):
        st.g[L.G_TURN_USED] = 0  # a new turn
        h.clear_log(st)
        for _ in range(3):
            districts.turn_actions(st, tb, 0, ME)
        evs = h.of_type(h.events(st), "museum")
        assert len(evs) == 1 and st.g[L.G_PILE_N] == turn_no
        tucked.append(evs[0].a)
        assert h.pile(st)[:turn_no] == tucked
        assert h.total_cards(st) == before  # the pile is counted
    assert st.p[0, L.P_HAND_N] == 5
    assert Counter(h.hand_list(st, 0)) + Counter(tucked) == Counter(
        h.kinds(["Tavern", "Temple", "Market", "Manor", "Castle", "Watchtower", "Church"]))
    # random choices in played turns: never more than one card per turn
    for seed in range(SEEDS // 2):
        st, tb = rsetup(ruleset, 4, "random", seed=seed)
        h.set_holders(st, {ME: 0})
        put_city(st, 0, ["Museum"])
        h.set_hand(st, 0, ["Tavern", "Temple", "Market", "Manor", "Castle"], from_deck=True)
        h.reseed(st, seed)
        before = h.total_cards(st)
        evs = play(st, tb, ME, 0)
        assert len(h.of_type(evs, "museum")) == st.g[L.G_PILE_N] <= 1
        assert h.total_cards(st) == before and gold_conserved(st)
    # +1 point per card under it, for its owner only
    st, tb = rsetup(ruleset, 4, "builder")
    put_city(st, 0, ["Museum"])
    put_city(st, 1, ["Manor"])
    assert _score_extras(st, tb, 0) == 0
    for k in h.kinds(["Tavern", "Temple", "Palace"]):
        h.take_from_deck(st, k)
        S.tuck(st, k)
    assert _score_extras(st, tb, 0) == 3 and _score_extras(st, tb, 1) == 0
    total = int(scoring.score_seat(st, tb, 0)[0])
    assert total == 4 + 3  # its cost, +1 per card
    # destroyed by the Warlord: the cards go to the bottom of the deck with it
    st1 = h.copy_state(st)
    h.set_deck(st1, ["Docks"])
    before = h.total_cards(st1)
    h.clear_log(st1)
    districts.destroy_district(st1, tb, 2, W, 0, 0, 3)
    assert st1.g[L.G_PILE_N] == 0 and city_keys(st1, 0) == []
    assert sorted_keys(h.deck_list(st1)[1:4]) == ["palace", "tavern", "temple"]
    assert h.key(h.deck_list(st1)[-1]) == "museum" and h.total_cards(st1) == before
    assert _score_extras(st1, tb, 0) == 0
    # moved by the Diplomat: the cards go with it
    kw = deck_kw(ruleset)
    for seed in range(SEEDS):
        st2, tb2 = setup(ruleset, 4, "random", cset(ruleset, "Diplomat"), seed=seed, **kw)
        h.set_holders(st2, {W: 1})
        put_city(st2, 0, ["Museum"])
        put_city(st2, 1, ["Tavern"])
        for k in h.kinds(["Tavern", "Temple", "Palace"]):
            h.take_from_deck(st2, k)
            S.tuck(st2, k)
        h.set_gold(st2, 1, 10)
        h.reseed(st2, seed)
        before = h.total_cards(st2)
        h.clear_log(st2)
        characters.end_of_turn(st2, tb2, L.CH_DIPLOMAT, 1, W)
        if h.of_type(h.events(st2), "exchange"):
            break
    else:
        pytest.fail("the Diplomat never exchanged")
    assert city_keys(st2, 1) == ["museum"] and city_keys(st2, 0) == ["tavern"]
    assert st2.g[L.G_PILE_N] == 3 and h.total_cards(st2) == before
    assert _score_extras(st2, tb2, 1) == 3 and _score_extras(st2, tb2, 0) == 0
    assert h.gold(st2, 1) == 10 - 3 and h.gold(st2, 0) == 3 and gold_conserved(st2)


def test_rule_130_poor_house_and_park():
    """130. Poor House: +1 gold at the end of a turn with 0 stash. Park: +2 cards at the end of
    a turn with an empty hand."""
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, ["Poor House", "Park"])
    h.set_hand(st, 0, ["Palace"])
    h.set_deck(st, ["Tavern", "Temple", "Watchtower"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, B, 0)
    assert types_in(evs)[-2:] == ["poor_house", "park"]
    assert h.gold(st, 0) == 1
    assert Counter(h.hand_list(st, 0)) == Counter(h.kinds(["Tavern", "Temple"]))
    # gold left and a card in hand: neither
    h.set_hand(st, 0, ["Cathedral"])
    h.set_gold(st, 0, 0)
    evs = play(st, tb, B, 0)  # 2 gold, cannot build the Cathedral
    assert not h.of_type(evs, "poor_house", "park")
    assert h.gold(st, 0) == 2 and h.hand_list(st, 0) == h.kinds(["Cathedral"])


def test_rule_134_throne_room():
    """134. C Throne Room: +1 gold each time the crown changes holder."""
    # the King takes the crown from another seat: +1 to the Throne Room's owner (seat 2)
    for king, crown, gain in ((1, 0, 1), (0, 0, 0), (2, 0, 1), (1, 1, 0)):
        st, tb = rsetup("classic", 4, "builder")
        st.g[L.G_CROWN] = crown
        put_city(st, 2, ["Throne Room"])
        h.set_holders(st, {K: king})
        h.set_deck(st, [])
        evs = play(st, tb, K, king)
        tr = h.of_type(evs, "throne_room")
        assert st.g[L.G_CROWN] == king
        assert [(e.seat, e.a) for e in tr] == [(2, 1)] * gain
        assert types_in(evs).index("crown") < (types_in(evs).index("throne_room")
                                               if tr else 99)
        assert h.gold(st, 2) == gain + (2 if king == 2 else 0)  # (+2: his own gather)
        assert gold_conserved(st)
    # a killed King's heir at the end of the round: the crown moves, +1
    st, tb = rsetup("classic", 4, "builder")
    st.g[L.G_CROWN] = 0
    put_city(st, 2, ["Throne Room"])
    h.set_holders(st, {K: 3})
    h.kill(st, K)
    h.clear_log(st)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 3 and h.gold(st, 2) == 1
    assert [(e.seat, e.a) for e in h.of_type(h.events(st), "throne_room")] == [(2, 1)]
    # the classic Emperor always moves the crown to someone else: +1
    for seed in range(10):
        st, tb = rsetup("classic", 4, "random", cset("classic", "Emperor"), seed=seed)
        st.g[L.G_CROWN] = 1
        put_city(st, 2, ["Throne Room"])
        h.set_holders(st, {K: 0})
        h.set_deck(st, [])
        h.reseed(st, seed)
        evs = play(st, tb, K, 0)
        assert st.g[L.G_CROWN] not in (0, 1)
        assert len(h.of_type(evs, "throne_room")) == 1 and gold_conserved(st)
    # whole games: the owner gains exactly 1 per change of crown holder
    for seed in range(6):
        st, tb = h.make_state("classic", 4, "random", seed=seed, log=True,
                              **deck_kw("classic"))
        put_city(st, 1, ["Throne Room"])
        h.play_game(st, tb)
        evs = h.events(st)
        changes = [e for e in h.of_type(evs, "crown") if e.a != e.seat]
        owned = [any(h.kind("Throne Room") in h.city_at(e, s) for s in range(4))
                 for e in changes]
        assert changes and len(h.of_type(evs, "throne_room")) == sum(owned)
