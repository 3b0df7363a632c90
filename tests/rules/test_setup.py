"""Setup and configuration validation (docs/rules.md §1.4, §2.1; checklist rules 1-3, 6, 9-12):
the starting hands and gold, the deck of each ruleset, classic bonus purples, the rank-9
requirements by player count, the initial crown, and the messages that name a bad value.
The requirements of one character (the Queen, the Emperor, the Diplomat) are tested in that
character's file.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import C_QUEEN, P_QUEEN, P_TC, R9
from citadels_sim.game.config import BASE_CHARACTERS as BASE, ConfigError, GameConfig
from citadels_sim.kernel import layout as L, state as S


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
        n_purple = sum(int(c) for k, c in enumerate(counts)
                       if c and tb.kinds[L.K_TYPE, k] == L.T_UNIQUE)
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
    assert sum(1 for k, c in enumerate(tb.kinds[L.K_COUNT])
               if c and tb.kinds[L.K_TYPE, k] == L.T_UNIQUE) == 11
    # 2016 first_game: exactly the named set's 14 unique districts
    tb, _ = h.make_tables("2016", 4)
    uniques = {h.key(k) for k, c in enumerate(tb.kinds[L.K_COUNT])
               if c and tb.kinds[L.K_TYPE, k] == L.T_UNIQUE}
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
