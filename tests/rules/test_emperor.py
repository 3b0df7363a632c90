"""The Emperor (docs/rules.md §3 Rank 4; checklist rules 8, 83-86): not with 2 players, the crown
given to another player, the classic tribute chosen by the new holder, the 2016 Emperor's
gold or card, and the killed Emperor.  The Queen next to the Emperor is in
``test_queen.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    A, K, cset, empty_state as setup, gold_conserved, golds, play_turn_events as play, types_in,
)
from citadels_sim.game import cards
from citadels_sim.game.config import ConfigError, GameConfig, named_set_characters
from citadels_sim.kernel import characters, game, layout as L


C_EMPEROR = cset("classic", "Emperor")
P_EMPEROR = cset("2016", "Emperor")


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


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_008_emperor_not_with_2_players(ruleset):
    """8. The Emperor is rejected with 2 players (C, P)."""
    chars = ["Assassin", "Thief", "Magician", "Emperor", "Bishop", "Merchant", "Architect",
             "Warlord"]
    with pytest.raises(ConfigError, match="Emperor"):
        GameConfig(ruleset=ruleset, players=2, characters=chars)


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
    named_set = cards.named_sets()["cunning_agents"]
    assert "Emperor" in named_set.characters
    two = named_set_characters(named_set, 2)
    assert "Emperor" not in two and "King" in two
    assert "Emperor" in named_set_characters(named_set, 4)


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
