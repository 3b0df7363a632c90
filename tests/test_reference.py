"""The reference strategy family: legal play everywhere (the replay audit), every power used
when its character is picked, the draft memory never rules out the truth, the Blackmailer's
threat revealed against a seat that refuses, and the reference preset beating the
heuristic and the builder."""

import random
from collections import Counter

import kernel_helpers as h
import polars as pl
import pytest
from test_replay_audit import ROSTER_CASES, audit

from citadels_sim import GameConfig, replay, simulate
from citadels_sim.engine.replay import to_text
from citadels_sim.game import cards, sampling
from citadels_sim.game.strategies import presets
from citadels_sim.game.config import ConfigError
from citadels_sim.kernel import draft, layout as L
from citadels_sim.kernel.characters import end_of_turn
from citadels_sim.kernel.bots import reference
from citadels_sim.studies.compare import compare

#: a mixed line-up: reference seats (one refusing every bribe) among the other families
LINEUP = ["reference", "heuristic", "reference:bribe=0", "builder", "reference", "random",
          "aggressive", "reference"]

#: event types that show a character's power at work, in its own turn (the passive classic
#: Tax Collector's and the Queen's may come in another seat's turn or at the round's end)
POWER = {"Assassin": {"kill"}, "Witch": {"bewitch"}, "Magistrate": {"warrants"},
         "Thief": {"rob"}, "Spy": {"spy"}, "Blackmailer": {"threats"},
         "Magician": {"swap_hands", "redraw"}, "Wizard": {"wizard"}, "Seer": {"seer"},
         "King": {"crown"}, "Emperor": {"crown_given"}, "Patrician": {"crown"},
         "Bishop": {"income"}, "Abbot": {"tribute"}, "Cardinal": {"assist"},
         "Merchant": {"bonus_gold"}, "Alchemist": {"refund"}, "Trader": {"income"},
         "Architect": {"bonus_cards"}, "Navigator": {"navigator"}, "Scholar": {"scholar"},
         "Warlord": {"destroy"}, "Diplomat": {"exchange"}, "Marshal": {"seize"},
         "Artist": {"beautify"}}
ANYWHERE = {("classic", "Tax Collector"): "classic_tax", ("2016", "Tax Collector"): "take_pile",
            ("classic", "Queen"): "queen", ("2016", "Queen"): "queen"}

DARK_CITY = ["Witch", "Tax Collector", "Wizard", "Emperor", "Abbot", "Alchemist", "Navigator",
             "Diplomat"]
BASE = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord"]
#: configurations that together hold every character of every ruleset
COVERAGE = [("classic", 5, DARK_CITY + ["Artist"], None, ["Graveyard"]),
            ("classic", 6, BASE + ["Queen"], None, None), ("four_color", 4, None, None, None)] + [
    ("2016", 5 if p.rank9 == "Queen" else 4 + (p.rank9 is not None), name, name, None)
    for name, p in cards.named_sets().items() if not name.endswith("_en")]


def _random_configs(n, seed):
    """``n`` valid configurations with random one-per-rank character sets."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        ruleset = rng.choice(["classic", "2016"])
        by_rank = {}
        for c in cards.characters(ruleset):
            by_rank.setdefault(c.rank, []).append(c.name)
        ranks = sorted(by_rank)[:8 + rng.randint(0, 1)]
        try:
            out.append(GameConfig(ruleset=ruleset, players=rng.randint(2, 8),
                                  characters=[rng.choice(by_rank[r]) for r in ranks]))
        except ConfigError:
            continue
    return out


@pytest.mark.parametrize("ruleset,players,characters,districts,removed", ROSTER_CASES)
def test_reference_games_with_the_whole_roster_check_out(ruleset, players, characters,
                                                         districts, removed):
    config = GameConfig(ruleset=ruleset, players=players, characters=characters,
                        districts=districts, removed=removed)
    for game in range(25):
        events = replay(config, LINEUP[:players], 5, game)
        audit(events, config)
        assert to_text(events)


@pytest.mark.parametrize("config", _random_configs(8, seed=12))
def test_reference_games_with_random_character_sets_check_out(config):
    lineup = ["reference"] * config.players if config.players < 4 else LINEUP[:config.players]
    for game in range(15):
        audit(replay(config, lineup, 3, game), config)


def _powers(events, ruleset):
    """(characters picked, Counter of (character, power event type)) of one game, each
    power event credited to the character whose turn it falls in."""
    picked, used, turn = set(), Counter(), None
    for e in events:
        t = e["type"]
        if t == "pick":
            picked.add(e["character"])
        elif t in ("call", "resume"):
            turn = e["character"]
        elif t == "round_end":
            turn = None
        elif turn is not None and t in POWER.get(turn, ()):
            used[turn] += 1
        for (rs, name), kind in ANYWHERE.items():
            if rs == ruleset and t == kind:
                used[name] += 1
    return picked, used


def test_every_power_is_used_in_some_games_where_its_character_is_picked():
    picked, used, seen = Counter(), Counter(), {rs: set() for rs in cards.RULESETS}
    for ruleset, players, characters, districts, removed in COVERAGE:
        config = GameConfig(ruleset=ruleset, players=players, characters=characters,
                            districts=districts, removed=removed)
        seen[ruleset] |= set(config.character_names)
        for game in range(20):
            p, u = _powers(replay(config, "reference", 21, game), ruleset)
            picked.update((ruleset, c) for c in p)
            used.update({(ruleset, c): n for c, n in u.items()})
    for ruleset in cards.RULESETS:
        assert seen[ruleset] == {c.name for c in cards.characters(ruleset)}, ruleset
    unused = sorted(k for k in picked if used[k] == 0)
    assert not unused, f"picked but their power never used: {unused}"


def test_draft_memory_never_rules_out_the_true_holder():
    """After each draft, every seat gives the true holder of each character a positive
    chance, rules out seats that cannot hold it, and its odds over the opponents sum to at
    most 1; a rank the first picker was not offered lies face down."""
    for ruleset, players in (("classic", 4), ("classic", 2), ("classic", 3), ("2016", 6),
                             ("classic", 7)):
        for game in range(30):
            st, tb = h.make_state(ruleset, players, "reference", seed=4, game=game)
            draft.draft(st, tb)
            first = int(st.g[L.G_PICKER])
            faceup = int(st.g[L.G_FACEUP])
            # 4+ players, unless the last picker is offered the face-down card too
            down_stays = players >= 4 and int(st.g[L.G_NRANKS]) - bin(faceup).count("1") > (
                players + 1)
            for s in range(players):
                for r in range(int(st.g[L.G_NRANKS])):
                    odds = [reference.holder_odds(st, s, o, r) if o != s else 0.0
                            for o in range(players)]
                    assert sum(odds) <= 1.0 + 1e-9
                    holder = int(st.g[L.G_HOLDER + r])
                    if holder >= 0 and holder != s:
                        assert odds[holder] > 0.0, (ruleset, players, game, s, r)
                    unseen = not (int(st.p[first, L.P_OFFER]) >> r) & 1
                    if down_stays and s == first and unseen and not (faceup >> r) & 1:
                        assert holder == -1 and sum(odds) == 0.0


def test_blackmailer_reveals_the_flower_against_a_reference_seat_that_refuses():
    config = GameConfig(ruleset="2016", players=4, characters="cunning_agents",
                        districts="cunning_agents")
    kinds = Counter()
    for game in range(60):
        for e in replay(config, ["reference", "reference:bribe=0"] * 2, 8, game):
            if e["type"] == "blackmail":
                kinds["revealed flower" if e["revealed"] and e["flower"] else "refused"] += 1
            elif e["type"] == "bribe":
                kinds["bribe"] += 1
    assert kinds["revealed flower"] > 0 and kinds["bribe"] > 0, kinds


def test_the_default_reference_seat_sometimes_refuses_a_bribe():
    config = GameConfig(ruleset="2016", players=5, characters="devious_dignitaries",
                        districts="devious_dignitaries")
    types = Counter(e["type"] for game in range(60)
                    for e in replay(config, "reference", 9, game))
    assert types["blackmail"] > 0 and types["bribe"] > 0, types


@pytest.mark.parametrize("other", ["heuristic", "builder"])
def test_reference_beats_heuristic_and_builder_at_4_players(other):
    result = compare("reference", other, GameConfig(players=4), games=3000, seed=1)
    assert result.test["p"] < 0.05 and result.test["diff"] > 0, result.text()


def test_reference_reads_a_desire_per_character():
    """Two characters of the same rank get their own desires: raising the Witch's makes the
    reference seats pick her more, and the Assassin in the other set is unaffected."""
    def picks(spec, characters):
        config = GameConfig(players=4, characters=characters)
        n = Counter(e["character"] for g in range(40) for e in replay(config, spec, 2, g)
                    if e["type"] == "pick")
        return n
    witch = ["Witch"] + BASE[1:]
    assert picks("reference:want_witch=5", witch)["Witch"] > picks("reference", witch)["Witch"]
    assert picks("reference:want_witch=5", BASE) == picks("reference", BASE)


def test_at_two_players_every_character_is_held_in_some_rounds():
    """The heuristic's threat penalty, aimed at a classic Assassin and Thief, kept it from
    ever taking the Spy or the Wizard here; the reference weighs the set's real attackers."""
    config = GameConfig(ruleset="2016", players=2, characters=[
        "Assassin", "Spy", "Wizard", "Patrician", "Cardinal", "Trader", "Scholar", "Warlord"])
    held = simulate(config, "reference", games=2000, seed=1, progress=False).character_table()
    assert held["held_rate"].min() > 0.01, held.select("character", "held_rate")


@pytest.mark.parametrize("deck,razes", [(40, True), (3, False)], ids=["deck", "dry_deck"])
def test_the_warlord_leaves_a_completing_city_alone_when_the_deck_is_dry(deck, razes):
    """Issue 19 item 7: with the deck dry the reference Warlord razed the 7th of 8 districts
    every round (four_color, 7 players: the games ran to the round cap); with cards in the
    deck he still does."""
    st, tb = h.empty_state("four_color", 7, "reference")
    h.set_holders(st, {h.W: 0})
    h.set_city(st, 1, ["Tavern", "Market", "Manor", "Temple", "Castle", "Docks", "Church"])
    h.set_deck(st, ["Harbor"] * deck)
    h.set_gold(st, 0, 5)
    h.clear_log(st)
    end_of_turn(st, tb, L.CH_WARLORD, 0, h.W)
    assert bool(h.of_type(h.events(st), "destroy")) == razes


#: sampled valid configurations (seed fixed before looking) and the stalling one of issue 19
STALL_CONFIGS = sampling.random_configs(19, 8) + [GameConfig(ruleset="four_color", players=7)]


@pytest.mark.parametrize("preset", list(presets()))
def test_no_shipped_strategy_stalls_in_self_play(preset):
    """Issue 19 item 7: self-play of every shipped preset reaches the round cap in at most
    0.5% of the games over sampled valid configurations."""
    games = capped = 0
    for i, config in enumerate(STALL_CONFIGS):
        seats = simulate(config, preset, games=250, seed=i, progress=False).seats
        capped += int((seats.filter(pl.col("seat") == 0)["rounds"] >= config.max_rounds).sum())
        games += 250
    assert capped <= 0.005 * games, (preset, capped, games)


def test_the_navigator_is_worth_less_to_a_seat_that_could_build():
    """Issue 19 item 5: under the reference bots the Dark City Navigator's restricted-play
    value was -13.3 points (4 players): they took him for his 4 gold or cards and forgot that
    he builds nothing. The district a seat could build waits a turn: 2 gold less."""
    chars = ["Witch", "Thief", "Wizard", "Emperor", "Abbot", "Alchemist", "Navigator",
             "Diplomat"]
    st, tb = h.empty_state("classic", 4, "reference", chars, removed=("Graveyard",))
    h.set_gold(st, 0, 5)
    h.set_hand(st, 0, [])
    idle = reference.power_worth(st, tb, 0, L.CH_NAVIGATOR, 0, 0)
    h.set_hand(st, 0, ["Temple"])
    assert reference.ready_builds(st, tb, 0, 0) == 1
    ready = reference.ready_builds(st, tb, 0, 0)
    assert reference.power_worth(st, tb, 0, L.CH_NAVIGATOR, 0, ready) == idle - 2.0 == 2.0


def test_killing_the_tax_collector_takes_the_taxes_the_others_would_pay_him():
    """Issue 19 item 6: at 3 players in vicious_nobles the bots' Assassin killed the
    exploiter's Tax Collector in 1% of his rounds (the bots' own: 49%) and aimed at the
    Architect or the Cardinal instead: what a kill takes from the 2016 Tax Collector was his
    pile and half a gold.  It now adds a tax on each build the others can make before his
    turn (one a turn; two turns each with 2-3 players)."""
    chars = ["Assassin", "Thief", "Magician", "Patrician", "Cardinal", "Trader", "Architect",
             "Warlord", "Tax Collector"]
    st, tb = h.empty_state("2016", 3, "reference", chars, districts="vicious_nobles")
    tc = 8  # rank 9
    st.g[L.G_TAX_PILE] = 2
    idle = reference.harm(st, tb, 1, 0, tc, reference.AIM_KILL)
    assert reference.builds_before(st, tb, 0, 1) == 0
    for s in (1, 2):  # each opponent of seat 0 can pay for two districts of his hand
        h.set_gold(st, s, 6)
        h.set_hand(st, s, ["Temple", "Market"])
    assert reference.builds_before(st, tb, 0, 1) == 4
    busy = reference.harm(st, tb, 1, 0, tc, reference.AIM_KILL)
    assert busy == pytest.approx(idle + 4 * int(st.g[L.G_TAX]))
    h.set_gold(st, 2, 0)  # seat 2 cannot pay for a build now: no tax from him
    assert reference.builds_before(st, tb, 0, 1) == 2


def _opponent_picks(st, s):
    """Per opponent pick of this round: (pick number, picker, the ranks it could have kept
    as seat ``s`` knows)."""
    out = reference.known_out(st, s)
    picks = []
    for k in range(int(st.g[L.G_PICKS])):
        o = int(st.g[L.G_PICKER + k])
        if o != s:
            picks.append((k, o, [c for c in range(int(st.g[L.G_NRANKS]))
                                 if not (out >> c) & 1 and reference.could_take(st, s, k, c)]))
    return picks


def _read(st, tb, s, k, ranks, read=0.0, memory=0.0):
    st.params[s, L.PR_R_READ] = read
    st.params[s, L.PR_R_MEMORY] = memory
    out = reference.known_out(st, s)
    reference.read_picks(st, tb, s, k, out)
    return [float(st.work[L.W_READ, c]) for c in ranks]


@pytest.mark.parametrize("players", [2, 3])
def test_an_opponents_pick_is_read_by_worth_and_by_what_he_showed_before(players):
    """Issue 19 item 6. With 2 or 3 players each pick is one of a few ranks the aimer can
    name: ``read`` and ``memory`` weigh them (1 each when both are 0, as before) and keep
    the pick's odds whole; ``read`` below 0 turns the order of ``read`` above 0 around;
    ``memory`` favours the rank the picker revealed in the earlier rounds."""
    for game in range(10):
        st, tb = h.make_state("classic", players, "reference", seed=3, game=game)
        draft.draft(st, tb)
        for s in range(players):
            for k, o, ranks in _opponent_picks(st, s):
                assert _read(st, tb, s, k, ranks) == [1.0] * len(ranks)
                up, down = _read(st, tb, s, k, ranks, 0.8), _read(st, tb, s, k, ranks, -0.8)
                assert sum(up) == pytest.approx(len(ranks))
                assert sum(down) == pytest.approx(len(ranks))
                for i in range(len(ranks)):
                    for j in range(len(ranks)):
                        assert (up[i] - up[j]) * (down[i] - down[j]) <= 1e-12
                st.g[L.G_ROUND] = 6
                st.p[o, L.P_SHOWN + ranks[0]] = 5
                habit = _read(st, tb, s, k, ranks, memory=3.0)
                st.p[o, L.P_SHOWN + ranks[0]] = 0
                assert sum(habit) == pytest.approx(len(ranks))
                if len(ranks) > 1:
                    assert habit[0] > 1.0 > max(habit[1:])


def test_an_assassin_who_remembers_stops_killing_a_character_his_opponent_never_shows():
    """The diagnosis of item 6 (docs/balance.md, "2 players: where the kills go"): the
    2-player bot kept killing the Warlord, whom its exploiters never kept, because it counts
    both ranks a pick may have kept alike.  An aimer with memory who has seen his opponent
    reveal the other rank of the pair in every earlier round aims elsewhere."""
    found = 0
    for game in range(100):
        st, tb = h.make_state("classic", 2, "reference", seed=7, game=game)
        draft.draft(st, tb)
        s = int(st.g[L.G_HOLDER + 0])
        if s < 0:
            continue
        allowed = ((1 << int(st.g[L.G_NRANKS])) - 1) & ~1
        aim = reference.ref_target(st, tb, s, allowed, reference.AIM_KILL)
        pair = next((ranks for _, _, ranks in _opponent_picks(st, s) if aim in ranks), None)
        if pair is None or len(pair) != 2:
            continue
        st.g[L.G_ROUND] = 6
        st.p[1 - s, L.P_SHOWN + pair[1 - pair.index(aim)]] = 5
        st.params[s, L.PR_R_MEMORY] = 6.0
        assert reference.ref_target(st, tb, s, allowed, reference.AIM_KILL) != aim
        found += 1
    assert found >= 10, found


@pytest.mark.parametrize("players", [2, 3])
def test_read_odds_that_a_rank_is_in_play_never_pass_one(players):
    """The Witch's wasted bewitchments (issue 19): with ``read`` below 0 every pick that
    could have kept an unwanted rank read it as likely, and the odds summed over the picks
    passed 1, so the Witch named a character nobody held.  The read odds are now set
    against the chance that it lies face down: with every opponent's stash and city alike,
    a robbery's expected effect over the stash taken is the odds that the rank is held by an
    opponent, at most 1; without reads the odds are those of :func:`holder_odds`."""
    for game in range(20):
        st, tb = h.make_state("2016", players, "reference", seed=5, game=game,
                              characters="cunning_agents", districts="cunning_agents")
        draft.draft(st, tb)
        for o in range(players):
            st.p[o, L.P_GOLD] = 4
        st.g[L.G_ROUND] = 4
        stolen = 4 * int(st.g[L.G_THIEF_SHARE]) / 100.0
        for s in range(players):
            out = reference.known_out(st, s)
            for r in range(int(st.g[L.G_NRANKS])):
                if (out >> r) & 1:
                    continue
                st.params[s, L.PR_R_READ] = st.params[s, L.PR_R_MEMORY] = 0.0
                plain = reference.rank_effect(st, tb, s, r, reference.AIM_ROB, out) / stolen
                held = sum(reference.holder_odds(st, s, o, r) for o in range(players) if o != s)
                assert plain == pytest.approx(held)
                st.params[s, L.PR_R_READ] = -1.0
                st.params[s, L.PR_R_MEMORY] = 6.0
                for o in range(players):
                    st.p[o, L.P_SHOWN + r] = 3
                read = reference.rank_effect(st, tb, s, r, reference.AIM_ROB, out) / stolen
                for o in range(players):
                    st.p[o, L.P_SHOWN + r] = 0
                assert 0.0 <= read <= 1.0 + 1e-9, (game, s, r, read)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_effects_of_an_aim_at_every_rank_are_those_reckoned_one_rank_at_a_time(players):
    """A target is chosen from the effects of every allowed rank, reckoned in one pass that
    reads each opponent's pick once (``rank_effects``): each is the number reckoned for that
    rank alone, for every aim, with and without reads, before and during the turns."""
    aims = [reference.AIM_KILL, reference.AIM_ROB, reference.AIM_WARRANT,
            reference.AIM_THREAT, reference.AIM_BEWITCH]
    for game in range(6):
        st, tb = h.make_state("2016", players, "reference", seed=9, game=game,
                              characters="cunning_agents", districts="cunning_agents")
        draft.draft(st, tb)
        for o in range(players):
            st.p[o, L.P_GOLD] = 2 + o
        st.g[L.G_ROUND] = 4
        st.g[L.G_TURN_RANK] = game % 4
        for s in range(players):
            st.params[s, L.PR_R_READ] = (-0.7, 0.0, 0.9)[(s + game) % 3]
            st.params[s, L.PR_R_MEMORY] = (0.0, 2.5)[game % 2]
            out = reference.known_out(st, s)
            wanted = ((1 << int(st.g[L.G_NRANKS])) - 1) & ~reference.own_ranks(st, s)
            for aim in aims:
                reference.rank_effects(st, tb, s, wanted, aim, out)
                together = [float(st.work[L.W_EFFECT, r]) for r in range(9)]
                for r in range(int(st.g[L.G_NRANKS])):
                    if (wanted >> r) & 1:
                        assert reference.rank_effect(st, tb, s, r, aim, out) == together[r]
