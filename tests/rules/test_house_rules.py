"""House rules (issue 20, docs/house_rules.md): every rule number a designer may change is
read by the kernel from its tables; the published values are the defaults (the golden games
pin them byte for byte); each changed value acts where the rules say, in exact situations;
every one plays whole games with cards and gold conserved; bad values are refused in one line.
"""

from __future__ import annotations

import numpy as np
import pytest

import kernel_helpers as h
from kernel_helpers import (
    AR, K, ME, R9, T, cset, empty_state as setup, play_turn_events as play,
)
from citadels_sim.game import cards, house_rules
from citadels_sim.game.config import BASE_CHARACTERS as BASE, ConfigError, GameConfig
from citadels_sim.kernel import districts, layout as L, rules, scoring, state as S

#: the published numbers, written out here from docs/rules.md independently of house_rules
PUBLISHED = {"start_gold": 2, "start_cards": 4, "gather_gold": 2, "gather_draw": 2,
             "gather_keep": 1, "first_bonus": 4, "complete_bonus": 2, "colour_bonus": 3,
             "merchant_gold": 1, "architect_cards": 2, "architect_builds": 3,
             "thief_share": 100, "warlord_discount": 1, "navigator_gain": 4, "queen_gold": 3,
             "scholar_draw": 7, "scholar_builds": 2, "seer_builds": 2, "artist_beautify": 2,
             "bribe_share": 50, "marshal_max": 3, "tax": 1, "abbot_tribute": 1}
#: the complete-city size N by (ruleset, players, quick), docs/rules.md §1.2
PUBLISHED_N = {("classic", 4, False): 8, ("classic", 4, True): 7, ("2016", 2, False): 8,
               ("2016", 3, False): 8, ("2016", 4, False): 7, ("2016", 8, False): 7,
               ("four_color", 4, False): 8}


def _slot(name):
    return house_rules.PARAMETERS[name].slot


@pytest.mark.parametrize("ruleset,players,quick", list(PUBLISHED_N))
def test_published_numbers_are_the_defaults(ruleset, players, quick):
    rank9 = ruleset == "2016" and players in (3, 8)
    chars = list(BASE) + ["Artist"] if rank9 else None
    config = GameConfig(ruleset=ruleset, players=players, quick=quick, characters=chars)
    cfg = config.tables()["cfg"]
    for name, value in PUBLISHED.items():
        assert cfg[_slot(name)] == value, name
    assert cfg[_slot("complete_size")] == cfg[L.G_N_COMPLETE] == PUBLISHED_N[
        (ruleset, players, quick)]
    for name, p in house_rules.PARAMETERS.items():
        if name.endswith("_income"):
            assert cfg[p.slot] == 1, name
    # a house rule at its published value is no house rule: the same game, the same record
    same = GameConfig(ruleset=ruleset, players=players, quick=quick,
                      characters=config.characters,
                      rules={"start_gold": 2, "first_bonus": 4})
    assert same == config and same.rules == () and "rules" not in same.to_dict()


def test_every_parameter_has_its_own_slot_in_the_configuration():
    slots = [p.slot for p in house_rules.PARAMETERS.values()]
    assert len(set(slots)) == len(slots)
    assert all(L.G_START_GOLD <= s < L.G_CFG_LEN for s in slots)
    incomes = {c.name for rs in cards.RULESETS for c in cards.characters(rs) if c.income_type}
    assert {n.removesuffix("_income") for n in house_rules.PARAMETERS
            if n.endswith("_income")} == {cards.key_of(c) for c in incomes}


def test_start_gold_and_cards():
    tb, _ = h.make_tables("classic", 5, rules={"start_gold": 5, "start_cards": 6})
    st = S.new_state(tb, 3, 0, False)
    for s in range(5):
        assert st.p[s, L.P_GOLD] == 5 and st.p[s, L.P_HAND_N] == 6
    assert st.g[L.G_DECK_N] == tb.kinds[L.K_COUNT].sum() - 30
    assert h.gold_conserved(st)


def test_gather_gold_draw_and_keep():
    st, tb = setup("classic", 4, "builder", rules={"gather_gold": 3})
    h.set_hand(st, 0, ["Palace"])  # a useful card: the builder takes gold
    districts.gather(st, tb, 0, K)
    assert h.gold(st, 0) == 3
    # draw 3, keep 2: the two kept stay in hand in the order drawn, the third goes under
    st, tb = setup("classic", 4, "builder", rules={"gather_draw": 3, "gather_keep": 2})
    h.set_deck(st, ["Palace", "Temple", "Manor", "Castle", "Tavern"])
    districts.gather(st, tb, 0, K)
    hand = h.hand_list(st, 0)
    assert len(hand) == 2 and set(hand) < set(h.kinds(["Palace", "Temple", "Manor"]))
    (returned,) = set(h.kinds(["Palace", "Temple", "Manor"])) - set(hand)
    assert h.deck_list(st) == h.kinds(["Castle", "Tavern"]) + [returned]
    assert h.kinds_consistent(st)


def test_complete_size_and_end_bonuses():
    rule = {"complete_size": 5, "first_bonus": 6, "complete_bonus": 1, "colour_bonus": 5}
    st, tb = setup("classic", 4, "builder", rules=rule)
    h.set_city(st, 0, ["Manor", "Temple", "Tavern", "Watchtower", "Keep"])  # 5 types
    h.set_city(st, 1, ["Manor", "Castle", "Palace", "Temple", "Church"])
    h.set_city(st, 2, ["Manor", "Castle", "Palace", "Temple"])
    assert rules.is_complete(st, 0) and rules.is_complete(st, 1)
    assert not rules.is_complete(st, 2)
    st.g[L.G_FIRST] = 1
    total, value, colours, complete, _ = scoring.score_seat(st, tb, 0)
    assert (colours, complete) == (5, 1)
    total, value, colours, complete, _ = scoring.score_seat(st, tb, 1)
    assert (colours, complete) == (0, 6) and total == value + 6


def test_first_completer_is_the_first_to_reach_the_house_size():
    """The Bell Tower's 7 aside, the first complete city is the first to reach N (D25)."""
    st, tb = setup("classic", 4, "builder", rules={"complete_size": 6})
    h.set_city(st, 1, ["Manor", "Castle", "Palace", "Temple", "Church", "Tavern"])
    h.set_city(st, 0, ["Manor", "Castle", "Palace", "Temple", "Church", "Tavern", "Market"])
    assert st.p[1, L.P_AT_FULL] < st.p[0, L.P_AT_FULL]  # seat 1 reached 6 first


def test_merchant_architect_and_incomes():
    st, tb = setup("classic", 4, "builder", rules={"merchant_gold": 3, "merchant_income": 2})
    h.set_holders(st, {ME: 0})
    h.set_city(st, 0, ["Market", "Tavern"])
    h.set_hand(st, 0, ["Palace"])  # useful: he gathers gold, and builds it with 9
    evs = play(st, tb, ME, 0)
    assert h.of_type(evs, "bonus_gold")[0].a == 3 and h.of_type(evs, "income")[0].a == 4
    assert h.of_type(evs, "gather_gold")[0].a == 2 and len(h.of_type(evs, "build")) == 1
    assert h.gold(st, 0) == 2 + 3 + 4 - 5
    st, tb = setup("2016", 4, "builder", rules={"architect_cards": 4, "architect_builds": 4})
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Temple", "Tavern", "Watchtower", "Church", "Market", "Prison"])
    h.set_gold(st, 0, 100)
    evs = play(st, tb, AR, 0)
    assert h.of_type(evs, "bonus_cards")[0].a == 4 and len(h.of_type(evs, "build")) == 4


def test_thief_share_is_rounded_down():
    st, tb = setup("classic", 4, "builder", rules={"thief_share": 50})
    h.set_holders(st, {T: 1, K: 0})
    h.rob(st, K, 1)
    h.set_gold(st, 0, 5)
    evs = play(st, tb, K, 0)
    assert h.of_type(evs, "theft")[0].b == 2 and h.gold(st, 1) == 2


def test_warlord_discount_never_below_zero():
    st, tb = setup("classic", 4, "builder", rules={"warlord_discount": 2})
    h.set_city(st, 1, ["Palace", "Tavern"])
    assert rules.warlord_cost(st, tb, 1, 0) == 5 - 2
    assert rules.warlord_cost(st, tb, 1, 1) == 0


def test_queen_gold():
    chars = cset("2016", "Queen")
    st, tb = setup("2016", 5, "builder", chars, rules={"queen_gold": 5})
    h.set_holders(st, {R9: 0, K: 1})
    evs = play(st, tb, R9, 0)
    assert h.of_type(evs, "queen")[0].a == 5


def test_a_character_rule_needs_its_character():
    with pytest.raises(ConfigError, match="concerns the Queen, who is not in this character"):
        GameConfig(rules={"queen_gold": 4})


@pytest.mark.parametrize("house,message", [
    ({"thief_shar": 50}, "Unknown house rule 'thief_shar'. Did you mean 'thief_share'?"),
    ({"thief_share": 101}, "thief_share = 101 is out of range: 0-100 %"),
    ({"start_gold": 2.5}, "must be a whole number (0-30 gold), got 2.5"),
    ({"start_gold": True}, "must be a whole number"),
    ({"gather_draw": 2, "gather_keep": 3}, "keeps more cards than gather_draw = 2"),
    ({"start_cards": 12}, "deals 96 cards to 8 players; the deck holds"),
])
def test_bad_house_rules_are_refused_in_one_line(house, message):
    chars = "Assassin,Thief,Magician,King,Bishop,Merchant,Architect,Warlord,Queen".split(",")
    with pytest.raises(ConfigError) as err:
        GameConfig(players=8, characters=chars, rules=house)
    assert message in str(err.value) and "\n" not in str(err.value)


def _game_for(parameter):
    """A 2016 set for 5 players holding the character the parameter concerns."""
    names = [n for n in parameter.characters if n in {c.name for c in cards.characters("2016")}]
    chars = cset("2016", *names[:1])
    return chars if len(chars) == 9 else chars + ("Artist",)


def _changed(parameter):
    """The rules of a game without the parameter's change and with it."""
    if parameter.name == "gather_keep":
        return {"gather_draw": 3}, {"gather_draw": 3, "gather_keep": 2}
    value = {"complete_size": 5, "thief_share": 50, "bribe_share": 100, "gather_draw": 4,
             "start_cards": 6, "scholar_draw": 3, "marshal_max": 6, "warlord_discount": 3,
             "seer_builds": 1, "scholar_builds": 1, "artist_beautify": 0,
             "architect_builds": 1}.get(parameter.name)
    return {}, {parameter.name: parameter.high // 2 + 2 if value is None else value}


@pytest.mark.parametrize("name", list(house_rules.PARAMETERS))
def test_every_house_rule_changes_play_and_keeps_the_invariants(name):
    """A changed value plays whole games (cards and gold conserved) and changes what
    happens in them: no parameter is read nowhere."""
    p = house_rules.PARAMETERS[name]
    chars = _game_for(p)
    seen = []
    for house in _changed(p):
        scores = []
        for game in range(12):
            st, tb = h.make_state("2016", 5, ("reference",) * 5, seed=11, game=game,
                                  characters=chars, rules=house)
            h.play_game(st, tb)
            assert h.gold_conserved(st) and h.kinds_consistent(st), (house, game)
            assert h.total_cards(st) == tb.kinds[L.K_COUNT].sum()
            scores.append(tuple(st.p[:5, L.P_SCORE]) + tuple(st.p[:5, L.P_GOLD]))
        seen.append(np.array(scores))
    assert not np.array_equal(*seen), f"{name}: no game changed"
