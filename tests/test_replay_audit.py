"""An independent reader checks replayed games against the rules, event by event.

It sees only the JSON events (as ``citadels replay --json`` prints them) and checks: cards
conserved at every step (deck, hands, cities and the cards under a Museum), gold never
negative and changed only as the events say, legal builds (paid or built by a sacrifice,
no duplicate without a Quarry, within the build limit of the character played, after
gathering), confiscations, the Witch's suspended and resumed turns, the Blackmailer's
threats, the Artist, the Theater, the calling order, the Wizard's immediate build (paid,
never by a sacrifice), the end of the game (complete cities, the Bell Tower's size), the
first completer recomputed from the cities' sizes event by event (D25), the classic colour
bonus with the Haunted City's last-round rule (D44: for who built it, not who received it),
and the final scores recomputed from the final state.
"""

import copy

import kernel_helpers as h
import pytest

from citadels_sim import GameConfig, replay, simulate
from citadels_sim.engine.replay import to_text
from citadels_sim.game.cards import districts

#: build limits of RULES.md §2.5.1 (default 1); the Wizard's immediate build is extra
LIMIT = {"Architect": 3, "Scholar": 2, "Seer": 2, "Navigator": 0}
TRADE, UNIQUE = 2, 4

#: events whose gold moves the events themselves state: type -> [(payer, payee, amount)]
#: with None for the bank; seat fields are looked up in the event
FLOWS = {
    "gather_gold": [(None, "seat", "gold")], "income": [(None, "seat", "gold")],
    "bonus_gold": [(None, "seat", "gold")], "laboratory": [(None, "seat", "gold")],
    "navigator": [(None, "seat", "gold")], "refund": [(None, "seat", "gold")],
    "queen": [(None, "seat", "gold")], "poor_house": [(None, "seat", "gold")],
    "throne_room": [(None, "seat", "gold")], "theft": [("victim", "seat", "gold")],
    "build": [("seat", None, "gold_paid")], "destroy": [("seat", None, "cost")],
    "tribute": [("from", "seat", "gold")], "crown_given": [("to", "seat", "gold")],
    "spy": [("target", "seat", "gold")], "seize": [("seat", "target", "cost")],
    "classic_tax": [("seat", "to", "gold")], "exchange": [("seat", "target", "paid")],
    "bribe": [("seat", "blackmailer", "gold")], "blackmail": [("seat", "blackmailer", "gold")],
}


def size(city):
    """Size toward a complete city: the Monument counts twice (2016)."""
    return len(city) + ("Monument" in city)


def check_gold(e, nxt, prev, st):
    """Every stash and the tax pile change exactly as the event says."""
    t, n = e["type"], len(st["gold"])
    delta, pile = [0] * n, 0
    for payer, payee, amount in FLOWS.get(t, ()):
        if payer is not None:
            delta[e[payer]] -= e[amount]
        if payee is not None:
            delta[e[payee]] += e[amount]
    if t == "smithy":
        delta[e["seat"]] -= 2
    elif t == "beautify":
        delta[e["seat"]] -= 1  # the gold lies on the district, not in the stash
    elif t == "tax":
        delta[e["seat"]] -= e["gold"]
        pile += e["gold"]
    elif t == "take_pile":
        delta[e["seat"]] += e["gold"]
        pile -= e["gold"]
    if t in ("build", "confiscate") and nxt.get("type") == "assist":  # the Cardinal's donor
        delta[nxt["from"]] -= nxt["gold"]
        delta[e["seat"]] += nxt["gold"]
    if t == "destroy" and nxt.get("type") == "graveyard":  # paid before the destroy is logged
        delta[nxt["seat"]] -= 1
    assert [a - b for a, b in zip(st["gold"], prev["gold"])] == delta, ("gold", e)
    assert st["tax_pile"] - prev["tax_pile"] == pile, ("tax pile", e)


def audit(events, config):
    info = {d.name: d for d in districts(config.ruleset)}
    rank_of = {name: r + 1 for r, name in enumerate(config.character_names)}
    total = int(config.deck_counts().sum())
    classic = config.ruleset == "classic"
    size_n, bell = config.complete_size, False
    last_rank, turn, builds, gathered, extra = 0, None, 0, False, 0
    seat = limit = None
    holders, killed, bewitched, witch, warrant, magistrate = {}, None, None, None, None, None
    threats, blackmailer, real, suspended, paid_builds, resumed = set(), None, None, False, 0, False
    museum_used, beautified = False, 0
    haunted_built = set()  # (seat, round) of each build of the Haunted City
    prev = events[0]["state"]
    reached = {7: [-1] * len(prev["gold"]), 8: [-1] * len(prev["gold"])}  # D25
    for k, e in enumerate(events):
        st = e["state"]
        for s, city in enumerate(st["cities"]):  # when each city last rose to 7 and to 8
            for n, at in reached.items():
                if size(city) < n:
                    at[s] = -1
                elif at[s] < 0:
                    at[s] = k
        t = e["type"]
        nxt = events[k + 1] if k + 1 < len(events) else {}
        last = events[k - 1] if k else {}
        cards = (st["deck_size"] + sum(st["hand_sizes"]) + sum(len(c) for c in st["cities"])
                 + sum(st["museum"]))
        # a sacrifice is logged while the card being built is between hand and city
        in_transit = 1 if t == "sacrifice" else 0
        assert cards + in_transit == total, ("cards", e)
        assert min(st["gold"]) >= 0 and st["tax_pile"] >= 0, e
        for s, city in enumerate(st["cities"]):
            assert not st["museum"][s] or "Museum" in city
            left = list(city)
            for name in st["beautified"][s]:
                assert name in left, ("beautified outside the city", e)
                left.remove(name)
        if k:
            check_gold(e, nxt, prev, st)
        if last.get("type") in ("round_end", "setup"):  # a new round: its draft begins
            holders, killed, bewitched, witch, warrant, magistrate = {}, None, None, None, None, None
            threats, blackmailer, last_rank = set(), None, 0
        if t == "pick":
            holders[e["character"]] = e["seat"]
        if t == "theater":
            assert not classic and "Theater" in st["cities"][e["seat"]]
            assert holders[e["gave"]] == e["seat"] and holders[e["took"]] == e["with"]
            holders[e["gave"]], holders[e["took"]] = e["with"], e["seat"]
        if t in ("call", "skip_killed", "round_end", "game_end") and turn == "Witch":
            assert classic or bewitched, "the 2016 Witch must bewitch"
        if t in ("call", "skip_killed"):
            rank = rank_of[e["character"]]
            assert rank > last_rank, "characters are called in ascending rank"
            assert holders[e["character"]] == e["seat"], "the call reaches the holder"
            last_rank, turn, builds, gathered = rank, e["character"], 0, False
            extra, seat, paid_builds, suspended = 0, e["seat"], 0, False
            museum_used, beautified = False, 0
            limit = LIMIT.get(turn, 1)
            if t == "skip_killed":
                assert e["character"] == killed
            if t == "call" and e["character"] in (killed, bewitched):  # gathers, nothing else
                limit = 0
                if e["character"] == killed:
                    assert classic and "Hospital" in prev["cities"][e["seat"]], "Hospital"
        if t == "kill":
            killed = e["character"]
        if t == "bewitch":
            assert turn == "Witch" and e["seat"] == seat and gathered and builds == 0
            assert e["character"] != "Witch"
            bewitched, witch, suspended = e["character"], e["seat"], True
        if t == "resume":
            assert turn == bewitched and e["character"] == bewitched and e["seat"] == witch
            assert gathered and builds == 0, "the bewitched holder only gathers"
            seat, builds, extra, paid_builds = witch, 0, 0, 0
            museum_used, beautified = False, 0
            limit = LIMIT.get(turn, 1)  # her limits are the bewitched character's
            resumed = True
        if t == "round_end":
            called = any(x["type"] == "call" and x["character"] == bewitched and
                         x["round"] == e["round"] for x in events[:k])
            assert called == resumed or bewitched is None, "the Witch resumes iff called"
            resumed, turn, seat = False, None, None
        if suspended and t not in ("bewitch", "call", "skip_killed", "round_end", "game_end",
                                   "discard_face_up", "discard_face_down", "pick"):
            raise AssertionError(f"the Witch acts after bewitching: {e}")
        if t == "warrants":
            assert turn == "Magistrate" and not classic
            names = {e["signed"], e["warrant"], e["warrant2"]}
            assert len(names) == 3 and "Magistrate" not in names
            warrant, magistrate = e["signed"], e["seat"]
        if t == "threats":
            assert turn == "Blackmailer" and not classic and e["real"] != e["bluff"]
            for c in (e["real"], e["bluff"]):
                assert rank_of[c] != 1 and c not in (killed, bewitched, "Blackmailer")
            threats, blackmailer = {e["real"], e["bluff"]}, e["seat"]
            real = e["real"]
        if t in ("bribe", "blackmail"):
            assert turn in threats and e["seat"] == seat and gathered and builds == 0
            assert e["blackmailer"] == blackmailer
            threats.discard(turn)
            stash = prev["gold"][e["seat"]]
            if t == "bribe":
                assert e["gold"] == stash // 2
            else:
                assert e["flower"] == (turn == real)
                assert e["gold"] == (stash if e["revealed"] and e["flower"] else 0)
        if t == "wizard" and e["built"]:
            assert gathered, "the Wizard builds at once only after gathering"
            extra = 1
        if t in ("gather_gold", "gather_cards"):
            assert not gathered
            gathered = True
        if t in ("build", "confiscate"):
            s = e["seat"]
            assert gathered and s == seat, "builds only in one's turn, after gathering"
            free = (turn == "Trader" and info[e["district"]].type == TRADE) or \
                e["district"] == "Stables" or extra  # none counts toward the limit
            extra = 0
            if not free:
                builds += 1
            assert limit > 0 and builds <= limit, "build limit"
            before = prev["cities"][s]
            assert e["district"] != "Secret Vault"
            # the cost is that of the moment the build began: before a sacrifice (which may
            # destroy the Factory itself to build the Necropolis)
            began = events[k - 2]["state"]["cities"][s] if last.get("type") == "sacrifice" \
                else before
            factory = "Factory" in began and info[e["district"]].type == UNIQUE and \
                e["district"] != "Factory"
            cost = e["cost"] if t == "build" else e["gold_returned"] + e["cards_paid"]
            assert cost == info[e["district"]].cost - factory, "build cost"
            if e["district"] != "Thieves' Den":
                assert e["cards_paid"] == 0
        if t == "build" and e["district"] == "Haunted City":
            haunted_built.add((e["seat"], e["round"]))
        if t == "build":
            sacrificed = last.get("type") == "sacrifice"
            if sacrificed:
                assert last["seat"] == s and e["gold_paid"] == e["cards_paid"] == 0
                assert last["district"] == "Framework" or e["district"] == "Necropolis"
            else:
                assert e["gold_paid"] + e["cards_paid"] == e["cost"]
                paid_builds += 1
            assert st["cities"][s][-1] == e["district"]
            assert e["district"] != "Monument" or len(before) < 5, "Monument into 5+"
            if e["district"] in before:
                assert "Quarry" in before or turn == "Wizard", "duplicate without a Quarry"
            # the card built (logged at the sacrifice when free), the cards paid, and the cards
            # given to the Cardinal's donor
            assert st["hand_sizes"][s] == prev["hand_sizes"][s] - (not sacrificed) - \
                e["cards_paid"] - (nxt["gold"] if nxt.get("type") == "assist" else 0)
        if t == "confiscate":
            m = e["magistrate"]
            assert turn == warrant and m == magistrate and m != s, "the signed warrant"
            assert paid_builds == 0, "only the first paid build"
            paid_builds += 1
            assert e["district"] not in prev["cities"][m], "no duplicate by confiscation"
            assert e["district"] != "Monument" or len(prev["cities"][m]) < 5
            assert st["cities"][m] == prev["cities"][m] + [e["district"]]
            assert st["cities"][s] == prev["cities"][s]
            assert st["hand_sizes"][s] == prev["hand_sizes"][s] - 1 - e["cards_paid"] - (
                nxt["gold"] if nxt.get("type") == "assist" else 0)
        if t == "sacrifice":
            assert not extra, "the Wizard's immediate build must be paid, not sacrificed for"
            s = e["seat"]
            assert s == seat and gathered and nxt["type"] == "build" and nxt["seat"] == s
            assert size(prev["cities"][s]) < size_n, "no destruction in a complete city"
            assert prev["cities"][s].count(e["district"]) == \
                st["cities"][s].count(e["district"]) + 1
        if t == "armory":
            s, o = e["seat"], e["target"]
            assert s == seat and "Armory" in prev["cities"][s]
            assert o != s or not classic, "the classic Armory targets another city"
            assert size(prev["cities"][o]) < size_n, "no destruction in a complete city"
            assert len(st["cities"][o]) == len(prev["cities"][o]) - 1 - (o == s)
            assert prev["cities"][o].count(e["district"]) > st["cities"][o].count(e["district"])
        if t == "museum":
            s = e["seat"]
            assert s == seat and "Museum" in st["cities"][s] and not museum_used, "once a turn"
            museum_used = True
            assert st["museum"][s] == prev["museum"][s] + 1
            assert st["hand_sizes"][s] == prev["hand_sizes"][s] - 1
        if t in ("lighthouse", "bell_tower"):
            built = next(x for x in reversed(events[:k]) if x["type"] in ("build", "confiscate"))
            owner = built["magistrate"] if built["type"] == "confiscate" else built["seat"]
            name = "Lighthouse" if t == "lighthouse" else "Bell Tower"
            assert built["district"] == name and owner == e["seat"]
        if t == "lighthouse":
            s = e["seat"]
            assert st["hand_sizes"][s] == prev["hand_sizes"][s] + 1
            assert st["deck_size"] == prev["deck_size"] - 1
        if t == "bell_tower":
            assert classic and e["size"] == 7 and size_n > 7
            size_n, bell = 7, True
        if bell and not any("Bell Tower" in c for c in st["cities"]):
            size_n, bell = config.complete_size, False  # the Bell Tower left play (D48)
        if t == "throne_room":
            assert classic and "Throne Room" in st["cities"][e["seat"]]
            crown = next(x for x in reversed(events[:k]) if x["type"] != "throne_room")
            assert crown["type"] == "crown" and crown["from"] != crown["seat"]
        if t == "beautify":
            s = e["seat"]
            assert s == seat and turn == "Artist" and e["district"] in st["cities"][s]
            assert len(st["beautified"][s]) == len(prev["beautified"][s]) + 1
            beautified += 1
            assert beautified <= 2, "at most 2 beautified a turn"
        if t == "assist":  # right after the build it paid for
            assert turn == "Cardinal" and events[k - 1]["type"] in ("build", "confiscate")
            assert e["from"] != e["seat"] and e["gold"] > 0
        if t == "exchange":
            s, o = e["seat"], e["target"]
            assert turn == "Diplomat" and "Keep" not in (e["gave"], e["got"])
            assert e["got"] in st["cities"][s] and e["gave"] in st["cities"][o]
            # no new duplicate (a city may keep one built earlier with a Quarry it gave away)
            for seat, name in ((s, e["got"]), (o, e["gave"])):
                had = prev["cities"][seat].count(name)
                now = st["cities"][seat].count(name)
                assert now == had + (e["gave"] != e["got"]), ("exchange", e)
                assert now <= max(1, had), "duplicate by exchange"
        if t == "theft" and e["victim"] != e["seat"]:  # robbing oneself (2-3p) is a no-op
            assert st["gold"][e["victim"]] == 0
        if t == "round_end":
            complete = any(size(c) >= size_n for c in st["cities"])
            if nxt.get("type") == "game_end":
                assert complete or nxt["capped"], "the game ends with a complete city"
            else:
                assert not complete, "a complete city ends the game at the round's end"
        prev = st
    end = events[-1]
    assert end["type"] == "game_end"
    at = reached[8 if size_n >= 8 else 7]
    complete = [s for s, city in enumerate(prev["cities"]) if size(city) >= size_n]
    first = min(complete, key=lambda s: at[s]) if complete else -1
    assert end["first_completer"] == first, "first completer (D25)"
    for s, b in enumerate(end["breakdown"]):
        city = prev["cities"][s]
        value = sum(info[name].cost for name in city) + len(prev["beautified"][s])
        assert b["district_value"] == value
        complete = size(city) >= size_n
        assert b["completion_bonus"] == (4 if end["first_completer"] == s else 2) * complete
        assert b["district_extras"] >= prev["museum"][s]
        assert b["total"] == value + b["colour_bonus"] + b["completion_bonus"] + \
            b["district_extras"] == end["scores"][s]
        if classic:
            assert b["colour_bonus"] == classic_colour_bonus(
                city, info, (s, end["round"]) in haunted_built), ("colour bonus (D44)", s)
    best = max(end["scores"])
    assert all(end["scores"][w] == best for w in end["winners"])


def classic_colour_bonus(city, info, built_by_owner_last_round):
    """The classic five-colour bonus: the Haunted City counts as any colour unless its owner
    built it in the last round (D44; one received by an exchange keeps its choice)."""
    types = {info[name].type for name in city if name != "Haunted City"}
    free = "Haunted City" in city and not built_by_owner_last_round
    if "Haunted City" in city and not free:
        types.add(UNIQUE)
    return 3 if len(set(range(5)) - types) <= free else 0


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


DARK_CITY = ["Lighthouse", "Armory", "Museum", "Bell Tower", "Hospital", "Throne Room"]
ROSTER_CASES = [("2016", n, s, s, None) for s, n in (
    ("cunning_agents", 6), ("devious_dignitaries", 5), ("illustrious_emissaries", 6),
    ("ambitious_aristocrats", 5), ("vicious_nobles", 6), ("cunning_agents", 4))] + [
    ("classic", 6, ["Witch", "Tax Collector", "Magician", "Emperor", "Abbot", "Alchemist",
                    "Navigator", "Diplomat", "Artist"], DARK_CITY,
     ["Graveyard", "University", "Dragon Gate"]),
    ("classic", 5, CLASSIC8, DARK_CITY, ["Graveyard", "University", "Dragon Gate"]),
    ("classic", 4, ["Witch"] + CLASSIC8[1:], DARK_CITY, ["Library", "University", "Keep"]),
]


@pytest.mark.parametrize("ruleset,players,characters,districts,removed", ROSTER_CASES)
def test_replays_with_the_whole_roster_check_out(ruleset, players, characters, districts,
                                                 removed):
    config = GameConfig(ruleset=ruleset, players=players, characters=characters,
                        districts=districts, removed=removed)
    lineup = ["heuristic", "random", "builder", "aggressive", "random", "heuristic"]
    for game in range(40):
        events = replay(config, lineup[:players], 11, game)
        audit(events, config)
        assert to_text(events)  # every event has its description


#: the games of the outside audit that found the two rule errors of issue 9
AUDIT_FINDINGS = [
    (dict(ruleset="classic", players=2, characters=["Witch", "Tax Collector", "Wizard", "King",
                                                    "Abbot", "Alchemist", "Navigator",
                                                    "Diplomat"],
          districts=["Imperial Treasury", "Map Room", "Wishing Well", "Quarry", "Poor House",
                     "Bell Tower"], removed=["Graveyard", "University", "Dragon Gate"]),
     7, 7),  # an exchange reset the first completer
    (dict(ruleset="2016", players=3, characters="devious_dignitaries_en",
          districts="devious_dignitaries_en"), 101, 1),  # the Wizard sacrificed for Necropolis
    (dict(ruleset="2016", players=5, characters="ambitious_aristocrats",
          districts="ambitious_aristocrats"), 8, 5),  # ... and with the Framework
]


@pytest.mark.parametrize("config,seed,game", AUDIT_FINDINGS)
def test_the_audit_findings_check_out(config, seed, game):
    config = GameConfig(**config)
    for g in range(max(0, game - 3), game + 4):  # the game itself and its neighbours
        audit(replay(config, "heuristic", seed, g), config)


def audit_random_configurations(seed, configs, games):
    """Audit ``games`` replayed games of each of ``configs`` random valid configurations
    drawn from the whole roster (kernel_helpers.random_configs); returns the games audited."""
    for i, (config, lineup) in enumerate(h.random_configs(seed, configs)):
        for game in range(games):
            audit(replay(config, lineup, seed + i, game), config)
    return configs * games


def test_replays_of_random_configurations_check_out():
    """The audit's reach: random character sets of 8 or 9 from the whole roster, random
    2016 unique districts and classic bonus purples with their removals, 2-8 players, every
    strategy family.  The slow run below covers 10,000 games."""
    assert audit_random_configurations(2027, 30, 10) == 300


@pytest.mark.slow
def test_ten_thousand_replays_of_random_configurations_check_out():
    """Before each release (README): 10,000 audited games over 250 random configurations."""
    assert audit_random_configurations(9, 250, 40) == 10_000


def _first(events, etype):
    return next(k for k, e in enumerate(events) if e["type"] == etype)


@pytest.mark.parametrize("etype,tamper", [
    ("museum", lambda e: e["state"]["museum"].__setitem__(e["seat"], 0)),  # a card lost
    ("bribe", lambda e: e.__setitem__("gold", e["gold"] + 1)),  # gold out of thin air
    ("resume", lambda e: e.__setitem__("seat", (e["seat"] + 1) % 6)),  # the wrong seat
    ("build", lambda e: e.__setitem__("gold_paid", 0)),  # a build not paid for
])
def test_the_audit_catches_tampering(etype, tamper):
    config = GameConfig(ruleset="2016", players=6, characters="cunning_agents",
                        districts="cunning_agents")
    games = (replay(config, "heuristic", 11, game) for game in range(40))
    events = next(g for g in games if any(e["type"] == etype for e in g))
    audit(events, config)
    bad = copy.deepcopy(events)
    tamper(bad[_first(bad, etype)])
    with pytest.raises(AssertionError):
        audit(bad, config)


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


def test_the_haunted_city_exchanged_in_the_final_round_keeps_its_colour_choice():
    """Issue 22's game: in round 8 P4 builds the Haunted City and the Diplomat swaps it for
    P0's Manor; P0's Haunted City then counts as noble, his fifth colour (D44)."""
    config = GameConfig(ruleset="classic", players=6, removed=["Graveyard"], characters=[
        "Witch", "Tax Collector", "Wizard", "Emperor", "Abbot", "Alchemist", "Navigator",
        "Diplomat", "Artist"])
    events = replay(config, "builder", 404, 23)
    audit(events, config)
    (swap,) = [e for e in events if e["type"] == "exchange" and e["gave"] == "Haunted City"]
    assert swap["round"] == events[-1]["round"] == 8 and swap["seat"] == 4
    assert swap["target"] == 0 and swap["got"] == "Manor"
    p0 = events[-1]["breakdown"][0]
    assert (p0["district_value"], p0["colour_bonus"], p0["completion_bonus"]) == (22, 3, 4)
