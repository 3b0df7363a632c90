"""The classic Hospital (a killed holder still reveals and gathers) and the 2016 Theater (a
blind exchange of characters after the selection phase) (docs/rules.md §4.2, §4.3; checklist
rules 133, 140).
"""

from __future__ import annotations

from collections import Counter

import pytest

import kernel_helpers as h
from kernel_helpers import (
    K, P14, P_TC, city_keys, deck_kw, gold_conserved, put_city, rsetup, types_in,
)
from citadels_sim.kernel import draft, layout as L, turn


def test_rule_133_hospital():
    """133. C Hospital: a killed holder still reveals and gathers, and does nothing else."""
    # the turn itself: a killed King with the Hospital
    st, tb = rsetup("classic", 4, "builder")
    st.g[L.G_CROWN] = 0
    h.set_holders(st, {K: 1})
    h.kill(st, K)
    put_city(st, 1, ["Hospital", "Manor", "Castle"])
    h.set_hand(st, 1, ["Palace"], from_deck=True)
    h.set_gold(st, 1, 10)
    h.clear_log(st)
    turn.gather_only_turn(st, tb, K, 1)
    evs = h.events(st)
    assert types_in(evs) == ["call", "gather_gold"]  # no crown, no income, no build
    assert h.gold(st, 1) == 12 and city_keys(st, 1) == ["castle", "hospital", "manor"]
    assert st.g[L.G_CROWN] == 0 and gold_conserved(st)
    # whole rounds: seat 0 owns the Hospital; whenever his character is killed he reveals
    # it and gathers, nothing more; other killed characters stay silent
    cases = 0
    for seed in range(300):
        st, tb = h.make_state("classic", 4, "random", seed=seed, log=True, max_rounds=1,
                              **deck_kw("classic"))
        put_city(st, 0, ["Hospital"])
        h.set_gold(st, 0, 8)
        h.play_game(st, tb)
        evs = h.events(st)
        kills = h.of_type(evs, "kill")
        if not kills:
            continue
        killed = kills[0].a
        holder = [e.seat for e in h.of_type(evs, "pick") if e.a == killed]
        if not holder:
            continue  # nobody held it
        for tn in h.turns(evs):
            if tn[0].rank != killed:
                continue
            assert tn[0].seat == holder[0] == 0
            assert [e.type for e in tn][1:] in (["gather_gold"], ["gather_cards"])
            cases += 1
        skips = h.of_type(evs, "skip_killed")
        if holder[0] == 0:
            assert not skips
        else:
            assert [(e.seat, e.rank) for e in skips] == [(holder[0], killed)]
    assert cases >= 8


SEEDS = 80


def _theater_rounds(players, chars, seeds):
    """Deal ``seeds`` rounds with seat 0 owning the Theater: yields (before, after, event)
    with the holders (rank -> seat) before and after the exchange."""
    for seed in range(seeds):
        st, tb = h.make_state("2016", players, "random", seed=seed, log=True,
                              characters=chars, districts=P14)
        put_city(st, 0, ["Theater"])
        h.start_round(st, 1)
        h.clear_log(st)
        draft.draft(st, tb)
        evs = h.events(st)
        before = {e.a: e.seat for e in h.of_type(evs, "pick")}
        after = {r: int(st.g[L.G_HOLDER + r]) for r in range(int(st.g[L.G_NRANKS]))
                 if st.g[L.G_HOLDER + r] >= 0}
        th = h.of_type(evs, "theater")
        assert len(th) <= 1
        if th:
            assert types_in(evs)[-1] == "theater"  # after the whole selection
        yield before, after, (th[0] if th else None)


@pytest.mark.parametrize("players,chars", [(4, None), (5, None), (3, P_TC), (2, None)])
def test_rule_140_theater(players, chars):
    """140. P Theater: after the selection phase, a blind exchange with an opponent's
    character; 2–3 players: give a chosen card, take a random one of the opponent's."""
    partners, gave, took_low, swaps = Counter(), Counter(), Counter(), 0
    for before, after, e in _theater_rounds(players, chars, 2 * SEEDS):
        if e is None:
            assert after == before
            continue
        swaps += 1
        o, give, take = e.a, e.b, e.c
        assert e.seat == 0 and o != 0
        assert before[give] == 0 and before[take] == o  # his card for one of the opponent's
        expect = dict(before)
        expect[give], expect[take] = o, 0
        assert after == expect
        partners[o] += 1
        mine = sorted(r for r, s in before.items() if s == 0)
        theirs = sorted(r for r, s in before.items() if s == o)
        if players >= 4:
            assert len(mine) == len(theirs) == 1
        else:
            assert len(mine) == len(theirs) == 2
            gave[mine.index(give)] += 1
            took_low[theirs.index(take)] += 1
    assert swaps >= 2 * SEEDS // 4 and set(partners) == set(range(1, players))
    if players <= 3:
        assert set(gave) == {0, 1}  # either of his two
        # the opponent's card taken at random: both of his two, about half each
        assert set(took_low) == {0, 1} and min(took_low.values()) >= swaps // 5
    # a whole round: the calls follow the exchanged characters
    for seed in range(SEEDS):
        st, tb = h.make_state("2016", players, "random", seed=seed, log=True,
                              characters=chars, districts=P14, max_rounds=1)
        put_city(st, 0, ["Theater"])
        h.play_game(st, tb)
        evs = h.events(st)
        th = h.of_type(evs, "theater")
        if not th:
            continue
        t = types_in(evs)
        at = t.index("theater")
        assert "pick" not in t[at + 1:] and t.index("call") > at  # before rank 1 is called
        (e,) = th
        calls = {c.rank: c.seat for c in h.of_type(evs, "call")}
        skipped = {c.rank: c.seat for c in h.of_type(evs, "skip_killed")}
        calls.update(skipped)
        if e.b in calls:
            assert calls[e.b] == e.a
        if e.c in calls:
            assert calls[e.c] == 0
        break
    else:
        pytest.fail("no Theater exchange in a whole round")
