"""The Diplomat (docs/rules.md §3 Rank 8; checklist rules 4, 89, 104, 106-110): not with the
classic Graveyard, the price of an exchange, his own complete city, no duplicates, the Keep,
the Bishop and the Great Wall; an exchange keeps who completed first, and the Monument given
away really changes a city's size (D25).
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    B, W, cost, cset, empty_state as setup, gold_conserved, golds, play_turn_events as play,
    types_in,
)
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.kernel import characters, game, layout as L, rules, scoring


SEEDS = 60


def diplomat_kw(ruleset):
    """Classic: the Diplomat needs the Graveyard out of the deck (docs/rules.md §4.5)."""
    return {"removed": ("Graveyard",)} if ruleset == "classic" else {}


def diplomat_setup(ruleset, players=4, families="random", bishop=None):
    st, tb = setup(ruleset, players, families, cset(ruleset, "Diplomat"), **diplomat_kw(ruleset))
    assert tb.cfg[L.G_RANK_CHAR + W] == L.CH_DIPLOMAT
    holders = {W: 0}
    if bishop is not None:
        holders[B] = bishop
    h.set_holders(st, holders)
    return st, tb


def exchanges(st0, tb, seat=0, tries=SEEDS):
    """{(target, gave, got, paid): count} and the states after a Diplomat's end of turn,
    over many seeds (the random family also has "no exchange" among its options)."""
    out = Counter()
    for seed in range(tries):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        characters.end_of_turn(st, tb, L.CH_DIPLOMAT, seat, W)
        evs = h.of_type(h.events(st), "exchange")
        assert len(evs) <= 1
        if evs:
            e = evs[0]
            out[(e.a, e.b, e.c, e.d)] += 1
            # the swap happened as logged, and the gold went to the other player
            assert h.gold(st, seat) == h.gold(st0, seat) - e.d
            assert h.gold(st, e.a) == h.gold(st0, e.a) + e.d
            assert Counter(h.city_list(st, seat)) == (
                Counter(h.city_list(st0, seat)) - Counter([e.b]) + Counter([e.c]))
            assert Counter(h.city_list(st, e.a)) == (
                Counter(h.city_list(st0, e.a)) - Counter([e.c]) + Counter([e.b]))
            assert h.kinds_consistent(st) and gold_conserved(st)
            for s in range(h.n_players(st)):  # never two districts of one name (rule 110)
                assert max(Counter(h.city_list(st, s)).values(), default=0) <= 1
        else:
            assert golds(st) == golds(st0)
    return out


def swaps(out):
    """{(target, gave name key, got name key): paid} from ``exchanges``."""
    return {(t, h.key(a), h.key(b)): paid for (t, a, b, paid) in out}


SEVEN = ["Manor", "Castle", "Palace", "Temple", "Church", "Monastery", "Cathedral"]
SEVEN_B = ["Tavern", "Market", "Docks", "Harbor", "Town Hall", "Watchtower", "Prison"]


def two_player_diplomat_setup(ruleset):
    kw = {"removed": ("Graveyard",)} if ruleset == "classic" else {}
    st, tb = setup(ruleset, 2, "random", cset(ruleset, "Diplomat"), **kw)
    assert tb.cfg[L.G_RANK_CHAR + W] == L.CH_DIPLOMAT
    h.set_holders(st, {W: 0})
    return st, tb


def test_rule_004_diplomat_rejected_with_graveyard():
    """4. C: a set containing the Diplomat is rejected while the Graveyard is in the deck."""
    chars = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
             "Diplomat"]
    with pytest.raises(ConfigError, match="Diplomat"):
        GameConfig(ruleset="classic", players=4, characters=chars)


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_108_diplomat_pays_positive_difference(ruleset):
    """108. The Diplomat pays the positive cost difference to the other player; he receives
    nothing when it is negative."""
    st, tb = diplomat_setup(ruleset)
    h.set_city(st, 0, ["Tavern", "Castle"])  # 1, 4
    h.set_city(st, 1, ["Palace"])  # 5
    h.set_city(st, 2, ["Temple"])  # 1
    h.set_gold(st, 0, 10)
    h.set_gold(st, 1, 1)
    h.set_gold(st, 2, 1)
    out = exchanges(st, tb, tries=120)
    assert swaps(out) == {
        (1, "tavern", "palace"): 4,
        (1, "castle", "palace"): 1,
        (2, "tavern", "temple"): 0,  # equal costs: free
        (2, "castle", "temple"): 0,  # he gives more than he takes: receives nothing
    }
    # the cost function itself, both ways round
    assert rules.exchange_cost(st, tb, 0, 1, 2, 0) == 0  # Castle for Temple
    assert rules.exchange_cost(st, tb, 0, 0, 1, 0) == 4  # Tavern for Palace
    # he cannot pay: only the swaps he can afford are offered
    h.set_gold(st, 0, 1)
    assert set(swaps(exchanges(st, tb, tries=120))) == {
        (1, "castle", "palace"), (2, "tavern", "temple"), (2, "castle", "temple")}
    h.set_gold(st, 0, 0)
    assert set(swaps(exchanges(st, tb, tries=120))) == {
        (2, "tavern", "temple"), (2, "castle", "temple")}
    # a played turn (builder: swaps only with the leader for the cheaper district)
    st, tb = diplomat_setup(ruleset, families="builder")
    h.set_city(st, 0, ["Tavern"])
    h.set_city(st, 1, ["Palace", "Manor"])  # the leader
    h.set_deck(st, [])
    h.set_gold(st, 0, 5)
    evs = play(st, tb, W, 0)
    (e,) = h.of_type(evs, "exchange")
    assert e.a == 1 and h.key(e.b) == "tavern" and e.d == cost(tb, h.key(e.c)) - 1
    assert types_in(evs)[-1] == "exchange"  # at the end of the turn
    assert h.gold(st, 0) == 5 + 2 - e.d and h.gold(st, 1) == e.d and gold_conserved(st)


def _complete(n):
    names = ["Manor", "Castle", "Palace", "Temple", "Church", "Monastery", "Cathedral",
             "Market", "Docks"]
    return names[:n]


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_109_diplomat_own_complete_city(ruleset):
    """109. P Diplomat: he may give from his own complete city. C Diplomat: he may not."""
    st, tb = diplomat_setup(ruleset)
    n = int(st.g[L.G_N_COMPLETE])
    h.set_city(st, 0, _complete(n))
    h.set_city(st, 1, ["Fortress"])
    h.set_gold(st, 0, 10)
    assert rules.is_complete(st, 0)
    out = swaps(exchanges(st, tb))
    legal = {(0, i, 1, 0) for i in range(n)
             if rules.exchangeable(st, tb, 0, i, 1, 0)}
    if ruleset == "2016":
        assert len(legal) == n
        assert out and all(t == 1 and got == "fortress" for (t, _, got) in out)
        assert len(out) >= 3
    else:
        assert not legal and not out
    # nobody takes from a complete city, in either ruleset
    st, tb = diplomat_setup(ruleset)
    h.set_city(st, 0, ["Tavern"])
    h.set_city(st, 1, _complete(n))
    h.set_gold(st, 0, 20)
    assert not any(rules.exchangeable(st, tb, 0, 0, 1, j) for j in range(n))
    assert not exchanges(st, tb)


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_110_no_exchange_leaving_duplicates(ruleset):
    """110. A Diplomat exchange never leaves two same-named districts in one city."""
    st, tb = diplomat_setup(ruleset)
    quarry = ["Quarry"] if ruleset == "2016" else []  # the Quarry does not help
    h.set_city(st, 0, ["Manor", "Tavern"] + quarry)
    h.set_city(st, 1, ["Manor", "Castle"] + quarry)
    h.set_gold(st, 0, 20)
    out = swaps(exchanges(st, tb, tries=150))
    # Tavern for Manor: two Manors with him; Manor for Castle: two Manors with seat 1;
    # Quarry for anything: two Quarries in the other city (2016)
    assert (1, "tavern", "manor") not in out and (1, "manor", "castle") not in out
    assert not any("quarry" in (a, b) and a != b for (_, a, b) in out)
    assert (1, "tavern", "castle") in out
    # swapping two districts of one name leaves no duplicate: allowed
    assert set(out) <= {(1, "tavern", "castle"), (1, "manor", "manor"),
                        (1, "quarry", "quarry")}


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_106_diplomat_never_exchanges_the_keep(ruleset):
    """106. The Keep cannot be destroyed by the Warlord; P: the rank-8 character cannot affect
    it at all; C: the Diplomat cannot exchange it."""
    st, tb = diplomat_setup(ruleset)
    h.set_city(st, 0, ["Keep", "Tavern"])
    h.set_city(st, 1, ["Manor"])
    h.set_city(st, 2, ["Keep"])
    h.set_gold(st, 0, 20)
    assert not rules.exchangeable(st, tb, 0, 0, 1, 0)  # his Keep
    assert not rules.exchangeable(st, tb, 0, 1, 2, 0)  # the other player's Keep
    assert rules.exchangeable(st, tb, 0, 1, 1, 0)
    out = swaps(exchanges(st, tb))
    assert set(out) == {(1, "tavern", "manor")}


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_089_diplomat_and_protected_bishop(ruleset):
    """89. The protected Bishop's districts cannot be destroyed by the Warlord (C, P, F),
    exchanged by the Diplomat (C, P) or seized by the Marshal (P)."""
    st, tb = diplomat_setup(ruleset, bishop=1)
    h.set_city(st, 0, ["Tavern"])
    h.set_city(st, 1, ["Temple", "Manor"])
    h.set_city(st, 2, ["Market", "Castle"])
    h.set_gold(st, 0, 20)
    out = swaps(exchanges(st, tb, tries=100))
    assert out and all(t == 2 for (t, _, _) in out)
    assert {b for (_, _, b) in out} == {"market", "castle"}
    # a killed Bishop protects nothing
    h.kill(st, B)
    out = swaps(exchanges(st, tb, tries=100))
    assert {t for (t, _, _) in out} == {1, 2}
    # 3 players: the Diplomat who is also the Bishop may not give his own districts (D8)
    extra = ("Tax Collector",) if ruleset == "2016" else ()  # 3 players in 2016: a rank 9
    st, tb = setup(ruleset, 3, "random", cset(ruleset, "Diplomat", *extra),
                   **diplomat_kw(ruleset))
    h.set_holders(st, {W: 0, B: 0})
    h.set_city(st, 0, ["Tavern"])
    h.set_city(st, 1, ["Manor"])
    h.set_gold(st, 0, 20)
    assert not rules.exchangeable(st, tb, 0, 0, 1, 0)
    assert not exchanges(st, tb)


def test_rule_107_great_wall_diplomat_2016():
    """107 (D20). Great Wall: C, the Warlord pays +1 for the owner's other districts; P, the
    rank-8 character pays +1 for any district in that city -- the 2016 Diplomat pays the
    other player 1 more, even with no cost difference; a Great Wall in his own city does not
    apply, and the classic Diplomat ignores it."""
    st, tb = diplomat_setup("2016")
    h.set_city(st, 0, ["Castle", "Tavern"])  # 4, 1
    h.set_city(st, 1, ["Great Wall", "Manor"])  # 6, 3
    h.set_gold(st, 0, 20)
    out = swaps(exchanges(st, tb, tries=150))
    assert out == {
        (1, "castle", "manor"): 0 + 1,  # negative difference: only the +1
        (1, "tavern", "manor"): 2 + 1,
        (1, "castle", "great_wall"): 2 + 1,
        (1, "tavern", "great_wall"): 5 + 1,
    }
    # with exactly 1 gold, only the swap that costs nothing but the wall
    h.set_gold(st, 0, 1)
    assert swaps(exchanges(st, tb)) == {(1, "castle", "manor"): 1}
    # a Great Wall in his own city: no extra
    st, tb = diplomat_setup("2016")
    h.set_city(st, 0, ["Great Wall", "Castle"])
    h.set_city(st, 1, ["Temple"])
    h.set_gold(st, 0, 20)
    assert swaps(exchanges(st, tb, tries=100)) == {(1, "great_wall", "temple"): 0,
                                                   (1, "castle", "temple"): 0}
    # classic: the Great Wall names only the Warlord
    st, tb = diplomat_setup("classic")
    h.set_city(st, 0, ["Castle"])
    h.set_city(st, 1, ["Great Wall", "Manor"])
    h.set_gold(st, 0, 20)
    assert swaps(exchanges(st, tb, tries=100)) == {(1, "castle", "manor"): 0,
                                                   (1, "castle", "great_wall"): 2}


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_diplomat_exchange_keeps_who_completed_first(ruleset):
    """D25 / §5.1: the moment a city last rose to 7 (or 8) is reset only when the city
    drops below that size.  An exchange swaps one district for one, so it never changes
    it: with two cities of 7 (N = 8, so both open to the Diplomat), seat 1 reached 7 first
    and, once a Bell Tower brings N to 7 (classic), is the first
    completer whatever the two players swap."""
    st0, tb = two_player_diplomat_setup(ruleset)
    h.set_city(st0, 1, SEVEN_B)  # seat 1 reaches 7 first ...
    h.set_city(st0, 0, SEVEN)  # ... then seat 0
    h.set_gold(st0, 0, 20)
    assert int(st0.g[L.G_N_COMPLETE]) == 8
    before = [int(st0.p[s, L.P_AT_BELL]) for s in range(2)]
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
        assert [int(st.p[s, L.P_AT_BELL]) for s in range(2)] == before
        assert [int(st.p[s, L.P_CITY_N]) for s in range(2)] == [7, 7]
        st.g[L.G_N_COMPLETE], st.g[L.G_BELL] = 7, 1  # as an announced Bell Tower does
        assert game._first_completer(st) == 1
        assert h.kinds_consistent(st) and h.gold_conserved(st)
    assert exchanged >= 10


def test_monument_exchange_is_a_real_change_of_size():
    """2016: the Monument counts as 2 districts; a city that gives it away really drops in
    size, and the moment it reached that size is forgotten (D25), while a city that keeps
    its size keeps its moment."""
    st, tb = two_player_diplomat_setup("2016")
    h.set_city(st, 1, SEVEN_B[:5] + ["Monument"])  # size 7 (Monument counts 2)
    h.set_city(st, 0, SEVEN)
    assert int(st.p[1, L.P_AT_BELL]) >= 0
    at0 = int(st.p[0, L.P_AT_BELL])
    from citadels_sim.kernel import state
    state.city_swap(st, tb, 0, 0, 1, 5)  # seat 0's Manor for seat 1's Monument
    assert int(st.p[1, L.P_AT_BELL]) == -1  # seat 1 is down to 6
    assert int(st.p[0, L.P_AT_BELL]) == at0  # seat 0 went from 7 to 8: still at 7 since then
    assert int(st.p[0, L.P_AT_FULL]) >= 0
    assert h.kinds_consistent(st)


def _haunted_exchange(rnd, leader_city):
    """Seat 0, the classic Diplomat (builder bot) in round ``rnd``, builds the Haunted City
    and then exchanges it into seat 1's city; the game is then scored as ending in round 6.
    Returns the state and the exchange event."""
    st, tb = diplomat_setup("classic", families="builder")
    st.g[L.G_ROUND] = rnd
    h.set_city(st, 1, leader_city, rnd=2)
    h.set_hand(st, 0, ["Haunted City"])
    h.set_deck(st, [])
    h.set_gold(st, 0, 6)
    evs = play(st, tb, W, 0)
    (built,) = h.of_type(evs, "build")
    assert h.key(built.a) == "haunted"
    (e,) = h.of_type(evs, "exchange")
    assert e.a == 1 and h.key(e.b) == "haunted"
    st.g[L.G_ROUND] = 6
    scoring.score_game(st, tb)
    return st, e


#: the leader lacks a noble district and has a purple one: a Haunted City that may count as
#: any colour completes his five colours (+3); one that counts as purple adds none
NO_NOBLE = ["Library", "Temple", "Market", "Docks", "Watchtower"]


@pytest.mark.parametrize("rnd", [6, 4], ids=["built_in_the_final_round", "built_earlier"])
def test_haunted_city_received_by_exchange_keeps_its_colour_choice(rnd):
    """Issue 22, D44: the classic Haunted City loses its colour choice only for the player who
    built it in the last round; received by the Diplomat's exchange (in the last round or
    before), it counts as any colour for its new owner."""
    st, e = _haunted_exchange(rnd, NO_NOBLE)
    assert h.key(e.c) == "market" and e.d == 0  # the equally cheap Market, for nothing
    assert sorted(h.key(k) for k in h.city_list(st, 1)) == [
        "docks", "haunted", "library", "temple", "watchtower"]
    assert st.p[1, L.P_COLOURS] == 3  # the Haunted City counts as noble


def test_haunted_city_built_in_the_final_round_and_kept_counts_as_purple():
    """Issue 22, D44: built in the last round and kept, the Haunted City has no colour choice
    (the Diplomat finds no exchange: no other city has a district)."""
    st, tb = diplomat_setup("classic", families="builder")
    st.g[L.G_ROUND] = 6
    h.set_city(st, 0, ["Manor", "Temple", "Market", "Library"], rnd=2)  # no military
    h.set_hand(st, 0, ["Haunted City"])
    h.set_deck(st, [])
    h.set_gold(st, 0, 6)
    evs = play(st, tb, W, 0)
    assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["haunted"]
    assert not h.of_type(evs, "exchange")
    scoring.score_game(st, tb)
    assert st.p[0, L.P_COLOURS] == 0
    st.g[L.G_ROUND] = 7  # the same city when the game ends a round later: any colour
    scoring.score_game(st, tb)
    assert st.p[0, L.P_COLOURS] == 3
