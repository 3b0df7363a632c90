"""Both Tax Collectors (docs/rules.md §3): the classic rank-2 Tax Collector (checklist rules
72-74: once per turn, retroactive on rank 1, killed or absent) and the 2016 rank-9 Tax
Collector (rules 114-117: the tax after every build, whether or not he is in play, none in
his own turn, the whole pile taken once).
"""

from __future__ import annotations

import kernel_helpers as h
from kernel_helpers import (
    A, AR, B, C_TC, K, M, ME, P_NOBLES_TC, P_PATRICIAN, P_TC, R9, T, empty_state as setup,
    gold_conserved, play_turn_events as play, roster_games, tax_pile as pile, types_in,
)
from citadels_sim.kernel import game, layout as L


def _tax_events(evs):
    return h.of_type(evs, "classic_tax")


def test_rule_072_classic_tax_once_per_turn():
    """72. C Tax Collector: a player who built ≥1 district pays 1 gold (if he has any) at the
    end of that turn, once per turn."""
    st, tb = setup("classic", 4, "builder", C_TC)
    assert tb.cfg[L.G_RANK_CHAR + T] == L.CH_TAX_COLLECTOR_CLASSIC
    h.set_holders(st, {T: 1, B: 0, AR: 2, ME: 3})
    # the Tax Collector's own builds are not taxed
    h.set_hand(st, 1, ["Tavern"])
    h.set_gold(st, 1, 3)
    evs = play(st, tb, T, 1)
    assert len(h.of_type(evs, "build")) == 1 and not _tax_events(evs)
    tc = h.gold(st, 1)
    # one build: 1 gold, at the very end of the turn
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 4)
    evs = play(st, tb, B, 0)
    assert [n for n in types_in(evs) if n != "income"] == ["call", "gather_gold", "build",
                                                          "classic_tax"]
    e = evs[-1]
    assert (e.seat, e.a, e.b) == (0, 1, 1)
    assert h.gold(st, 0) == 4 + 2 - 5 - 1 and h.gold(st, 1) == tc + 1
    # three builds (Architect): still 1 gold
    h.set_hand(st, 2, ["Temple", "Tavern", "Watchtower"])
    h.set_deck(st, ["Market", "Prison", "Manor", "Castle"])
    h.set_gold(st, 2, 10)
    evs = play(st, tb, AR, 2)
    assert len(h.of_type(evs, "build")) == 3
    assert len(_tax_events(evs)) == 1 and evs[-1].type == "classic_tax"
    assert h.gold(st, 1) == tc + 2
    # no build: no tax
    h.set_hand(st, 3, ["Dragon Gate"])
    evs = play(st, tb, ME, 3)
    assert not h.of_type(evs, "build") and not _tax_events(evs)
    assert h.gold(st, 1) == tc + 2
    assert gold_conserved(st)
    # a builder left with no gold pays nothing
    st, tb = setup("classic", 4, "builder", C_TC)
    h.set_holders(st, {T: 1, B: 0})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, B, 0)
    assert [n for n in types_in(evs) if n != "income"] == ["call", "gather_gold", "build"]
    assert h.gold(st, 0) == 0 and h.gold(st, 1) == 0
    # 3 players: the Tax Collector's holder is not taxed for his other character's builds
    st, tb = setup("classic", 3, "builder", C_TC)
    h.set_holders(st, {T: 0, B: 0, ME: 1, AR: 2})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 4)
    evs = play(st, tb, B, 0)
    assert len(h.of_type(evs, "build")) == 1 and not _tax_events(evs)


def test_rule_073_classic_tax_retroactive_on_rank_1():
    """73. C Tax Collector: when it is revealed, the Assassin's holder pays 1 gold if he built
    this round."""
    def situation(hand, gold, players=4, holders=None):
        st, tb = setup("classic", players, "builder", C_TC)
        h.set_holders(st, holders or {A: 0, T: 1})
        h.only_target(st, M, A)  # the Assassin kills the (absent) Magician
        h.set_hand(st, 0, hand)
        h.set_gold(st, 0, gold)
        evs_a = play(st, tb, A, 0)
        assert h.of_type(evs_a, "kill")[0].a == M
        assert not _tax_events(evs_a)  # nothing at the end of the Assassin's own turn
        h.set_hand(st, 1, ["Dragon Gate"])  # the Tax Collector builds nothing
        evs_t = play(st, tb, T, 1)
        return st, evs_a, evs_t

    # built and has gold left: pays 1 when the Tax Collector is revealed, before anything else
    st, evs_a, evs_t = situation(["Temple"], 0)
    assert len(h.of_type(evs_a, "build")) == 1 and h.gold(st, 0) == 1 - 1
    assert types_in(evs_t)[:2] == ["call", "classic_tax"]
    e = evs_t[1]
    assert (e.seat, e.a, e.b) == (0, 1, 1) and e.gold[0] == 0 and e.gold[1] == 1
    assert len(_tax_events(evs_t)) == 1 and gold_conserved(st)
    # built but no gold left: nothing
    st, evs_a, evs_t = situation(["Manor"], 1)
    assert len(h.of_type(evs_a, "build")) == 1 and h.gold(st, 0) == 0
    assert not _tax_events(evs_t)
    # did not build: nothing
    st, evs_a, evs_t = situation(["Dragon Gate"], 0)
    assert not h.of_type(evs_a, "build") and not _tax_events(evs_t) and h.gold(st, 0) == 2
    # 3 players: the Assassin and the Tax Collector in the same hand pay nothing to themselves
    st, tb = setup("classic", 3, "builder", C_TC)
    h.set_holders(st, {A: 0, T: 0})
    h.only_target(st, M, A)
    h.set_hand(st, 0, ["Temple"])
    play(st, tb, A, 0)
    h.set_hand(st, 0, ["Dragon Gate"])
    evs_t = play(st, tb, T, 0)
    assert not _tax_events(evs_t)


def test_rule_074_classic_tax_collector_killed_or_absent():
    """74. C Tax Collector killed or not in play: nobody pays tax that round (D16)."""
    for holders, killed in (({A: 2, T: 1, B: 0}, T), ({A: 2, B: 0}, None), ({B: 0}, None)):
        st, tb = setup("classic", 4, "builder", C_TC)
        h.set_holders(st, holders)
        if killed is not None:
            h.kill(st, killed)
        h.set_hand(st, 0, ["Palace"])
        h.set_gold(st, 0, 4)
        evs = play(st, tb, B, 0)
        assert len(h.of_type(evs, "build")) == 1 and not _tax_events(evs)
        assert h.gold(st, 0) == 1
    # the killed Tax Collector's retroactive payment does not happen either: the Assassin
    # built, killed the Tax Collector, and nobody is taxed by the end of the round
    st, tb = setup("classic", 4, "builder", C_TC)
    h.set_holders(st, {A: 0, T: 1, B: 2})
    h.only_target(st, T, A)
    h.set_hand(st, 0, ["Temple"])
    evs = play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == T and len(h.of_type(evs, "build")) == 1
    h.set_hand(st, 2, ["Palace"])
    h.set_gold(st, 2, 4)
    evs = play(st, tb, B, 2)
    assert len(h.of_type(evs, "build")) == 1 and not _tax_events(evs)
    assert h.gold(st, 1) == 0
    # the base set (no classic Tax Collector): no tax
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 1, B: 0})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 4)
    evs = play(st, tb, B, 0)
    assert not _tax_events(evs) and h.gold(st, 0) == 1


def test_rule_114_tax_after_every_build():
    """114. P Tax Collector: every build, paid or free, costs 1 gold into the pile right after
    the build, if the builder has gold."""
    st, tb = setup("2016", 4, "builder", P_TC)
    assert tb.cfg[L.G_RANK_CHAR + R9] == L.CH_TAX_COLLECTOR and pile(st) == 0
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Temple", "Tavern", "Watchtower"])
    h.set_deck(st, ["Temple", "Tavern", "Watchtower"])  # the Architect's +2: duplicates
    h.set_gold(st, 0, 4)
    evs = play(st, tb, AR, 0)
    assert [n for n in types_in(evs) if n in ("build", "tax")] == ["build", "tax"] * 3
    for i, e in enumerate(evs):
        if e.type == "tax":
            assert evs[i - 1].type == "build" and e.seat == 0 and e.a == 1
    assert h.gold(st, 0) == 4 + 2 - 3 - 3 and pile(st) == 3
    assert h.of_type(evs, "tax")[-1].row[L.L_TAX_PILE] == 3  # the pile is public
    assert gold_conserved(st)
    # no gold left after the build: no tax
    st, tb = setup("2016", 4, "builder", P_TC)
    h.set_holders(st, {T: 0})
    h.set_hand(st, 0, ["Market"])
    evs = play(st, tb, T, 0)
    assert "build" in types_in(evs) and "tax" not in types_in(evs)
    assert h.gold(st, 0) == 0 and pile(st) == 0
    # the tax stops when the gold runs out (6 gold: 2 + tax, 1 + tax, 1 and no gold left)
    st, tb = setup("2016", 4, "builder", P_TC)
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Temple", "Tavern", "Market"])
    h.set_deck(st, ["Temple", "Tavern", "Market"])
    h.set_gold(st, 0, 4)
    evs = play(st, tb, AR, 0)
    assert len(h.of_type(evs, "build")) == 3 and len(h.of_type(evs, "tax")) == 2
    assert h.gold(st, 0) == 0 and pile(st) == 2
    # a free build (Thieves' Den paid with 6 cards) is taxed too
    st, tb = setup("2016", 4, "builder", P_TC)
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Thieves' Den"] + ["Manor"] * 7)
    evs = play(st, tb, T, 0)
    b = h.of_type(evs, "build")[0]
    assert (b.a, b.c, b.d) == (L.D_THIEVES_DEN, 0, 6)
    assert types_in(evs)[-2:] == ["build", "tax"]
    assert h.gold(st, 0) == 1 and pile(st) == 1
    # without the Tax Collector in the set, no tax
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Temple", "Tavern", "Watchtower"])
    h.set_deck(st, ["Temple", "Tavern", "Watchtower"])
    h.set_gold(st, 0, 4)
    evs = play(st, tb, AR, 0)
    assert len(h.of_type(evs, "build")) == 3 and not h.of_type(evs, "tax")
    assert h.gold(st, 0) == 3 and pile(st) == 0


def test_rule_115_tax_whether_or_not_in_play_pile_carries_over():
    """115. P Tax Collector: the tax applies even when the Tax Collector is discarded,
    unchosen or killed, and the pile carries over between rounds."""
    for killed in (False, True):
        st, tb = setup("2016", 4, "builder", P_TC)
        h.set_holders(st, {A: 1, M: 0, R9: 2} if killed else {M: 0})
        if killed:
            h.kill(st, R9)
        h.set_hand(st, 0, ["Manor"])
        h.set_gold(st, 0, 5)
        evs = play(st, tb, M, 0)
        assert len(h.of_type(evs, "tax")) == 1 and pile(st) == 1
        assert h.gold(st, 0) == 5 + 2 - 3 - 1
        # the end of the round and the next round's start keep the pile
        game._end_round(st, tb)
        game._start_round(st)
        assert pile(st) == 1 and st.g[L.G_ROUND] == 2
        h.set_holders(st, {ME: 3})
        h.set_hand(st, 3, ["Market"])
        h.set_gold(st, 3, 5)
        play(st, tb, ME, 3)
        assert pile(st) == 2
        assert gold_conserved(st)
    # in played games the pile only grows by taxes and drops to 0 when taken
    n_carry = 0
    for evs, st, tb in roster_games("2016", 4, P_TC) + roster_games("2016", 3, P_NOBLES_TC):
        prev_pile = 0
        for e in evs:
            p = int(e.row[L.L_TAX_PILE])
            if e.type == "tax":
                assert p == prev_pile + 1
            elif e.type == "take_pile":
                assert p == 0 and e.a == prev_pile > 0
            else:
                assert p == prev_pile, e.type
            if e.type == "round_end" and p > 0:
                n_carry += 1
            prev_pile = p
        assert gold_conserved(st)
    assert n_carry > 5


def test_rule_116_no_tax_in_tax_collectors_turn():
    """116. P Tax Collector: no tax on builds in the Tax Collector's own turn; in 2-3-player
    games the holder's other character is taxed."""
    st, tb = setup("2016", 4, "builder", P_TC)
    h.set_holders(st, {R9: 0})
    h.set_hand(st, 0, ["Manor"])
    h.set_gold(st, 0, 5)
    evs = play(st, tb, R9, 0)
    assert len(h.of_type(evs, "build")) == 1 and not h.of_type(evs, "tax")
    assert h.gold(st, 0) == 5 + 2 - 3 and pile(st) == 0
    # 3 players: seat 0 holds the Merchant and the Tax Collector
    st, tb = setup("2016", 3, "builder", P_TC)
    h.set_holders(st, {ME: 0, R9: 0, A: 1, T: 1, M: 2, K: 2})
    h.set_hand(st, 0, ["Manor", "Temple"])
    h.set_gold(st, 0, 5)
    evs = play(st, tb, ME, 0)  # builds the Manor, taxed
    assert [e.type for e in evs if e.type in ("build", "tax")] == ["build", "tax"]
    assert h.gold(st, 0) == 5 + 2 + 1 - 3 - 1 and pile(st) == 1
    evs = play(st, tb, R9, 0)  # takes his own tax back, builds the Temple untaxed
    assert types_in(evs)[:2] == ["call", "take_pile"]
    assert [e.type for e in evs if e.type in ("build", "tax")] == ["build"]
    assert h.gold(st, 0) == 4 + 1 + 2 - 1 and pile(st) == 0
    assert gold_conserved(st)


def test_rule_117_tax_collector_takes_the_whole_pile_once():
    """117. P Tax Collector: takes the whole pile once during his turn."""
    st, tb = setup("2016", 4, "builder", P_TC)
    h.set_holders(st, {R9: 1})
    st.g[L.G_TAX_PILE] = 3
    st.g[L.G_BANK_OUT] += 3  # the pile's gold came from the stashes
    h.set_hand(st, 1, ["Dragon Gate"])
    evs = play(st, tb, R9, 1)
    tp = h.of_type(evs, "take_pile")
    assert len(tp) == 1 and tp[0].seat == 1 and tp[0].a == 3
    assert types_in(evs)[:2] == ["call", "take_pile"]
    assert pile(st) == 0 and h.gold(st, 1) == 3 + 2
    assert gold_conserved(st)
    # empty pile: nothing to take
    evs = play(st, tb, R9, 1)
    assert not h.of_type(evs, "take_pile")
    # killed: the pile stays for a later round
    st, tb = setup("2016", 4, "builder", P_TC)
    h.set_holders(st, {A: 0, R9: 1, K: 2})
    h.only_target(st, R9, A)
    st.g[L.G_TAX_PILE] = 4
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == R9
    play(st, tb, K, 2)
    game._end_round(st, tb)
    assert pile(st) == 4 and h.gold(st, 1) == 0
    # robbed: the Thief takes the stash on reveal; the pile is taken afterwards and kept
    st, tb = setup("2016", 4, "builder", P_TC)
    h.set_holders(st, {T: 0, R9: 1})
    h.rob(st, R9, 0)
    st.g[L.G_TAX_PILE] = 3
    h.set_gold(st, 1, 3)
    h.set_hand(st, 1, ["Dragon Gate"])
    evs = play(st, tb, R9, 1)
    assert types_in(evs)[:3] == ["call", "theft", "take_pile"]
    assert h.gold(st, 0) == 3 and h.gold(st, 1) == 3 + 2
    # in played games: at most once per turn, only in the Tax Collector's turn
    for evs, st, tb in roster_games("2016", 4, P_TC) + roster_games("2016", 3, P_NOBLES_TC):
        for t in h.turns(evs):
            takes = h.of_type(t, "take_pile")
            assert len(takes) <= 1
            if takes:
                assert t[0].rank == R9
            elif t[0].rank == R9:
                assert int(t[0].row[L.L_TAX_PILE]) == 0
