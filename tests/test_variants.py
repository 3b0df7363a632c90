"""Card variants (issue 20 item 2): a character defined in a TOML file as a published one
with other numbers, named wherever a character is; a unique district at another cost, named
wherever a district is; what is not supported is refused in one line."""

from __future__ import annotations

import json

import pytest

from citadels_sim import GameConfig, simulate
from citadels_sim.cli import main
from citadels_sim.game.config import ConfigError
from citadels_sim.kernel import layout as L
from citadels_sim.studies.balance import Balance

VARIANTS = """
[characters."Greedy Merchant"]
base = "Merchant"
description = "3 gold after gathering, 2 per trade district"
merchant_gold = 3
merchant_income = 2

[characters."Lazy Architect"]
base = "Architect"
architect_builds = 1
"""
SET = ["Assassin", "Thief", "Magician", "King", "Bishop", "Greedy Merchant", "Architect",
       "Warlord"]


@pytest.fixture
def variants(tmp_path):
    path = tmp_path / "variants.toml"
    path.write_text(VARIANTS)
    return path


def test_a_variant_plays_as_its_base_with_its_numbers(variants):
    config = GameConfig(characters=SET, variants=variants)
    assert config.character_names[5] == "Greedy Merchant" and config.base_names[5] == "Merchant"
    assert config.character_ids[5] == L.CH_MERCHANT
    cfg = config.tables()["cfg"]
    assert cfg[L.G_MERCHANT_GOLD] == 3 and cfg[L.G_INCOME + L.CH_MERCHANT] == 2
    assert cfg[L.G_ARCHITECT_BUILDS] == 3  # the unused variant changes nothing
    assert config.to_dict()["variants"] == {"Greedy Merchant": {
        "base": "Merchant", "merchant_gold": 3, "merchant_income": 2}}
    assert config.to_args()[-2:] == ["--variants", str(variants)]
    # a house rule overrides the variant's number (a sweep of it)
    swept = GameConfig(characters=SET, variants=variants, rules={"merchant_gold": 2})
    assert swept.tables()["cfg"][L.G_MERCHANT_GOLD] == 2
    # the variant's tables carry its name; it plays its numbers
    res = simulate(config, "reference_classic", games=2000, progress=False)
    table = res.character_table()
    assert "Greedy Merchant" in table["character"].to_list()
    plain = simulate(GameConfig(), "reference_classic", games=2000, progress=False)
    rich = res.seats.filter(res.seats["won"])["gold"].mean()
    assert rich != plain.seats.filter(plain.seats["won"])["gold"].mean()


def test_simulate_balance_and_experiments_name_variants(variants, tmp_path, capsys):
    main(["simulate", "--characters", ",".join(SET), "--variants", str(variants),
          "--games", "200", "--no-progress", "--out", str(tmp_path / "run")])
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert meta["config"]["characters"][5] == "Greedy Merchant"
    spec = Balance(tuple(SET), players=(4,), strategies=("reference_classic",),
                   variants=str(variants))
    assert "variants_file" in spec.experiment_text([4], {})
    assert spec.command().endswith(f"--variants {variants}")
    assert spec.default_out() != Balance(tuple(SET[:5] + ["Merchant"] + SET[6:]),
                                         players=(4,),
                                         strategies=("reference_classic",)).default_out()


@pytest.mark.parametrize("text,message", [
    ('[characters."Merchant"]\nbase = "Merchant"\n', "a published character's name"),
    ('[characters."X"]\nbase = "Banker"\n', "base must name a published character"),
    ('[characters."X"]\nbase = "Merchant"\nthief_share = 50\n',
     "'thief_share' is neither a number of the Merchant (merchant_gold, merchant_income) nor "
     "an effect a variant may add (gold, cards, builds, income, power)"),
    ('[characters."X"]\nbase = "Merchant"\npower = "warrants"\n',
     "power = 'warrants' must name one target power: kill, rob, swap_hands, destroy, bewitch"),
    ('[characters."X"]\nbase = "Merchant"\npower = ["kill", "rob"]\n',
     "must name one target power"),
    ('[characters."X"]\nbase = "Assassin"\npower = "kill"\n',
     "power = 'kill' is the Assassin's own; add another (rob, swap_hands, destroy, bewitch)"),
    ('[characters."X"]\nbase = "Merchant"\nincome = "purple"\n',
     "income = 'purple' must name a district type: noble, religious, trade, military, unique"),
    ('[characters."X"]\nbase = "Merchant"\ncards = 9\n', "cards = 9 is outside 0-4"),
    ('[characters."X"]\nbase = "Merchant"\ncards = 1.5\n', "cards = 1.5 must be a whole number 0-4"),
    ('[characters."X"]\nbase = "Merchant"\nmerchant_gold = 40\n', "outside 0-10 gold"),
    ('[districts."Big Palace"]\nbase = "Palace"\ncost = 6\n',
     "base is not a unique (purple) district: only those are named in --districts"),
    ('[districts."Keep"]\nbase = "Keep"\ncost = 2\n', "a published district's name"),
    ('[districts."Big Keep"]\nbase = "Keep"\ncost = 12\n', "cost = 12 must be a whole number 0-10"),
    ('[districts."Big Keep"]\nbase = "Keep"\ncost = 4\npower = "steal"\n',
     "'power' is not supported; a district variant changes its cost only"),
    ('[towns."X"]\n', "[towns] is not supported"),
    ("[characters\n", "is not valid TOML"),
])
def test_bad_variants_are_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        GameConfig(characters=SET[:5] + ["X" if "X" in text else "Merchant"] + SET[6:],
                   variants=path)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_powers_a_variant_may_add_are_the_kernels():
    from citadels_sim.game.variants import POWERS
    assert tuple(POWERS) == L.POWER_NAMES


CHEAP_KEEP = '[districts."Cheap Keep"]\nbase = "Keep"\ncost = 2\n'


def test_a_district_variant_plays_in_its_base_place_at_its_cost(tmp_path):
    """2016: named among the 14 unique districts, it costs (and scores) its own cost; classic:
    named in --districts, a variant of a base purple card replaces every copy of it."""
    import kernel_helpers as h
    from citadels_sim.game import cards
    path = tmp_path / "v.toml"
    path.write_text(CHEAP_KEEP)
    first = list(cards.named_sets()["first_game"].districts)
    chosen = ["Cheap Keep" if d == "Keep" else d for d in first]
    config = GameConfig(ruleset="2016", districts=chosen, variants=path)
    keep = h.kinds(["Keep"])[0]
    assert config.tables()["kinds"][L.K_COST, keep] == 2
    assert "Cheap Keep" in config.to_dict()["districts"]
    assert config.to_dict()["variants"] == {"Cheap Keep": {"base": "Keep", "cost": 2}}
    for districts, can_build in ((chosen, True), (first, False)):
        st, tb = h.empty_state("2016", 4, "builder", districts=districts, variants=path)
        h.set_holders(st, {3: 0})
        h.set_hand(st, 0, ["Keep"])
        evs = h.play_turn_events(st, tb, 3, 0)  # gathers 2 gold: enough for a 2-gold Keep
        assert bool(h.of_type(evs, "build")) == can_build
        if can_build:
            assert h.gold(st, 0) == 0 and st.p[0, L.P_CITY_VALUE] == 2
    with pytest.raises(ConfigError, match="14 distinct unique districts"):
        GameConfig(ruleset="2016", districts=chosen[:-1] + ["Keep"], variants=path)
    classic = GameConfig(districts=["Cheap Keep"], variants=path)
    assert classic.deck_counts()[keep] == 2 and classic.tables()["kinds"][L.K_COST, keep] == 2
    assert "Cheap Keep" in classic.to_dict()["districts"] and "Keep" not in \
        classic.to_dict()["districts"]
    assert classic.to_args()[-4:] == ["--districts", "Cheap Keep", "--variants", str(path)]


def test_games_with_a_district_variant_name_it_in_records_and_replays(tmp_path):
    from citadels_sim import replay
    path = tmp_path / "v.toml"
    path.write_text(CHEAP_KEEP)
    config = GameConfig(districts=["Cheap Keep"], variants=path)
    result = simulate(config, "reference_classic", games=300, seed=1)
    assert "Cheap Keep" in result.districts["district"].to_list()
    cities = [c for g in range(30) for c in replay(config, "reference_classic", 1, g)[-1][
        "state"]["cities"]]
    assert any("Cheap Keep" in city for city in cities)
    assert not any("Keep" in city for city in cities)


def test_a_set_with_variants_starts_from_its_base_sets_bot_but_is_not_made_for(variants):
    """A variant plays as its base, so a preparation starts from the bot made for the base
    set; no shipped bot was tuned with the variant's numbers."""
    from citadels_sim.game.strategies import made_for, start_for
    config = GameConfig(characters=SET, variants=variants)
    assert start_for(config) == "reference_classic"
    assert made_for(GameConfig()) and not made_for(config)


def test_replays_name_the_variant_that_kills_robs_and_destroys(tmp_path):
    """An added power's events say who acts (issue 20 item 2): the kill and the theft carry
    the acting character in ``by``, and the text names it."""
    from citadels_sim import replay
    from citadels_sim.engine.replay import to_text
    path = tmp_path / "v.toml"
    path.write_text('[characters."Tyrant"]\nbase = "King"\npower = "kill"\n'
                    '[characters."Bandit"]\nbase = "Bishop"\npower = "rob"\n')
    config = GameConfig(characters=["Witch", "Thief", "Magician", "Tyrant", "Bandit",
                                    "Merchant", "Architect", "Warlord"], variants=path)
    events = [e for g in range(6) for e in replay(config, "reference_classic", 2, g)]
    by = {(e["type"], e["by"]) for e in events if e["type"] in ("kill", "rob", "theft")}
    assert {("kill", "Tyrant"), ("rob", "Bandit"), ("rob", "Thief")} <= by
    assert {b for t, b in by if t == "theft"} <= {"Thief", "Bandit"}
    text = to_text(events)
    assert "The Tyrant (P" in text and " kills the " in text and "The Assassin" not in text


def test_replays_name_the_variant_that_bewitches_and_resumes(tmp_path):
    from citadels_sim import replay
    from citadels_sim.engine.replay import to_text
    path = tmp_path / "v.toml"
    path.write_text('[characters."Enchanter"]\nbase = "Thief"\npower = "bewitch"\n')
    config = GameConfig(characters=["Assassin", "Enchanter", "Magician", "King", "Bishop",
                                    "Merchant", "Architect", "Warlord"], variants=path)
    events = [e for g in range(4) for e in replay(config, "reference_classic", 2, g)]
    assert {e["by"] for e in events if e["type"] in ("bewitch", "resume")} == {"Enchanter"}
    text = to_text(events)
    assert "The Enchanter (P" in text and "resumes its turn as the " in text
