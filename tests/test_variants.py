"""Card variants (issue 20 item 2, numbers): a character defined in a TOML file as a
published one with other numbers, named wherever a character is; what is not supported is
refused in one line."""

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
     "'thief_share' is not a number of the Merchant"),
    ('[characters."X"]\nbase = "Merchant"\npower = "kill"\n',
     "powers composed from other effects are not supported yet"),
    ('[characters."X"]\nbase = "Merchant"\nmerchant_gold = 40\n', "outside 0-10 gold"),
    ('[districts."Big Palace"]\nbase = "Palace"\n', "district variants are not supported yet"),
    ("[characters\n", "is not valid TOML"),
])
def test_bad_variants_are_refused_in_one_line(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        GameConfig(characters=SET[:5] + ["X" if "X" in text else "Merchant"] + SET[6:],
                   variants=path)
    assert message in str(err.value) and "\n" not in str(err.value)
