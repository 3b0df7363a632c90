"""One test per checklist rule (RULES.md §6) for the roster characters the kernel plays
beyond the base eight: Patrician, Abbot, Alchemist, Trader, Navigator, Scholar, Queen and the
2016 Tax Collector; plus rank-9 character sets (9-character drafts and their face-up tables),
8 players and the 2016 3-player draft.

Like ``test_rules.py``, each test puts the kernel into an exact situation with the
``kernel_helpers`` and strategies whose choice is forced there, or checks the property over
many seeds, draws or played games.  Tests named ``test_rule_NNN_*`` carry the checklist text
in their docstring.
"""

from __future__ import annotations

from collections import Counter

import kernel_helpers as h
import numpy as np
import pytest

from citadels_sim.game.config import BASE_CHARACTERS as BASE, ConfigError, GameConfig
from citadels_sim.kernel import draft, game, layout as L, rules


setup = h.roster_setup  # an exact situation, 2016 by default


cset, play, types_in = h.cset, h.play_turn_events, h.types_in
gold_conserved, pile, golds = h.gold_conserved, h.tax_pile, h.golds


A, T, M, K, B, ME, AR, W, R9 = range(9)  # rank indices (rank 9 = index 8)
FAMILIES = h.FAMILIES


def popcount(x: int) -> int:
    return int(x).bit_count()


def _draft_once(st, tb):
    h.start_round(st)
    h.clear_log(st)
    draft.draft(st, tb)


def _draft_events(st):
    return [e for e in h.events(st) if e.type in ("pick", "discard_face_down", "discard_face_up")]


# strategies with fixed tastes in the draft
HATERS = h.custom("builder", base=[0, 0, 0, -1000, 0, 0, 0, 0, 0])   # never the rank-4 card
LOVERS = h.custom("builder", base=[0, 0, 0, 1000, 0, 0, 0, 0, 0])    # always the rank-4 card
ORDERED = h.custom("builder", base=[80, 70, 60, 50, 40, 30, 20, 10, 0])  # prefers low ranks

# character sets used below
C_QUEEN = cset("classic", "Queen")
P_TC = cset("2016", "Tax Collector")
P_QUEEN = cset("2016", "Queen")
P_PATRICIAN = cset("2016", "Patrician")
P_ABBOT = cset("2016", "Abbot")
C_ABBOT = cset("classic", "Abbot")
P_ALCHEMIST_TC = cset("2016", "Alchemist", "Tax Collector")
C_ALCHEMIST = cset("classic", "Alchemist")
P_TRADER = cset("2016", "Trader")
C_NAVIGATOR = cset("classic", "Navigator")
P_NAVIGATOR = cset("2016", "Navigator")
P_SCHOLAR = cset("2016", "Scholar")
P_NOBLES_TC = cset("2016", "Patrician", "Trader", "Tax Collector")


# =============================================================================================
# Configuration
# =============================================================================================
def test_rule_007_queen_needs_5_players():
    """7. The Queen is rejected with fewer than 5 players (C, P)."""
    for ruleset in ("classic", "2016"):
        chars = cset(ruleset, "Queen")
        with pytest.raises(ConfigError, match="Queen.*5"):
            GameConfig(ruleset=ruleset, players=4, characters=chars)
        for n in (5, 6, 7, 8):
            assert GameConfig(ruleset=ruleset, players=n, characters=chars).ranks == 9
    # 2016 3 players need a rank-9 character, but not the Queen
    with pytest.raises(ConfigError, match="Queen"):
        GameConfig(ruleset="2016", players=3, characters=P_QUEEN)
    assert GameConfig(ruleset="2016", players=3, characters=P_TC).ranks == 9


def test_rule_009_2016_rank_9_requirements():
    """9. P: rank 9 is required with 3 and 8 players and rejected with 2 players."""
    for n in (3, 8):
        with pytest.raises(ConfigError, match=f"{n}-player 2016.*rank-9"):
            GameConfig(ruleset="2016", players=n)
        assert GameConfig(ruleset="2016", players=n, characters=P_TC).ranks == 9
    assert GameConfig(ruleset="2016", players=8, characters=P_QUEEN).ranks == 9
    with pytest.raises(ConfigError, match="rank-9.*2 players"):
        GameConfig(ruleset="2016", players=2, characters=P_TC)
    # 4-7 players: optional
    for n in (4, 5, 6, 7):
        assert GameConfig(ruleset="2016", players=n).ranks == 8
        assert GameConfig(ruleset="2016", players=n, characters=P_TC).ranks == 9
    # the tables carry the rank-9 character
    tb, _ = h.make_tables("2016", 8, characters=P_TC)
    assert tb.cfg[L.G_NRANKS] == 9 and tb.cfg[L.G_RANK_CHAR + R9] == L.CH_TAX_COLLECTOR


def test_rule_010_classic_rank_9_requirements():
    """10. C: rank 9 is required with 8 players and rejected with 2-3 players."""
    with pytest.raises(ConfigError, match="8-player classic.*rank-9"):
        GameConfig(ruleset="classic", players=8)
    assert GameConfig(ruleset="classic", players=8, characters=C_QUEEN).ranks == 9
    for n in (2, 3):
        for rank9 in ("Queen", "Artist"):
            with pytest.raises(ConfigError, match=f"rank-9.*{n} players"):
                GameConfig(ruleset="classic", players=n, characters=BASE + (rank9,))
    for n in (5, 6, 7):
        assert GameConfig(ruleset="classic", players=n).ranks == 8
        assert GameConfig(ruleset="classic", players=n, characters=C_QUEEN).ranks == 9
    # the 2016 Tax Collector does not exist in classic (its rank-2 namesake does)
    with pytest.raises(ConfigError):
        GameConfig(ruleset="classic", players=5, characters=BASE + ("Tax Collector",))
    with pytest.raises(ConfigError):
        GameConfig(ruleset="four_color", players=5, characters=BASE + ("Queen",))


# =============================================================================================
# Selection phase with 9 characters
# =============================================================================================
NINE = [("classic", 5, C_QUEEN), ("classic", 6, C_QUEEN), ("classic", 7, C_QUEEN),
        ("classic", 8, C_QUEEN), ("2016", 4, P_TC), ("2016", 5, P_QUEEN), ("2016", 6, P_TC),
        ("2016", 7, P_QUEEN), ("2016", 8, P_TC)]


@pytest.mark.parametrize("ruleset,players,chars", NINE)
def test_rule_014_face_up_discards_with_9_characters(ruleset, players, chars):
    """14. Face-up discards with 9 characters: 4p 3, 5p 2, 6p 1, 7p 0, 8p 0.

    (classic cannot play 4 players with 9 characters yet: its only 4-player rank 9, the
    Artist, is not playable.)"""
    up = {4: 3, 5: 2, 6: 1, 7: 0, 8: 0}[players]
    st, tb = h.make_state(ruleset, players, "random", seed=14, log=True, characters=chars)
    assert st.g[L.G_NRANKS] == 9 and st.g[L.G_N_FACEUP] == up
    for _ in range(60):
        _draft_once(st, tb)
        evs = _draft_events(st)
        ups = [e.a for e in evs if e.type == "discard_face_up"]
        downs = [e.a for e in evs if e.type == "discard_face_down"]
        picks = [e.a for e in evs if e.type == "pick"]
        assert popcount(st.g[L.G_FACEUP]) == up == len(ups)
        assert K not in ups
        assert len(picks) == players
        # 9 characters = 1 face-down + U + n, plus 1 leftover when n <= 7
        assert len(downs) == 1 + (1 if players <= 7 else 0)
        assert sorted(picks + ups + downs) == list(range(9))


@pytest.mark.parametrize("ruleset,players,chars", [("2016", 4, P_TC), ("classic", 5, C_QUEEN),
                                                   ("2016", 6, P_TC)])
def test_rule_015_face_up_uniform_with_9_characters(ruleset, players, chars):
    """15. A rank-4 character is never discarded face up; face-up discards are uniform over
    the non-rank-4 cards (9 characters: each of the 8 others is face up with probability
    U/8, in both discard orders)."""
    st, tb = h.make_state(ruleset, players, "random", seed=15, characters=chars)
    up_n = int(st.g[L.G_N_FACEUP])
    n = 6000
    counts = np.zeros(9)
    for _ in range(n):
        _draft_once(st, tb)
        up = int(st.g[L.G_FACEUP])
        assert popcount(up) == up_n
        for r in range(9):
            counts[r] += (up >> r) & 1
    assert counts[K] == 0
    freq = counts / n
    for r in range(9):
        if r != K:
            assert abs(freq[r] - up_n / 8) < 0.03, freq


@pytest.mark.parametrize("ruleset,chars", [("classic", C_QUEEN), ("2016", P_TC)])
def test_rule_020_eighth_player_takes_face_down_card(ruleset, chars):
    """20. 7 players with 8 characters, and 8 players with 9: the last picker chooses between
    the last card and the initial face-down card, and discards the other face down.

    Seats 0-6 never keep the rank-4 card while they have another; seat 7 always wants it.
    Seat 7 gets it every round, also when it was the initial face-down card (1/9)."""
    st, tb = h.make_state(ruleset, 8, (HATERS,) * 7 + (LOVERS,), seed=20, log=True,
                          characters=chars)
    assert st.g[L.G_N_FACEUP] == 0
    for _ in range(400):
        _draft_once(st, tb)
        assert st.g[L.G_HOLDER + K] == 7
        evs = _draft_events(st)
        picks = [e for e in evs if e.type == "pick"]
        assert [e.seat for e in picks] == [(int(st.g[L.G_CROWN]) + i) % 8 for i in range(8)]
        downs = [e.a for e in evs if e.type == "discard_face_down"]
        assert len(downs) == 1 and st.g[L.G_HOLDER + downs[0]] < 0
        assert not any(e.type == "discard_face_up" for e in evs)
        assert sum(st.g[L.G_HOLDER:L.G_HOLDER + 9] >= 0) == 8


@pytest.mark.parametrize("ruleset,chars", [("classic", C_QUEEN), ("2016", P_QUEEN)])
def test_rule_021_seven_players_nine_characters_no_special_rule(ruleset, chars):
    """21. 7 players with 9 characters: no special rule; the last picker chooses from the 2
    cards passed to him.

    Seats 0-5 never keep the rank-4 card while they have another; seat 6 always wants it.
    He gets it unless it was the initial face-down card (1/9): he is never offered that."""
    st, tb = h.make_state(ruleset, 7, (HATERS,) * 6 + (LOVERS,), seed=21, log=True,
                          characters=chars)
    n = 1200
    missing = 0
    for _ in range(n):
        _draft_once(st, tb)
        holder = int(st.g[L.G_HOLDER + K])
        assert holder in (6, -1)
        missing += holder < 0
        evs = _draft_events(st)
        assert len([e for e in evs if e.type == "pick"]) == 7
        downs = [e.a for e in evs if e.type == "discard_face_down"]
        assert len(downs) == 2 and not any(e.type == "discard_face_up" for e in evs)
        assert all(st.g[L.G_HOLDER + r] < 0 for r in downs)
    assert abs(missing / n - 1 / 9) < 0.03, missing / n


def test_rule_024_three_player_2016_draft():
    """24. 3 players, P: 1 face-down discard; A, B, C pick; C discards 1 of the 5 at random;
    A, B, C pick; the last card is discarded face down."""
    st, tb = h.make_state("2016", 3, (ORDERED,) * 3, seed=24, log=True, characters=P_TC)
    assert st.g[L.G_NRANKS] == 9 and st.g[L.G_N_FACEUP] == 0
    first_down = Counter()
    mid_down = Counter()
    n = 1500
    for i in range(n):
        crown = i % 3
        st.g[L.G_CROWN] = crown
        _draft_once(st, tb)
        evs = _draft_events(st)
        order = [crown, (crown + 1) % 3, (crown + 2) % 3]
        assert [(e.type, e.seat) for e in evs] == (
            [("discard_face_down", -1)] + [("pick", s) for s in order]
            + [("discard_face_down", -1)] + [("pick", s) for s in order]
            + [("discard_face_down", -1)])
        ranks = [e.a for e in evs]
        assert sorted(ranks) == list(range(9))
        rest = [r for r in range(9) if r != ranks[0]]  # sorted: the picks go lowest first
        assert ranks[1:4] == rest[:3]
        five = rest[3:]
        assert ranks[4] in five
        left = [r for r in five if r != ranks[4]]
        assert ranks[5:8] == left[:3] and ranks[8] == left[3]
        first_down[ranks[0]] += 1
        mid_down[five.index(ranks[4])] += 1
        for j, s in enumerate(order):
            held = sorted(np.flatnonzero(st.g[L.G_HOLDER:L.G_HOLDER + 9] == s))
            assert held == sorted([ranks[1 + j], ranks[5 + j]])
    # the first discard can be any card (the rank-4 one too); C's discard is random, not
    # his least wanted card
    assert set(first_down) == set(range(9))
    for j in range(5):
        assert abs(mid_down[j] / n - 0.2) < 0.045, mid_down


def test_rule_025_three_player_2016_two_characters_each():
    """25. In 2-3-player games each player holds exactly 2 characters and there are no
    face-up discards (2016, 3 players, 9 characters)."""
    st, tb = h.make_state("2016", 3, ("random", "builder", "heuristic"), seed=25, log=True,
                          characters=P_TC)
    for _ in range(300):
        _draft_once(st, tb)
        assert st.g[L.G_FACEUP] == 0
        held = Counter(int(x) for x in st.g[L.G_HOLDER:L.G_HOLDER + 9] if x >= 0)
        assert held == {0: 2, 1: 2, 2: 2}
        evs = _draft_events(st)
        assert not any(e.type == "discard_face_up" for e in evs)
        assert len([e for e in evs if e.type == "discard_face_down"]) == 3
    for evs, st, tb in roster_games("2016", 3, P_ALCHEMIST_TC):
        assert not any(e.type == "discard_face_up" for e in evs)
        for rnd, es in h.rounds(evs).items():
            calls = Counter(e.seat for e in es if e.type in ("call", "skip_killed"))
            if rnd > 0:
                assert calls == {0: 2, 1: 2, 2: 2}


# =============================================================================================
# Rank 4: Patrician
# =============================================================================================
def test_rule_046_killed_patrician_heir():
    """46. A killed King or Patrician gives its holder the crown at the end of the round."""
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    assert st.g[L.G_RANK_CHAR + K] == L.CH_PATRICIAN
    h.set_holders(st, {A: 0, K: 2})
    st.g[L.G_CROWN] = 1
    h.only_target(st, K, A)
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == K and st.g[L.G_CROWN] == 1
    h.clear_log(st)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 2
    assert st.p[2, L.P_REVEALED] == 4  # revealed at the end of the round (2016 tie-break)
    assert types_in(h.events(st)) == ["heir", "crown", "round_end"]
    assert h.hand_list(st, 2) == [] and h.gold(st, 2) == 0  # the heir takes no income


def test_rule_081_patrician_takes_the_crown():
    """81. C, F: the King takes the crown on reveal; P: the King (or Patrician) must take it
    during his turn."""
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    h.set_holders(st, {K: 2})
    st.g[L.G_CROWN] = 0
    evs = play(st, tb, K, 2)
    assert st.g[L.G_CROWN] == 2
    crowns = h.of_type(evs, "crown")
    assert len(crowns) == 1 and crowns[0].seat == 2 and crowns[0].a == 0
    # he takes it even when he already holds it, and in every played Patrician turn
    evs = play(st, tb, K, 2)
    assert st.g[L.G_CROWN] == 2
    n = 0
    for evs, st, tb in roster_games("2016", 4, P_NOBLES_TC) + roster_games("2016", 3, P_NOBLES_TC):
        for t in h.turns(evs):
            if t[0].rank == K:
                assert [e.seat for e in t if e.type == "crown"] == [t[0].seat]
                n += 1
    assert n > 20


def test_rule_087_patrician_income_in_cards():
    """87. The Patrician gains 1 card per noble district.

    (A School of Magic counts as noble; with a short deck he takes what is left, D5.)"""
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "School of Magic", "Temple", "Market"])
    h.set_hand(st, 0, ["Dragon Gate"])  # useful and unaffordable: gold, no build
    h.set_deck(st, ["Palace", "Cathedral", "Fortress", "Harbor", "Watchtower"])
    evs = play(st, tb, K, 0)
    inc = h.of_type(evs, "income")
    assert len(inc) == 1 and inc[0].a == 0 and inc[0].b == L.T_NOBLE and inc[0].c == 3
    assert h.gold(st, 0) == 2  # the gather only
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Dragon Gate", "Palace", "Cathedral",
                                                         "Fortress"]))
    assert h.deck_list(st) == h.kinds(["Harbor", "Watchtower"])
    assert not h.of_type(evs, "build")
    # short deck: he takes what is left (D5)
    st, tb = setup("2016", 4, "builder", P_PATRICIAN)
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Palace"])
    h.set_hand(st, 0, ["Dragon Gate"])
    h.set_deck(st, ["Cathedral"])
    evs = play(st, tb, K, 0)
    assert h.of_type(evs, "income")[0].c == 1 and st.g[L.G_DECK_N] == 0
    assert h.gold(st, 0) == 2


# =============================================================================================
# Rank 5: Abbot
# =============================================================================================
def _abbot(ruleset, golds, chars, abbot=0, seed=0):
    """The Abbot's turn at seat ``abbot`` with stashes ``golds``: (events, state)."""
    st, tb = setup(ruleset, len(golds), "builder", chars)
    h.set_holders(st, {B: abbot})
    for s, g in enumerate(golds):
        h.set_gold(st, s, g)
    h.set_hand(st, abbot, ["Dragon Gate"] if ruleset == "2016" else ["Great Wall"])
    h.reseed(st, seed)
    return play(st, tb, B, abbot), st


def test_rule_091_classic_abbot_single_richest_pays():
    """91. C Abbot: the single richest player (if not the Abbot) pays 1 gold; a tie for
    richest gives nothing."""
    assert GameConfig(ruleset="classic", players=4, characters=C_ABBOT).character_ids[B] == L.CH_ABBOT
    evs, st = _abbot("classic", [2, 5, 3, 1], C_ABBOT)
    trib = h.of_type(evs, "tribute")
    assert len(trib) == 1 and trib[0].seat == 0 and trib[0].a == 1 and trib[0].b == 1
    assert types_in(evs).index("tribute") < types_in(evs).index("gather_gold")
    assert h.gold(st, 1) == 4 and h.gold(st, 0) == 2 + 1 + 2
    assert h.gold_conserved(st)
    # a tie for richest: nothing (also when the Abbot is poorer than both)
    for golds in ([2, 5, 5, 1], [5, 5, 3, 1], [0, 0, 0, 0]):
        evs, st = _abbot("classic", golds, C_ABBOT)
        assert not h.of_type(evs, "tribute"), golds
        assert [h.gold(st, s) for s in (1, 2, 3)] == golds[1:]
    # the Abbot is the single richest: nothing
    evs, st = _abbot("classic", [6, 5, 3, 1], C_ABBOT)
    assert not h.of_type(evs, "tribute") and h.gold(st, 1) == 5
    # another seat as the Abbot, richest player to his right
    evs, st = _abbot("classic", [1, 0, 9, 4], C_ABBOT, abbot=3)
    assert [(e.seat, e.a) for e in h.of_type(evs, "tribute")] == [(3, 2)]
    assert h.gold(st, 2) == 8


def test_rule_092_2016_abbot_one_of_the_richest_pays():
    """92. P Abbot: if anyone is strictly richer, the Abbot picks one of the richest to pay
    him 1 gold; if the Abbot is tied for richest, nothing."""
    evs, st = _abbot("2016", [2, 5, 3, 1], P_ABBOT)
    assert [(e.seat, e.a, e.b) for e in h.of_type(evs, "tribute")] == [(0, 1, 1)]
    assert h.gold(st, 1) == 4
    # two richest players: one of them pays (each can be chosen)
    payers = Counter()
    for seed in range(60):
        evs, st = _abbot("2016", [2, 5, 5, 1], P_ABBOT, seed=seed)
        trib = h.of_type(evs, "tribute")
        assert len(trib) == 1 and trib[0].a in (1, 2)
        payers[trib[0].a] += 1
        assert sorted([h.gold(st, 1), h.gold(st, 2)]) == [4, 5]
        assert h.gold_conserved(st)
    assert set(payers) == {1, 2}
    # the Abbot tied for richest, or the single richest: nothing
    for golds in ([5, 5, 3, 1], [6, 5, 3, 1], [0, 0, 0, 0]):
        evs, st = _abbot("2016", golds, P_ABBOT)
        assert not h.of_type(evs, "tribute"), golds
        assert [h.gold(st, s) for s in (1, 2, 3)] == golds[1:]
    # 1 gold is enough to be strictly richer than a broke Abbot
    evs, st = _abbot("2016", [0, 1, 0, 0], P_ABBOT)
    assert [e.a for e in h.of_type(evs, "tribute")] == [1] and h.gold(st, 1) == 0


def test_rule_093_2016_abbot_income_mix():
    """93. P Abbot: his income is a declared mix of gold and cards totalling his religious
    districts.

    (A School of Magic gives 1 resource of choice; the classic Abbot takes gold only.)"""
    city = ["Temple", "Church", "Monastery", "School of Magic", "Manor", "Market"]
    splits = Counter()
    for seed in range(150):
        st, tb = setup("2016", 4, "random", P_ABBOT)
        h.set_holders(st, {B: 0})
        h.set_city(st, 0, city)
        h.set_gold(st, 0, 3)
        h.reseed(st, seed)
        evs = play(st, tb, B, 0)
        inc = h.of_type(evs, "income")
        assert len(inc) == 1
        e = inc[0]
        assert e.b == L.T_RELIGIOUS and e.a + e.c == 4
        prev = evs[evs.index(e) - 1]
        assert e.gold[0] - prev.gold[0] == e.a and e.hand_n[0] - prev.hand_n[0] == e.c
        splits[e.c] += 1
    assert set(splits) == {0, 1, 2, 3, 4}
    # the builder declares 1 card (no useful card in hand) and 3 gold
    st, tb = setup("2016", 4, "builder", P_ABBOT)
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, city)
    h.set_hand(st, 0, ["Manor"])  # useless: he draws two more useless Manors
    h.set_deck(st, ["Manor", "Manor", "Palace", "Harbor"])
    evs = play(st, tb, B, 0)
    e = h.of_type(evs, "income")[0]
    assert (e.a, e.c) == (3, 1)
    # classic: 4 gold, no card
    st, tb = setup("classic", 4, "random", C_ABBOT)
    h.set_holders(st, {B: 0})
    h.set_city(st, 0, city)
    for seed in range(20):
        h.reseed(st, seed)
        e = h.of_type(play(st, tb, B, 0), "income")[0]
        assert (e.a, e.c) == (4, 0)


# =============================================================================================
# Rank 6: Alchemist, Trader
# =============================================================================================
def test_rule_096_alchemist_refund_build_gold_only():
    """96. The Alchemist's refund is the gold paid for builds this turn, minus gold returned
    by a confiscation; never taxes, Smithy payments or cards."""
    # classic: the whole build cost comes back
    st, tb = setup("classic", 4, "builder", C_ALCHEMIST)
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "gather_gold", "build", "refund"]
    assert h.of_type(evs, "refund")[0].a == 5 and h.gold(st, 0) == 5
    # 2016 with the Tax Collector in the set: the tax is not refunded
    st, tb = setup("2016", 4, "builder", P_ALCHEMIST_TC)
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 7)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "gather_gold", "build", "tax", "refund"]
    assert h.of_type(evs, "refund")[0].a == 5
    assert h.gold(st, 0) == 7 + 2 - 5 - 1 + 5 and pile(st) == 1
    assert gold_conserved(st)
    # the Smithy's 2 gold are not refunded
    st, tb = setup("2016", 4, "builder", P_ALCHEMIST_TC)
    h.set_holders(st, {ME: 0})
    h.set_city(st, 0, ["Smithy"])
    h.set_hand(st, 0, ["Palace"])  # one useful card: gold, then the Smithy
    h.set_deck(st, ["Tavern", "Temple", "Watchtower", "Castle"])
    h.set_gold(st, 0, 1)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "gather_gold", "smithy", "build", "refund"]
    assert h.of_type(evs, "build")[0].c == 1
    assert h.of_type(evs, "refund")[0].a == 1 and h.gold(st, 0) == 1
    # Thieves' Den paid partly with cards: only the gold comes back
    st, tb = setup("2016", 4, "builder", P_ALCHEMIST_TC)
    h.set_holders(st, {ME: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Thieves' Den", "Manor", "Manor", "Manor"])
    h.set_gold(st, 0, 2)
    evs = play(st, tb, ME, 0)
    b = h.of_type(evs, "build")[0]
    assert (b.a, b.b, b.c, b.d) == (L.D_THIEVES_DEN, 6, 4, 2)
    assert h.of_type(evs, "refund")[0].a == 4 and h.gold(st, 0) == 4
    # no build, no refund
    st, tb = setup("classic", 4, "builder", C_ALCHEMIST)
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, ["Palace"])
    evs = play(st, tb, ME, 0)
    assert not h.of_type(evs, "refund") and h.gold(st, 0) == 2


def test_rule_098_trader_trade_districts_do_not_count():
    """98. The Trader's trade districts do not count toward his build limit."""
    hand = ["Tavern", "Market", "Trading Post", "Docks", "Harbor", "Manor", "Temple"]
    st, tb = setup("2016", 4, "builder", P_TRADER)
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, hand)
    h.set_gold(st, 0, 100)
    evs = play(st, tb, ME, 0)
    built = [e.a for e in h.of_type(evs, "build")]
    assert sorted(built) == sorted(h.kinds(["Tavern", "Market", "Trading Post", "Docks", "Harbor",
                                            "Manor"]))
    assert h.hand_list(st, 0) == [h.kind("Temple")]
    # trade income counts the 5 trade districts built first; no +1 gold like the Merchant
    assert h.of_type(evs, "income")[0].a == 5 and not h.of_type(evs, "bonus_gold")
    assert h.gold(st, 0) == 100 + 2 - (1 + 2 + 2 + 3 + 4 + 3) + 5
    # the Merchant in the same situation builds one district
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, hand)
    h.set_gold(st, 0, 100)
    assert len(h.of_type(play(st, tb, ME, 0), "build")) == 1
    # the exemption is the Trader's only: other characters' trade builds count
    st, tb = setup("2016", 4, "builder", P_TRADER)
    h.set_holders(st, {K: 0})
    h.set_hand(st, 0, hand)
    h.set_gold(st, 0, 100)
    assert len(h.of_type(play(st, tb, K, 0), "build")) == 1


# =============================================================================================
# Rank 7: Navigator, Scholar
# =============================================================================================
@pytest.mark.parametrize("ruleset,chars", [("classic", C_NAVIGATOR), ("2016", P_NAVIGATOR)])
def test_rule_100_navigator_four_gold_or_cards_no_build(ruleset, chars):
    """100. The Navigator gains 4 gold or 4 cards and cannot build at all, even Stables or by
    Framework.

    (C: after his gather action.)"""
    # a useful card in hand: 4 gold; rich, but no build
    st, tb = setup(ruleset, 4, "builder", chars)
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Tavern"])
    h.set_gold(st, 0, 10)
    evs = play(st, tb, AR, 0)
    assert types_in(evs) == ["call", "gather_gold", "navigator"]
    assert (evs[-1].a, evs[-1].b) == (4, 0) and h.gold(st, 0) == 16
    assert h.city_list(st, 0) == []
    # nothing useful: he draws, then takes 4 cards; 4 buildable cards, still no build
    st, tb = setup(ruleset, 4, "builder", chars)
    h.set_holders(st, {AR: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Manor"])
    h.set_deck(st, ["Manor", "Manor", "Tavern", "Temple", "Market", "Docks", "Castle"])
    h.set_gold(st, 0, 10)
    evs = play(st, tb, AR, 0)
    assert types_in(evs) == ["call", "gather_cards", "navigator"]
    assert (evs[-1].a, evs[-1].b) == (0, 4)
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Manor", "Manor", "Tavern", "Temple",
                                                         "Market", "Docks"]))
    assert h.city_list(st, 0) == [h.kind("Manor")] and h.gold(st, 0) == 10
    # random choices: both options, never a build
    seen = set()
    for seed in range(60):
        st, tb = setup(ruleset, 4, "random", chars)
        h.set_holders(st, {AR: 0})
        h.set_hand(st, 0, ["Tavern", "Temple", "Market"])
        h.set_gold(st, 0, 20)
        h.reseed(st, seed)
        evs = play(st, tb, AR, 0)
        nav = h.of_type(evs, "navigator")
        assert len(nav) == 1 and (nav[0].a, nav[0].b) in ((4, 0), (0, 4))
        seen.add((nav[0].a, nav[0].b))
        assert not h.of_type(evs, "build") and h.city_list(st, 0) == []
    assert seen == {(4, 0), (0, 4)}
    if ruleset == "2016":
        # the Stables in hand (it does not count toward a limit) and a Framework in his city,
        # with plenty of gold: still no build of any kind
        for fam in ("builder", "random"):
            for seed in range(20 if fam == "random" else 1):
                st, tb = setup(ruleset, 4, fam, chars, districts="ambitious_aristocrats",
                               seed=seed)
                h.set_holders(st, {AR: 0})
                h.set_city(st, 0, ["Framework"])
                h.set_hand(st, 0, ["Stables", "Palace", "Tavern"])
                h.set_gold(st, 0, 30)
                h.reseed(st, seed)
                assert rules.can_build(st, tb, 0, h.kind("Stables"))
                evs = play(st, tb, AR, 0)
                assert len(h.of_type(evs, "navigator")) == 1
                assert not h.of_type(evs, "build", "sacrifice", "confiscate")
                assert h.city_list(st, 0) == [h.kind("Framework")]
                assert {h.kind("Stables"), h.kind("Palace")} <= set(h.hand_list(st, 0))


def test_rule_101_scholar_draw_7_keep_1_shuffle_limit_2():
    """101. The Scholar draws 7, keeps 1 and shuffles the rest back into the deck; build
    limit 2."""
    drawn = ["Palace", "Cathedral", "Fortress", "Castle", "Harbor", "Town Hall", "Palace"]
    below = ["Manor", "Tavern", "Temple", "Market", "Watchtower", "Church", "Prison"]
    deck = drawn + below
    returned_on_top = 0
    for seed in range(30):
        st, tb = setup("2016", 4, "builder", P_SCHOLAR)
        h.set_holders(st, {AR: 0})
        h.set_hand(st, 0, ["Dragon Gate"])  # useful: gold; 2 gold buy nothing drawn
        h.set_deck(st, deck)
        h.reseed(st, seed)
        evs = play(st, tb, AR, 0)
        sch = h.of_type(evs, "scholar")
        assert len(sch) == 1 and sch[0].a == 7
        assert types_in(evs).index("gather_gold") < types_in(evs).index("scholar")
        kept = sch[0].b
        assert h.hand_list(st, 0) == [h.kind("Dragon Gate"), kept]
        assert kept in h.kinds(drawn)
        after = h.deck_list(st)
        rest = list(h.kinds(deck))
        rest.remove(kept)
        assert Counter(after) == Counter(rest)  # the 6 others are back; nothing lost
        # the whole deck is shuffled, not just the 6 put under the 7 never drawn
        assert after[:7] != h.kinds(below)
        returned_on_top += after[0] in h.kinds(drawn)
    assert returned_on_top > 5
    # fewer than 7 cards: he draws them all and keeps 1 (D5)
    st, tb = setup("2016", 4, "builder", P_SCHOLAR)
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Dragon Gate"])
    h.set_deck(st, ["Palace", "Cathedral", "Castle"])
    evs = play(st, tb, AR, 0)
    assert h.of_type(evs, "scholar")[0].a == 3
    assert st.p[0, L.P_HAND_N] == 2 and st.g[L.G_DECK_N] == 2
    # build limit 2
    st, tb = setup("2016", 4, "builder", P_SCHOLAR)
    h.set_holders(st, {AR: 0})
    h.set_hand(st, 0, ["Temple", "Tavern", "Watchtower", "Manor", "Church", "Market"])
    h.set_gold(st, 0, 100)
    evs = play(st, tb, AR, 0)
    assert len(h.of_type(evs, "build")) == 2


# =============================================================================================
# Rank 9: Queen
# =============================================================================================
def _queen(ruleset, chars, queen, king, killed=None, players=5, crown=0):
    """Queen at seat ``queen``, the rank-4 character at seat ``king`` (None: not in play):
    plays the round's turns from rank 4 and the end of the round; returns the Queen's gold
    gained in her turn and at the end of the round."""
    st, tb = setup(ruleset, players, "builder", chars)
    st.g[L.G_CROWN] = crown
    holders = {R9: queen}
    if king is not None:
        holders[K] = king
    h.set_holders(st, holders)
    if killed is not None:
        h.kill(st, killed)
    for s in range(players):
        h.set_hand(st, s, ["Dragon Gate"] if ruleset == "2016" else ["Great Wall"])
    if king is not None and killed != K:
        play(st, tb, K, king)
    g0 = h.gold(st, queen)
    in_turn = 0
    if killed != R9:
        evs = play(st, tb, R9, queen)
        in_turn = h.gold(st, queen) - g0 - 2  # less the gathered 2 gold
        assert sum(e.a for e in h.of_type(evs, "queen")) == in_turn
    g1 = h.gold(st, queen)
    h.clear_log(st)
    game._end_round(st, tb)
    at_end = h.gold(st, queen) - g1
    assert sum(e.a for e in h.of_type(h.events(st), "queen")) == at_end
    return in_turn, at_end


def test_rule_112_queen():
    """112. The Queen gains +3 if an adjacent seat revealed rank 4; for a killed adjacent
    rank 4 she gains +3 at the end of the round; a killed Queen gains nothing."""
    q = C_QUEEN
    # revealed neighbour, on either side and across the table's end
    assert _queen("classic", q, 2, 1) == (3, 0)
    assert _queen("classic", q, 2, 3) == (3, 0)
    assert _queen("classic", q, 0, 4) == (3, 0)
    assert _queen("classic", q, 4, 0) == (3, 0)
    assert _queen("classic", q, 3, 4, players=8) == (3, 0)
    # not a neighbour, or no rank-4 character in play
    assert _queen("classic", q, 2, 4) == (0, 0)
    assert _queen("classic", q, 2, 0) == (0, 0)
    assert _queen("classic", q, 2, None) == (0, 0)
    # the card counts, not the crown: a neighbour with the crown but no King gives nothing
    assert _queen("classic", q, 2, 4, crown=1) == (0, 0)
    # killed neighbour: +3 at the end of the round; killed non-neighbour: nothing
    assert _queen("classic", q, 2, 1, killed=K) == (0, 3)
    assert _queen("classic", q, 2, 4, killed=K) == (0, 0)
    # the killed Queen gains nothing
    assert _queen("classic", q, 2, 1, killed=R9) == (0, 0)
    # 2016: any rank-4 character (the Patrician here)
    pq = cset("2016", "Patrician", "Queen")
    assert _queen("2016", pq, 2, 1) == (3, 0)
    assert _queen("2016", pq, 2, 3, killed=K) == (0, 3)
    assert _queen("2016", pq, 2, 4) == (0, 0)
    assert _queen("2016", pq, 2, 1, killed=R9) == (0, 0)


# =============================================================================================
# Rank 9: 2016 Tax Collector
# =============================================================================================
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


# =============================================================================================
# Build limits (RULES.md §2.5.1)
# =============================================================================================
NON_TRADE = ["Temple", "Church", "Watchtower", "Prison", "Manor", "Monastery", "Castle"]
LIMITS = [
    ("classic", C_ABBOT, B, L.CH_ABBOT, 1),
    ("classic", C_ALCHEMIST, ME, L.CH_ALCHEMIST, 1),
    ("classic", C_NAVIGATOR, AR, L.CH_NAVIGATOR, 0),
    ("classic", C_QUEEN, R9, L.CH_QUEEN, 1),
    ("2016", P_PATRICIAN, K, L.CH_PATRICIAN, 1),
    ("2016", P_ABBOT, B, L.CH_ABBOT, 1),
    ("2016", P_ALCHEMIST_TC, ME, L.CH_ALCHEMIST, 1),
    ("2016", P_TRADER, ME, L.CH_TRADER, 1),
    ("2016", P_NAVIGATOR, AR, L.CH_NAVIGATOR, 0),
    ("2016", P_SCHOLAR, AR, L.CH_SCHOLAR, 2),
    ("2016", P_QUEEN, R9, L.CH_QUEEN, 1),
    ("2016", P_TC, R9, L.CH_TAX_COLLECTOR, 1),
]


@pytest.mark.parametrize("ruleset,chars,rank,char,limit", LIMITS,
                         ids=[f"{x[0]}-{L.CHARACTER_KEYS[x[3]]}" for x in LIMITS])
def test_build_limit_table(ruleset, chars, rank, char, limit):
    """§2.5.1 Build limit: default 1; Seer, Scholar 2; Navigator 0 (no build of any kind);
    Trader: trade districts do not count (his limit for the others is 1)."""
    assert rules.build_limit(char) == limit
    players = 5 if char == L.CH_QUEEN else 4
    st, tb = setup(ruleset, players, "builder", chars)
    assert st.g[L.G_RANK_CHAR + rank] == char
    h.set_holders(st, {rank: 0})
    h.set_hand(st, 0, NON_TRADE)
    h.set_gold(st, 0, 100)
    evs = play(st, tb, rank, 0)
    assert len(h.of_type(evs, "build")) == limit
    # a trade district counts for everyone but the Trader, and the Navigator never builds
    st.g[L.G_TURN_CHAR] = char
    st.g[L.G_BUILDS_LEFT] = 0
    assert rules.counts_toward_limit(st, tb, h.kind("Market")) == (char != L.CH_TRADER)
    assert rules.counts_toward_limit(st, tb, h.kind("Manor"))
    st.g[L.G_TURN_CHAR] = -1


def test_build_limits_in_played_games():
    """§2.5.1 in played games: the Navigator never builds, the Scholar builds at most 2, the
    Trader at most 1 non-trade district, every other roster character at most 1."""
    seen = Counter()
    for ruleset, players, chars in GAME_CONFIGS:
        for evs, st, tb in roster_games(ruleset, players, chars):
            for t in h.turns(evs):
                ch = int(tb.cfg[L.G_RANK_CHAR + t[0].rank])
                builds = h.of_type(t, "build")
                non_trade = [e for e in builds if tb.kinds[L.K_TYPE, e.a] != L.T_TRADE]
                if ch == L.CH_NAVIGATOR:
                    assert not builds
                elif ch == L.CH_SCHOLAR:
                    assert len(builds) <= 2
                elif ch == L.CH_TRADER:
                    assert len(non_trade) <= 1
                    seen["trader_multi"] += len(builds) > 1
                elif ch == L.CH_ARCHITECT:
                    assert len(builds) <= 3
                else:
                    assert len(builds) <= 1
                seen[ch] += 1
    for ch in (L.CH_PATRICIAN, L.CH_ABBOT, L.CH_ALCHEMIST, L.CH_TRADER, L.CH_NAVIGATOR,
               L.CH_SCHOLAR, L.CH_QUEEN, L.CH_TAX_COLLECTOR):
        assert seen[ch] > 5, L.CHARACTER_KEYS[ch]
    assert seen["trader_multi"] > 0


# =============================================================================================
# Whole games with the roster characters
# =============================================================================================
GAME_CONFIGS = [
    ("2016", 3, P_ALCHEMIST_TC),
    ("2016", 3, P_NOBLES_TC),
    ("2016", 4, P_TC),
    ("2016", 5, cset("2016", "Patrician", "Abbot", "Trader", "Scholar", "Tax Collector")),
    ("2016", 8, cset("2016", "Abbot", "Alchemist", "Navigator", "Queen")),
    ("2016", 6, cset("2016", "Patrician", "Abbot", "Trader", "Navigator", "Queen")),
    ("classic", 8, cset("classic", "Abbot", "Alchemist", "Navigator", "Queen")),
    ("classic", 5, C_QUEEN),
]
GAMES = 6


def _games(ruleset, players, chars):
    return h.played_games(ruleset, players, chars, 9090, GAMES)


def roster_games(ruleset, players, chars):
    """Played, logged games of a roster configuration: list of (events, state, tables)."""
    return list(_games(ruleset, players, tuple(chars)))


@pytest.mark.parametrize("ruleset,players,chars", GAME_CONFIGS)
def test_roster_games_conserve_and_follow_powers(ruleset, players, chars):
    """Whole games with the roster characters: cards and gold (stashes + tax pile) are
    conserved; every power event is what its character's rule gives (Navigator 4 and 4,
    Alchemist refund = build gold of the turn, tax right after a build exactly when due,
    Queen +3 only next to the rank-4 holder, tribute from a richest other player)."""
    for evs, st, tb in roster_games(ruleset, players, chars):
        assert st.g[L.G_OVER] == 1
        assert h.total_cards(st) == tb.kinds[L.K_COUNT].sum()
        assert gold_conserved(st) and h.kinds_consistent(st)
        assert (st.p[:players, L.P_GOLD] >= 0).all()
        has_tc = tb.cfg[L.G_RANK_CHAR + R9] == L.CH_TAX_COLLECTOR
        for t in h.turns(evs):
            ch = int(tb.cfg[L.G_RANK_CHAR + t[0].rank])
            seat = t[0].seat
            for i, e in enumerate(t):
                if e.type == "build":
                    due = has_tc and ch != L.CH_TAX_COLLECTOR and e.gold[seat] >= 1
                    nxt = t[i + 1].type if i + 1 < len(t) else None
                    assert (nxt == "tax") == bool(due), (ch, e)
                elif e.type == "navigator":
                    assert ch == L.CH_NAVIGATOR
                    assert (e.a, e.b) in ((4, 0), (0, 4)) or (e.a == 0 and e.deck_n == 0)
                elif e.type == "refund":
                    assert ch == L.CH_ALCHEMIST and i == len(t) - 1
                    assert e.a == sum(b.c for b in h.of_type(t, "build")) > 0
                elif e.type == "tribute":
                    prev = t[i - 1]
                    others = [prev.gold[o] for o in range(players) if o != seat]
                    assert ch == L.CH_ABBOT and prev.gold[e.a] == max(others) > prev.gold[seat]
                    if ruleset == "classic":
                        assert others.count(max(others)) == 1
                elif e.type == "scholar":
                    assert ch == L.CH_SCHOLAR and 1 <= e.a <= 7
            if ch == L.CH_ALCHEMIST and any(b.c > 0 for b in h.of_type(t, "build")):
                assert h.of_type(t, "refund")
        # the Queen: +3 only with the rank-4 holder next to her
        for es in h.rounds(evs).values():
            picks = {e.a: e.seat for e in es if e.type == "pick"}
            for e in es:
                if e.type == "queen":
                    k = picks.get(K)
                    assert e.seat == picks[R9] and k is not None and e.a == 3
                    assert (e.seat - k) % players in (1, players - 1)
