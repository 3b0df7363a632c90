"""Districts that score or change the complete-city size (docs/rules.md §4.2, §4.3, §5;
checklist rules 123, 132, 141-147): the Haunted City, the classic Bell Tower, the 2016 Secret
Vault, Statue, Ivory Tower, Capitol and Basilica, the Wishing Well, the Imperial Treasury and
the Map Room.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    B, ME, W, deck_kw, empty_state as setup, independent_scores, kernel_scores,
    play_turn_events as play, put_city, rsetup, types_in,
)
from citadels_sim.kernel import districts, layout as L, rules, scoring


def _score(tb_st, city):
    st, tb = tb_st
    h.set_city(st, 0, city, rnd=1)
    st.g[L.G_ROUND] = 5
    st.g[L.G_FIRST] = -1
    return scoring.score_seat(st, tb, 0)


def test_rule_123_haunted_city():
    """123. Haunted City/Quarter: counts as any one type at scoring; C: not if built in the
    final round."""
    city = ["Manor", "Temple", "Tavern", "Library"]
    st, tb = setup("classic", 4, "builder")
    st.g[L.G_ROUND] = 6
    h.set_city(st, 0, city, rnd=2)
    h.add_city(st, 0, ["Haunted City"], rnd=5)  # an earlier round: counts as red
    h.set_city(st, 1, city, rnd=2)
    h.add_city(st, 1, ["Haunted City"], rnd=6)  # the final round: only purple
    scoring.score_game(st, tb)
    value = 3 + 1 + 1 + 6 + 2
    assert st.p[0, L.P_SCORE] == value + 3
    assert st.p[1, L.P_SCORE] == value
    st, tb = setup("2016", 4, "builder")
    st.g[L.G_ROUND] = 6
    h.set_city(st, 0, city, rnd=6)
    h.add_city(st, 0, ["Haunted Quarter"], rnd=6)  # no final-round exception in 2016
    scoring.score_game(st, tb)
    assert st.p[0, L.P_SCORE] == value + 3


SEEDS = 80


def test_rule_132_bell_tower():
    """132. C Bell Tower: an optional announcement when built sets N = 7; destroying the
    Bell Tower restores 8."""
    # built as his own 7th district: N = 7 and his city is complete at once
    st, tb = rsetup("classic", 4, "builder")
    assert st.g[L.G_N_COMPLETE] == 8
    h.set_holders(st, {ME: 0})
    put_city(st, 0, ["Manor", "Castle", "Temple", "Church", "Market", "Docks"])
    put_city(st, 1, ["Palace", "Monastery", "Tavern", "Harbor", "Prison", "Watchtower"])
    h.set_hand(st, 0, ["Bell Tower"], from_deck=True)
    h.set_deck(st, [])
    h.set_gold(st, 0, 5)
    evs = play(st, tb, ME, 0)
    (e,) = h.of_type(evs, "bell_tower")
    assert e.a == 7 and st.g[L.G_N_COMPLETE] == 7 and st.g[L.G_BELL] == 1
    assert types_in(evs).index("build") < types_in(evs).index("bell_tower")
    assert rules.is_complete(st, 0) and not rules.is_complete(st, 1)
    # a city already at 7 is complete once it is announced; destroying it restores 8
    st, tb = rsetup("classic", 4, "builder")
    h.set_holders(st, {ME: 0})
    put_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Bell Tower"], from_deck=True)
    put_city(st, 1, ["Palace", "Monastery", "Tavern", "Harbor", "Prison", "Watchtower",
                     "Temple"])
    h.set_gold(st, 0, 5)
    h.set_deck(st, [])
    # the builder announces only when no opponent's city is larger than his
    evs = play(st, tb, ME, 0)
    assert not h.of_type(evs, "bell_tower") and st.g[L.G_N_COMPLETE] == 8
    h.clear_city(st, 0, to_deck=True)
    put_city(st, 0, ["Manor", "Castle", "Church", "Market", "Docks", "Cathedral"])
    h.set_city(st, 0, h.city_list(st, 0) + [h.kind("Bell Tower")])  # 7 with the tower
    st.g[L.G_BELL] = 0
    districts.build_triggers(st, tb, 0, ME, h.kind("Bell Tower"), False)
    assert st.g[L.G_N_COMPLETE] == 7 and rules.is_complete(st, 1)
    # a complete city cannot lose it; from an incomplete one the Warlord may destroy it
    i = h.city_list(st, 0).index(h.kind("Bell Tower"))
    assert not rules.destroyable(st, tb, 0, i)
    h.set_city(st, 0, ["Bell Tower", "Manor"])
    assert rules.destroyable(st, tb, 0, 0)
    before = h.total_cards(st)
    districts.destroy_district(st, tb, 2, W, 0, 0, 4)
    assert st.g[L.G_N_COMPLETE] == 8 and st.g[L.G_BELL] == 0
    assert not rules.is_complete(st, 1) and h.total_cards(st) == before
    # the announcement is optional (random choices: both), and without one nothing changes
    announced = Counter()
    for seed in range(SEEDS):
        st, tb = rsetup("classic", 4, "random")
        h.reseed(st, seed)
        h.clear_log(st)
        districts.build_triggers(st, tb, 0, ME, h.kind("Bell Tower"), False)
        ann = bool(h.of_type(h.events(st), "bell_tower"))
        announced[ann] += 1
        assert st.g[L.G_N_COMPLETE] == (7 if ann else 8) and st.g[L.G_BELL] == int(ann)
    assert announced[True] and announced[False]
    # quick game (N = 7 already): nothing to announce; destroying it leaves N at 7
    st, tb = setup("classic", 4, "builder", quick=True, **deck_kw("classic"))
    districts.build_triggers(st, tb, 0, ME, h.kind("Bell Tower"), False)
    assert st.g[L.G_N_COMPLETE] == 7 and st.g[L.G_BELL] == 0


def test_rule_141_secret_vault():
    """141. P Secret Vault: never buildable; +3 if in hand at the end."""
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {B: 0})
    h.set_hand(st, 0, ["Secret Vault"])
    h.set_deck(st, [])  # he takes gold
    h.set_gold(st, 0, 30)
    assert not rules.can_build(st, tb, 0, h.kind("Secret Vault"))
    assert not h.of_type(play(st, tb, B, 0), "build")
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Secret Vault", "Secret Vault", "Temple"], to_deck=False)
    total, value, _, _, extras = scoring.score_seat(st, tb, 0)
    assert (total, value, extras) == (3 + 6, 3, 6)
    h.set_hand(st, 0, ["Temple"], to_deck=False)
    assert scoring.score_seat(st, tb, 0)[0] == 3


def test_rule_142_statue():
    """142. P Statue: +5 to the crown holder at the end."""
    cities = [["Statue", "Manor"], ["Statue", "Manor"], [], []]
    scores, _, _ = kernel_scores("2016", 4, [["Statue", "Manor"], ["Manor", "Castle"], [], []],
                                 crown=0)
    assert scores[0] == 3 + 3 + 5
    scores, _, _ = kernel_scores("2016", 4, [["Statue", "Manor"], [], [], []], crown=1)
    assert scores[0] == 6
    assert independent_scores("2016", cities, crown=0)[0][:2] == [11, 6]


def test_rule_143_ivory_tower():
    """143. P Ivory Tower: +5 when it is the only unique district (a Haunted Quarter counted as
    another type allows this)."""
    pos = setup("2016", 4, "builder")
    assert _score(pos, ["Ivory Tower", "Manor"])[0] == 5 + 3 + 5
    assert _score(pos, ["Ivory Tower", "Keep", "Manor"])[0] == 5 + 3 + 3
    # the Haunted Quarter counted as a noble district: the Ivory Tower stays the only one
    total, _, colours, _, extras = _score(pos, ["Ivory Tower", "Haunted Quarter", "Manor"])
    assert (total, colours, extras) == (5 + 2 + 3 + 5, 0, 5)
    # counted as the missing military type it gives both all five types and the +5
    total, _, colours, _, extras = _score(
        pos, ["Ivory Tower", "Haunted Quarter", "Manor", "Temple", "Tavern"])
    assert (total, colours, extras) == (5 + 2 + 3 + 1 + 1 + 3 + 5, 3, 5)
    assert _score(pos, ["Manor"])[4] == 0


def test_rule_144_capitol():
    """144. P Capitol: +3 once with ≥3 districts of one type."""
    pos = setup("2016", 4, "builder")
    assert _score(pos, ["Capitol", "Manor", "Castle"])[4] == 0
    assert _score(pos, ["Capitol", "Manor", "Castle", "Palace"])[4] == 3
    # two types with 3: still +3 once
    assert _score(pos, ["Capitol", "Manor", "Castle", "Palace", "Temple", "Church",
                        "Monastery"])[4] == 3
    # the Haunted Quarter may complete the three
    assert _score(pos, ["Capitol", "Manor", "Castle", "Haunted Quarter"])[4] == 3


def test_rule_145_basilica():
    """145. P Basilica: +1 per district with an odd cost (the Artist is not in the kernel's
    roster)."""
    pos = setup("2016", 4, "builder")
    total, value, _, _, extras = _score(pos, ["Basilica", "Manor", "Temple", "Castle"])
    assert (value, extras) == (4 + 3 + 1 + 4, 2) and total == value + 2
    assert _score(pos, ["Basilica", "Castle"])[4] == 0
    assert _score(pos, ["Basilica", "Monastery", "Keep", "Cathedral"])[4] == 3


def test_rule_146_wishing_well():
    """146. Wishing Well: C, +1 per other purple district; P, +1 per unique district including
    itself."""
    city = ["Wishing Well", "Keep", "Library", "Manor"]
    scores, _, _ = kernel_scores("2016", 4, [city, [], [], []])
    assert scores[0] == 5 + 3 + 6 + 3 + 3
    scores, _, _ = kernel_scores("classic", 4, [city, [], [], []])
    assert scores[0] == 5 + 3 + 6 + 3 + 2
    assert independent_scores("2016", [city, [], [], []])[0][0] == 20
    assert independent_scores("classic", [city, [], [], []])[0][0] == 19


@pytest.mark.parametrize("ruleset,treasury", [("classic", 4), ("2016", 5)])
def test_rule_147_imperial_treasury_and_map_room(ruleset, treasury):
    """147. Imperial Treasury: +1 per stash gold; Map Room: +1 per hand card (the Secret
    Vault included)."""
    scores, _, _ = kernel_scores(ruleset, 4, [["Imperial Treasury"], ["Map Room"], [], []],
                          gold=[7, 7, 0, 0], hands=[3, 3, 0, 0])
    assert scores[:2] == [treasury + 7, 5 + 3]
