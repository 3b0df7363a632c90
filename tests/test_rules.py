"""One test per rule of the implementer's checklist (RULES.md §6) that applies to the base
game the kernel plays today (the 8 base characters; the classic base purples and the 2016
``first_game`` unique districts), plus the configuration-validation messages.

Each test puts the kernel into an exact situation (``kernel_helpers``) with strategies whose
choice is forced or deterministic there, or checks the property over many games or draws.
Tests named ``test_rule_NNN_*`` carry the checklist text in their docstring.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest

import kernel_helpers as h
import reference_scoring as ref
from citadels_sim.game.config import ConfigError, GameConfig
from citadels_sim.kernel import characters, districts, draft, game, layout as L, rules, scoring
from citadels_sim.kernel import state as S


def setup(ruleset="classic", *args, **kw):
    """An exact situation: every hand and city empty, 0 gold (classic by default)."""
    return h.empty_state(ruleset, *args, **kw)


cset, play, types_in = h.cset, h.play_turn_events, h.types_in
gold_conserved, pile, golds = h.gold_conserved, h.tax_pile, h.golds


A, T, M, K, B, ME, AR, W = range(8)  # rank indices of the base characters
FAMILIES = h.FAMILIES


def popcount(x: int) -> int:
    return bin(int(x)).count("1")


def lineup(players, shift=0):
    return tuple(FAMILIES[(i + shift) % 4] for i in range(players))


# ---- logged games shared by the whole-game tests --------------------------------------------
CONFIGS = ([("classic", n) for n in range(2, 8)] + [("2016", n) for n in (2, 4, 5, 6, 7)]
           + [("four_color", n) for n in range(2, 8)])
GAMES_PER_CONFIG = 8


@functools.lru_cache(maxsize=None)
def logged_games(ruleset, players, games=GAMES_PER_CONFIG):
    """Played games with their event logs: list of (events, final state, tables)."""
    out = []
    for g in range(games):
        st, tb = h.make_state(ruleset, players, lineup(players, g), seed=20240, game=g, log=True)
        h.play_game(st, tb)
        assert st.g[L.G_LOG_N] < L.LOG_CAP, "log overflow"
        out.append((h.events(st), st, tb))
    return out


def all_games():
    for ruleset, players in CONFIGS:
        for evs, st, tb in logged_games(ruleset, players):
            yield ruleset, players, evs, st, tb


def draft_rounds(evs):
    """Per round: (picks [(seat, rank)], face-up ranks, face-down ranks, crown at the draft)."""
    out = []
    for rnd, es in sorted(h.rounds(evs).items()):
        if rnd == 0:
            continue
        picks = [(e.seat, e.a) for e in es if e.type == "pick"]
        up = [e.a for e in es if e.type == "discard_face_up"]
        down = [e.a for e in es if e.type == "discard_face_down"]
        crown = next(e.crown for e in es if e.type in ("pick", "discard_face_up",
                                                       "discard_face_down"))
        out.append((rnd, es, picks, up, down, crown))
    return out


# =============================================================================================
# Configuration and setup
# =============================================================================================
@pytest.mark.parametrize("ruleset,players", [("classic", 4), ("classic", 7), ("2016", 2),
                                             ("2016", 5), ("four_color", 3)])
def test_rule_001_start_with_4_cards_and_2_gold(ruleset, players):
    """1. Each player starts with 4 district cards and 2 gold, dealt from a shuffled deck."""
    tb, _ = h.make_tables(ruleset, players)
    orders = set()
    for seed in range(5):
        st = S.new_state(tb, seed, 0, False)
        for s in range(players):
            assert st.p[s, L.P_HAND_N] == 4
            assert st.p[s, L.P_GOLD] == 2
            assert st.p[s, L.P_CITY_N] == 0
        assert st.p[players:, L.P_HAND_N].sum() == 0
        assert st.g[L.G_DECK_N] == tb.kinds[L.K_COUNT].sum() - 4 * players
        # every card is in the deck or a hand
        seen = Counter(h.deck_list(st))
        for s in range(players):
            seen.update(h.hand_list(st, s))
        assert seen == Counter({k: int(c) for k, c in enumerate(tb.kinds[L.K_COUNT]) if c})
        # hands are dealt from the top of a shuffled deck
        orders.add(tuple(h.hand_list(st, 0)) + tuple(h.deck_list(st)[:10]))
    assert len(orders) == 5


def test_rule_002_deck_sizes():
    """2. Deck sizes: C default 66 (54 + 12 purple), P 68 (54 + 14 unique), F 54 with no
    purple card."""
    expected = {"classic": (66, 12), "2016": (68, 14), "four_color": (54, 0)}
    for ruleset, (size, purple) in expected.items():
        tb, _ = h.make_tables(ruleset, 4)
        counts = tb.kinds[L.K_COUNT]
        assert counts.sum() == size, ruleset
        n_purple = sum(int(c) for k, c in enumerate(counts) if c and tb.kinds[L.K_TYPE, k] == L.T_UNIQUE)
        assert n_purple == purple, ruleset
        # 54 coloured cards: noble 12, religious 11, trade 20, military 11
        by_type = Counter()
        for k, c in enumerate(counts):
            if c:
                by_type[int(tb.kinds[L.K_TYPE, k])] += int(c)
        assert [by_type[t] for t in range(4)] == [12, 11, 20, 11], ruleset
        st = S.new_state(tb, 1, 0, False)
        assert h.total_cards(st) == size
    # classic: 11 purple names, the Keep twice
    tb, _ = h.make_tables("classic", 4)
    assert tb.kinds[L.K_COUNT][h.kind("Keep")] == 2
    assert sum(1 for k, c in enumerate(tb.kinds[L.K_COUNT]) if c and tb.kinds[L.K_TYPE, k] == L.T_UNIQUE) == 11
    # 2016 first_game: exactly the preset's 14 unique districts
    tb, _ = h.make_tables("2016", 4)
    uniques = {h.key(k) for k, c in enumerate(tb.kinds[L.K_COUNT]) if c and tb.kinds[L.K_TYPE, k] == L.T_UNIQUE}
    assert uniques == {"dragon_gate", "factory", "haunted", "imperial_treasury", "keep",
                       "laboratory", "library", "map_room", "quarry", "school_of_magic",
                       "smithy", "statue", "thieves_den", "wishing_well"}


def test_rule_003_bonus_purples():
    """3. C: adding k <= 3 bonus purples removes nothing; k > 3 requires removing exactly
    k - 3 base purple cards."""
    def purples(tb):
        return sum(int(c) for k, c in enumerate(tb.kinds[L.K_COUNT])
                   if tb.kinds[L.K_TYPE, k] == L.T_UNIQUE)
    for k, bonus in enumerate([(), ("Museum",), ("Museum", "Park"),
                               ("Museum", "Park", "Armory")]):
        tb, _ = h.make_tables("classic", 4, districts=bonus)
        assert purples(tb) == 12 + k and int(tb.kinds[L.K_COUNT].sum()) == 66 + k
    four = ("Museum", "Park", "Armory", "Lighthouse")
    with pytest.raises(ConfigError, match="exactly 1 base purple"):
        GameConfig(ruleset="classic", players=4, districts=four)
    tb, _ = h.make_tables("classic", 4, districts=four, removed=("Smithy",))
    assert purples(tb) == 12 + 4 - 1 and tb.kinds[L.K_COUNT, L.D_SMITHY] == 0
    with pytest.raises(ConfigError, match="Keep"):  # a base purple is not a bonus to add
        GameConfig(ruleset="classic", players=4, districts=("Keep",))


def test_rule_004_diplomat_rejected_with_graveyard():
    """4. C: a set containing the Diplomat is rejected while the Graveyard is in the deck."""
    chars = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
             "Diplomat"]
    with pytest.raises(ConfigError, match="Diplomat"):
        GameConfig(ruleset="classic", players=4, characters=chars)


def test_rule_006_four_color_base_characters_and_players():
    """6. F: only the base 8 characters and 2-7 players are accepted."""
    for n in range(2, 8):
        GameConfig(ruleset="four_color", players=n)
    for n in (1, 8):
        with pytest.raises(ConfigError, match=str(n)):
            GameConfig(ruleset="four_color", players=n)
    chars = ["Witch", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord"]
    with pytest.raises(ConfigError, match="Witch"):
        GameConfig(ruleset="four_color", players=4, characters=chars)
    with pytest.raises(ConfigError):
        GameConfig(ruleset="four_color", players=5,
                   characters=chars[1:] + ["Assassin", "Queen"])
    with pytest.raises(ConfigError, match="four_color"):
        GameConfig(ruleset="four_color", players=4, districts=("Keep",))


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_007_queen_needs_5_players(ruleset):
    """7. The Queen is rejected with fewer than 5 players (C, P)."""
    chars = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
             "Warlord", "Queen"]
    with pytest.raises(ConfigError, match="Queen.*5"):
        GameConfig(ruleset=ruleset, players=4, characters=chars)


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_008_emperor_not_with_2_players(ruleset):
    """8. The Emperor is rejected with 2 players (C, P)."""
    chars = ["Assassin", "Thief", "Magician", "Emperor", "Bishop", "Merchant", "Architect",
             "Warlord"]
    with pytest.raises(ConfigError, match="Emperor"):
        GameConfig(ruleset=ruleset, players=2, characters=chars)


def test_rule_011_clear_rejections():
    """11. Rejected with a clear message: 1 player, 9+ players, two characters of one rank,
    a missing rank 1-8, an unknown name."""
    with pytest.raises(ConfigError, match=r"\b1 player"):
        GameConfig(players=1)
    with pytest.raises(ConfigError, match=r"\b9 players"):
        GameConfig(players=9)
    two = ["Assassin", "Thief", "Magician", "King", "Emperor", "Bishop", "Merchant", "Architect"]
    with pytest.raises(ConfigError, match="rank 4.*King.*Emperor"):
        GameConfig(players=4, characters=two)
    missing = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect"]
    with pytest.raises(ConfigError, match="rank 8"):
        GameConfig(players=4, characters=missing)
    unknown = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
               "Warlard"]
    with pytest.raises(ConfigError, match="Warlard.*Warlord"):
        GameConfig(players=4, characters=unknown)


def test_rule_012_initial_crown():
    """12. The initial crown holder follows the ruleset (C/P: seat 0; F: random seat)."""
    for ruleset in ("classic", "2016"):
        tb, _ = h.make_tables(ruleset, 5)
        assert {int(S.new_state(tb, 3, g, False).g[L.G_CROWN]) for g in range(50)} == {0}
    tb, _ = h.make_tables("four_color", 4)
    n = 4000
    seats = Counter(int(S.new_state(tb, 9, g, False).g[L.G_CROWN]) for g in range(n))
    assert set(seats) == {0, 1, 2, 3}
    for s in range(4):
        assert abs(seats[s] / n - 0.25) < 0.035, seats
    # a configured first crown is honoured
    tb, _ = h.make_tables("classic", 5, crown_seat=3)
    assert S.new_state(tb, 1, 0, False).g[L.G_CROWN] == 3


# =============================================================================================
# Configuration validation messages (named bad values)
# =============================================================================================
def test_config_unknown_ruleset():
    with pytest.raises(ConfigError, match="'classik'.*classic"):
        GameConfig(ruleset="classik")


def test_config_one_player():
    with pytest.raises(ConfigError, match=r"\b1 player"):
        GameConfig(ruleset="classic", players=1)


def test_config_nine_players():
    for ruleset in ("classic", "2016"):
        with pytest.raises(ConfigError, match=r"\b9 players"):
            GameConfig(ruleset=ruleset, players=9)


def test_config_unknown_character_suggests():
    chars = ["Asassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord"]
    with pytest.raises(ConfigError, match="'Asassin'.*Did you mean 'Assassin'"):
        GameConfig(players=4, characters=chars)


def test_config_two_characters_of_one_rank():
    chars = ["Assassin", "Witch", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
             "Warlord"]
    with pytest.raises(ConfigError, match="rank 1.*Assassin.*Witch"):
        GameConfig(players=5, characters=chars)


def test_config_three_player_2016_needs_rank_9():
    with pytest.raises(ConfigError, match="3-player 2016.*rank-9"):
        GameConfig(ruleset="2016", players=3)


def test_config_four_color_eight_players():
    with pytest.raises(ConfigError, match=r"\b8 players.*four_color"):
        GameConfig(ruleset="four_color", players=8)


# =============================================================================================
# Selection phase
# =============================================================================================
def _draft_once(st, tb):
    h.start_round(st)
    h.clear_log(st)
    draft.draft(st, tb)


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
@pytest.mark.parametrize("players,up", [(4, 2), (5, 1), (6, 0), (7, 0)])
def test_rule_013_face_up_discards_with_8_characters(ruleset, players, up):
    """13. Face-up discards with 8 characters: 4p 2, 5p 1, 6p 0, 7p 0."""
    st, tb = h.make_state(ruleset, players, "random", seed=players)
    assert st.g[L.G_N_FACEUP] == up
    for _ in range(50):
        _draft_once(st, tb)
        assert popcount(st.g[L.G_FACEUP]) == up


def _king_lovers(players):
    return (h.custom("builder", base=[0, 0, 0, 1000, 0, 0, 0, 0, 0]),) * players


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_015_face_up_never_rank_4_and_uniform(ruleset):
    """15. A rank-4 character is never discarded face up; face-up discards are uniform over
    the non-rank-4 cards."""
    st, tb = h.make_state(ruleset, 4, "random", seed=15)
    h.set_faceup_count(st)
    n = 6000
    counts = np.zeros(8)
    for _ in range(n):
        _draft_once(st, tb)
        up = int(st.g[L.G_FACEUP])
        assert popcount(up) == 2
        for r in range(8):
            counts[r] += (up >> r) & 1
    assert counts[K] == 0
    freq = counts / n
    for r in range(8):
        if r != K:
            assert abs(freq[r] - 2 / 7) < 0.035, freq


def _king_face_down_rate(ruleset, n, patch):
    """Fraction of drafts in which nobody holds the King although every seat wants it:
    the King was the initial face-down card (it is never face up, and the first seat that
    sees it keeps it, so it is never the leftover)."""
    st, tb = h.make_state(ruleset, 4, _king_lovers(4), seed=16)
    if patch:
        h.set_faceup_count(st)
    down = 0
    for _ in range(n):
        _draft_once(st, tb)
        assert not (st.g[L.G_FACEUP] >> K) & 1
        down += st.g[L.G_HOLDER + K] < 0
    return down / n


@pytest.mark.parametrize("ruleset", ["classic", "four_color"])
def test_rule_016_face_down_first_classic(ruleset):
    """16. C, F: the face-down discard is drawn before the face-up ones and can be rank 4
    (King face-down = 1/8 with 8 characters)."""
    rate = _king_face_down_rate(ruleset, 12000, patch=False)
    assert abs(rate - 1 / 8) < 0.012, rate


def test_rule_017_face_up_first_2016():
    """17. P: the face-up discards are drawn before the face-down one (4p, 8 characters:
    King face-down = 1/6)."""
    rate = _king_face_down_rate("2016", 12000, patch=False)
    assert abs(rate - 1 / 6) < 0.012, rate


def test_rule_018_crowned_player_picks_first_then_left():
    """18. The crowned player picks first; picking then proceeds to the left in seat order."""
    for players in (2, 3, 4, 5, 7):
        st, tb = h.make_state("classic", players, "random", seed=18, log=True)
        for crown in range(players):
            st.g[L.G_CROWN] = crown
            _draft_once(st, tb)
            seats = [e.seat for e in h.events(st) if e.type == "pick"]
            assert seats == [(crown + i) % players for i in range(len(seats))]
    for ruleset, players, evs, st, tb in all_games():
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            assert [s for s, _ in picks] == [(crown + i) % players for i in range(len(picks))]


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
@pytest.mark.parametrize("players", [4, 5, 6])
def test_rule_019_leftover_discarded_face_down(ruleset, players):
    """19. After the last pick, the single leftover card is discarded face down."""
    st, tb = h.make_state(ruleset, players, "random", seed=19, log=True)
    up_n = h.RULES_FACE_UP[8][players]
    for _ in range(200):
        _draft_once(st, tb)
        evs = h.events(st)
        picks = [e.a for e in evs if e.type == "pick"]
        up = [e.a for e in evs if e.type == "discard_face_up"]
        down = [e.a for e in evs if e.type == "discard_face_down"]
        assert len(picks) == players and len(up) == up_n
        assert len(down) == 2  # the initial face-down card and the leftover
        assert sorted(picks + up + down) == list(range(8))
        assert all(e.type == "discard_face_down" for e in evs[-len(down):])


def test_rule_020_seventh_player_takes_face_down_card():
    """20. 7 players with 8 characters, and 8 players with 9: the last picker chooses between
    the last card and the initial face-down card, and discards the other face down.

    Seats 0-5 never keep the King while they have another card; seat 6 always wants it.
    Seat 6 gets the King every round, also when it was the initial face-down card (1/8)."""
    haters = h.custom("builder", base=[0, 0, 0, -1000, 0, 0, 0, 0, 0])
    st, tb = h.make_state("classic", 7, (haters,) * 6 + _king_lovers(1), seed=20, log=True)
    for _ in range(400):
        _draft_once(st, tb)
        assert st.g[L.G_HOLDER + K] == 6
        evs = h.events(st)
        assert len([e for e in evs if e.type == "pick"]) == 7
        downs = [e.a for e in evs if e.type == "discard_face_down"]
        assert len(downs) == 1 and st.g[L.G_HOLDER + downs[0]] < 0
        assert not any(e.type == "discard_face_up" for e in evs)
    # four_color follows classic (D2)
    st, tb = h.make_state("four_color", 7, "random", seed=21, log=True)
    for _ in range(300):
        _draft_once(st, tb)
        evs = h.events(st)
        assert len([e for e in evs if e.type == "discard_face_down"]) == 1
        assert sum(st.g[L.G_HOLDER:L.G_HOLDER + 8] >= 0) == 7


ORDERED = h.custom("builder", base=[80, 70, 60, 50, 40, 30, 20, 10, 0])  # prefers low ranks


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_022_two_player_draft(ruleset):
    """22. 2 players: A keeps 1 of 7; B keeps 1 and discards 1 of 6; A keeps 1 and discards
    1 of 4; B keeps 1 and discards 1 of 2."""
    st, tb = h.make_state(ruleset, 2, (ORDERED, ORDERED), seed=22, log=True)
    for crown in (0, 1, 0, 1) * 25:
        st.g[L.G_CROWN] = crown
        a, b = crown, 1 - crown
        _draft_once(st, tb)
        evs = [e for e in h.events(st) if e.type in ("pick", "discard_face_down",
                                                       "discard_face_up")]
        assert [(e.type, e.seat) for e in evs] == [
            ("discard_face_down", -1), ("pick", a), ("pick", b), ("discard_face_down", -1),
            ("pick", a), ("discard_face_down", -1), ("pick", b), ("discard_face_down", -1)]
        first_down = evs[0].a
        rest = [r for r in range(8) if r != first_down]  # the 7 cards A sees, best first
        assert [e.a for e in evs[1:]] == [rest[0], rest[1], rest[6], rest[2], rest[5],
                                          rest[3], rest[4]]
        assert sorted(np.flatnonzero(st.g[L.G_HOLDER:L.G_HOLDER + 8] == a)) == [rest[0], rest[2]]
        assert sorted(np.flatnonzero(st.g[L.G_HOLDER:L.G_HOLDER + 8] == b)) == [rest[1], rest[3]]


@pytest.mark.parametrize("ruleset", ["classic", "four_color"])
def test_rule_023_three_player_draft(ruleset):
    """23. 3 players, C and F: 1 face-down discard, then picks A, B, C, A, B, C; the last card
    is discarded face down."""
    st, tb = h.make_state(ruleset, 3, (ORDERED,) * 3, seed=23, log=True)
    for crown in (0, 1, 2) * 30:
        st.g[L.G_CROWN] = crown
        _draft_once(st, tb)
        evs = [e for e in h.events(st) if e.type in ("pick", "discard_face_down",
                                                       "discard_face_up")]
        order = [crown, (crown + 1) % 3, (crown + 2) % 3] * 2
        assert [(e.type, e.seat) for e in evs] == (
            [("discard_face_down", -1)] + [("pick", s) for s in order]
            + [("discard_face_down", -1)])
        rest = [r for r in range(8) if r != evs[0].a]
        assert [e.a for e in evs[1:]] == rest
        for i, s in enumerate(order[:3]):
            assert sorted(np.flatnonzero(st.g[L.G_HOLDER:L.G_HOLDER + 8] == s)) == [rest[i], rest[i + 3]]


@pytest.mark.parametrize("ruleset,players", [("classic", 2), ("classic", 3), ("2016", 2),
                                             ("four_color", 2), ("four_color", 3)])
def test_rule_025_two_characters_each_no_face_up(ruleset, players):
    """25. In 2-3-player games each player holds exactly 2 characters and there are no
    face-up discards."""
    st, tb = h.make_state(ruleset, players, lineup(players), seed=25, log=True)
    assert st.g[L.G_N_FACEUP] == 0
    for _ in range(300):
        _draft_once(st, tb)
        assert st.g[L.G_FACEUP] == 0
        held = Counter(int(x) for x in st.g[L.G_HOLDER:L.G_HOLDER + 8] if x >= 0)
        assert held == {s: 2 for s in range(players)}
        assert not any(e.type == "discard_face_up" for e in h.events(st))
    for evs, _, _ in logged_games(ruleset, players):
        assert not any(e.type == "discard_face_up" for e in evs)


def test_rule_026_all_characters_return_each_round():
    """26. All character cards return to the character deck before each selection phase."""
    picked_later = Counter()
    for ruleset, players, evs, st, tb in all_games():
        rounds = draft_rounds(evs)
        for rnd, es, picks, up, down, crown in rounds:
            ranks = [r for _, r in picks] + up + down
            assert sorted(ranks) == list(range(8)), (ruleset, players, rnd)
            if rnd >= 2:
                picked_later.update(r for _, r in picks)
    # every character is picked again in later rounds
    assert set(picked_later) == set(range(8))


# =============================================================================================
# Calling order and turn structure
# =============================================================================================
def test_rule_027_ranks_called_in_ascending_order():
    """27. Ranks are called in ascending order; a rank nobody holds is skipped."""
    for ruleset, players, evs, st, tb in all_games():
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            held = dict((r, s) for s, r in picks)
            called = [(e.rank, e.seat) for e in es if e.type in ("call", "skip_killed")]
            assert [r for r, _ in called] == sorted(held), (ruleset, players, rnd)
            assert all(held[r] == s for r, s in called)


def test_rule_028_killed_character_gets_no_turn():
    """28. A killed character's holder does not reveal it and gets no turn: no gather, no
    income, no build, no end-of-turn effects (C Hospital excepted)."""
    kills = 0
    for ruleset, players, evs, st, tb in all_games():
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            held = dict((r, s) for s, r in picks)
            killed = [e.a for e in es if e.type == "kill"]
            for k in killed:
                # the turn phase: up to the end-of-round steps (heir, round end)
                phase = es[:next(i for i, e in enumerate(es) if e.type in ("heir", "round_end"))]
                acting = [e for e in phase if e.rank == k]
                if k in held:
                    kills += 1
                    assert [e.type for e in acting] == ["skip_killed"], (ruleset, rnd, acting)
                    assert acting[0].seat == held[k]
                else:
                    assert acting == []
    assert kills > 100
    # direct: the Assassin kills the Merchant; in the full round the Merchant never plays
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {A: 0, ME: 1, W: 2})
    h.only_target(st, ME, A)
    h.set_city(st, 1, ["Market", "Docks"])  # nothing free for the builder Warlord
    h.set_hand(st, 1, ["Palace"])
    before = (h.gold(st, 1), h.hand_list(st, 1), h.city_list(st, 1))
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == ME
    play(st, tb, W, 2)
    game._end_round(st, tb)
    assert (h.gold(st, 1), h.hand_list(st, 1), h.city_list(st, 1)) == before


def test_rule_029_two_characters_two_turns_one_stash():
    """29. A player with two characters takes two separate turns in rank order, with one
    shared stash, hand and city."""
    for ruleset, players in (("classic", 2), ("classic", 3), ("2016", 2), ("four_color", 3)):
        for evs, st, tb in logged_games(ruleset, players):
            for rnd, es, picks, up, down, crown in draft_rounds(evs):
                calls = [e for e in es if e.type in ("call", "skip_killed")]
                per_seat = Counter(e.seat for e in calls)
                assert per_seat == {s: 2 for s in range(players)}
    # direct: Merchant then Architect for the same seat; the gold and cards carry over
    st, tb = setup("classic", 2, "builder")
    h.set_holders(st, {ME: 0, AR: 0, A: 1, T: 1})
    h.set_city(st, 0, ["Market"])
    h.set_hand(st, 0, ["Palace"])  # useful: both turns take gold
    h.set_deck(st, ["Palace"] * 4)  # the Architect draws two more Palaces
    h.set_gold(st, 0, 0)
    play(st, tb, ME, 0)
    assert h.gold(st, 0) == 0 + 2 + 1 + 1  # gather, Merchant +1, 1 trade district
    evs2 = play(st, tb, AR, 0)
    assert types_in(evs2)[:3] == ["call", "gather_gold", "bonus_cards"]
    built = [e for e in evs2 if e.type == "build"]
    assert [e.a for e in built] == [h.kind("Palace")]  # 4 + 2 = 6 gold pays one Palace
    assert h.gold(st, 0) == 1 and h.kind("Palace") in h.city_list(st, 0)


def test_rule_030_limits_and_uses_reset_between_turns():
    """30. Build limits and once-per-turn uses reset between a player's two turns; an
    Architect's limit of 3 does not apply in his Warlord turn."""
    st, tb = setup("classic", 2, "builder")
    h.set_holders(st, {AR: 0, W: 0, A: 1, T: 1})
    hand = ["Temple", "Tavern", "Watchtower", "Church", "Market", "Prison", "Manor", "Docks"]
    h.set_hand(st, 0, hand)
    h.set_city(st, 0, ["Laboratory"])
    h.set_gold(st, 0, 100)
    evs = play(st, tb, AR, 0)
    assert len(of := h.of_type(evs, "build")) == 3, of
    assert len(h.of_type(evs, "laboratory")) == 1
    evs = play(st, tb, W, 0)
    assert len(h.of_type(evs, "build")) == 1
    assert len(h.of_type(evs, "laboratory")) == 1


def test_rule_031_gather_exactly_once():
    """31. Gathering is mandatory and happens exactly once: +2 gold, or draw 2 and keep 1 with
    the other to the bottom of the deck."""
    n_turns = 0
    for ruleset, players, evs, st, tb in all_games():
        for t in h.turns(evs):
            gathers = [e for e in t if e.type in ("gather_gold", "gather_cards")]
            assert len(gathers) == 1, (ruleset, players, t[0])
            g = gathers[0]
            if g.type == "gather_gold":
                assert g.a == 2
            else:  # drew 2 (3 with the Observatory), kept 1 (all with the Library)
                assert 1 <= g.a <= 3 and (g.b == 1 or g.b == g.a)
            n_turns += 1
    assert n_turns > 1000
    # gold
    st, tb = setup("classic", 4, "builder")
    h.set_hand(st, 0, ["Palace"])  # a useful card: the builder takes gold
    deck = h.deck_list(st)
    districts.gather(st, tb, 0, K)
    assert h.gold(st, 0) == 2 and h.deck_list(st) == deck
    # cards: draw 2 (Palace, Temple), keep the Palace, the Temple goes to the bottom
    st, tb = setup("classic", 4, "builder")
    h.set_deck(st, ["Palace", "Temple", "Manor", "Castle"])
    districts.gather(st, tb, 0, K)
    assert h.hand_list(st, 0) == [h.kind("Palace")]
    assert h.deck_list(st) == h.kinds(["Manor", "Castle", "Temple"])
    assert h.gold(st, 0) == 0


def test_rule_032_empty_deck_and_last_card():
    """32. The draw option is not offered when the deck is empty; with 1 card left, the
    player keeps it."""
    st, tb = setup("classic", 4, "builder")  # empty hand: the builder wants cards
    h.set_deck(st, [])
    districts.gather(st, tb, 0, K)
    assert h.gold(st, 0) == 2 and h.hand_list(st, 0) == []
    st, tb = setup("classic", 4, "builder")
    h.set_deck(st, ["Castle"])
    districts.gather(st, tb, 0, K)
    assert h.hand_list(st, 0) == [h.kind("Castle")] and h.deck_list(st) == []
    assert h.gold(st, 0) == 0


def test_rule_033_no_build_before_gathering():
    """33. No district can be built before gathering."""
    for ruleset, players, evs, st, tb in all_games():
        for t in h.turns(evs):
            names = types_in(t)
            gi = [i for i, n in enumerate(names) if n in ("gather_gold", "gather_cards")][0]
            assert "build" not in names[:gi]
    # with no gold, the 2 gold of the gather pay the Market
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_hand(st, 0, ["Market"])
    evs = play(st, tb, T, 0)
    names = types_in(evs)
    assert names.index("gather_gold") < names.index("build")
    assert h.city_list(st, 0) == [h.kind("Market")] and h.gold(st, 0) == 0


@pytest.mark.parametrize("rank", [A, T, M, K, B, ME, W])
def test_rule_034_default_build_limit_one(rank):
    """34. The default build limit is 1 per turn."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {rank: 0})
    h.set_hand(st, 0, ["Temple", "Tavern", "Watchtower", "Manor", "Church", "Market"])
    h.set_gold(st, 0, 50)
    evs = play(st, tb, rank, 0)
    assert len(h.of_type(evs, "build")) == 1


def test_rule_035_no_duplicate_names():
    """35. A district cannot be built if one with the same name is already in the builder's
    city (except the Quarry and the Wizard's turn)."""
    for ruleset in ("classic", "2016", "four_color"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_holders(st, {K: 0})
        h.set_city(st, 0, ["Manor"])
        h.set_hand(st, 0, ["Manor"])
        h.set_deck(st, ["Manor"] * 4)  # nothing useful: he draws Manors
        h.set_gold(st, 0, 10)
        assert not rules.can_build(st, tb, 0, h.kind("Manor"))
        evs = play(st, tb, K, 0)
        assert not h.of_type(evs, "build")
        assert h.city_list(st, 0) == [h.kind("Manor")]
    # 2016 Quarry: duplicates allowed, any number
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Quarry", "Manor", "Castle"])
    h.set_hand(st, 0, ["Manor"])
    h.set_deck(st, ["Temple"] * 4)
    h.set_gold(st, 0, 10)
    assert rules.can_build(st, tb, 0, h.kind("Manor"))
    play(st, tb, K, 0)
    assert st.p[0, L.P_KINDS + h.kind("Manor")] == 2
    h.set_hand(st, 0, ["Castle"])
    assert rules.can_build(st, tb, 0, h.kind("Castle"))
    # no duplicates at the end of any played game without a Quarry
    for ruleset, players, evs, st, tb in all_games():
        for s in range(players):
            if not st.p[s, L.P_KINDS + L.D_QUARRY]:
                city = h.city_list(st, s)
                assert len(city) == len(set(city)), (ruleset, city)


def test_rule_036_build_cost_no_credit():
    """36. A build requires paying its build cost (Factory discount, Thieves' Den cards ...)
    -- no credit; the stash never goes negative."""
    # 4 gold cannot pay a Palace (5)
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 2)
    evs = play(st, tb, T, 0)
    assert not h.of_type(evs, "build") and h.gold(st, 0) == 4
    # 2016 Factory: the Library costs 5
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Factory"])
    h.set_hand(st, 0, ["Library"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, T, 0)
    b = h.of_type(evs, "build")
    assert [e.a for e in b] == [h.kind("Library")] and b[0].c == 5 and h.gold(st, 0) == 0
    # no gold in any played game goes negative; gold is conserved
    for ruleset, players, evs, st, tb in all_games():
        assert min(min(e.gold) for e in evs) >= 0
        assert h.gold_conserved(st)


def test_rule_036_thieves_den_paid_with_cards_never_credit():
    """36. (Thieves' Den) Any part of its cost may be paid with cards from hand, 1 card =
    1 gold; the stash never goes negative.

    The seat has 0 gold after gathering cards and exactly 6 other cards: it can pay the
    Thieves' Den (6) with 6 cards and no gold."""
    st, tb = setup("2016", 4, "heuristic")
    h.set_holders(st, {T: 0})
    useless = ["Manor", "Castle", "Palace", "Temple", "Church"]
    h.set_city(st, 0, useless)
    h.set_hand(st, 0, ["Thieves' Den"] + useless)  # 1 useful card: the heuristic draws
    h.set_deck(st, ["Monastery", "Cathedral", "Tavern", "Market"] * 3)
    evs = play(st, tb, T, 0)
    assert h.of_type(evs, "gather_cards")
    builds = h.of_type(evs, "build")
    assert [e.a for e in builds] == [h.kind("Thieves' Den")]
    assert builds[0].c + builds[0].d == 6  # gold paid + cards paid = cost
    assert builds[0].c == 0 and builds[0].d == 6
    assert h.gold(st, 0) == 0
    assert h.gold_conserved(st)


def test_rule_035_036_builds_in_played_games():
    """35, 36. (whole games) No build duplicates a name already in the city (2016 Quarry
    excepted); every build pays its build cost (Factory: other uniques 1 less) in gold and
    Thieves' Den cards, from what the builder has."""
    n = 0
    for ruleset, players, evs, st, tb in all_games():
        for prev, e in zip(evs, evs[1:]):
            if e.type != "build":
                continue
            n += 1
            before = h.city_at(prev, e.seat)
            kind = e.a
            if kind in before:
                assert ruleset == "2016" and L.D_QUARRY in before, (ruleset, e)
            cost = int(tb.kinds[L.K_COST, kind])
            if (tb.kinds[L.K_TYPE, kind] == L.T_UNIQUE and kind != L.D_FACTORY
                    and L.D_FACTORY in before):
                cost -= 1
            assert e.b == cost and e.c + e.d == cost and e.c >= 0 and e.d >= 0
            assert e.d == 0 or kind == L.D_THIEVES_DEN
            assert e.c <= prev.gold[e.seat] and e.gold[e.seat] == prev.gold[e.seat] - e.c
            assert e.hand_n[e.seat] == prev.hand_n[e.seat] - 1 - e.d
    assert n > 1000


def test_rule_037_build_beyond_n():
    """37. Building beyond N districts is allowed."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Temple", "Church", "Tavern", "Market", "Prison",
                       "Watchtower"])
    assert rules.is_complete(st, 0)
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 10)
    play(st, tb, K, 0)
    assert st.p[0, L.P_CITY_N] == 9 and h.kind("Palace") in h.city_list(st, 0)


def test_rule_038_each_ability_once_per_turn():
    """38. Each ability is used at most once per turn."""
    once = ("kill", "rob", "swap_hands", "redraw", "destroy", "laboratory", "smithy", "income",
            "bonus_gold", "bonus_cards", "crown")
    for ruleset, players, evs, st, tb in all_games():
        for t in h.turns(evs):
            c = Counter(e.type for e in t)
            for name in once:
                assert c[name] <= 1, (ruleset, players, t[0], name)
            assert c["swap_hands"] + c["redraw"] <= 1
    # a big hand would let the Laboratory be used again; it is used once
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Laboratory"])
    h.set_hand(st, 0, ["Manor"] * 10)
    evs = play(st, tb, T, 0)
    assert len(h.of_type(evs, "laboratory")) == 1


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_039_income_once_counts_present_districts(ruleset):
    """39. C, P: a colour income is taken once, all at once, and counts the districts present
    at that moment, including one just built."""
    # build first, then the income counts the new Castle
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Castle"])
    h.set_gold(st, 0, 4)
    evs = play(st, tb, K, 0)
    names = types_in(evs)
    assert names.count("income") == 1
    assert names.index("build") < names.index("income")
    assert h.of_type(evs, "income")[0].a == 2
    assert h.gold(st, 0) == 4 + 2 - 4 + 2
    # income first to fund the Palace: it counts 2 nobles, and is not taken again
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle"])
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 2)
    evs = play(st, tb, K, 0)
    names = types_in(evs)
    assert names.count("income") == 1 and names.index("income") < names.index("build")
    assert h.of_type(evs, "income")[0].a == 2
    assert h.gold(st, 0) == 2 + 2 + 2 - 5


def test_rule_039_income_counts_city_in_played_games():
    """39. (whole games) Every colour income pays exactly the districts of its type in the
    city at that moment (a School of Magic counts for every type)."""
    n = 0
    for ruleset, players, evs, st, tb in all_games():
        for e in evs:
            if e.type == "income":
                city = h.city_at(e, e.seat)
                want = sum(1 for k in city if tb.kinds[L.K_TYPE, k] == e.b or k == L.D_SCHOOL_OF_MAGIC)
                assert e.a == want, (ruleset, e.round, e.seat, city)
                n += 1
    assert n > 500


def test_rule_040_four_color_automatic_income():
    """40. F: colour income, the Merchant's +1 and the Architect's +2 cards are paid on the
    call; a district built this turn earns no income this turn."""
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {ME: 0})
    h.set_city(st, 0, ["Market"])
    h.set_hand(st, 0, ["Docks"])
    h.set_gold(st, 0, 1)
    evs = play(st, tb, ME, 0)
    assert types_in(evs) == ["call", "income", "bonus_gold", "gather_gold", "build"]
    assert h.of_type(evs, "income")[0].a == 1
    assert h.gold(st, 0) == 1 + 1 + 1 + 2 - 3
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {AR: 0})
    evs = play(st, tb, AR, 0)
    names = types_in(evs)
    assert names[:2] == ["call", "bonus_cards"]
    assert names.index("bonus_cards") < min(i for i, n in enumerate(names) if n.startswith("gather"))
    # the King takes the crown on the call too
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {K: 2})
    st.g[L.G_CROWN] = 0
    h.set_city(st, 2, ["Manor"])
    evs = play(st, tb, K, 2)
    names = types_in(evs)
    assert set(names[1:3]) == {"income", "crown"} and st.g[L.G_CROWN] == 2


def test_rule_041_theft_first_on_reveal():
    """41. On reveal, the Thief's robbery resolves before any other effect, including F's
    automatic income and the C Emperor's tribute."""
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {T: 1, ME: 0})
    h.rob(st, ME, 1)
    h.set_city(st, 0, ["Market"])
    h.set_hand(st, 0, ["Palace"])
    h.set_gold(st, 0, 3)
    evs = play(st, tb, ME, 0)
    assert types_in(evs)[:4] == ["call", "theft", "income", "bonus_gold"]
    assert h.of_type(evs, "theft")[0].b == 3
    assert h.gold(st, 1) == 3
    assert h.gold(st, 0) == 0 + 1 + 1 + 2
    # classic King: the theft comes before the crown
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 1, K: 0})
    h.rob(st, K, 1)
    h.set_gold(st, 0, 5)
    evs = play(st, tb, K, 0)
    assert types_in(evs)[:3] == ["call", "theft", "crown"]
    assert h.gold(st, 1) == 5


def test_rule_042_end_of_turn_order():
    """42. End-of-turn order: C Warlord/Diplomat, then the C tax, then Poor House and Park,
    then the Alchemist refund.

    Base game: the Warlord's destruction is the last thing of his turn (only a Graveyard
    reaction follows it)."""
    n = 0
    for ruleset, players, evs, st, tb in all_games():
        for t in h.turns(evs):
            names = types_in(t)
            if "destroy" in names:
                n += 1
                i = names.index("destroy")
                assert set(names[i + 1:]) <= {"graveyard"}, (ruleset, names)
    assert n > 20


def test_rule_043_unlimited_bank_and_hand():
    """43. The bank never runs out; hand size is unlimited."""
    st, tb = setup("classic", 4, "builder")
    h.set_gold(st, 0, 1_000_000)
    h.set_hand(st, 0, ["Palace"])
    districts.gather(st, tb, 0, K)
    assert h.gold(st, 0) == 1_000_002
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Manor"] * 40)  # nothing useful: the builder draws
    districts.gather(st, tb, 0, K)
    assert st.p[0, L.P_HAND_N] == 41
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["Library"])
    h.set_hand(st, 0, ["Library"] * 50)
    districts.gather(st, tb, 0, K)
    assert st.p[0, L.P_HAND_N] == 52


# =============================================================================================
# Rank 1
# =============================================================================================
def test_rule_044_assassin_names_any_other_character():
    """44. The Assassin may name any other character; naming one not in play has no
    effect."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {A: 0, ME: 1, K: 2})
    st.g[L.G_CROWN] = 3
    h.only_target(st, B, A)  # the Bishop is not in play
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == B
    g1 = h.gold(st, 1)
    evs = play(st, tb, ME, 1)
    assert evs[0].type == "call" and h.gold(st, 1) > g1
    play(st, tb, K, 2)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 2
    # random Assassins name every other rank, never their own
    targets = Counter()
    for ruleset, players, evs, st, tb in all_games():
        targets.update(e.a for e in evs if e.type == "kill")
    assert set(targets) == set(range(1, 8))


def test_rule_045_four_color_assassin_targets_rank_2_to_8():
    """45. F: the Assassin's target must be rank 2-8."""
    targets = Counter()
    for players in range(2, 8):
        for evs, st, tb in logged_games("four_color", players):
            targets.update(e.a for e in evs if e.type == "kill")
    assert set(targets) == set(range(1, 8))
    st, tb = setup("four_color", 4, "random")
    h.set_holders(st, {A: 0})
    for seed in range(200):
        h.reseed(st, seed)
        play(st, tb, A, 0)
        assert 1 <= st.g[L.G_KILLED] <= 7


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_046_killed_king_heir(ruleset):
    """46. A killed King or Patrician gives its holder the crown at the end of the round."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {A: 0, K: 2})
    st.g[L.G_CROWN] = 1
    h.only_target(st, K, A)
    play(st, tb, A, 0)
    assert st.g[L.G_KILLED] == K and st.g[L.G_CROWN] == 1
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 2
    assert st.p[2, L.P_REVEALED] == 4  # revealed at the end of the round (2016 tie-break)
    heirs = 0
    for rs, players, evs, st, tb in all_games():
        if rs != ruleset:
            continue
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            held = dict((r, s) for s, r in picks)
            if K in held and K in [e.a for e in es if e.type == "kill"]:
                heirs += 1
                heir = [e for e in es if e.type == "heir"]
                assert len(heir) == 1 and heir[0].seat == held[K]
                end = [e for e in es if e.type == "round_end"][0]
                assert end.crown == held[K]
    assert heirs > 0


# =============================================================================================
# Rank 2
# =============================================================================================
@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_063_thief_forbidden_targets(ruleset):
    """63. The Thief cannot name rank 1, the killed character or the bewitched character
    (F: only ranks 3-8, not the killed one)."""
    st, tb = setup(ruleset, 4, "random")
    h.set_holders(st, {T: 0})
    h.kill(st, B)
    seen = Counter()
    for seed in range(400):
        h.reseed(st, seed)
        st.g[L.G_ROBBED] = -1
        play(st, tb, T, 0)
        seen[int(st.g[L.G_ROBBED])] += 1
        assert st.g[L.G_ROBBER] == 0
    assert set(seen) == {M, K, ME, AR, W}
    for rs, players, evs, st, tb in all_games():
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            killed = [e.a for e in es if e.type == "kill"]
            for e in es:
                if e.type == "rob":
                    assert e.a not in (A, T) and e.a not in killed, (rs, rnd)


def test_rule_064_robbery_on_reveal_takes_whole_stash():
    """64. The robbery happens on reveal, before gathering: the whole stash moves to the
    Thief's holder."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 1, K: 0})
    h.set_gold(st, 1, 1)
    h.set_gold(st, 0, 7)
    h.rob(st, K, 1)
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Cathedral"])
    evs = play(st, tb, K, 0)
    names = types_in(evs)
    assert names.index("theft") < names.index("gather_gold")
    theft = h.of_type(evs, "theft")[0]
    assert theft.seat == 1 and theft.a == 0 and theft.b == 7
    assert h.gold(st, 1) == 8
    assert h.gold(st, 0) == 0 + 2 + 1  # gathered and earned after the theft: kept
    # in played games the victim's stash is exactly what moves
    for rs, players, evs, st, tb in all_games():
        for i, e in enumerate(evs):
            if e.type == "theft":
                prev = evs[i - 1]
                assert prev.type == "call" and prev.gold[e.a] == e.b
                assert e.gold[e.a] == 0 or e.a == e.seat


def test_rule_066_robbing_character_not_in_play():
    """66. Robbing a character not in play has no effect."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {T: 1, K: 0, ME: 2, W: 3})
    for s in range(4):
        h.set_gold(st, s, 5)
    h.rob(st, B, 1)
    for r, s in ((K, 0), (ME, 2), (W, 3)):
        evs = play(st, tb, r, s)
        assert not h.of_type(evs, "theft")
    assert h.gold(st, 1) == 5


# =============================================================================================
# Rank 3
# =============================================================================================
def test_rule_075_magician_swap_with_empty_hands():
    """75. The Magician's swap works when either hand is empty."""
    # the Magician's hand is empty
    st, tb = setup("classic", 3, "heuristic")
    h.set_holders(st, {M: 0})
    five = h.kinds(["Manor", "Castle", "Temple", "Market", "Prison"])
    h.set_hand(st, 1, five)
    characters.before_gather(st, tb, L.CH_MAGICIAN, 0, M)
    assert sorted(h.hand_list(st, 0)) == sorted(five) and h.hand_list(st, 1) == []
    # the other hand is empty (random Magician until it chooses the swap)
    st0, tb = setup("classic", 2, "random")
    h.set_holders(st0, {M: 0})
    three = h.kinds(["Palace", "Church", "Docks"])
    h.set_hand(st0, 0, three)
    swapped = 0
    for seed in range(40):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        characters.before_gather(st, tb, L.CH_MAGICIAN, 0, M)
        if h.hand_list(st, 0) == []:
            swapped += 1
            assert sorted(h.hand_list(st, 1)) == sorted(three)
    assert swapped > 0


def test_rule_076_magician_redraw_bottom_first():
    """76. The Magician's redraw puts the discards on the bottom first, then draws the same
    number from the top."""
    st, tb = setup("classic", 4, "heuristic")
    h.set_holders(st, {M: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Manor", "Manor"])  # both useless: redraw both
    h.set_deck(st, ["Palace"])  # one card: the second draw takes back a Manor
    characters.before_gather(st, tb, L.CH_MAGICIAN, 0, M)
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Palace", "Manor"]))
    assert h.deck_list(st) == [h.kind("Manor")]
    # a longer deck: the two Manors end at the bottom
    st, tb = setup("classic", 4, "heuristic")
    h.set_holders(st, {M: 0})
    h.set_city(st, 0, ["Manor"])
    h.set_hand(st, 0, ["Manor", "Manor", "Cathedral"])
    h.set_deck(st, ["Palace", "Castle", "Temple"])
    characters.before_gather(st, tb, L.CH_MAGICIAN, 0, M)
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Cathedral", "Palace", "Castle"]))
    assert h.deck_list(st) == h.kinds(["Temple", "Manor", "Manor"])


# =============================================================================================
# Rank 4
# =============================================================================================
def test_rule_080_noble_income_with_school_of_magic():
    """80. Income counts noble districts, including a School of Magic counted as noble."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "School of Magic", "Temple", "Library"])
    h.set_hand(st, 0, ["Dragon Gate"])  # useful, unaffordable: gold, no build
    evs = play(st, tb, K, 0)
    assert h.of_type(evs, "income")[0].a == 3
    assert h.gold(st, 0) == 2 + 3
    st, tb = setup("four_color", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Manor", "Castle", "Palace", "Temple"])
    evs = play(st, tb, K, 0)
    assert h.of_type(evs, "income")[0].a == 3


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_081_king_takes_the_crown(ruleset):
    """81. C, F: the King takes the crown on reveal; P: the King (or Patrician) must take it
    during his turn."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {K: 2})
    st.g[L.G_CROWN] = 0
    evs = play(st, tb, K, 2)
    assert st.g[L.G_CROWN] == 2
    names = types_in(evs)
    assert names.count("crown") == 1
    if ruleset != "2016":
        gi = min(i for i, n in enumerate(names) if n.startswith("gather"))
        assert names.index("crown") < gi
    for rs, players, evs, st, tb in all_games():
        if rs == ruleset:
            for t in h.turns(evs):
                if t[0].rank == K:
                    assert [e.seat for e in t if e.type == "crown"] == [t[0].seat]


def test_rule_082_crown_stays_without_rank_4():
    """82. If no rank-4 character is revealed or killed, the crown does not move."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {A: 0, T: 1, B: 2, W: 3})
    st.g[L.G_CROWN] = 1
    for r, s in ((A, 0), (T, 1), (B, 2), (W, 3)):
        play(st, tb, r, s)
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 1
    # in played games the crown moves only with a crown or heir event
    for rs, players, evs, st, tb in all_games():
        for prev, e in zip(evs, evs[1:]):
            if e.crown != prev.crown:
                assert e.type in ("crown", "heir"), (rs, e)
                assert e.crown == e.seat


# =============================================================================================
# Rank 5
# =============================================================================================
def test_rule_088_bishop_religious_income():
    """88. The Bishop gains 1 gold per religious district."""
    for ruleset in ("classic", "2016", "four_color"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_holders(st, {B: 0})
        h.set_city(st, 0, ["Temple", "Church", "Manor", "Tavern"])
        h.set_hand(st, 0, ["Palace"])
        evs = play(st, tb, B, 0)
        assert h.of_type(evs, "income")[0].a == 2
        assert h.gold(st, 0) == 2 + 2


def _destroy_targets(st0, tb, warlord_seat, tries=60):
    """(target seat, district kind) destroyed by a Warlord over many random seeds."""
    out = Counter()
    for seed in range(tries):
        st = h.copy_state(st0)
        h.reseed(st, seed)
        h.clear_log(st)
        characters.end_of_turn(st, tb, L.CH_WARLORD, warlord_seat, W)
        for e in h.events(st):
            if e.type == "destroy":
                out[(e.a, e.b)] += 1
    return out


@pytest.mark.parametrize("ruleset", ["classic", "2016", "four_color"])
def test_rule_089_bishop_protection(ruleset):
    """89. The protected Bishop's districts cannot be destroyed by the Warlord (C, P, F),
    exchanged by the Diplomat (C, P) or seized by the Marshal (P)."""
    st, tb = setup(ruleset, 4, "random")
    h.set_holders(st, {W: 0, B: 1})
    h.set_city(st, 1, ["Temple", "Manor"])
    h.set_city(st, 2, ["Tavern", "Market"])
    h.set_gold(st, 0, 20)
    assert not rules.destroyable(st, tb, 1, 0) and not rules.destroyable(st, tb, 1, 1)
    assert rules.destroyable(st, tb, 2, 0)
    hits = _destroy_targets(st, tb, 0)
    assert hits and all(seat == 2 for seat, _ in hits)
    # 2-3 players: his own Warlord is bound too (D8)
    st, tb = setup(ruleset, 2, "random")
    h.set_holders(st, {W: 0, B: 0})
    h.set_city(st, 0, ["Temple", "Manor"])
    h.set_city(st, 1, ["Tavern"])
    h.set_gold(st, 0, 20)
    hits = _destroy_targets(st, tb, 0)
    assert hits and all(seat == 1 for seat, _ in hits)


def test_rule_090_killed_bishop_no_protection():
    """90. A killed Bishop gives no protection."""
    st, tb = setup("classic", 4, "random")
    h.set_holders(st, {W: 0, B: 1})
    h.kill(st, B)
    h.set_city(st, 1, ["Temple", "Manor"])
    h.set_gold(st, 0, 20)
    assert rules.destroyable(st, tb, 1, 0)
    hits = _destroy_targets(st, tb, 0)
    assert any(seat == 1 for seat, _ in hits)


# =============================================================================================
# Rank 6, 7
# =============================================================================================
@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_095_merchant_bonus_gold(ruleset):
    """95. The Merchant gets +1 gold whatever he gathered (C: after gathering)."""
    st, tb = setup(ruleset, 4, "builder")  # empty hand: he draws
    h.set_holders(st, {ME: 0})
    h.set_deck(st, ["Palace", "Castle", "Cathedral", "Fortress"])
    evs = play(st, tb, ME, 0)
    names = types_in(evs)
    assert "gather_cards" in names
    if ruleset == "classic":
        assert names.index("gather_cards") < names.index("bonus_gold")
    assert h.of_type(evs, "bonus_gold")[0].a == 1 and h.gold(st, 0) == 1
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {ME: 0})
    h.set_hand(st, 0, ["Cathedral"])
    evs = play(st, tb, ME, 0)
    assert "gather_gold" in types_in(evs) and h.gold(st, 0) == 3


def test_rule_099_architect():
    """99. The Architect gains 2 cards and has build limit 3."""
    for ruleset in ("classic", "2016", "four_color"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_holders(st, {AR: 0})
        hand = ["Temple", "Tavern", "Watchtower", "Church", "Market", "Prison"]
        h.set_hand(st, 0, hand)
        h.set_gold(st, 0, 100)
        deck_n = st.g[L.G_DECK_N]
        evs = play(st, tb, AR, 0)
        assert h.of_type(evs, "bonus_cards")[0].a == 2
        assert len(h.of_type(evs, "build")) == 3
        assert st.p[0, L.P_HAND_N] == 6 + 2 - 3
        assert st.g[L.G_DECK_N] == deck_n - 2


# =============================================================================================
# Rank 8
# =============================================================================================
def test_rule_102_warlord_pays_cost_minus_one():
    """102. The Warlord pays cost - 1 to the bank (a cost-1 district is free); the destroyed
    card goes to the bottom of the deck."""
    # free: the builder Warlord destroys only free districts
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Tavern"])
    h.set_gold(st, 0, 3)
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_WARLORD, 0, W)
    assert h.city_list(st, 1) == [] and h.gold(st, 0) == 3
    assert h.deck_list(st)[-1] == h.kind("Tavern")
    # paid: the aggressive Warlord hits the leader's Castle for 3
    st, tb = setup("classic", 4, "aggressive")
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Castle", "Manor"])
    h.set_gold(st, 0, 10)
    bank_in = int(st.g[L.G_BANK_IN])
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_WARLORD, 0, W)
    d = h.of_type(h.events(st), "destroy")
    assert len(d) == 1 and d[0].a == 1 and d[0].b == h.kind("Castle") and d[0].c == 3
    assert h.gold(st, 0) == 7 and st.g[L.G_BANK_IN] == bank_in + 3
    assert h.city_list(st, 1) == [h.kind("Manor")]
    assert h.deck_list(st)[-1] == h.kind("Castle")
    assert h.gold_conserved(st)
    # played games: every destruction costs cost - 1
    for rs, players, evs, st, tb in all_games():
        for i, e in enumerate(evs):
            if e.type == "destroy":
                wall = tb.kinds[L.K_COUNT][L.D_GREAT_WALL] > 0  # may add 1 (rule 107)
                assert e.c == tb.kinds[L.K_COST, e.b] - 1 or (wall and e.c == tb.kinds[L.K_COST, e.b])
                assert e.gold[e.seat] == evs[i - 1].gold[e.seat] - e.c


def test_rule_103_warlord_may_destroy_own_district():
    """103. The Warlord may destroy a district in his own city."""
    st, tb = setup("classic", 4, "random")
    h.set_holders(st, {W: 0})
    h.set_city(st, 0, ["Temple", "Church"])
    h.set_gold(st, 0, 5)
    assert rules.destroyable(st, tb, 0, 0)
    hits = _destroy_targets(st, tb, 0)
    assert hits and all(seat == 0 for seat, _ in hits)


@pytest.mark.parametrize("ruleset,players", [("classic", 4), ("2016", 4), ("2016", 2),
                                             ("four_color", 4)])
def test_rule_104_complete_city_protected(ruleset, players):
    """104. No district in a complete city can be destroyed, exchanged away by another player,
    or seized."""
    st, tb = setup(ruleset, players, "random")
    n = int(st.g[L.G_N_COMPLETE])
    city = ["Manor", "Castle", "Palace", "Temple", "Church", "Tavern", "Market", "Prison"][:n]
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, city)
    h.set_gold(st, 0, 100)
    assert rules.is_complete(st, 1)
    assert not any(rules.destroyable(st, tb, 1, i) for i in range(n))
    assert _destroy_targets(st, tb, 0) == Counter()
    # his own complete city too
    h.clear_city(st, 1)
    h.set_city(st, 0, city)
    assert _destroy_targets(st, tb, 0) == Counter()
    # one district fewer: destroyable
    h.set_city(st, 0, city[:-1])
    assert all(rules.destroyable(st, tb, 0, i) for i in range(n - 1))


def test_rule_089_104_106_destructions_in_played_games():
    """89, 104, 106. (whole games) The Warlord never destroys a district of a complete city,
    a Keep, or a district of the living Bishop's holder."""
    n = 0
    for ruleset, players, evs, st, tb in all_games():
        n_complete = int(tb.cfg[L.G_N_COMPLETE])
        for rnd, es, picks, up, down, crown in draft_rounds(evs):
            held = dict((r, s) for s, r in picks)
            killed = [e.a for e in es if e.type == "kill"]
            protected = held.get(B, -1) if B not in killed else -1
            for prev, e in zip(es, es[1:]):
                if e.type != "destroy":
                    continue
                n += 1
                target_city = h.city_at(prev, e.a)
                size = len(target_city) + (L.D_MONUMENT in target_city)
                assert size < n_complete, (ruleset, e)
                assert e.b != L.D_KEEP and e.b in target_city
                assert e.a != protected, (ruleset, rnd, e)
    assert n > 50


@pytest.mark.parametrize("ruleset", ["classic", "four_color"])
def test_rule_105_warlord_timing(ruleset):
    """105. C: the Warlord destroys only at the end of his turn. F: only after gathering."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {W: 0})
    h.set_city(st, 0, ["Watchtower"])
    h.set_hand(st, 0, ["Prison"])
    h.set_gold(st, 0, 5)
    h.set_city(st, 1, ["Tavern"])
    evs = play(st, tb, W, 0)
    names = types_in(evs)
    assert "destroy" in names and "build" in names
    gi = min(i for i, n in enumerate(names) if n.startswith("gather"))
    assert names.index("destroy") > gi
    if ruleset == "classic":
        assert names[-1] == "destroy"
    for rs, players, evs, st, tb in all_games():
        if rs != ruleset:
            continue
        for t in h.turns(evs):
            names = types_in(t)
            if "destroy" in names:
                i = names.index("destroy")
                gi = min(j for j, n in enumerate(names) if n.startswith("gather"))
                assert i > gi
                if ruleset == "classic":
                    assert set(names[i + 1:]) <= {"graveyard"}


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_106_keep_cannot_be_destroyed(ruleset):
    """106. The Keep cannot be destroyed by the Warlord; P: the rank-8 character cannot
    affect it at all; C: the Diplomat cannot exchange it."""
    st, tb = setup(ruleset, 4, "random")
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Keep", "Temple"])
    h.set_gold(st, 0, 100)
    assert not rules.destroyable(st, tb, 1, 0) and rules.destroyable(st, tb, 1, 1)
    hits = _destroy_targets(st, tb, 0)
    assert hits and all(kind == h.kind("Temple") for _, kind in hits)


def test_rule_107_great_wall():
    """107. Great Wall: C, the Warlord pays +1 for the owner's other districts; P, the rank-8
    character pays +1 for any district in that city."""
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 1, ["Great Wall", "Manor", "Tavern"])
    assert [rules.warlord_cost(st, tb, 1, i) for i in range(3)] == [5, 3, 1]
    h.set_city(st, 2, ["Manor", "Tavern"])
    assert [rules.warlord_cost(st, tb, 2, i) for i in range(2)] == [2, 0]
    st, tb = setup("2016", 4, "builder")
    h.set_city(st, 1, ["Great Wall", "Manor", "Tavern"])
    assert [rules.warlord_cost(st, tb, 1, i) for i in range(3)] == [6, 3, 1]


# =============================================================================================
# Districts
# =============================================================================================
def test_rule_118_observatory_and_library():
    """118. Observatory: draw 3, keep 1. Library: keep all drawn. Both: draw 3, keep 3."""
    deck = ["Palace", "Temple", "Tavern", "Manor"]
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["Observatory"])
    h.set_deck(st, deck)
    districts.gather(st, tb, 0, K)
    assert h.hand_list(st, 0) == [h.kind("Palace")]
    rest = h.deck_list(st)
    assert rest[0] == h.kind("Manor") and sorted(rest[1:]) == sorted(h.kinds(["Temple", "Tavern"]))
    for ruleset in ("classic", "2016"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_city(st, 0, ["Library"])
        h.set_deck(st, deck)
        districts.gather(st, tb, 0, K)
        assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Palace", "Temple"]))
        assert h.deck_list(st) == h.kinds(["Tavern", "Manor"])
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["Library", "Observatory"])
    h.set_deck(st, deck)
    districts.gather(st, tb, 0, K)
    assert sorted(h.hand_list(st, 0)) == sorted(h.kinds(["Palace", "Temple", "Tavern"]))
    assert h.deck_list(st) == [h.kind("Manor")]


@pytest.mark.parametrize("ruleset,bonus", [("classic", 1), ("2016", 2)])
def test_rule_120_laboratory(ruleset, bonus):
    """120. Laboratory: discard 1 card for +1 gold (C) or +2 gold (P), once per turn."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Laboratory"])
    h.set_hand(st, 0, ["Palace", "Cathedral", "Fortress", "Town Hall", "Palace"])
    evs = play(st, tb, T, 0)
    lab = h.of_type(evs, "laboratory")
    assert len(lab) == 1 and lab[0].b == bonus
    i = evs.index(lab[0])
    assert lab[0].gold[0] == evs[i - 1].gold[0] + bonus
    assert lab[0].hand_n[0] == evs[i - 1].hand_n[0] - 1
    assert h.deck_list(st)[-1] == lab[0].a  # the card went to the bottom
    assert h.gold(st, 0) == 2 + bonus


@pytest.mark.parametrize("ruleset", ["classic", "2016"])
def test_rule_121_smithy(ruleset):
    """121. Smithy: pay 2 gold to gain 3 cards, once per turn."""
    st, tb = setup(ruleset, 4, "builder")
    h.set_holders(st, {T: 0})
    h.set_city(st, 0, ["Smithy"])
    h.set_gold(st, 0, 10)
    h.set_deck(st, ["Fortress", "Cathedral", "Palace", "Town Hall", "Castle", "Harbor",
                    "Docks", "Manor"])
    evs = play(st, tb, T, 0)
    sm = h.of_type(evs, "smithy")
    assert len(sm) == 1 and sm[0].a == 3
    i = evs.index(sm[0])
    assert sm[0].gold[0] == evs[i - 1].gold[0] - 2
    assert sm[0].hand_n[0] == evs[i - 1].hand_n[0] + 3
    assert sm[0].deck_n == evs[i - 1].deck_n - 3


def test_rule_122_school_of_magic():
    """122. School of Magic: counts as any type for resource abilities, as purple/unique for
    scoring."""
    st, tb = setup("classic", 4, "builder")
    h.set_city(st, 0, ["School of Magic"])
    for t in (L.T_NOBLE, L.T_RELIGIOUS, L.T_TRADE, L.T_MILITARY):
        assert rules.income_count(st, tb, 0, t) == 1
    # scoring: purple -- completes the five colours, but does not stand in for red
    h.set_city(st, 0, ["Manor", "Temple", "Tavern", "Watchtower", "School of Magic"])
    h.set_city(st, 1, ["Manor", "Temple", "Tavern", "School of Magic"])
    scoring.score_game(st, tb)
    assert st.p[0, L.P_SCORE] == 3 + 1 + 1 + 1 + 6 + 3
    assert st.p[1, L.P_SCORE] == 3 + 1 + 1 + 6
    for ruleset in ("classic", "2016"):
        st, tb = setup(ruleset, 4, "builder")
        h.set_holders(st, {W: 0})
        h.set_city(st, 0, ["School of Magic", "Prison"])
        h.set_hand(st, 0, ["Palace", "Fortress"])
        evs = play(st, tb, W, 0)
        assert h.of_type(evs, "income")[0].a == 2


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


def test_rule_124_factory():
    """124. Factory: other purple/unique districts cost 1 less to build; their cost for
    scoring and the Warlord is unchanged."""
    st, tb = setup("2016", 4, "builder")
    h.set_city(st, 0, ["Factory"])
    assert rules.build_cost(st, tb, 0, h.kind("Library")) == 5
    assert rules.build_cost(st, tb, 0, h.kind("Keep")) == 2
    assert rules.build_cost(st, tb, 0, h.kind("Manor")) == 3
    assert rules.build_cost(st, tb, 1, h.kind("Library")) == 6
    h.set_holders(st, {T: 0})
    h.set_hand(st, 0, ["Library"])
    h.set_gold(st, 0, 3)
    play(st, tb, T, 0)
    assert h.city_list(st, 0) == h.kinds(["Factory", "Library"]) and h.gold(st, 0) == 0
    assert rules.warlord_cost(st, tb, 0, 1) == 5
    scoring.score_game(st, tb)
    assert st.p[0, L.P_VALUE] == 5 + 6


def test_rule_126_two_keeps_never_in_one_city():
    """126. C: the two Keep cards can never both be in one city (without the Quarry)."""
    st, tb = setup("classic", 4, "builder")
    h.set_holders(st, {K: 0})
    h.set_city(st, 0, ["Keep"])
    h.set_hand(st, 0, ["Keep"])
    h.set_gold(st, 0, 10)
    assert not rules.can_build(st, tb, 0, h.kind("Keep"))
    play(st, tb, K, 0)
    assert st.p[0, L.P_KINDS + h.kind("Keep")] == 1
    for players in range(2, 8):
        for evs, st, tb in logged_games("classic", players):
            assert (st.p[:players, L.P_KINDS + h.kind("Keep")] <= 1).all()


def test_rule_127_graveyard():
    """127. C Graveyard: its owner (if not the Warlord's holder) may pay 1 gold to take a
    district destroyed by the Warlord into his hand."""
    st, tb = setup("classic", 4, ("aggressive", "builder", "heuristic", "builder"))
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Castle", "Manor"])
    h.set_city(st, 2, ["Graveyard"])
    h.set_gold(st, 0, 10)
    h.set_gold(st, 2, 3)
    deck = h.deck_list(st)
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_WARLORD, 0, W)
    names = types_in(h.events(st))
    assert names == ["destroy", "graveyard"]
    assert h.hand_list(st, 2) == [h.kind("Castle")] and h.gold(st, 2) == 2
    assert h.deck_list(st) == deck  # not to the bottom of the deck
    # the Warlord's own Graveyard does not act
    st, tb = setup("classic", 4, "aggressive")
    h.set_holders(st, {W: 0})
    h.set_city(st, 1, ["Castle", "Manor"])
    h.set_city(st, 0, ["Graveyard"])
    h.set_gold(st, 0, 10)
    h.clear_log(st)
    characters.end_of_turn(st, tb, L.CH_WARLORD, 0, W)
    assert types_in(h.events(st)) == ["destroy"]
    assert h.hand_list(st, 0) == [] and h.deck_list(st)[-1] == h.kind("Castle")


# =============================================================================================
# Scoring extras, end and scoring
# =============================================================================================
def _score(ruleset, players, cities, gold=None, hands=None, crown=0, first=-1, rnd=5,
           revealed=None):
    """Score a finished position with the kernel; cities are lists of names."""
    st, tb = setup(ruleset, players, "builder")
    st.g[L.G_ROUND] = rnd
    for s, city in enumerate(cities):
        h.set_city(st, s, city, rnd=1)
        h.set_gold(st, s, (gold or [0] * players)[s])
        h.set_hand(st, s, ["Temple"] * (hands or [0] * players)[s], to_deck=False)
        st.p[s, L.P_REVEALED] = (revealed or [0] * players)[s]
    st.g[L.G_CROWN] = crown
    st.g[L.G_FIRST] = first
    scoring.score_game(st, tb)
    return ([int(x) for x in st.p[:players, L.P_SCORE]],
            [int(x) for x in st.p[:players, L.P_PLACE]], st)


def _ref(ruleset, cities, gold=None, hands=None, crown=0, first=-1, n=None, revealed=None):
    players = len(cities)
    n = n or GameConfig(ruleset=ruleset, players=players).complete_size
    seats = [ref.Seat(list(c), gold=(gold or [0] * players)[s], hand=(hands or [0] * players)[s],
                      revealed=(revealed or [0] * players)[s]) for s, c in enumerate(cities)]
    return ref.score(ruleset, seats, crown, first, n)


def test_rule_142_statue():
    """142. P Statue: +5 to the crown holder at the end."""
    cities = [["Statue", "Manor"], ["Statue", "Manor"], [], []]
    scores, _, _ = _score("2016", 4, [["Statue", "Manor"], ["Manor", "Castle"], [], []], crown=0)
    assert scores[0] == 3 + 3 + 5
    scores, _, _ = _score("2016", 4, [["Statue", "Manor"], [], [], []], crown=1)
    assert scores[0] == 6
    assert _ref("2016", cities, crown=0)[0][:2] == [11, 6]


def test_rule_146_wishing_well():
    """146. Wishing Well: C, +1 per other purple district; P, +1 per unique district including
    itself."""
    city = ["Wishing Well", "Keep", "Library", "Manor"]
    scores, _, _ = _score("2016", 4, [city, [], [], []])
    assert scores[0] == 5 + 3 + 6 + 3 + 3
    scores, _, _ = _score("classic", 4, [city, [], [], []])
    assert scores[0] == 5 + 3 + 6 + 3 + 2
    assert _ref("2016", [city, [], [], []])[0][0] == 20
    assert _ref("classic", [city, [], [], []])[0][0] == 19


@pytest.mark.parametrize("ruleset,treasury", [("classic", 4), ("2016", 5)])
def test_rule_147_imperial_treasury_and_map_room(ruleset, treasury):
    """147. Imperial Treasury: +1 per stash gold; Map Room: +1 per hand card (the Secret
    Vault included)."""
    scores, _, _ = _score(ruleset, 4, [["Imperial Treasury"], ["Map Room"], [], []],
                          gold=[7, 7, 0, 0], hands=[3, 3, 0, 0])
    assert scores[:2] == [treasury + 7, 5 + 3]


def test_rule_148_game_ends_after_the_round():
    """148. The game ends after the round in which any city became complete; every remaining
    rank of that round is still played."""
    for rs, players, evs, st, tb in all_games():
        n = int(tb.cfg[L.G_N_COMPLETE])
        done = next((e for e in evs if max(e.city_n) >= n), None)
        end = evs[-1]
        assert end.type == "game_end"
        if done is None:
            assert st.g[L.G_CAP_HIT] == 1
            continue
        assert done.round == end.round == st.g[L.G_ROUND], (rs, players)
        # every held rank of the final round was called (or skipped if killed)
        last = h.rounds(evs)[end.round]
        held = sorted(e.a for e in last if e.type == "pick")
        called = [e.rank for e in last if e.type in ("call", "skip_killed")]
        assert called == held
        assert [e.type for e in last if e.type == "round_end"] == ["round_end"]


def test_rule_149_complete_size():
    """149. N: C 8 (quick game 7), P 7 with 4-8 players and 8 with 2-3, F 8; the P Monument
    counts as 2."""
    cases = {("classic", 4, False): 8, ("classic", 2, False): 8, ("classic", 5, True): 7,
             ("2016", 2, False): 8, ("2016", 4, False): 7, ("2016", 7, False): 7,
             ("four_color", 4, False): 8, ("four_color", 2, False): 8}
    for (ruleset, players, quick), n in cases.items():
        kw = {"quick": True} if quick else {}
        assert GameConfig(ruleset=ruleset, players=players, **kw).complete_size == n
        st, tb = setup(ruleset, players, "builder", **kw)
        assert st.g[L.G_N_COMPLETE] == n
        city = ["Manor", "Castle", "Palace", "Temple", "Church", "Tavern", "Market", "Prison"]
        h.set_city(st, 0, city[:n - 1])
        assert not rules.is_complete(st, 0)
        h.add_city(st, 0, city[n - 1:n])
        assert rules.is_complete(st, 0)
    st, tb = setup("2016", 4, "builder")
    h.set_city(st, 0, ["Monument", "Manor", "Castle", "Palace", "Temple", "Church"])
    assert rules.is_complete(st, 0)


def test_rule_150_colour_bonus():
    """150. The colour bonus requires all 5 colours (C), all 5 types (P) or all 4 colours (F);
    +3."""
    four = ["Manor", "Temple", "Tavern", "Watchtower"]
    assert _score("four_color", 4, [four, [], [], []])[0][0] == 6 + 3
    assert _score("classic", 4, [four, [], [], []])[0][0] == 6
    assert _score("2016", 4, [four, [], [], []])[0][0] == 6
    assert _score("classic", 4, [four + ["Keep"], [], [], []])[0][0] == 9 + 3
    assert _score("2016", 4, [four + ["Keep"], [], [], []])[0][0] == 9 + 3
    assert _score("four_color", 4, [four[:3] + ["Castle"], [], [], []])[0][0] == 9


def test_rule_151_completion_bonus():
    """151. The first completer gets +4 and every other complete city +2; incomplete cities
    get 0."""
    city = ["Manor", "Castle", "Palace", "Temple", "Church", "Tavern", "Market", "Prison"]
    scores, _, _ = _score("four_color", 4, [city, city, city[:7], []], first=1)
    value = 3 + 4 + 5 + 1 + 2 + 1 + 2 + 2
    assert scores[:3] == [value + 3 + 2, value + 3 + 4, value - 2]  # no red, incomplete
    # in played games the first completer is the first city to reach N
    for rs, players, evs, st, tb in all_games():
        n = int(tb.cfg[L.G_N_COMPLETE])
        first = next((e for e in evs if max(e.city_n) >= n), None)
        if first is not None:
            seats = [s for s in range(players) if first.city_n[s] >= n]
            assert seats == [first.seat] == [st.g[L.G_FIRST]]
            assert evs[-1].a == st.g[L.G_FIRST]


def test_rule_152_classic_tie_break():
    """152. C tie-break: district value, then stash; otherwise shared."""
    # equal scores 8: Dragon Gate (value 6, +2) vs Manor + Palace (value 8)
    scores, places, _ = _score("classic", 4, [["Dragon Gate"], ["Manor", "Palace"], [], []])
    assert scores[:2] == [8, 8] and places[:2] == [2, 1]
    # equal scores and values: the stash decides
    scores, places, _ = _score("classic", 4, [["Manor"], ["Manor"], [], []], gold=[3, 1, 0, 0])
    assert places[:2] == [1, 2]
    # all equal: shared
    scores, places, _ = _score("classic", 4, [["Manor"], ["Manor"], ["Castle"], []],
                               gold=[2, 2, 0, 0])
    assert places == [2, 2, 1, 4]


def test_rule_153_2016_tie_break():
    """153. P tie-break: highest rank revealed in the final round; otherwise shared."""
    scores, places, _ = _score("2016", 4, [["Manor"], ["Manor"], ["Manor"], []],
                               revealed=[7, 8, 7, 0])
    assert places == [2, 1, 2, 4]
    scores, places, _ = _score("2016", 4, [["Manor"], ["Manor"], [], []], revealed=[0, 4, 0, 0],
                               gold=[9, 0, 0, 0])
    assert places[:2] == [2, 1]  # the stash does not count in 2016


def test_rule_154_four_color_shared_ranks():
    """154. F: tied scores share the rank (competition ranking)."""
    scores, places, _ = _score("four_color", 4, [["Manor"], ["Castle"], ["Tavern", "Prison"],
                                                 ["Temple"]], gold=[5, 0, 0, 0])
    assert scores == [3, 4, 3, 1] and places == [2, 1, 2, 4]


def test_rule_155_haunted_type_maximises_score():
    """155. The Haunted City/Quarter type is chosen to maximise the owner's score."""
    # 2016: kept unique (Wishing Well counts it) rather than filling a type already there
    city = ["Manor", "Temple", "Market", "Watchtower", "Haunted Quarter", "Wishing Well"]
    scores, _, _ = _score("2016", 4, [city, [], [], []])
    assert scores[0] == 3 + 1 + 2 + 1 + 2 + 5 + 3 + 2
    # 2016: counted as the missing military type
    city = ["Manor", "Temple", "Market", "Keep", "Haunted Quarter"]
    assert _score("2016", 4, [city, [], [], []])[0][0] == 3 + 1 + 2 + 3 + 2 + 3
    # classic: as the missing blue colour; the Wishing Well then loses 1 but the bonus wins
    city = ["Manor", "Tavern", "Watchtower", "Haunted City", "Wishing Well"]
    assert _score("classic", 4, [city, [], [], []])[0][0] == 3 + 1 + 1 + 2 + 5 + 3 + 0
    assert _ref("classic", [city, [], [], []])[0][0] == 15


def test_rule_156_scoring_after_end_of_round_crown():
    """156. Scoring uses the final state after the end-of-round crown moves (Statue)."""
    st, tb = setup("2016", 4, "builder")
    h.set_holders(st, {A: 0, K: 1})
    st.g[L.G_CROWN] = 0
    h.set_city(st, 1, ["Statue", "Manor"])
    h.set_city(st, 0, ["Castle", "Palace"])
    h.kill(st, K)
    st.p[0, L.P_REVEALED] = 1
    game._end_round(st, tb)
    assert st.g[L.G_CROWN] == 1
    scoring.score_game(st, tb)
    assert st.p[1, L.P_SCORE] == 3 + 3 + 5
    # 11 vs 9: the heir wins; his King counts as revealed (rank 4 > 1)
    assert st.p[1, L.P_PLACE] == 1 and st.p[1, L.P_REVEALED] == 4
