"""Card variants' added effects (issue 20 item 2, game.variants.EFFECTS): gold and cards
after gathering, 1 gold per district of a type, a build limit replacing the character's
own; the published characters are untouched; whole games keep gold and cards conserved."""

from __future__ import annotations

import kernel_helpers as h
from kernel_helpers import T, empty_state as setup, play_turn_events as play

from citadels_sim.kernel import layout as L
from citadels_sim.kernel.bots import reference

SHERIFF = ('[characters."Sheriff"]\nbase = "Thief"\ngold = 2\ncards = 1\n'
           'income = "noble"\nbuilds = 2\n')
BASE = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord"]
WITH_SHERIFF = BASE[:1] + ["Sheriff"] + BASE[2:]


def _sheriff_turn(chars, path):
    st, tb = setup("classic", 4, "builder", chars=chars, variants=path)
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Temple"])  # two noble districts
    h.set_hand(st, 0, ["Tavern", "Market", "Watchtower"])
    h.set_gold(st, 0, 10)
    return st, play(st, tb, T, 0)


def test_a_variant_takes_its_gold_cards_and_income_after_gathering_and_builds_twice(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(SHERIFF)
    st, evs = _sheriff_turn(WITH_SHERIFF, path)
    assert h.of_type(evs, "bonus_gold")[0].a == 2
    assert h.of_type(evs, "bonus_cards")[0].a == 1
    income = h.of_type(evs, "income")
    assert len(income) == 1 and income[0].a == 2 and income[0].b == L.T_NOBLE
    assert len(h.of_type(evs, "build")) == 2
    # the published Thief in the same situation: no extras, one build
    st, evs = _sheriff_turn(BASE, path)
    assert not h.of_type(evs, "bonus_gold") and not h.of_type(evs, "bonus_cards")
    assert not h.of_type(evs, "income") and len(h.of_type(evs, "build")) == 1


def test_a_build_limit_of_0_stops_the_builds(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text('[characters."Hermit"]\nbase = "Thief"\nbuilds = 0\n')
    st, evs = _sheriff_turn(BASE[:1] + ["Hermit"] + BASE[2:], path)
    assert not h.of_type(evs, "build")


def test_the_reference_bot_values_the_added_effects(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(SHERIFF)
    worth = []
    for chars in (BASE, WITH_SHERIFF):
        st, tb = setup("classic", 4, "reference", chars=chars, variants=path)
        h.set_city(st, 0, ["Manor", "Castle"])
        worth.append(reference.ref_worth(st, tb, 0, T, 0, 0))
    params = h.make_state("classic", 4, "reference")[0].params[0]
    assert worth[1] - worth[0] == (2 + params[L.PR_R_CARD] * 1 + params[L.PR_W_INCOME] * 2)


def test_whole_games_with_variants_keep_gold_and_cards_conserved(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(SHERIFF + '[characters."Hermit"]\nbase = "Bishop"\nbuilds = 0\n'
                    'gold = 3\n')
    chars = BASE[:1] + ["Sheriff", "Magician", "King", "Hermit"] + BASE[5:]
    scores = {}
    for name, kw in (("plain", {}), ("variants", dict(characters=chars, variants=path))):
        scores[name] = []
        for game in range(12):
            st, tb = h.make_state("classic", 4, ("reference",) * 4, seed=11, game=game, **kw)
            h.play_game(st, tb)
            assert h.gold_conserved(st) and h.kinds_consistent(st), (name, game)
            assert h.total_cards(st) == tb.kinds[L.K_COUNT].sum()
            scores[name].append(tuple(st.p[:4, L.P_SCORE]))
    assert scores["plain"] != scores["variants"]
