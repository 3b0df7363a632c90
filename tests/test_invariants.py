"""Whole-game invariants over many random games and configurations.

Cards and gold are conserved, no city holds an illegal duplicate, every game ends (a
complete city or the round cap), places follow the scores, and the scores match an
independent recomputation from the final state.
"""

import numpy as np
import pytest

from citadels_sim.engine.simulate import build_tables, resolve_strategies
from citadels_sim.game import sampling
from citadels_sim.game.config import GameConfig
from citadels_sim.kernel import layout as L
from citadels_sim.kernel.run import play_state

STRATEGIES = ("random", "builder", "aggressive", "heuristic")


def configurations():
    for ruleset in ("classic", "2016", "four_color"):
        for players in range(2, 8):
            if ruleset == "2016" and players == 3:
                continue  # needs a rank-9 character
            yield ruleset, players


def independent_score(st, tb, s, ruleset):
    """Score from the final state, written from RULES.md §5.2 without the kernel's code."""
    n_complete = st.g[L.G_N_COMPLETE]
    city = [int(k) for k in st.city[s, :st.p[s, L.P_CITY_N]]]
    info = [int(r) for r in st.city_round[s, :st.p[s, L.P_CITY_N]]]
    # classic: a Haunted City its owner built in the final round counts as purple (D44)
    fixed_haunted = [ruleset == "classic" and r & L.ROUND_MASK == st.g[L.G_ROUND]
                     and (r >> L.BUILDER_SHIFT) & 7 == s for r in info]
    size = len(city) + (1 if L.D_MONUMENT in city else 0)
    costs = [int(tb.kinds[L.K_COST, k]) + (1 if r & L.BEAUTIFIED else 0)  # the Artist's +1
             for k, r in zip(city, info)]
    base = sum(costs)
    complete = 0
    if size >= n_complete:
        complete = 4 if st.g[L.G_FIRST] == s else 2
    extras = 2 * (L.D_DRAGON_GATE in city) + 2 * (L.D_UNIVERSITY in city)
    if L.D_IMPERIAL_TREASURY in city:
        extras += int(st.p[s, L.P_GOLD])
    if L.D_MAP_ROOM in city:
        extras += int(st.p[s, L.P_HAND_N])
    if L.D_STATUE in city and st.g[L.G_CROWN] == s:
        extras += 5
    if L.D_BASILICA in city:
        extras += sum(c % 2 for c in costs)
    if L.D_MUSEUM in city:
        extras += int(st.g[L.G_PILE_N])
    extras += 3 * sum(1 for k in st.hand[s, :st.p[s, L.P_HAND_N]] if k == L.D_SECRET_VAULT)
    fixed = [int(tb.kinds[L.K_TYPE, k]) for k, f in zip(city, fixed_haunted)
             if k != L.D_HAUNTED or f]
    free = sum(1 for k, f in zip(city, fixed_haunted) if k == L.D_HAUNTED and not f)
    colours = 4 if ruleset == "four_color" else 5
    best = -1
    for choice in np.ndindex(*([5] * free)):
        types = fixed + list(choice)
        pts = 3 if all(t in types for t in range(colours)) else 0
        if L.D_WISHING_WELL in city:
            pts += types.count(L.T_UNIQUE) - (1 if ruleset == "classic" else 0)
        if L.D_CAPITOL in city and max(types.count(t) for t in range(5)) >= 3:
            pts += 3
        if L.D_IVORY_TOWER in city and types.count(L.T_UNIQUE) == 1:
            pts += 5
        best = max(best, pts)
    return base + complete + extras + best


def order_key(st, tb, s, ruleset):
    """Ranking key of RULES.md §5.3: classic score, district value, stash; 2016 score, highest
    rank revealed in the final round; four_color score."""
    score = int(st.p[s, L.P_SCORE])
    if ruleset == "classic":
        n = st.p[s, L.P_CITY_N]
        value = sum(int(tb.kinds[L.K_COST, k]) + (1 if r & L.BEAUTIFIED else 0)
                    for k, r in zip(st.city[s, :n], st.city_round[s, :n]))
        return (score, value, int(st.p[s, L.P_GOLD]))
    if ruleset == "2016":
        return (score, int(st.p[s, L.P_REVEALED]))
    return (score,)


def check_game(st, tb, config, game):
    """Every invariant of one finished game."""
    ruleset, players = config.ruleset, config.players
    g, p = st.g, st.p
    where = (config, game)
    # cards: every copy is in the deck, a hand, a city or under the Museum
    seen = np.zeros(L.N_KINDS, np.int64)
    np.add.at(seen, st.deck[L.DECK_CAP:L.DECK_CAP + g[L.G_PILE_N]].astype(np.int64), 1)
    deck = [st.deck[(g[L.G_DECK_HEAD] + i) % L.DECK_CAP] for i in range(g[L.G_DECK_N])]
    np.add.at(seen, np.array(deck, dtype=np.int64), 1)
    for s in range(players):
        np.add.at(seen, st.hand[s, :p[s, L.P_HAND_N]].astype(np.int64), 1)
        np.add.at(seen, st.city[s, :p[s, L.P_CITY_N]].astype(np.int64), 1)
    assert (seen == tb.kinds[L.K_COUNT]).all(), where
    # gold: stashes + tax pile = starting gold + paid by the bank - paid to the bank
    gold = p[:players, L.P_GOLD]
    assert (gold >= 0).all() and g[L.G_TAX_PILE] >= 0, where
    assert gold.sum() + g[L.G_TAX_PILE] == 2 * players + g[L.G_BANK_OUT] - g[L.G_BANK_IN]
    # no duplicate name in a city unless a Quarry is in the game (it may have been
    # destroyed since the duplicate was built) or the Wizard (his turn allows duplicates)
    if tb.kinds[L.K_COUNT, L.D_QUARRY] == 0 and "Wizard" not in config.character_names:
        for s in range(players):
            city = list(st.city[s, :p[s, L.P_CITY_N]])
            assert len(city) == len(set(city)), (where, city)
    # the game ended properly
    complete = [p[s, L.P_CITY_N] + (L.D_MONUMENT in st.city[s]) >= g[L.G_N_COMPLETE]
                for s in range(players)]
    assert any(complete) or g[L.G_CAP_HIT] == 1, where
    # scores recomputed independently; places follow the ruleset's order
    for s in range(players):
        assert p[s, L.P_SCORE] == independent_score(st, tb, s, ruleset), where
    keys = [order_key(st, tb, s, ruleset) for s in range(players)]
    for s in range(players):
        assert p[s, L.P_PLACE] == 1 + sum(k > keys[s] for k in keys), where


@pytest.mark.parametrize("ruleset,players", list(configurations()))
def test_whole_game_invariants(ruleset, players):
    config = GameConfig(ruleset=ruleset, players=players)
    games = 400  # 16 configurations x 2 line-ups x 400 = 12,800 games
    for lineup in (STRATEGIES[:1], [STRATEGIES[i % 4] for i in range(players)]):
        tb = build_tables(config, resolve_strategies(lineup, players))
        for game in range(games // 2):
            check_game(play_state(tb, np.int64(11), np.int64(game), False), tb, config, game)


def test_random_configurations():
    """Random valid character sets, unique-district selections, 2-8 players, all rulesets."""
    rng = np.random.default_rng(2026)
    configs = []
    while len(configs) < 40:
        config = sampling.random_config(rng)
        if config is not None:
            configs.append(config)
    assert {c.ruleset for c in configs} == {"classic", "2016", "four_color"}
    assert {c.players for c in configs} >= {2, 3, 5, 8}
    for i, config in enumerate(configs):
        lineup = [STRATEGIES[int(k)] for k in rng.integers(0, 4, config.players)]
        tb = build_tables(config, resolve_strategies(lineup, config.players))
        for game in range(100):
            check_game(play_state(tb, np.int64(i), np.int64(game), False), tb, config, game)
