"""Calling order and the structure of a turn (docs/rules.md §2.4, §2.5; checklist rules 27-30,
38, 42-43): ranks called in ascending order, a killed character's lost turn, two characters'
two turns with one stash, limits reset between turns, each ability once per turn, the
end-of-turn order (base game and with the classic Tax Collector), an unlimited bank and
hand.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
from kernel_helpers import (
    A, AR, C_TC, K, ME, T, W, all_base_games, base_games, cset, draft_rounds, empty_state as setup,
    gold_conserved, play_turn_events as play, types_in,
)
from citadels_sim.kernel import districts, game, layout as L


def test_rule_027_ranks_called_in_ascending_order():
    """27. Ranks are called in ascending order; a rank nobody holds is skipped."""
    for ruleset, players, evs, st, tb in all_base_games():
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            held = dict((r, s) for s, r in picks)
            called = [(e.rank, e.seat) for e in es if e.type in ("call", "skip_killed")]
            assert [r for r, _ in called] == sorted(held), (ruleset, players, rnd)
            assert all(held[r] == s for r, s in called)


def test_rule_028_killed_character_gets_no_turn():
    """28. A killed character's holder does not reveal it and gets no turn: no gather, no
    income, no build, no end-of-turn effects (C Hospital excepted)."""
    kills = 0
    for ruleset, players, evs, st, tb in all_base_games():
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            held = dict((r, s) for s, r in picks)
            killed = [e.a for e in es if e.type == "kill"]
            for k in killed:
                # the turn phase: up to the end-of-round steps (heir, round end)
                phase = es[:next(i for i, e in enumerate(es) if e.type in ("heir", "round_end"))]
                acting = [e for e in phase if e.rank == k]
                if k in held:
                    kills += 1
                    assert [e.type for e in acting] == ["skip_killed"], (ruleset, rnd, acting)
                    assert acting[0].seat == held[k]
                else:
                    assert acting == []
    assert kills > 100
    # direct: the Assassin kills the Merchant; in the full round the Merchant never plays
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {A: 0, ME: 1, W: 2})
    h.only_target(st, ME, A)
    h.set_city(st, 1, ["Market", "Docks"])  # nothing free for the builder Warlord
    h.set_hand(st, 1, ["Palace"])
    before = (h.gold(st, 1), h.hand_list(st, 1), h.city_list(st, 1))
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == ME
    play(st, tb, W, 2)
    game._end_round(st, tb)
    assert (h.gold(st, 1), h.hand_list(st, 1), h.city_list(st, 1)) == before


def test_rule_029_two_characters_two_turns_one_stash():
    """29. A player with two characters takes two separate turns in rank order, with one
    shared stash, hand and city."""
    for ruleset, players in (("classic", 2), ("classic", 3), ("2016", 2), ("four_color", 3)):
        for evs, st, tb in base_games(ruleset, players):
            for rnd, es, picks, up, down, crown in draft_rounds(evs):
                calls = [e for e in es if e.type in ("call", "skip_killed")]
                per_seat = Counter(e.seat for e in calls)
                assert per_seat == {s: 2 for s in range(players)}
    # direct: Merchant then Architect for the same seat; the gold and cards carry over
    st, tb = setup("classic", 2, "builder")
    h.set_holders(st, {ME: 0, AR: 0, A: 1, T: 1})
    h.set_city(st, 0, ["Market"])
    h.set_hand(st, 0, ["Palace"])  # useful: both turns take gold
    h.set_deck(st, ["Palace"] * 4)  # the Architect draws two more Palaces
    h.set_gold(st, 0, 0)
    play(st, tb, ME, 0)
    assert h.gold(st, 0) == 0 + 2 + 1 + 1  # gather, Merchant +1, 1 trade district
    evs2 = play(st, tb, AR, 0)
    assert types_in(evs2)[:3] == ["call", "gather_gold", "bonus_cards"]
    built = [e for e in evs2 if e.type == "build"]
    assert [e.a for e in built] == [h.kind("Palace")]  # 4 + 2 = 6 gold pays one Palace
    assert h.gold(st, 0) == 1 and h.kind("Palace") in h.city_list(st, 0)


def test_rule_030_limits_and_uses_reset_between_turns():
    """30. Build limits and once-per-turn uses reset between a player's two turns; an
    Architect's limit of 3 does not apply in his Warlord turn."""
    st, tb = setup("classic", 2, "builder")
    h.set_holders(st, {AR: 0, W: 0, A: 1, T: 1})
    hand = ["Temple", "Tavern", "Watchtower", "Church", "Market", "Prison", "Manor", "Docks"]
    h.set_hand(st, 0, hand)
    h.set_city(st, 0, ["Laboratory"])
    h.set_gold(st, 0, 100)
    evs = play(st, tb, AR, 0)
    assert len(of := h.of_type(evs, "build")) == 3, of
    assert len(h.of_type(evs, "laboratory")) == 1
    evs = play(st, tb, W, 0)
    assert len(h.of_type(evs, "build")) == 1
    assert len(h.of_type(evs, "laboratory")) == 1


def test_rule_038_each_ability_once_per_turn():
    """38. Each ability is used at most once per turn."""
    once = ("kill", "rob", "swap_hands", "redraw", "destroy", "laboratory", "smithy", "income",
            "bonus_gold", "bonus_cards", "crown")
    for ruleset, players, evs, st, tb in all_base_games():
        for t in h.turns(evs):
            c = Counter(e.type for e in t)
            for name in once:
                assert c[name] <= 1, (ruleset, players, t[0], name)
            assert c["swap_hands"] + c["redraw"] <= 1
    # a big hand would let the Laboratory be used again; it is used once
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Laboratory"])
    h.set_hand(st, 0, ["Manor"] * 10)
    evs = play(st, tb, T, 0)
    assert len(h.of_type(evs, "laboratory")) == 1


def test_rule_042_end_of_turn_order():
    """42. End-of-turn order: C Warlord/Diplomat, then the C tax, then Poor House and Park,
    then the Alchemist refund.

    Base game: the Warlord's destruction is the last thing of his turn (only a Graveyard
    reaction follows it)."""
    n = 0
    for ruleset, players, evs, st, tb in all_base_games():
        for t in h.turns(evs):
            names = types_in(t)
            if "destroy" in names:
                n += 1
                i = names.index("destroy")
                assert set(names[i + 1:]) <= {"graveyard"}, (ruleset, names)
    assert n > 20


C_TC_ALCHEMIST = cset("classic", "Tax Collector", "Alchemist")


def test_rule_042_end_of_turn_order_classic():
    """42. End-of-turn order: C Warlord/Diplomat, then the C tax, then Poor House and Park,
    then the Alchemist refund."""
    # the Alchemist: tax, Poor House (stash 0 after the tax), Park (empty hand), refund;
    # the tax is not refunded
    st, tb = setup("classic", 4, "builder", C_TC_ALCHEMIST)
    assert tb.cfg[L.G_RANK_CHAR + ME] == L.CH_ALCHEMIST
    h.set_holders(st, {T: 1, ME: 0})
    st.g[L.G_TAXER] = 1  # the Tax Collector was revealed earlier this round
    h.set_city(st, 0, ["Poor House", "Park"])
    h.set_hand(st, 0, ["Palace"])
    h.set_deck(st, ["Tavern", "Temple", "Watchtower"])
    h.set_gold(st, 0, 4)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "gather_gold", "build", "classic_tax", "poor_house",
                             "park", "refund"]
    assert h.of_type(evs, "refund")[0].a == 5
    assert h.gold(st, 0) == 4 + 2 - 5 - 1 + 1 + 5 and h.gold(st, 1) == 1
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Tavern", "Temple"]))
    assert gold_conserved(st)
    # the Warlord destroys first, then pays the tax
    st, tb = setup("classic", 4, "builder", C_TC)
    h.set_holders(st, {T: 1, W: 0})
    st.g[L.G_TAXER] = 1  # the Tax Collector was revealed earlier this round
    h.set_hand(st, 0, ["Watchtower"])
    h.set_city(st, 2, ["Tavern"])  # free to destroy: the builder takes it
    evs = play(st, tb, W, 0)
    names = types_in(evs)
    assert "build" in names and "destroy" in names
    assert names.index("build") < names.index("destroy") < names.index("classic_tax")
    assert names[-1] == "classic_tax" and h.gold(st, 1) == 1


def test_rule_043_unlimited_bank_and_hand():
    """43. The bank never runs out; hand size is unlimited."""
    st, tb = setup("classic", 4, "builder")
    h.set_gold(st, 0, 1_000_000)
    h.set_hand(st, 0, ["Palace"])
    districts.gather(st, tb, 0, K)
    assert h.gold(st, 0) == 1_000_002
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Manor"] * 40)  # nothing useful: the builder draws
    districts.gather(st, tb, 0, K)
    assert st.p[0, L.P_HAND_N] == 41
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["Library"])
    h.set_hand(st, 0, ["Library"] * 50)
    districts.gather(st, tb, 0, K)
    assert st.p[0, L.P_HAND_N] == 52
