"""The Witch (docs/rules.md §3 Rank 1; checklist rules 47-56): she gathers, bewitches and
suspends; the bewitched holder only gathers; she resumes with the character's powers on her
own city; the bewitched Thief, Blackmailer, Architect, Navigator, Bishop, King, Patrician,
Emperor and Queen; a bewitched character not in play; the classic Witch naming nobody; and
whole games with a Witch.  Whom the Thief may not name is in ``test_thief.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    A, AR, B, GATHERS, K, ME, R9, T, W, cset, empty_state as setup, gold_conserved, keys,
    play_turn_events as play, reseeded, types_in,
)
from citadels_sim.kernel import layout as L, rules, turn


SEEDS = 80
P_WITCH = cset("2016", "Witch")


def play_round(st, tb, stop=None, start=0):
    """Call the ranks in order (from ``start``, up to, not including, ``stop``) as
    ``game.play_game`` does, without a draft or an end of round; returns the events with a
    fresh log."""
    h.clear_log(st)
    g = st.g
    for r in range(start, int(g[L.G_NRANKS]) if stop is None else stop):
        s = int(g[L.G_HOLDER + r])
        if s < 0 or g[L.G_KILLED] == r:
            continue
        if g[L.G_BEWITCHED] == r:
            turn.gather_only_turn(st, tb, r, s)
            turn.play_turn(st, tb, r, int(st.g[L.G_WITCH]))
        else:
            turn.play_turn(st, tb, r, s)
    return h.events(st)


def bewitch(st, r):
    """Make a non-random Witch name rank ``r`` (every other rank is face up)."""
    h.only_target(st, r, actor_rank=A)


def by_seat(evs, s):
    return [e for e in evs if e.seat == s]


def after(evs, name):
    """The events after the first one named ``name``."""
    i = types_in(evs).index(name)
    return evs[i + 1:]


def test_rule_047_witch_gathers_bewitches_builds_nothing():
    """47. P Witch: she gathers, must bewitch, builds nothing, and uses only
    Library/Observatory/Gold Mine effects before suspending."""
    # gold with the Gold Mine: +1; a buildable Tavern, a Smithy and a Laboratory go unused
    st, tb = setup("2016", 4, "builder", P_WITCH)
    assert tb.cfg[L.G_RANK_CHAR + A] == L.CH_WITCH
    h.set_holders(st, {A: 0, K: 1})
    h.set_city(st, 0, ["Gold Mine", "Smithy", "Laboratory"])
    h.set_hand(st, 0, ["Tavern", "Temple"])
    h.set_gold(st, 0, 2)
    control = h.copy_state(st)
    bewitch(st, K)
    evs = play(st, tb, A, 0)
    assert types_in(evs) == ["call", "gather_gold", "bewitch"]
    assert evs[1].a == 3  # the Gold Mine works in her gather
    assert evs[2].a == K and st.g[L.G_BEWITCHED] == K and st.g[L.G_WITCH] == 0
    assert h.gold(st, 0) == 5 and keys(h.hand_list(st, 0)) == ["tavern", "temple"]
    assert keys(h.city_list(st, 0)) == ["gold_mine", "smithy", "laboratory"]
    # the same seat as the King (a normal turn) would have built
    h.set_holders(control, {K: 0})
    assert h.of_type(play(control, tb, K, 0), "build")
    # cards with the Library and the Observatory: draws 3, keeps 3; the Poor House (stash 0)
    # does not resolve before she suspends
    st, tb = setup("2016", 4, "builder", P_WITCH)
    h.set_holders(st, {A: 0, K: 1})
    h.set_city(st, 0, ["Library", "Observatory", "Poor House"])
    h.set_deck(st, ["Tavern", "Temple", "Market", "Church", "Manor"])
    bewitch(st, K)
    evs = play(st, tb, A, 0)
    assert types_in(evs) == ["call", "gather_cards", "bewitch"]
    assert (evs[1].a, evs[1].b) == (3, 3)
    assert h.gold(st, 0) == 0 and len(h.hand_list(st, 0)) == 3
    # she must bewitch: a random 2016 Witch always names another character, and her turn
    # ends there, whatever she holds
    st0, tb = setup("2016", 4, "random", P_WITCH)
    h.set_holders(st0, {A: 0, K: 1})
    h.set_city(st0, 0, ["Smithy", "Park", "Poor House"])
    h.set_hand(st0, 0, ["Tavern", "Temple", "Market"])
    h.set_gold(st0, 0, 6)
    named = Counter()
    for seed in range(SEEDS):
        st = reseeded(st0, seed)
        evs = play(st, tb, A, 0)
        assert types_in(evs)[0] == "call" and types_in(evs)[1] in GATHERS
        assert types_in(evs)[2:] == ["bewitch"]
        assert h.city_list(st, 0) == h.city_list(st0, 0) and gold_conserved(st)
        named[evs[-1].a] += 1
    assert set(named) == set(range(1, 8))


def test_rule_048_bewitched_holder_only_gathers():
    """48. The bewitched holder gathers and his turn ends: no income ability, no Merchant +1,
    no build, no Poor House or Park."""
    st, tb = setup("2016", 4, "builder", P_WITCH)
    h.set_holders(st, {A: 0, ME: 1})
    h.set_city(st, 1, ["Market", "Docks", "Poor House"])
    h.set_deck(st, ["Tavern", "Temple", "Watchtower", "Church", "Market", "Manor"] * 3)
    control = h.copy_state(st)
    # as himself, the Merchant takes his +1 and 2 trade gold
    evs = play(control, tb, ME, 1)
    assert {"bonus_gold", "income"} <= set(types_in(evs))
    # bewitched: call and gather (cards: empty hand), then the Witch's resumed turn
    bewitch(st, ME)
    evs = play_round(st, tb)
    mine = by_seat(evs, 1)
    assert types_in(mine) == ["call", "gather_cards"]
    assert types_in(evs).index("resume") == types_in(evs).index("gather_cards", 2) + 1
    assert h.gold(st, 1) == 0  # stash 0 and a Poor House: no +1
    assert len(h.hand_list(st, 1)) == 1 and keys(h.city_list(st, 1)) == [
        "market", "docks", "poor_house"]
    # Park with an empty hand, and builds he could afford: over seeds (random holder)
    st0, tb = setup("2016", 4, ("builder", "random", "builder", "builder"), P_WITCH)
    h.set_holders(st0, {A: 0, ME: 1})
    h.set_city(st0, 1, ["Park", "Poor House", "Market"])
    h.set_gold(st0, 1, 8)
    bewitch(st0, ME)
    play(st0, tb, A, 0)  # the Witch names the Merchant
    park_case = 0
    for seed in range(SEEDS):
        st = reseeded(st0, seed)
        h.clear_log(st)
        turn.gather_only_turn(st, tb, ME, 1)
        evs = h.events(st)
        assert types_in(evs)[0] == "call" and types_in(evs)[1:] in (["gather_gold"],
                                                                     ["gather_cards"])
        if evs[1].type == "gather_gold":
            assert h.hand_list(st, 1) == []  # the Park would have given him 2 cards
            park_case += 1
        assert h.city_list(st, 1) == h.city_list(st0, 1) and gold_conserved(st)
    assert 0 < park_case < SEEDS


def test_rule_049_witch_resumes_without_gathering_on_her_own_city():
    """49. The Witch resumes right after the bewitched gather, does not gather again, and
    applies the character's abilities to her own city, hand and stash."""
    st, tb = setup("2016", 4, "builder", P_WITCH)
    h.set_holders(st, {A: 0, ME: 1})
    h.set_city(st, 0, ["Market", "Docks", "Tavern"])  # 3 trade districts
    h.set_hand(st, 0, ["Castle"])
    h.set_city(st, 1, ["Harbor", "Town Hall"])
    h.set_hand(st, 1, ["Manor"])
    h.set_gold(st, 1, 5)
    cards0 = h.total_cards(st)
    bewitch(st, ME)
    evs = play_round(st, tb)
    assert [(e.type, e.seat) for e in evs] == [
        ("call", 0), ("gather_gold", 0), ("bewitch", 0),
        ("call", 1), ("gather_gold", 1),
        ("resume", 0), ("bonus_gold", 0), ("income", 0), ("build", 0)]
    assert evs[5].rank == ME and evs[7].a == 3  # her own 3 trade districts, not his 2
    assert h.key(evs[8].a) == "castle"
    assert h.gold(st, 0) == 2 + 1 + 3 - 4 and h.gold(st, 1) == 7
    assert keys(h.hand_list(st, 1)) == ["manor"] and len(h.city_list(st, 1)) == 2
    assert gold_conserved(st) and h.total_cards(st) == cards0


def test_rule_049_bewitched_thief_and_blackmailer_act_for_the_witch():
    """49 (§3 Witch). Bewitched Thief: the Witch names the victim and receives the gold;
    bewitched Blackmailer: the Witch assigns the threats and receives the bribes."""
    st, tb = setup("2016", 4, "builder", P_WITCH)
    h.set_holders(st, {A: 0, T: 1, K: 2})
    h.set_gold(st, 2, 6)
    h.set_gold(st, 1, 1)
    bewitch(st, T)
    play(st, tb, A, 0)
    h.clear_log(st)
    turn.gather_only_turn(st, tb, T, 1)
    h.only_target(st, K)  # the King is the only hidden victim left for the Witch as Thief
    turn.play_turn(st, tb, T, int(st.g[L.G_WITCH]))
    evs = h.events(st)
    assert not h.of_type(by_seat(evs, 1), "rob")
    (rob,) = h.of_type(evs, "rob")
    assert rob.seat == 0 and rob.a == K and st.g[L.G_ROBBER] == 0
    w0, k0 = h.gold(st, 0), h.gold(st, 2)
    evs = play(st, tb, K, 2)
    (theft,) = h.of_type(evs, "theft")
    assert theft.seat == 0 and theft.a == 2 and theft.b == k0 == 6
    assert h.gold(st, 0) == w0 + 6 and gold_conserved(st)
    # Blackmailer
    chars = cset("2016", "Witch", "Blackmailer")
    st, tb = setup("2016", 4, ("builder", "builder", "heuristic", "builder"), chars)
    h.set_holders(st, {A: 0, T: 1, K: 2})
    h.set_gold(st, 2, 8)
    h.set_hand(st, 2, ["Palace", "Cathedral"])  # the heuristic King gathers gold
    bewitch(st, T)
    play(st, tb, A, 0)
    h.only_target(st, K)  # the Witch as Blackmailer puts the flower on the King
    evs = play_round(st, tb, start=T)
    (thr,) = h.of_type(evs, "threats")
    assert thr.seat == 0 and thr.a == K and st.g[L.G_BLACKMAILER] == 0
    assert types_in(by_seat(evs, 1)) == ["call", "gather_cards"]  # empty hand
    # the heuristic King pays the Witch half his stash after gathering
    (bribe,) = h.of_type(evs, "bribe", "blackmail")
    assert (bribe.type, bribe.seat, bribe.a, bribe.b) == ("bribe", 2, 0, (8 + 2) // 2)
    assert gold_conserved(st)


def test_rule_049_witch_bewitches_her_own_other_character_d40():
    """49, D40. 2-3 players: the Witch bewitches her own holder's other character: its
    holder (herself) gathers, then she resumes as it."""
    st, tb = setup("2016", 3, "builder", cset("2016", "Witch", "Artist"))
    h.set_holders(st, {A: 0, ME: 0, K: 1, R9: 2})
    h.set_city(st, 0, ["Market", "Docks"])
    h.set_hand(st, 0, ["Manor"])
    bewitch(st, ME)
    evs = play_round(st, tb, stop=AR)
    mine = [(e.type, e.rank) for e in by_seat(evs, 0)]
    assert mine == [("call", A), ("gather_gold", A), ("bewitch", A), ("call", ME),
                    ("gather_gold", ME), ("resume", ME), ("bonus_gold", ME),
                    ("income", ME), ("build", ME)]
    assert h.gold(st, 0) == 2 + 2 + 1 + 2 - 3 and gold_conserved(st)


def test_rule_049_bewitched_queen_counts_from_the_witch_seat_d14():
    """49, D14. Bewitched Queen: adjacency is measured from the Witch's seat."""
    chars = cset("2016", "Witch", "Queen")
    for king, gain in ((1, 3), (2, 0)):  # seat 1 sits next to the Witch (seat 0), seat 2 not
        st, tb = setup("2016", 5, "builder", chars)
        h.set_holders(st, {A: 0, K: king, R9: 3})  # the Queen's holder sits next to seat 2
        h.set_hand(st, 0, ["Dragon Gate"])  # she gathers gold and cannot build it
        bewitch(st, R9)
        evs = play_round(st, tb)
        queen = h.of_type(evs, "queen")
        assert [(e.seat, e.a) for e in queen] == ([(0, 3)] if gain else [])
        assert h.gold(st, 0) == 2 + gain and gold_conserved(st)


def test_rule_050_witch_as_architect_and_navigator():
    """50. A Witch as Architect gets +2 cards and limit 3; a Witch as Navigator cannot
    build."""
    st, tb = setup("2016", 4, "builder", P_WITCH)
    h.set_holders(st, {A: 0, AR: 1})
    h.set_hand(st, 0, ["Tavern", "Temple", "Watchtower", "Market"])
    h.set_gold(st, 0, 10)
    h.set_hand(st, 1, ["Castle"])
    h.set_deck(st, ["Manor", "Prison", "Church", "Harbor"])
    cards0 = h.total_cards(st)
    bewitch(st, AR)
    evs = play_round(st, tb)
    assert not h.of_type(by_seat(evs, 1), "bonus_cards", "build")
    res = after(evs, "resume")
    (bonus,) = h.of_type(res, "bonus_cards")
    assert bonus.seat == 0 and bonus.a == 2
    builds = h.of_type(res, "build")
    assert len(builds) == 3 and all(e.seat == 0 for e in builds)
    assert sorted(keys(e.a for e in builds)) == ["manor", "market", "prison"]
    assert h.gold(st, 0) == 12 - 7 and keys(h.hand_list(st, 1)) == ["castle"]
    assert len(h.hand_list(st, 0)) == 3  # 4 + 2 - 3: the Tavern, Temple, Watchtower left
    assert gold_conserved(st) and h.total_cards(st) == cards0
    # Navigator: 4 gold or 4 cards for the Witch, and no build at all (not even the Stables)
    st, tb = setup("2016", 4, "builder", cset("2016", "Witch", "Navigator"))
    assert tb.cfg[L.G_RANK_CHAR + AR] == L.CH_NAVIGATOR
    h.set_holders(st, {A: 0, AR: 1})
    h.set_hand(st, 0, ["Tavern", "Stables", "Market"])
    h.set_gold(st, 0, 10)
    bewitch(st, AR)
    evs = play_round(st, tb)
    (nav,) = h.of_type(evs, "navigator")
    assert nav.seat == 0 and (nav.a, nav.b) in ((4, 0), (0, 4))
    assert not h.of_type(evs, "build") and h.city_list(st, 0) == []
    assert h.gold(st, 0) == 12 + nav.a and len(h.hand_list(st, 0)) == 3 + nav.b


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_051_bewitched_bishop(ruleset):
    """51. Bewitched Bishop: the rank-8 character may target the Bishop holder's districts,
    but not the Witch's."""
    chars = cset(ruleset, "Witch")

    def targets(st0, tb):
        out = Counter()
        for seed in range(SEEDS):
            st = reseeded(st0, seed)
            h.set_strategy(st, tb, 2, "random")
            evs = play(st, tb, W, 2)
            for e in h.of_type(evs, "destroy"):
                out[e.a] += 1
            assert gold_conserved(st)
        return out

    def situation(bewitched):
        st, tb = setup(ruleset, 4, "builder", chars)
        h.set_holders(st, {A: 0, B: 1, W: 2})
        h.set_city(st, 0, ["Manor", "Temple"])
        h.set_city(st, 1, ["Church", "Market"])
        h.set_city(st, 3, ["Tavern"])
        h.set_gold(st, 2, 10)
        bewitch(st, B if bewitched else K)
        play_round(st, tb, stop=W)
        return st, tb

    st, tb = situation(True)
    assert st.g[L.G_BEWITCHED] == B
    assert rules.bishop_protects(st, tb, 0) and not rules.bishop_protects(st, tb, 1)
    assert not any(rules.destroyable(st, tb, 0, i) for i in range(2))
    assert all(rules.destroyable(st, tb, 1, i) for i in range(2))
    seen = targets(st, tb)
    assert 0 not in seen and seen[1] > 0 and seen[3] > 0
    # control: the Bishop's own turn protects his holder, not the Witch
    st, tb = situation(False)
    seen = targets(st, tb)
    assert 1 not in seen and seen[0] > 0


@pytest.mark.parametrize("ruleset,name", [("2016", "King"), ("2016", "Patrician"),
                                          ("classic", "King")])
def test_rule_052_bewitched_king_or_patrician(ruleset, name):
    """52. Bewitched King or Patrician: the holder takes the crown; the Witch takes the income
    for her own noble districts."""
    st, tb = setup(ruleset, 4, "builder", cset(ruleset, "Witch", name))
    h.set_holders(st, {A: 0, K: 1})
    st.g[L.G_CROWN] = 2
    h.set_city(st, 0, ["Manor", "Castle"])
    h.set_hand(st, 0, ["Palace"])  # she gathers gold and cannot build it
    h.set_city(st, 1, ["Palace"])
    h.set_hand(st, 1, ["Fortress"])
    h.set_deck(st, ["Cathedral", "Town Hall", "Castle", "Harbor", "Fortress"])  # too dear
    bewitch(st, K)
    evs = play_round(st, tb)
    assert st.g[L.G_CROWN] == 1
    crowns = h.of_type(evs, "crown")
    assert [(e.seat, e.a) for e in crowns] == [(1, 2)]
    (inc,) = h.of_type(evs, "income")
    assert inc.seat == 0
    assert not h.of_type(by_seat(evs, 1), "income")
    if name == "Patrician":
        assert (inc.a, inc.c) == (0, 2) and len(h.hand_list(st, 0)) == 3
        assert h.gold(st, 0) == 2
    else:
        assert (inc.a, inc.c) == (2, 0) and h.gold(st, 0) == 4
    assert h.gold(st, 1) == 2 and keys(h.hand_list(st, 1)) == ["fortress"]
    assert gold_conserved(st)


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_053_bewitched_emperor(ruleset):
    """53. Bewitched Emperor: the Witch picks the new crowned player and takes the
    resource."""
    st0, tb = setup(ruleset, 4, "builder", cset(ruleset, "Witch", "Emperor"))
    h.set_holders(st0, {A: 0, K: 1})
    st0.g[L.G_CROWN] = 2
    h.set_hand(st0, 0, ["Palace"])  # she takes gold and cannot build
    for s in (1, 2, 3):
        h.set_gold(st0, s, 1)
        h.set_hand(st0, s, ["Fortress"])
    bewitch(st0, K)
    play_round(st0, tb, stop=K)
    for s in range(4):
        h.set_strategy(st0, tb, s, "random")
    h.set_hand(st0, 0, [])
    seen, kinds_ = Counter(), Counter()
    for seed in range(SEEDS):
        st = reseeded(st0, seed)
        h.clear_log(st)
        turn.gather_only_turn(st, tb, K, 1)
        assert types_in(h.events(st))[1:] in (["gather_gold"], ["gather_cards"])
        g1, n1 = h.gold(st, 1), len(h.hand_list(st, 1))
        w0 = h.gold(st, 0)
        hands = [h.hand_list(st, s) for s in range(4)]
        turn.play_turn(st, tb, K, int(st.g[L.G_WITCH]))
        evs = h.events(st)
        (given,) = h.of_type(evs, "crown_given")
        to = given.a
        assert [e.seat for e in h.of_type(evs, "crown")] == [to]
        assert given.seat == 0 and to not in (0, 2) and st.g[L.G_CROWN] == to
        seen[to] += 1
        # the resource goes to the Witch, from the new crowned player
        assert (given.b, given.c >= 0) in ((1, False), (0, True))
        kinds_["gold" if given.b else "card"] += 1
        assert h.gold(st, 0) == w0 + given.b  # no noble district, no hand: nothing else
        assert h.hand_list(st, 0) == ([given.c] if given.c >= 0 else [])
        assert given.c < 0 or given.c in hands[to]
        if to == 1:
            assert h.gold(st, 1) == g1 - given.b
            assert len(h.hand_list(st, 1)) == n1 - (given.c >= 0)
        else:
            assert h.gold(st, 1) == g1 and len(h.hand_list(st, 1)) == n1
            assert h.gold(st, to) + len(h.hand_list(st, to)) == 1
        assert gold_conserved(st)
    assert set(seen) == {1, 3} and set(kinds_) == {"gold", "card"}


def test_rule_054_bewitched_character_not_in_play():
    """54. Bewitched character not in play: the Witch does not resume, and her Poor House and
    Park do not trigger."""
    def situation(target, holders):
        st, tb = setup("2016", 4, "builder", P_WITCH)
        h.set_holders(st, holders)
        h.set_city(st, 0, ["Poor House"])  # she gathers cards (empty hand): stash 0
        bewitch(st, target)
        return st, tb

    st, tb = situation(ME, {A: 0, K: 1, W: 2})
    evs = play_round(st, tb)
    assert st.g[L.G_BEWITCHED] == ME
    assert not h.of_type(evs, "resume", "poor_house", "park")
    assert not [e for e in evs if e.rank == ME]
    assert h.gold(st, 0) == 0 and gold_conserved(st)
    # control: a bewitched Bishop in play -- the resumed turn ends with her Poor House
    st, tb = situation(B, {A: 0, K: 1, B: 2, W: 3})
    evs = play_round(st, tb)
    res = after(evs, "resume")
    assert [(e.type, e.seat, e.a) for e in res if e.type == "poor_house"] == [
        ("poor_house", 0, 1)]
    # over seeds (random Witch): when the named rank is not in play, neither the Park (empty
    # hand after gathering gold) nor the Poor House (stash 0 after gathering cards)
    st0, tb = setup("2016", 4, "random", P_WITCH)
    h.set_holders(st0, {A: 0, T: 1, K: 2})
    h.set_city(st0, 0, ["Poor House", "Park"])
    absent = Counter()
    for seed in range(SEEDS):
        st = reseeded(st0, seed)
        evs = play_round(st, tb)
        t = int(st.g[L.G_BEWITCHED])
        if t in (T, K):
            assert h.of_type(evs, "resume")
            continue
        assert not h.of_type(evs, "resume")
        assert not h.of_type(by_seat(evs, 0), "poor_house", "park")
        absent[evs[1].type] += 1
        if evs[1].type == "gather_gold":
            assert h.hand_list(st, 0) == []
        else:
            assert h.gold(st, 0) == 0
        assert gold_conserved(st)
    assert set(absent) == set(GATHERS)


def test_rule_055_witch_never_uses_the_bewitched_players_districts():
    """55. The Witch never uses the bewitched player's unique/purple districts."""
    st, tb = setup("2016", 4, "builder", P_WITCH)
    h.set_holders(st, {A: 0, B: 1})
    # his School of Magic and Temple would pay 2 religious income; his Laboratory, Smithy,
    # Poor House and Park stay his (and do nothing in his short turn)
    h.set_city(st, 1, ["School of Magic", "Temple", "Laboratory", "Smithy", "Poor House",
                       "Park"])
    h.set_city(st, 0, ["Poor House"])
    h.set_deck(st, ["Tavern", "Watchtower", "Temple", "Church", "Market"] * 4)
    bewitch(st, B)
    evs = play_round(st, tb)
    res = after(evs, "resume")
    assert all(e.seat == 0 for e in res)
    (inc,) = h.of_type(res, "income")
    assert inc.a == 0  # her city has no religious district
    assert not h.of_type(evs, "laboratory", "smithy", "park")
    # her own Poor House does resolve at the end of her resumed turn (stash 0)
    assert [(e.seat, e.a) for e in h.of_type(evs, "poor_house")] == [(0, 1)]
    assert h.gold(st, 1) == 0 and h.gold(st, 0) == 1 and gold_conserved(st)
    # his Smithy and Laboratory serve nobody; her own religious districts pay her
    st, tb = setup("2016", 4, "builder", P_WITCH)
    h.set_holders(st, {A: 0, B: 1})
    h.set_city(st, 1, ["Smithy", "Laboratory"])
    h.set_hand(st, 1, ["Tavern"])
    h.set_gold(st, 1, 9)
    h.set_city(st, 0, ["Temple", "Church"])
    h.set_hand(st, 0, ["Palace"])
    bewitch(st, B)
    evs = play_round(st, tb)
    (inc,) = h.of_type(evs, "income")
    assert (inc.seat, inc.a) == (0, 2)
    assert not h.of_type(by_seat(evs, 1), "smithy", "laboratory", "build")
    assert h.gold(st, 1) == 11 and gold_conserved(st)


C_WITCH = cset("classic", "Witch")


def test_rule_056_classic_witch_naming_nobody_plays_a_normal_turn():
    """56. C Witch: if she names nobody, she plays a normal turn."""
    st0, tb = setup("classic", 4, "random", C_WITCH)
    h.set_holders(st0, {A: 0, K: 1})
    h.set_hand(st0, 0, ["Tavern", "Temple", "Market"])
    h.set_gold(st0, 0, 6)
    outcomes = Counter()
    for seed in range(2 * SEEDS):
        st = reseeded(st0, seed)
        evs = play(st, tb, A, 0)
        if h.of_type(evs, "bewitch"):
            # she names someone: no build first, and her turn ends at once
            assert types_in(evs)[2:] == ["bewitch"]
            assert st.g[L.G_BEWITCHED] == evs[-1].a != A
            outcomes["bewitch"] += 1
        else:
            assert st.g[L.G_BEWITCHED] == -1 and st.g[L.G_WITCH] == -1
            outcomes["build" if h.of_type(evs, "build") else "none"] += 1
            # the King's call is then an ordinary turn of its holder
            assert "resume" not in types_in(play_round(st, tb, start=K))
        assert gold_conserved(st)
    assert outcomes["bewitch"] > 0 and outcomes["build"] > 0
    # the builder always names someone (here the King, the only hidden character)
    st, tb = setup("classic", 4, "builder", C_WITCH)
    h.set_holders(st, {A: 0, K: 1})
    h.set_hand(st, 0, ["Tavern"])
    bewitch(st, K)
    assert types_in(play(st, tb, A, 0)) == ["call", "gather_gold", "bewitch"]


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_047_049_witch_in_played_games(ruleset):
    """47, 49, 54. In played games: the Witch's turn ends with the bewitching; the bewitched
    holder's call is call + gather, then the Witch resumes, without gathering again; no
    resume when the named character is not in play.  Gold and cards are conserved."""
    chars = cset(ruleset, "Witch", "Emperor")
    resumed = absent = 0
    for evs, st, tb in h.played_games(ruleset, 4, chars, 7, 20):
        for t in h.turns(evs):
            names = types_in(t)
            if "bewitch" in names:
                assert names[-1] == "bewitch" and t[0].rank == A and len(names) == 3
                assert names[1] in GATHERS
            if "resume" in names:
                i = names.index("resume")
                assert names[1] in GATHERS and i == 2
                w, r = t[i].seat, t[i].rank
                assert t[0].rank == r and all(e.seat in (w, t[0].seat) or e.type in (
                    "crown", "crown_given", "throne_room", "theft", "bribe", "blackmail",
                    "tax", "graveyard", "destroy", "exchange", "seize", "classic_tax")
                    for e in t)
                assert not [e for e in t[i:] if e.type in GATHERS]
                resumed += 1
        for es in h.rounds(evs).values():
            named = [e for e in es if e.type == "bewitch"]
            if not named:
                assert not h.of_type(es, "resume")
                continue
            (nm,) = named
            called = [e for e in es if e.type == "call" and e.rank == nm.a]
            res = h.of_type(es, "resume")
            assert len(res) == len(called) <= 1
            if not called:
                absent += 1
                assert not [e for e in es if e.seat == nm.seat and e.type in (
                    "poor_house", "park")]
        assert gold_conserved(st)
        assert h.total_cards(st) == h.total_cards(h.make_state(
            ruleset, 4, seed=0, characters=chars)[0])
    assert resumed > 0 and absent > 0
