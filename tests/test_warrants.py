"""The bots under the Magistrate's warrant (kernel version 9): what they know -- a warrant
on their character, face down, perhaps the signed one, spent by the turn's first paid build
whether signed or not -- and how they build under it: first a district the Magistrate could
not take, else, with another build to come, the cheapest (a decoy); the Wizard takes his
decoy from the other hand.  (Measured: docs/strategies.md, "Building under a warrant".)"""

from __future__ import annotations

import pytest

import kernel_helpers as h
from kernel_helpers import AR, B, K, M, ME, city_keys, cset, empty_state as setup, \
    play_turn_events as play
from citadels_sim.kernel import layout as L
from citadels_sim.kernel.bots import common

FAMILIES = ["heuristic", "reference"]
#: the Magistrate at rank 1 and the Wizard at rank 3
CHARS = cset("2016", "Magistrate", "Wizard")


def warrants(st, signed, unsigned, magistrate=0):
    """Seat ``magistrate`` placed the warrants: ``signed`` and ``unsigned`` (rank indices)."""
    st.g[L.G_WARRANT] = signed
    st.g[L.G_WARRANTS] = sum(1 << r for r in (signed, *unsigned))
    st.g[L.G_MAGISTRATE] = magistrate


def builder_turn(family, rank, hand, signed, magistrate_city=()):
    """Seat 1 plays rank ``rank`` with 20 gold and ``hand``, a warrant on his rank (the
    signed one when ``signed``); seat 0 is the Magistrate.  Returns (events, state)."""
    st, tb = setup("2016", 4, family, CHARS)
    h.set_holders(st, {0: 0, rank: 1})
    others = [r for r in (K, B, ME, AR) if r != rank]
    if signed:
        warrants(st, rank, others[:2])
    else:
        warrants(st, others[0], [rank, others[1]])
    h.set_city(st, 0, list(magistrate_city))
    h.set_hand(st, 1, hand)
    h.set_deck(st, [])
    h.set_gold(st, 1, 20)
    return play(st, tb, rank, 1), st


@pytest.mark.parametrize("family", FAMILIES)
def test_an_architect_under_a_warrant_builds_a_decoy_first_then_the_dearest(family):
    """Signed: the cheapest district goes to the Magistrate, the two dearest stay his (the
    bots before lost the Palace).  Unsigned: the same first build, then the warrant is spent
    and the dearest follow -- the builder cannot tell the two apart until it is spent."""
    hand = ["Palace", "Castle", "Manor", "Tavern"]
    evs, st = builder_turn(family, AR, hand, signed=True)
    (c,) = h.of_type(evs, "confiscate")
    assert h.key(c.b) == "tavern"
    assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["palace", "castle"]
    evs, st = builder_turn(family, AR, hand, signed=False)
    assert not h.of_type(evs, "confiscate")
    assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["tavern", "palace", "castle"]


@pytest.mark.parametrize("family", FAMILIES)
def test_one_build_under_a_warrant_is_a_name_the_magistrate_already_has(family):
    """With one build, a district the Magistrate could not take (he has its name) goes
    before a dearer one; without the warrant the dearer one is built."""
    evs, st = builder_turn(family, ME, ["Palace", "Manor"], signed=True,
                           magistrate_city=["Manor"])
    assert not h.of_type(evs, "confiscate")
    assert [h.key(e.a) for e in h.of_type(evs, "build")] == ["manor"]
    assert city_keys(st, 1) == ["manor"]
    evs, st = builder_turn(family, ME, ["Palace", "Manor"], signed=True)
    (c,) = h.of_type(evs, "confiscate")  # no safe name: the dearest, confiscated
    assert h.key(c.b) == "palace"


def wizard_turn(family, other_hand, signed, magistrate_city=()):
    """The Wizard (seat 1, 20 gold, a Manor in hand) under a warrant; seat 2 holds
    ``other_hand``.  Returns the events."""
    st, tb = setup("2016", 4, family, CHARS)
    h.set_holders(st, {0: 0, M: 1, K: 2})
    warrants(st, M if signed else K, [B, ME] if signed else [M, B])
    h.set_city(st, 0, list(magistrate_city))
    h.set_hand(st, 1, ["Manor"])
    h.set_hand(st, 2, other_hand)
    h.set_deck(st, [])
    h.set_gold(st, 1, 20)
    return play(st, tb, M, 1)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_wizard_under_a_warrant_takes_a_decoy_for_his_immediate_build(family):
    """He takes the cheapest card he can pay for and builds it at once: it spends the
    warrant, and his normal build (the Manor) is safe.  A card the Magistrate could not
    take is taken first, the dearest of them.  Without a warrant he takes the dearest."""
    other = ["Palace", "Tavern", "Castle"]
    evs = wizard_turn(family, other, signed=True)
    (w,) = h.of_type(evs, "wizard")
    assert h.key(w.b) == "tavern" and w.c == 1
    (c,) = h.of_type(evs, "confiscate")
    assert h.key(c.b) == "tavern"
    assert "manor" in [h.key(e.a) for e in h.of_type(evs, "build")]
    evs = wizard_turn(family, other, signed=True, magistrate_city=["Castle"])
    (w,) = h.of_type(evs, "wizard")
    assert h.key(w.b) == "castle" and not h.of_type(evs, "confiscate")
    st, tb = setup("2016", 4, family, CHARS)
    h.set_holders(st, {0: 0, M: 1, K: 2})
    h.set_hand(st, 2, other)
    h.set_deck(st, [])
    h.set_gold(st, 1, 20)
    (w,) = h.of_type(play(st, tb, M, 1), "wizard")
    assert h.key(w.b) == "palace"


def test_a_warrant_is_pending_until_a_paid_build_and_only_against_another_seat():
    """``warrant_pending`` reads only what the builder knows: the warrants' ranks (not which
    is signed), the Magistrate's seat, and whether a paid build spent them this turn."""
    st, tb = setup("2016", 4, "heuristic", CHARS)
    warrants(st, K, [ME, AR])
    for rank, seat, spent, expected in [(ME, 1, False, 0), (K, 1, False, 0), (B, 1, False, -1),
                                        (ME, 0, False, -1), (ME, 1, True, -1)]:
        st.g[L.G_TURN_RANK], st.g[L.G_TURN_SEAT] = rank, seat
        st.g[L.G_TURN_USED] = L.U_WARRANT if spent else 0
        assert common.warrant_pending(st, seat) == expected, (rank, seat, spent)
    st.g[L.G_MAGISTRATE] = -1
    st.g[L.G_TURN_RANK], st.g[L.G_TURN_USED] = K, 0
    assert common.warrant_pending(st, 1) == -1
