"""The Bishop (docs/rules.md §3 Rank 5; checklist rules 88-90): religious income, protection from
the Warlord, and none when killed.  The protection against the Diplomat and the Marshal is
tested in their files, the bewitched Bishop in ``test_witch.py``.
"""

from __future__ import annotations

import pytest

import kernel_helpers as h
from kernel_helpers import B, W, destroy_targets, empty_state as setup, play_turn_events as play
from citadels_sim.kernel import rules


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
    hits = destroy_targets(st, tb, 0)
    assert hits and all(seat == 2 for seat, _ in hits)
    # 2-3 players: his own Warlord is bound too (D8)
    st, tb = setup(ruleset, 2, "random")
    h.set_holders(st, {W: 0, B: 0})
    h.set_city(st, 0, ["Temple", "Manor"])
    h.set_city(st, 1, ["Tavern"])
    h.set_gold(st, 0, 20)
    hits = destroy_targets(st, tb, 0)
    assert hits and all(seat == 1 for seat, _ in hits)


def test_rule_090_killed_bishop_no_protection():
    """90. A killed Bishop gives no protection."""
    st, tb = setup("classic", 4, "random")
    h.set_holders(st, {W: 0, B: 1})
    h.kill(st, B)
    h.set_city(st, 1, ["Temple", "Manor"])
    h.set_gold(st, 0, 20)
    assert rules.destroyable(st, tb, 1, 0)
    hits = destroy_targets(st, tb, 0)
    assert any(seat == 1 for seat, _ in hits)
