"""Scoring cross-checked (docs/rules.md §5): the worked examples of §5.4 scored by the
independent scorer (``independent_scoring``) and by the kernel, and the kernel against the
independent scorer on many finished games and random final positions."""

from __future__ import annotations

import random

import pytest

import kernel_helpers as h
import independent_scoring as independent
from citadels_sim.kernel import game, scoring
from citadels_sim.kernel import layout as L

# ---- docs/rules.md §5.4 worked examples ----------------------------------------------------
CLASSIC = {
    "players": 5, "n": 8, "final_round": 9,
    "cities": [
        ["Manor", "Castle", "Temple", "Monastery", "Tavern", "Docks", "Battlefield",
         "Dragon Gate"],                                                        # Ana
        ["Imperial Treasury", "Palace", "Castle", "Manor", "Town Hall", "Market", "Prison",
         "Watchtower"],                                                         # Ben
        ["Haunted City", "Palace", "Castle", "Cathedral", "Church", "Harbor", "Library"],  # Cai
    ],
    "gold": [0, 5, 0], "haunted_round": 4, "first": 0,
    "scores": [33, 33, 31], "places": [2, 1, 3],
}
SIXTEEN = {
    "players": 5, "n": 7, "final_round": 9,
    "cities": [
        ["Manor", "Temple", "Market", "Watchtower", "Haunted Quarter", "Wishing Well",
         "Basilica"],                                                           # Ana
        ["Dragon Gate", "Manor", "Cathedral", "Market", "Prison", "Docks", "Castle"],  # Ben
        ["Monument", "Palace", "Church", "Tavern", "Barracks", "Statue"],       # Cai
    ],
    "revealed": [7, 8, 0], "crown": 2, "first": 0,
    "scores": [32, 32, 28], "places": [2, 1, 3],
}
FOUR_COLOR = {
    "players": 4, "n": 8,
    "cities": [
        ["Manor", "Castle", "Temple", "Monastery", "Tavern", "Docks", "Prison", "Fortress"],
        ["Palace", "Castle", "Manor", "Town Hall", "Harbor", "Market", "Battlefield",
         "Watchtower"],
        ["Temple", "Church", "Tavern", "Market", "Watchtower", "Manor"],
    ],
    "first": 0, "scores": [29, 29, 13], "places": [1, 1, 3],
}


def _pad(lst, n, fill):
    return list(lst) + [fill] * (n - len(lst))


def _kernel_example(ruleset, ex, haunted_final=False):
    """Set up the example's final position in the kernel and score it."""
    n = ex["players"]
    st, tb = h.make_state(ruleset, n, "builder", seed=1)
    st.g[L.G_ROUND] = ex.get("final_round", 9)
    cities = _pad(ex["cities"], n, [])
    gold = _pad(ex.get("gold", []), n, 0)
    revealed = _pad(ex.get("revealed", []), n, 0)
    for s in range(n):
        h.clear_hand(st, s)
        h.set_gold(st, s, gold[s])
        st.p[s, L.P_REVEALED] = revealed[s]
    # cities built in the example's order: the first completer reaches N first
    for s in range(n):
        for name in cities[s]:
            rnd = 1
            if h.kind(name) == L.D_HAUNTED and ruleset == "classic":
                rnd = st.g[L.G_ROUND] if haunted_final else ex["haunted_round"]
            h.add_city(st, s, [name], rnd=rnd)
    st.g[L.G_CROWN] = ex.get("crown", 0)
    st.g[L.G_FIRST] = game._first_completer(st)
    assert st.g[L.G_FIRST] == ex["first"]
    scoring.score_game(st, tb)
    return ([int(x) for x in st.p[:3, L.P_SCORE]], [int(x) for x in st.p[:3, L.P_PLACE]], st)


def _independent_example(ruleset, ex, haunted_final=False):
    n = ex["players"]
    cities = _pad(ex["cities"], n, [])
    gold = _pad(ex.get("gold", []), n, 0)
    revealed = _pad(ex.get("revealed", []), n, 0)
    seats = [independent.Seat(cities[s], gold=gold[s], revealed=revealed[s],
                              haunted_final=haunted_final) for s in range(n)]
    scores, places = independent.score(ruleset, seats, ex.get("crown", 0), ex["first"],
                                       ex["n"])
    return scores[:3], places[:3]


@pytest.mark.parametrize("ruleset,ex", [("classic", CLASSIC), ("2016", SIXTEEN),
                                        ("four_color", FOUR_COLOR)])
def test_worked_example_independent_scorer(ruleset, ex):
    scores, places = _independent_example(ruleset, ex)
    assert scores == ex["scores"]
    assert places == ex["places"]


def test_worked_example_values_independent_scorer():
    assert independent.values(
        "classic", [independent.Seat(c) for c in CLASSIC["cities"]]) == [24, 26, 28]
    assert independent.values(
        "2016", [independent.Seat(c) for c in SIXTEEN["cities"]]) == [18, 25, 18]
    assert independent.values(
        "four_color", [independent.Seat(c) for c in FOUR_COLOR["cities"]]) == [22, 27, 10]


def test_worked_example_classic_kernel():
    scores, places, st = _kernel_example("classic", CLASSIC)
    assert scores == CLASSIC["scores"]
    assert places == CLASSIC["places"]
    assert [int(x) for x in st.p[:3, L.P_VALUE]] == [24, 26, 28]


def test_worked_example_classic_haunted_final_round():
    """Had Cai built the Haunted City in the final round, it would count only as purple: no
    red, no bonus, total 28."""
    scores, _ = _independent_example("classic", CLASSIC, haunted_final=True)
    assert scores[2] == 28
    scores, _, _ = _kernel_example("classic", CLASSIC, haunted_final=True)
    assert scores[2] == 28


def test_worked_example_2016_kernel():
    scores, places, _ = _kernel_example("2016", SIXTEEN)
    assert scores == SIXTEEN["scores"]
    assert places == SIXTEEN["places"]


def test_worked_example_four_color_kernel():
    scores, places, _ = _kernel_example("four_color", FOUR_COLOR)
    assert scores == FOUR_COLOR["scores"]
    assert places == FOUR_COLOR["places"]


# ---- kernel vs independent scorer on finished games -----------------------------------------
def independent_from_state(ruleset, st):
    """Independent scores and places of a kernel state's final position."""
    n = int(st.g[L.G_NP])
    seats = []
    for s in range(n):
        city = h.city_list(st, s)
        final = any(int(st.city[s, i]) == L.D_HAUNTED
                    and st.city_round[s, i] & L.ROUND_MASK == st.g[L.G_ROUND]
                    and (st.city_round[s, i] >> L.BUILDER_SHIFT) & 7 == s  # D44
                    for i in range(len(city)))
        seats.append(independent.Seat([h.key(k) for k in city], gold=int(st.p[s, L.P_GOLD]),
                                      hand=int(st.p[s, L.P_HAND_N]), haunted_final=final,
                                      revealed=int(st.p[s, L.P_REVEALED])))
    return independent.score(ruleset, seats, int(st.g[L.G_CROWN]), int(st.g[L.G_FIRST]),
                             int(st.g[L.G_N_COMPLETE]))


def first_completer_from_log(st):
    """The seat whose city first reached N, from the event log (-1 if none)."""
    n_complete = int(st.g[L.G_N_COMPLETE])
    for e in h.events(st):
        for s, size in enumerate(e.city_n):
            if size >= n_complete:
                return s
    return -1


FAMILIES = h.FAMILIES
GAME_CONFIGS = ([("classic", n) for n in range(2, 8)] + [("2016", n) for n in (2, 4, 5, 6, 7)]
                + [("four_color", n) for n in range(2, 8)])


@pytest.mark.parametrize("ruleset,players", GAME_CONFIGS)
def test_kernel_matches_independent_scorer_on_played_games(ruleset, players):
    compared = 0
    for g in range(30):
        lineup = tuple(FAMILIES[(i + g) % 4] for i in range(players))
        st, tb = h.make_state(ruleset, players, lineup, seed=777, game=g, log=(g < 6))
        h.play_game(st, tb)
        if g < 6:
            assert first_completer_from_log(st) == st.g[L.G_FIRST]
        scores, places = independent_from_state(ruleset, st)
        assert [int(x) for x in st.p[:players, L.P_SCORE]] == scores, (g, lineup)
        assert [int(x) for x in st.p[:players, L.P_PLACE]] == places, (g, lineup)
        compared += 1
    assert compared == 30


def test_kernel_matches_independent_scorer_with_quick_game():
    for g in range(30):
        st, tb = h.make_state("classic", 5, "heuristic", seed=5, game=g, quick=True)
        h.play_game(st, tb)
        assert st.g[L.G_N_COMPLETE] == 7
        scores, places = independent_from_state("classic", st)
        assert [int(x) for x in st.p[:5, L.P_SCORE]] == scores
        assert [int(x) for x in st.p[:5, L.P_PLACE]] == places


# ---- kernel vs independent scorer on random final positions ---------------------------------
COLOURED = ["Manor", "Castle", "Palace", "Temple", "Church", "Monastery", "Cathedral", "Tavern",
            "Market", "Trading Post", "Docks", "Harbor", "Town Hall", "Watchtower", "Prison",
            "Battlefield", "Fortress"]
#: purple/unique districts whose scoring the kernel implements, per ruleset
PURPLE = {
    "classic": ["Haunted City", "Keep", "Laboratory", "Smithy", "Observatory", "Graveyard",
                "Dragon Gate", "University", "Library", "Great Wall", "School of Magic",
                "Imperial Treasury", "Map Room", "Wishing Well"],
    "2016": ["Dragon Gate", "Factory", "Haunted Quarter", "Imperial Treasury", "Keep",
             "Laboratory", "Library", "Map Room", "Quarry", "School of Magic", "Smithy",
             "Statue", "Thieves' Den", "Wishing Well", "Monument"],
    "four_color": [],
}


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_kernel_matches_independent_scorer_on_random_positions(ruleset):
    rng = random.Random(hash(ruleset) & 0xFFFF)
    for trial in range(300):
        players = rng.choice([2, 4, 5, 7] if ruleset == "2016" else [2, 3, 4, 5, 7])
        st, tb = h.make_state(ruleset, players, "builder", seed=trial)
        final_round = rng.randint(2, 12)
        st.g[L.G_ROUND] = final_round
        n_complete = int(st.g[L.G_N_COMPLETE])
        pool = COLOURED + PURPLE[ruleset] * 2  # purple-rich, to exercise the extras
        for s in range(players):
            size = rng.choice([rng.randint(0, 9), n_complete - 1, n_complete, n_complete])
            names = []
            for name in rng.sample(pool, len(pool)):
                if len(names) == size:
                    break
                if name not in names:
                    names.append(name)
            h.clear_city(st, s)
            for name in names:
                rnd = final_round if rng.random() < 0.4 else rng.randint(1, final_round - 1)
                h.add_city(st, s, [name], rnd=rnd)
            h.set_gold(st, s, rng.randint(0, 12))
            h.set_hand(st, s, ["Temple"] * rng.randint(0, 6), to_deck=False)
            st.p[s, L.P_REVEALED] = rng.choice([0, 1, 4, 7, 8])
        st.g[L.G_CROWN] = rng.randrange(players)
        complete = [s for s in range(players)
                    if st.p[s, L.P_CITY_N] + st.p[s, L.P_KINDS + L.D_MONUMENT] >= n_complete]
        st.g[L.G_FIRST] = rng.choice(complete) if complete else -1
        scoring.score_game(st, tb)
        scores, places = independent_from_state(ruleset, st)
        assert [int(x) for x in st.p[:players, L.P_SCORE]] == scores, (trial, ruleset)
        assert [int(x) for x in st.p[:players, L.P_PLACE]] == places, (trial, ruleset)


# ---- the independent scorer's 2016 extras beyond the base game (docs/rules.md §4.3, 141-145) --
def _one(city, **kw):
    seat = independent.Seat(city, **{k: v for k, v in kw.items() if k != "crown"})
    return independent.seat_score("2016", seat, False, kw.get("crown", False), 7)[0]


def test_independent_scorer_secret_vault_in_hand():
    """141. P Secret Vault: never buildable; +3 if in hand at the end."""
    assert _one(["Manor"], vault=True) == 3 + 3
    assert _one(["Manor"]) == 3


def test_independent_scorer_ivory_tower():
    """143. P Ivory Tower: +5 when it is the only unique district (a Haunted Quarter counted
    as another type allows this)."""
    assert _one(["Ivory Tower", "Manor"]) == 5 + 3 + 5
    assert _one(["Ivory Tower", "Keep"]) == 5 + 3
    # the Haunted Quarter counted as noble keeps the Ivory Tower alone
    assert _one(["Ivory Tower", "Haunted Quarter"]) == 5 + 2 + 5


def test_independent_scorer_capitol():
    """144. P Capitol: +3 once with >= 3 districts of one type."""
    assert _one(["Capitol", "Manor", "Castle"]) == 5 + 3 + 4
    assert _one(["Capitol", "Manor", "Castle", "Palace", "Temple", "Church"]) == 5 + 12 + 3 + 3
    assert _one(["Capitol", "Manor", "Castle", "Haunted Quarter"]) == 5 + 7 + 2 + 3


def test_independent_scorer_basilica_and_museum():
    """145. P Basilica: +1 per district with an odd cost, after the Artist's +1; the Museum
    scores +1 per card under it."""
    assert _one(["Basilica", "Manor", "Temple", "Church"]) == 4 + 3 + 1 + 2 + 2
    assert _one(["Basilica", "Manor", "Temple", "Church"], beautified=["Church"]) == (
        4 + 3 + 1 + 3 + 3)
    assert _one(["Museum", "Manor"], museum=4) == 4 + 3 + 4
