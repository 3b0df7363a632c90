"""An independent reader checks replayed games against the rules, event by event.

It sees only the JSON events (as ``citadels replay --json`` prints them) and checks: cards
conserved at every step, gold never negative and changed only as the events say, legal
builds (paid, no duplicate without a Quarry, within the build limit, after gathering),
the calling order, and the final scores recomputed from the final state.
"""

import pytest

from citadels_sim import GameConfig, replay, simulate
from citadels_sim.cards import districts

#: build limits of RULES.md §2.5.1 (default 1); the Wizard's immediate build is extra
LIMIT = {"Architect": 3, "Scholar": 2, "Seer": 2, "Navigator": 0}


def audit(events, config):
    info = {d.name: d for d in districts(config.ruleset)}
    rank_of = {name: r + 1 for r, name in enumerate(config.character_names)}
    total = int(config.deck_counts().sum())
    last_rank, turn, builds, gathered, extra = 0, None, 0, False, 0
    prev = events[0]["state"]
    for k, e in enumerate(events):
        st = e["state"]
        cards = st["deck_size"] + sum(st["hand_sizes"]) + sum(len(c) for c in st["cities"])
        assert cards == total, e
        assert min(st["gold"]) >= 0 and st["tax_pile"] >= 0, e
        t = e["type"]
        if t == "pick":
            last_rank = 0
        if t in ("call", "skip_killed"):
            rank = rank_of[e["character"]]
            assert rank > last_rank, "characters are called in ascending rank"
            last_rank, turn, builds, gathered = rank, e["character"], 0, False
            extra = 0
        if t == "wizard" and e["built"]:
            assert gathered, "the Wizard builds at once only after gathering"
            extra = 1
        if t in ("gather_gold", "gather_cards"):
            assert not gathered
            gathered = True
        if t == "gather_gold":
            assert st["gold"][e["seat"]] == prev["gold"][e["seat"]] + e["gold"]
        if t == "build":
            s = e["seat"]
            assert gathered, "no build before gathering"
            free = (turn == "Trader" and info[e["district"]].type == 2) or \
                e["district"] == "Stables" or extra  # none counts toward the limit
            extra = 0
            if not free:
                builds += 1
            assert builds <= LIMIT.get(turn, 1), "build limit"
            follow = events[k + 1] if k + 1 < len(events) else {}
            assisted = follow["gold"] if follow.get("type") == "assist" else 0
            assert st["gold"][s] == prev["gold"][s] - e["gold_paid"] + assisted, \
                "build paid from the stash (and the Cardinal's assist)"
            assert st["cities"][s][-1] == e["district"] or e["district"] in st["cities"][s]
            before = prev["cities"][s]
            if e["district"] in before:
                assert "Quarry" in before or turn == "Wizard", "duplicate without a Quarry"
            assert e["gold_paid"] + e["cards_paid"] == e["cost"]
        if t == "assist":  # right after the build it paid for
            assert turn == "Cardinal" and events[k - 1]["type"] == "build"
            assert e["from"] != e["seat"] and e["gold"] > 0
        if t == "exchange":
            s, o = e["seat"], e["target"]
            assert turn == "Diplomat" and "Keep" not in (e["gave"], e["got"])
            assert e["got"] in st["cities"][s] and e["gave"] in st["cities"][o]
            for city in (st["cities"][s], st["cities"][o]):
                assert len(city) == len(set(city)) or "Quarry" in city, "duplicate by exchange"
        if t == "theft" and e["victim"] != e["seat"]:  # robbing oneself (2-3p) is a no-op
            assert st["gold"][e["victim"]] == 0
        prev = st
    end = events[-1]
    assert end["type"] == "game_end"
    for s, b in enumerate(end["breakdown"]):
        value = sum(info[name].cost for name in prev["cities"][s])
        assert b["district_value"] == value
        assert b["total"] == value + b["colour_bonus"] + b["completion_bonus"] + \
            b["district_extras"] == end["scores"][s]
    best = max(end["scores"])
    assert all(end["scores"][w] == best for w in end["winners"])


CLASSIC8 = ["Assassin", "Thief", "Magician", "King", "Abbot", "Alchemist", "Navigator", "Warlord"]
P8 = ["Assassin", "Thief", "Magician", "Patrician", "Abbot", "Trader", "Scholar", "Warlord"]
CASES = [(rs, n, None) for rs in ("classic", "2016", "four_color") for n in (2, 4, 7)] + [
    ("classic", 4, CLASSIC8), ("classic", 6, CLASSIC8 + ["Queen"]),
    ("classic", 8, CLASSIC8 + ["Queen"]), ("2016", 2, P8), ("2016", 3, P8 + ["Tax Collector"]),
    ("2016", 5, P8 + ["Queen"]), ("2016", 8, P8 + ["Tax Collector"]),
    ("classic", 5, ["Assassin", "Tax Collector", "Magician", "Emperor", "Bishop", "Merchant",
                    "Architect", "Warlord", "Queen"]),
    ("2016", 4, ["Assassin", "Spy", "Magician", "Emperor", "Bishop", "Merchant", "Architect",
                 "Marshal"]),
    ("2016", 3, ["Assassin", "Spy", "Magician", "Emperor", "Bishop", "Merchant", "Architect",
                 "Marshal", "Tax Collector"]),
    ("classic", 4, ["Assassin", "Thief", "Wizard", "King", "Bishop", "Merchant", "Architect",
                    "Warlord"]),
    ("2016", 5, ["Assassin", "Thief", "Seer", "King", "Bishop", "Merchant", "Architect",
                 "Warlord"]),
    ("2016", 2, ["Assassin", "Thief", "Wizard", "King", "Bishop", "Merchant", "Architect",
                 "Warlord"]),
    ("2016", 4, ["Assassin", "Thief", "Magician", "King", "Cardinal", "Merchant", "Architect",
                 "Warlord"]),
    ("2016", 5, ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect",
                 "Diplomat"]),
]


NEW_UNIQUES = ["Basilica", "Capitol", "Ivory Tower", "Secret Vault", "Monument", "Stables",
               "Poor House", "Park", "Great Wall", "Observatory", "Gold Mine", "Dragon Gate",
               "Library", "Keep"]
DISTRICT_CASES = [
    ("classic", 4, CLASSIC8[:7] + ["Diplomat"], None, ["Graveyard"]),
    ("2016", 4, P8, NEW_UNIQUES, None),
    ("classic", 5, CLASSIC8, ["Park", "Poor House", "Map Room", "Factory", "Ball Room"],
     ["Graveyard", "Keep"]),
]


@pytest.mark.parametrize("ruleset,players,characters,districts,removed", DISTRICT_CASES)
def test_replays_with_more_districts_check_out(ruleset, players, characters, districts,
                                               removed):
    config = GameConfig(ruleset=ruleset, players=players, characters=characters,
                        districts=districts, removed=removed)
    for game in range(30):
        audit(replay(config, ["heuristic", "random", "builder", "aggressive", "random"][
            :players], 9, game), config)


@pytest.mark.parametrize("ruleset,players,characters", CASES)
def test_replays_check_out(ruleset, players, characters):
    config = GameConfig(ruleset=ruleset, players=players, characters=characters)
    lineup = ["heuristic", "random", "aggressive", "builder"] * 2
    for game in range(15):
        audit(replay(config, lineup[:players], 5, game), config)


def test_replay_is_the_simulated_game():
    config = GameConfig(players=4)
    lineup = "heuristic,random,builder,aggressive"
    sim = simulate(config, lineup, games=10, seed=7)
    end = replay(config, lineup, 7, 3)[-1]
    row = sim.seats.filter(sim.seats["game"] == 3).sort("seat")
    assert row["score"].to_list() == end["scores"]
    assert row["rounds"][0] == end["rounds"]
