"""Card variants' added effects (issue 20 item 2, game.variants.EFFECTS): gold and cards
after gathering, 1 gold per district of a type, a build limit replacing the character's
own; the published characters are untouched; whole games keep gold and cards conserved."""

from __future__ import annotations

import kernel_helpers as h
import numpy as np
from kernel_helpers import AR, B, K, ME, T, W, empty_state as setup, play_turn_events as play

from citadels_sim.kernel import game as kgame, layout as L
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


# ---- an added target power (game.variants.POWERS) -----------------------------------------
POWERS = """
[characters."Tyrant"]
base = "King"
power = "kill"

[characters."Bandit"]
base = "Bishop"
power = "rob"

[characters."Raider"]
base = "Merchant"
power = "destroy"

[characters."Trickster"]
base = "Architect"
power = "swap_hands"
"""
WITH_POWERS = ["Assassin", "Thief", "Magician", "Tyrant", "Bandit", "Raider", "Trickster",
               "Warlord"]


def _powers_state(tmp_path, families="builder"):
    path = tmp_path / "v.toml"
    path.write_text(POWERS)
    st, tb = setup("classic", 4, families, chars=WITH_POWERS, variants=path)
    h.set_holders(st, {K: 0, B: 1, ME: 2, AR: 3, W: 1})
    return st, tb


def test_an_added_kill_names_a_later_character_not_robbed_and_the_king_still_crowns(tmp_path):
    st, tb = _powers_state(tmp_path)
    h.rob(st, B, 2)
    h.only_target(st, B, K)  # the bot would name the Bishop: he is robbed, so not allowed
    evs = play(st, tb, K, 0)
    (kill,) = h.of_type(evs, "kill")
    assert kill.seat == 0 and kill.rank == K and kill.a > K and kill.a != B
    assert st.g[L.G_KILLED] == kill.a and st.g[L.G_CROWN] == 0


def test_an_added_kill_is_not_used_when_a_character_is_killed_already(tmp_path):
    st, tb = _powers_state(tmp_path)
    h.kill(st, W)  # the Assassin's kill stands: one killed character a round
    evs = play(st, tb, K, 0)
    assert not h.of_type(evs, "kill") and st.g[L.G_KILLED] == W


def test_an_added_rob_takes_the_named_characters_gold_on_his_reveal(tmp_path):
    st, tb = _powers_state(tmp_path)
    h.only_target(st, ME, B)
    evs = play(st, tb, B, 1)
    (rob,) = h.of_type(evs, "rob")
    assert rob.seat == 1 and rob.a == ME and st.g[L.G_ROBBER] == 1
    h.set_gold(st, 2, 5)
    before = h.gold(st, 1)
    evs = play(st, tb, ME, 2)
    assert h.of_type(evs, "theft")[0].b == 5 and h.gold(st, 1) == before + 5
    # with the Thief's theft this round, the Bandit robs no one
    st, tb = _powers_state(tmp_path)
    h.rob(st, W, 3)
    assert not h.of_type(play(st, tb, B, 1), "rob") and st.g[L.G_ROBBER] == 3


def test_an_added_destroy_razes_a_district_at_the_end_of_the_turn(tmp_path):
    st, tb = _powers_state(tmp_path)
    h.set_city(st, 3, ["Tavern", "Castle"])  # the Tavern is free to destroy (cost 1 - 1)
    evs = play(st, tb, ME, 2)
    (destroy,) = h.of_type(evs, "destroy")
    assert destroy.seat == 2 and destroy.rank == ME and destroy.a == 3
    assert h.city_keys(st, 3) == ["castle"]


def test_an_added_swap_exchanges_hands_and_the_published_characters_have_no_power(tmp_path):
    st, tb = _powers_state(tmp_path)
    h.set_hand(st, 1, ["Tavern", "Market", "Watchtower", "Temple", "Manor", "Castle"])
    evs = play(st, tb, AR, 3)
    (swap,) = h.of_type(evs, "swap_hands")
    assert swap.seat == 3 and swap.a == 1 and h.hand_list(st, 1) == []
    st, tb = setup("classic", 4, "builder", chars=BASE)
    h.set_holders(st, {K: 0, B: 1, ME: 2, AR: 3})
    h.set_city(st, 3, ["Tavern", "Castle"])
    h.set_hand(st, 1, ["Tavern", "Market", "Watchtower", "Temple", "Manor", "Castle"])
    evs = [e for r, s in ((K, 0), (B, 1), (ME, 2), (AR, 3)) for e in play(st, tb, r, s)]
    assert not h.of_type(evs, "kill", "rob", "destroy", "swap_hands")


def test_whole_games_with_added_powers_keep_gold_and_cards_conserved(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(POWERS)
    chars = ["Witch"] + WITH_POWERS[1:]  # no Assassin: the Tyrant's kill is free to happen
    used = set()
    for game in range(12):
        st, tb = h.make_state("classic", 4, ("reference",) * 4, seed=3, game=game,
                              characters=chars, variants=path)
        h.play_game(st, tb)
        assert h.gold_conserved(st) and h.kinds_consistent(st), game
        assert h.total_cards(st) == tb.kinds[L.K_COUNT].sum()
        used |= {(e.type, e.rank) for e in h.logged_game(tb, 3, game)}
    assert {("kill", K), ("rob", B), ("destroy", ME), ("swap_hands", AR)} <= used


ENCHANTER = '[characters."Enchanter"]\nbase = "Merchant"\npower = "bewitch"\n'


def test_an_added_bewitch_ends_the_turn_and_resumes_it_in_the_later_call(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(ENCHANTER)
    chars = BASE[:5] + ["Enchanter"] + BASE[6:]
    st, tb = setup("classic", 4, "builder", chars=chars, variants=path)
    h.set_holders(st, {ME: 0, AR: 1, W: 2})
    h.set_hand(st, 0, ["Tavern", "Market"])
    h.set_gold(st, 0, 5)
    evs = play(st, tb, ME, 0)
    (bewitch,) = h.of_type(evs, "bewitch")
    assert bewitch.seat == 0 and bewitch.rank == ME and bewitch.a in (AR, W)
    assert not h.of_type(evs, "build") and st.g[L.G_WITCH_RANK] == ME
    evs = play(st, tb, bewitch.a, 0)  # the game loop's call: seat 0 resumes as that rank
    assert h.of_type(evs, "resume") and h.of_type(evs, "build")
    # the Witch has bewitched this round: the Enchanter plays his turn on
    st, tb = setup("classic", 4, "builder", chars=chars, variants=path)
    h.set_holders(st, {ME: 0, AR: 1, W: 2})
    h.set_hand(st, 0, ["Tavern", "Market"])
    h.set_gold(st, 0, 5)
    st.g[L.G_BEWITCHED] = W
    evs = play(st, tb, ME, 0)
    assert not h.of_type(evs, "bewitch") and h.of_type(evs, "build")


def test_whole_games_with_an_added_bewitch_count_the_resumed_turn_for_the_variant(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(ENCHANTER)
    chars = BASE[:5] + ["Enchanter"] + BASE[6:]
    resumed = 0
    for game in range(12):
        st, tb = h.make_state("classic", 4, ("reference",) * 4, seed=5, game=game,
                              characters=chars, variants=path)
        records = np.zeros((L.MAX_SEATS, L.MAX_RANKS, L.C_LEN), np.int32)
        kgame.play_game(st, tb, np.zeros((L.MAX_SEATS, L.MAX_RANKS), np.int16), records,
                        np.zeros((0, L.MAX_RANKS, 2), np.int8))
        assert h.gold_conserved(st) and h.kinds_consistent(st), game
        assert h.total_cards(st) == tb.kinds[L.K_COUNT].sum()
        evs = h.logged_game(tb, 5, game)
        assert all(e.rank == ME for e in h.of_type(evs, "bewitch"))
        resumed += len(h.of_type(evs, "resume"))
        built = np.zeros(L.MAX_RANKS, int)  # builds per rank, a resumed turn's for the variant
        for turn in h.turns(evs):
            r = ME if h.of_type(turn, "resume") else turn[0].rank
            built[r] += len(h.of_type(turn, "build"))
        assert (records[:, :, L.C_BUILT].sum(axis=0) == built).all(), game
    assert resumed > 0
