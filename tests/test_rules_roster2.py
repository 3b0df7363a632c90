"""One test per checklist rule (RULES.md §6) for the second batch of roster characters the
kernel plays: the Emperor (classic and 2016), the Spy (2016), the Marshal (2016) and the
classic Tax Collector; plus whole games with them.

Like ``test_rules.py`` and ``test_rules_roster.py``, each test puts the kernel into an exact
situation with the ``kernel_helpers`` and strategies whose choice is forced there, or checks
the property over many seeds or played games.  Tests named ``test_rule_NNN_*`` carry the
checklist text in their docstring.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
import pytest

from citadels_sim.game import cards
from citadels_sim.game.config import ConfigError, GameConfig, named_set_characters
from citadels_sim.kernel import characters, game, layout as L, rules


setup = h.roster_setup  # an exact situation, 2016 by default


cset, play, types_in = h.cset, h.play_turn_events, h.types_in
gold_conserved, pile, golds = h.gold_conserved, h.tax_pile, h.golds


A, T, M, K, B, ME, AR, W, R9 = range(9)  # rank indices (rank 9 = index 8)
FAMILIES = h.FAMILIES


# character sets used below
C_TC = cset("classic", "Tax Collector")
C_TC_ALCHEMIST = cset("classic", "Tax Collector", "Alchemist")
C_EMPEROR = cset("classic", "Emperor")
C_EMPEROR_QUEEN = cset("classic", "Emperor", "Queen")
P_EMPEROR = cset("2016", "Emperor")
P_EMPEROR_QUEEN = cset("2016", "Emperor", "Queen")
P_SPY = cset("2016", "Spy")
P_MARSHAL = cset("2016", "Marshal")


# =============================================================================================
# Configuration
# =============================================================================================
def test_rule_008_emperor_rejected_with_2_players():
    """8. The Emperor is rejected with 2 players (C, P)."""
    for ruleset in ("classic", "2016"):
        with pytest.raises(ConfigError, match="Emperor.*2-player"):
            GameConfig(ruleset=ruleset, players=2, characters=cset(ruleset, "Emperor"))
    # 3 players and more are fine (2016 3 players need a rank-9 character)
    assert GameConfig(ruleset="classic", players=3, characters=C_EMPEROR).ranks == 8
    assert GameConfig(ruleset="2016", players=3,
                      characters=cset("2016", "Emperor", "Tax Collector")).ranks == 9
    for n in (4, 5, 6, 7):
        assert GameConfig(ruleset="2016", players=n, characters=P_EMPEROR).ranks == 8
    # the printed 2016 named sets replace the Emperor with 2 players (§1.4)
    named = cards.named_sets()["cunning_agents"]
    assert "Emperor" in named.characters
    two = named_set_characters(named, 2)
    assert "Emperor" not in two and "King" in two
    assert "Emperor" in named_set_characters(named, 4)


# =============================================================================================
# Rank 2: classic Tax Collector
# =============================================================================================
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


# =============================================================================================
# Rank 2: Spy
# =============================================================================================
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


# =============================================================================================
# Rank 4: Emperor
# =============================================================================================
def _recipients(ruleset, chars, players, emperor, crown, tries=60, killed=False):
    """Seats the random-family Emperor gives the crown to, over many seeds."""
    out = Counter()
    chars = _with_rank9(ruleset, players, chars)
    for seed in range(tries):
        st, tb = setup(ruleset, players, "random", chars, seed=seed)
        h.set_holders(st, {K: emperor})
        st.g[L.G_CROWN] = crown
        for s in range(players):
            h.set_gold(st, s, 1)
        if killed:
            h.kill(st, K)
            h.clear_log(st)
            game._end_round(st, tb)
            evs = h.events(st)
        else:
            evs = play(st, tb, K, emperor)
        moves = h.of_type(evs, "crown")
        assert len(moves) == 1 and moves[0].seat == int(st.g[L.G_CROWN])
        assert moves[0].a == crown and moves[0].rank == K
        if not killed:
            given = h.of_type(evs, "crown_given")
            assert len(given) == 1 and given[0].a == int(st.g[L.G_CROWN])
        out[moves[0].seat] += 1
    return set(out)


def _with_rank9(ruleset, players, chars):
    """2016 with 3 players needs a rank-9 character: the Tax Collector."""
    if ruleset == "2016" and players == 3 and len(chars) == 8:
        return tuple(chars) + ("Tax Collector",)
    return chars


@pytest.mark.parametrize("ruleset,chars", [("classic", C_EMPEROR), ("2016", P_EMPEROR)])
def test_rule_083_emperor_crown_to_another_player(ruleset, chars):
    """83. The Emperor gives the crown to a player other than himself and other than the
    previous holder (D9; if he had it, any other player)."""
    assert _recipients(ruleset, chars, 4, 0, 2) == {1, 3}
    assert _recipients(ruleset, chars, 4, 1, 0) == {2, 3}
    assert _recipients(ruleset, chars, 4, 0, 0) == {1, 2, 3}
    assert _recipients(ruleset, chars, 3, 2, 0) == {1}
    assert _recipients(ruleset, chars, 3, 2, 2) == {0, 1}
    # on reveal: right after the call, before the gather (classic; 2016 any time)
    st, tb = setup(ruleset, 4, "builder", chars)
    h.set_holders(st, {K: 0})
    st.g[L.G_CROWN] = 2
    evs = play(st, tb, K, 0)
    assert types_in(evs)[:3] == ["call", "crown", "crown_given"]
    assert evs[1].a == 2 and evs[1].seat == evs[2].a and st.g[L.G_CROWN] not in (0, 2)


def _tribute(ruleset, hand, gold, emperor="builder", recipient="builder", emperor_hand=(),
             city=(), seed=0):
    """3 players: the Emperor at seat 0, the crown at seat 1, so seat 2 gets it: returns
    (state, crown_given event, seat 2's hand before)."""
    chars = _with_rank9(ruleset, 3, C_EMPEROR if ruleset == "classic" else P_EMPEROR)
    st, tb = setup(ruleset, 3, (emperor, "builder", recipient), chars, seed=seed)
    h.set_holders(st, {K: 0})
    st.g[L.G_CROWN] = 1
    h.set_hand(st, 2, hand)
    h.set_city(st, 2, city)
    h.set_gold(st, 2, gold)
    h.set_hand(st, 0, emperor_hand)
    h.clear_log(st)
    characters.give_crown(st, tb, 0, K, True)
    (e,) = h.of_type(h.events(st), "crown_given")
    assert e.seat == 0 and e.a == 2 and st.g[L.G_CROWN] == 2
    assert gold_conserved(st)
    return st, e


def test_rule_084_classic_emperor_tribute_chosen_by_new_holder():
    """84. C Emperor: the new crowned player chooses whether to give 1 gold or 1 card
    (nothing if he has neither; D46)."""
    # gold only: 1 gold
    st, e = _tribute("classic", [], 3)
    assert (e.b, e.c) == (1, -1) and h.gold(st, 0) == 1 and h.gold(st, 2) == 2
    # cards only: 1 card
    st, e = _tribute("classic", ["Manor"], 0)
    assert (e.b, e.c) == (0, h.kind("Manor"))
    assert h.hand_list(st, 0) == [h.kind("Manor")] and h.hand_list(st, 2) == []
    # neither: nothing
    st, e = _tribute("classic", [], 0)
    assert (e.b, e.c) == (0, -1) and h.gold(st, 0) == 0 and h.hand_list(st, 0) == []
    # both: the new holder chooses (the Emperor's strategy does not matter): a builder
    # gives a card he cannot use (a name already in his city), and that card, ...
    for emp in ("builder", "random", "aggressive"):
        st, e = _tribute("classic", ["Palace", "Manor"], 3, emperor=emp, city=["Manor"])
        assert (e.b, e.c) == (0, h.kind("Manor")) and h.gold(st, 2) == 3
        assert h.hand_list(st, 2) == [h.kind("Palace")]
        # ... and keeps a card he wants, paying 1 gold
        st, e = _tribute("classic", ["Palace"], 3, emperor=emp)
        assert (e.b, e.c) == (1, -1) and h.gold(st, 2) == 2
    # a random new holder: both kinds of tribute happen, always exactly one resource
    got = Counter()
    for seed in range(40):
        st, e = _tribute("classic", ["Palace", "Manor"], 3, recipient="random", seed=seed)
        assert (e.b == 1) != (e.c >= 0)
        assert h.gold(st, 2) + len(h.hand_list(st, 2)) == 3 + 2 - 1
        got["gold" if e.b else "card"] += 1
    assert set(got) == {"gold", "card"}


def test_rule_085_2016_emperor_takes_gold_or_random_card():
    """85. P Emperor: the Emperor takes 1 gold or 1 random card from the new crowned player,
    at his own choice."""
    st, e = _tribute("2016", [], 3)
    assert (e.b, e.c) == (1, -1) and h.gold(st, 0) == 1 and h.gold(st, 2) == 2
    st, e = _tribute("2016", ["Manor"], 0)
    assert (e.b, e.c) == (0, h.kind("Manor")) and h.hand_list(st, 0) == [h.kind("Manor")]
    st, e = _tribute("2016", [], 0)
    assert (e.b, e.c) == (0, -1) and h.gold(st, 0) == 0 and h.hand_list(st, 0) == []
    # both: the Emperor chooses (a builder needing cards takes a card, one with useful cards
    # takes gold), whatever the new holder's strategy
    hand = ["Manor", "Castle", "Palace"]
    for rec in ("builder", "random"):
        st, e = _tribute("2016", hand, 3, recipient=rec)
        assert e.b == 0 and e.c in h.kinds(hand) and h.gold(st, 2) == 3
        st, e = _tribute("2016", hand, 3, recipient=rec, emperor_hand=["Temple", "Tavern"])
        assert (e.b, e.c) == (1, -1) and len(h.hand_list(st, 2)) == 3
    # the card is random: every card of the hand is taken in some game
    taken = Counter()
    for seed in range(40):
        st, e = _tribute("2016", hand, 0, seed=seed)
        taken[e.c] += 1
        assert sorted(h.hand_list(st, 2) + [e.c]) == sorted(h.kinds(hand))
    assert set(taken) == set(h.kinds(hand))


def test_rule_086_killed_emperor():
    """86. Killed Emperor: C, the crown stays; P, the crown is moved at the end of the round
    and no resource is taken."""
    st, tb = setup("classic", 4, "builder", C_EMPEROR)
    h.set_holders(st, {A: 1, K: 0})
    st.g[L.G_CROWN] = 2
    h.kill(st, K)
    h.clear_log(st)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 2 and types_in(h.events(st)) == ["round_end"]
    # 2016: the holder reveals the Emperor and moves the crown, taking nothing
    st, tb = setup("2016", 4, "builder", P_EMPEROR)
    h.set_holders(st, {A: 1, K: 0})
    st.g[L.G_CROWN] = 2
    for s in range(4):
        h.set_gold(st, s, 3)
        h.set_hand(st, s, ["Manor"])
    h.kill(st, K)
    h.clear_log(st)
    before = (golds(st), [h.hand_list(st, s) for s in range(4)])
    game._end_round(st, tb)
    evs = h.events(st)
    assert [n for n in types_in(evs) if n != "crown_given"] == ["heir", "crown", "round_end"]
    moved = h.of_type(evs, "crown")[0]
    assert moved.a == 2 and moved.seat in (1, 3) and st.g[L.G_CROWN] == moved.seat
    for given in h.of_type(evs, "crown_given"):  # logged or not, it carries no tribute
        assert given.seat == 0 and (given.b, given.c) == (0, -1)
    assert st.p[0, L.P_REVEALED] == 4
    assert (golds(st), [h.hand_list(st, s) for s in range(4)]) == before
    # the recipients follow rule 83
    assert _recipients("2016", P_EMPEROR, 4, 0, 2, killed=True) == {1, 3}
    assert _recipients("2016", P_EMPEROR, 4, 0, 0, killed=True) == {1, 2, 3}


def _queen(ruleset, chars, queen, emperor, killed=None, players=5, crown=0):
    """Queen at seat ``queen``, the Emperor at seat ``emperor``: plays the Emperor's turn (if
    alive), the Queen's and the end of the round; returns the Queen's gold gained in her turn
    and at the end of the round."""
    st, tb = setup(ruleset, players, "builder", chars)
    st.g[L.G_CROWN] = crown
    h.set_holders(st, {R9: queen, K: emperor})
    if killed is not None:
        h.kill(st, killed)
    for s in range(players):
        h.set_hand(st, s, ["Dragon Gate"])
    if killed != K:
        play(st, tb, K, emperor)
    g0 = h.gold(st, queen)
    in_turn = 0
    if killed != R9:
        evs = play(st, tb, R9, queen)
        in_turn = sum(e.a for e in h.of_type(evs, "queen"))
        gathered = sum(e.a for e in h.of_type(evs, "gather_gold"))
        assert h.gold(st, queen) - g0 == in_turn + gathered
    g1 = h.gold(st, queen)
    h.clear_log(st)
    game._end_round(st, tb)
    at_end = h.gold(st, queen) - g1
    assert sum(e.a for e in h.of_type(h.events(st), "queen")) == at_end
    return in_turn, at_end


@pytest.mark.parametrize("ruleset,chars", [("classic", C_EMPEROR_QUEEN),
                                           ("2016", P_EMPEROR_QUEEN)])
def test_rule_112_queen_next_to_the_emperor(ruleset, chars):
    """112. The Queen gains +3 if an adjacent seat revealed rank 4; for a killed adjacent
    rank 4 she gains +3 at the end of the round; a killed Queen gains nothing.
    (C: a seat next to the Emperor's holder counts, and a killed Emperor too, D15.)"""
    # the revealed Emperor next to her, wherever he sends the crown
    assert _queen(ruleset, chars, 2, 1) == (3, 0)
    assert _queen(ruleset, chars, 2, 3, crown=3) == (3, 0)
    assert _queen(ruleset, chars, 0, 4) == (3, 0)
    # not next to her: nothing, even if the crown lands next to her
    assert _queen(ruleset, chars, 2, 4, crown=4) == (0, 0)
    assert _queen(ruleset, chars, 2, 0) == (0, 0)
    # the killed Emperor next to her: +3 at the end of the round (D15 in classic)
    assert _queen(ruleset, chars, 2, 1, killed=K) == (0, 3)
    assert _queen(ruleset, chars, 2, 4, killed=K) == (0, 0)
    # the killed Queen: nothing
    assert _queen(ruleset, chars, 2, 1, killed=R9) == (0, 0)


# =============================================================================================
# Rank 8: Marshal
# =============================================================================================
def _seize_targets(st0, tb, seat, tries=60):
    """(target seat, district kind) seized by a random-family Marshal over many seeds."""
    out = Counter()
    for seed in range(tries):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        characters.end_of_turn(st, tb, L.CH_MARSHAL, seat, W)
        for e in h.of_type(h.events(st), "seize"):
            out[(e.a, e.b)] += 1
            assert e.c == rules.marshal_cost(st0, tb, e.a, h.city_list(st0, e.a).index(e.b))
            assert h.gold(st, seat) == h.gold(st0, seat) - e.c
            assert h.gold(st, e.a) == h.gold(st0, e.a) + e.c
            assert e.b in h.city_list(st, seat) and h.kinds_consistent(st)
            assert gold_conserved(st)
    return out


def _marshal(players=4, families="random"):
    st, tb = setup("2016", players, families, P_MARSHAL)
    assert tb.cfg[L.G_RANK_CHAR + W] == L.CH_MARSHAL
    h.set_holders(st, {W: 0})
    h.set_gold(st, 0, 100)
    return st, tb


def test_rule_111_marshal_seize():
    """111. The Marshal seizes cost ≤ 3 (after the Artist's +1) and pays the owner the cost;
    not from a complete city; not a name he already has."""
    st, tb = _marshal()
    h.set_city(st, 0, ["Tavern", "Prison"])
    h.set_city(st, 1, ["Manor", "Castle", "Tavern", "Temple", "Cathedral"])
    h.set_city(st, 2, ["Market", "Palace"])
    hits = _seize_targets(st, tb, 0)
    assert set(hits) == {(1, h.kind("Manor")), (1, h.kind("Temple")), (2, h.kind("Market"))}
    # cost <= 3, whatever the district (the Keep aside: rule 106)
    for k in range(L.N_KINDS):
        if k in (L.D_KEEP, L.D_GREAT_WALL):
            continue
        h.set_city(st, 1, [k])
        h.clear_city(st, 0)
        assert rules.seizable(st, tb, 0, 1, 0) == (tb.kinds[L.K_COST, k] <= 3), h.key(k)
        assert rules.marshal_cost(st, tb, 1, 0) == tb.kinds[L.K_COST, k]
    # a name he already has, even with a Quarry
    h.set_city(st, 0, ["Quarry", "Manor"])
    h.set_city(st, 1, ["Manor"])
    assert not rules.seizable(st, tb, 0, 1, 0)
    # never from himself
    assert not rules.seizable(st, tb, 0, 0, 1)
    # a forced seizure: pays its owner its cost, the district changes city
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 3)
    h.set_city(st, 1, ["Manor", "Palace"])
    out0, in0 = int(st.g[L.G_BANK_OUT]), int(st.g[L.G_BANK_IN])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_MARSHAL, 0, W)
    (e,) = h.of_type(h.events(st), "seize")
    assert (e.seat, e.a, e.b, e.c) == (0, 1, h.kind("Manor"), 3)
    assert h.gold(st, 0) == 0 and h.gold(st, 1) == 3
    assert h.city_list(st, 0) == [h.kind("Manor")] and h.city_list(st, 1) == [h.kind("Palace")]
    assert (int(st.g[L.G_BANK_OUT]), int(st.g[L.G_BANK_IN])) == (out0, in0)
    assert h.kinds_consistent(st) and st.p[0, L.P_TYPES + L.T_NOBLE] == 1
    # no credit: 2 gold cannot seize a cost-3 district
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 2)
    h.set_city(st, 1, ["Manor"])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_MARSHAL, 0, W)
    assert not h.of_type(h.events(st), "seize") and h.city_list(st, 1) == [h.kind("Manor")]
    # in a played turn (2016: any time; the kernel seizes at the end)
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 1)
    h.set_hand(st, 0, ["Dragon Gate"])
    h.set_city(st, 1, ["Market"])
    evs = play(st, tb, W, 0)
    assert h.of_type(evs, "seize") and h.city_list(st, 0) == [h.kind("Market")]
    assert h.gold(st, 1) == 2


def test_rule_089_bishop_protects_against_the_marshal():
    """89. The protected Bishop's districts cannot be destroyed by the Warlord (C, P, F),
    exchanged by the Diplomat (C, P) or seized by the Marshal (P)."""
    st, tb = _marshal()
    h.set_holders(st, {W: 0, B: 1})
    h.set_city(st, 1, ["Temple", "Manor"])
    h.set_city(st, 2, ["Tavern", "Market"])
    assert not rules.seizable(st, tb, 0, 1, 0) and not rules.seizable(st, tb, 0, 1, 1)
    hits = _seize_targets(st, tb, 0)
    assert hits and {s for s, _ in hits} == {2}
    # the killed Bishop protects nothing
    h.kill(st, B)
    hits = _seize_targets(st, tb, 0)
    assert {s for s, _ in hits} == {1, 2}


def test_rule_104_no_seizing_from_a_complete_city():
    """104. No district in a complete city can be destroyed, exchanged away by another player,
    or seized."""
    st, tb = _marshal()
    n = int(st.g[L.G_N_COMPLETE])
    city = ["Manor", "Tavern", "Temple", "Market", "Prison", "Watchtower", "Church",
            "Docks"][:n]
    h.set_city(st, 1, city)
    assert rules.is_complete(st, 1)
    assert not any(rules.seizable(st, tb, 0, 1, i) for i in range(n))
    assert _seize_targets(st, tb, 0) == Counter()
    # one district fewer: every one is seizable
    h.set_city(st, 1, city[:-1])
    assert all(rules.seizable(st, tb, 0, 1, i) for i in range(n - 1))
    assert len(_seize_targets(st, tb, 0)) > 1


def test_rule_106_keep_cannot_be_seized():
    """106. The Keep cannot be destroyed by the Warlord; P: the rank-8 character cannot
    affect it at all; C: the Diplomat cannot exchange it."""
    st, tb = _marshal()
    assert tb.kinds[L.K_COST, L.D_KEEP] <= 3  # cheap enough: only its own rule protects it
    h.set_city(st, 1, ["Keep", "Temple"])
    assert not rules.seizable(st, tb, 0, 1, 0) and rules.seizable(st, tb, 0, 1, 1)
    hits = _seize_targets(st, tb, 0)
    assert set(hits) == {(1, h.kind("Temple"))}


def test_rule_107_great_wall_and_the_marshal():
    """107. Great Wall: C, the Warlord pays +1 for the owner's other districts; P, the rank-8
    character pays +1 for any district in that city (the Marshal pays it to the owner, D20)."""
    st, tb = _marshal(families="builder")
    h.set_city(st, 1, ["Great Wall", "Manor", "Tavern"])
    assert [rules.marshal_cost(st, tb, 1, i) for i in range(3)] == [7, 4, 2]
    assert not rules.seizable(st, tb, 0, 1, 0)  # the Great Wall itself costs 6
    # a Great Wall in the Marshal's own city changes nothing
    h.set_city(st, 0, ["Great Wall"])
    h.set_city(st, 2, ["Manor"])
    assert rules.marshal_cost(st, tb, 2, 0) == 3
    # the forced seizure: the owner receives cost + 1
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 4)
    h.set_city(st, 1, ["Great Wall", "Manor"])
    out0, in0 = int(st.g[L.G_BANK_OUT]), int(st.g[L.G_BANK_IN])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_MARSHAL, 0, W)
    (e,) = h.of_type(h.events(st), "seize")
    assert (e.a, e.b, e.c) == (1, h.kind("Manor"), 4)
    assert h.gold(st, 0) == 0 and h.gold(st, 1) == 4
    assert (int(st.g[L.G_BANK_OUT]), int(st.g[L.G_BANK_IN])) == (out0, in0)
    # 3 gold is not enough there
    st, tb = _marshal(families="builder")
    h.set_gold(st, 0, 3)
    h.set_city(st, 1, ["Great Wall", "Manor"])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_MARSHAL, 0, W)
    assert not h.of_type(h.events(st), "seize")


# =============================================================================================
# Whole games
# =============================================================================================
GAME_CONFIGS = [
    ("classic", 4, cset("classic", "Tax Collector", "Emperor", "Alchemist")),
    ("classic", 5, cset("classic", "Tax Collector", "Emperor", "Queen")),
    ("classic", 3, cset("classic", "Tax Collector", "Emperor")),
    ("2016", 4, cset("2016", "Spy", "Emperor", "Marshal")),
    ("2016", 5, cset("2016", "Spy", "Emperor", "Marshal", "Queen")),
    ("2016", 3, cset("2016", "Spy", "Emperor", "Marshal", "Tax Collector")),
]
GAMES = 6


def _games(ruleset, players, chars):
    return h.played_games(ruleset, players, chars, 4242, GAMES)


@pytest.mark.parametrize("ruleset,players,chars", GAME_CONFIGS)
def test_roster2_games_conserve_and_follow_powers(ruleset, players, chars):
    """Whole games with the Emperor, Spy, Marshal and classic Tax Collector: cards and gold
    are conserved; every crown move, tribute, spy look, seizure and classic tax is what the
    rules give (rules 67, 72-74, 83-86, 89, 104, 106, 107, 111)."""
    n_complete = None
    counts = Counter()
    for evs, st, tb in _games(ruleset, players, tuple(chars)):
        n_complete = int(tb.cfg[L.G_N_COMPLETE])
        assert st.g[L.G_OVER] == 1
        assert h.total_cards(st) == tb.kinds[L.K_COUNT].sum()
        assert gold_conserved(st) and h.kinds_consistent(st)
        assert (st.p[:players, L.P_GOLD] >= 0).all()
        for es in h.rounds(evs).values():
            picks = {e.a: e.seat for e in es if e.type == "pick"}
            killed = [e.a for e in es if e.type == "kill"]
            killed = killed[0] if killed else -1
            tc = picks.get(T, -1) if tb.cfg[L.G_RANK_CHAR + T] == L.CH_TAX_COLLECTOR_CLASSIC \
                else -1
            bishop = picks.get(B, -1) if killed != B else -1
            built = Counter()  # builds per call (index of the call event)
            call = None
            for i, e in enumerate(es):
                prev = es[i - 1] if i else None
                if e.type == "call":
                    call = e
                elif e.type == "build":
                    built[id(call)] += 1
                elif e.type == "crown_given":
                    counts["crown_given"] += 1
                    crown_ev = prev
                    assert crown_ev.type == "crown" and crown_ev.seat == e.a
                    assert e.a != e.seat and (e.a != crown_ev.a or crown_ev.a == e.seat)
                    assert picks.get(K) == e.seat
                    before = es[i - 2]  # the state before the crown moved
                    had = before.gold[e.a] > 0 or before.hand_n[e.a] > 0
                    heir = any(x.type == "heir" for x in es[max(0, i - 3):i])
                    if heir and ruleset == "2016":
                        assert (e.b, e.c) == (0, -1)
                    else:
                        assert not heir  # the classic killed Emperor moves nothing
                        assert (e.b == 1) + (e.c >= 0) == (1 if had else 0)
                        assert e.gold[e.a] == before.gold[e.a] - e.b
                elif e.type == "spy":
                    counts["spy"] += 1
                    assert e.d == min(e.c, prev.gold[e.a])
                    assert e.gold[e.a] == prev.gold[e.a] - e.d
                    assert e.hand_n[e.seat] - prev.hand_n[e.seat] == e.c or e.deck_n == 0
                elif e.type == "seize":
                    counts["seize"] += 1
                    target_city = h.city_at(prev, e.a)
                    own = h.city_at(prev, e.seat)
                    wall = L.D_GREAT_WALL in target_city
                    assert e.a != e.seat and e.b in target_city and e.b not in own
                    assert e.b != L.D_KEEP and tb.kinds[L.K_COST, e.b] <= 3
                    assert len(target_city) + (L.D_MONUMENT in target_city) < n_complete
                    assert e.a != bishop
                    assert e.c == tb.kinds[L.K_COST, e.b] + (1 if wall else 0)
                    assert e.gold[e.a] == prev.gold[e.a] + e.c
                elif e.type == "classic_tax":
                    counts["classic_tax"] += 1
                    assert tc >= 0 and killed != T and e.a == tc and e.seat != tc
                    assert e.b == 1 and e.gold[e.seat] == prev.gold[e.seat] - 1
                    if call.rank == T:  # retroactive: the rank-1 holder built
                        assert e.seat == picks.get(A)
                    else:
                        assert call.seat == e.seat and built[id(call)] >= 1 and call.rank > T
            # every turn after the Tax Collector's, by another seat, with a build: the tax is
            # paid exactly when he has gold at the end of the turn (before Poor House, Park
            # and the refund)
            if tc >= 0 and killed != T:
                for t in h.turns(es):
                    if t[0].rank <= T or t[0].seat == tc or not h.of_type(t, "build"):
                        continue
                    body = [x for x in t if x.type not in ("poor_house", "park", "refund")]
                    paid = h.of_type(t, "classic_tax")
                    assert len(paid) <= 1
                    if paid:
                        assert body[-1] is paid[0]
                        assert body[-2].gold[t[0].seat] >= 1
                    else:
                        assert body[-1].gold[t[0].seat] == 0
                    counts["taxed turns"] += 1
    if ruleset == "2016":
        assert counts["crown_given"] > 0 and counts["spy"] > 0 and counts["seize"] > 0
    else:
        assert counts["crown_given"] > 0 and counts["classic_tax"] > 0
        assert counts["taxed turns"] > 0
