"""Replay one game of a run: the kernel's event log as readable text or JSON Lines.

``replay(config, strategies, seed, game)`` plays exactly game ``game`` of the run that
``simulate`` with the same arguments plays (logging draws no random numbers), and returns
its events as dictionaries.  Every event carries ``type``, ``round``, ``seat``, ``character``
(where they apply), its own fields, and ``state``: the public state after the event
(``gold``, ``hand_sizes``, ``cities``, ``deck_size``, ``crown``, ``tax_pile``, ``museum``:
the cards under each seat's Museum, ``beautified``: the names of each seat's beautified
districts).  Event fields that hold a rank index (``character``, the Magistrate's
``signed``/``warrant``/``warrant2``, the Blackmailer's ``real``/``bluff``, the Theater's
``gave``/``took``) are character names (in ``kill``, ``rob`` and ``bewitch``, ``character`` is
the character named and ``by`` the one acting; a ``theft`` and a ``resume`` name the robber's
and the bewitcher's character in ``by``); fields that hold a district kind are district
names.  The last event, ``game_end``, adds ``scores``, ``ranks``, ``winners`` and the per-seat
scoring ``breakdown``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from citadels_sim.game import cards
from citadels_sim.game.config import GameConfig
from citadels_sim.game.strategies import Strategy
from citadels_sim.kernel import layout as L
from citadels_sim.kernel.log import EVENTS
from citadels_sim.kernel.run import run_logged
from .simulate import build_tables, check_index, lineup_for
from .warmup import ensure_kernel

#: event fields that hold a rank index or a district kind (in every event that has them)
_RANK_FIELDS = {"character", "signed", "warrant", "warrant2", "real", "bluff"}
_DISTRICT_FIELDS = {"district", "card", "card2"}
#: fields whose meaning depends on the event: the Diplomat's gave/got are districts, the
#: Theater's gave/took rank indices, the Magician's gave/got card counts (plain numbers)
_EVENT_FIELDS = {("exchange", "gave"): "district", ("exchange", "got"): "district",
                 ("theater", "gave"): "rank", ("theater", "took"): "rank"}


def replay(config: GameConfig, strategies: str | Strategy | Sequence[str | Strategy] | None,
           seed: int, game: int) -> list[dict]:
    """The events of game ``game`` of the run (config, strategies, seed); ``strategies``
    None: the game's default (as for :func:`.simulate.simulate`)."""
    check_index(seed, "seed")
    check_index(game, "game (a game's index in the run)")
    lineup = lineup_for(strategies, config)
    ensure_kernel()
    log, seat_out, game_out = run_logged(build_tables(config, lineup), np.int64(seed),
                                         np.int64(game))
    names = _Names(config.character_names, {d.kind: config.district_name(d.kind)
                                            for d in cards.districts(config.ruleset)},
                   config.players)
    events = [_event(row, names) for row in log.tolist()]
    robber = witch = None
    for e in events:  # the theft and the resumed turn are by the round's robber and witch
        if e["type"] == "rob":
            robber = e["by"]
        elif e["type"] == "theft":
            e["by"] = robber
        elif e["type"] == "bewitch":
            witch = e["by"]
        elif e["type"] == "resume":
            e["by"] = witch
    end = events[-1]
    n = config.players
    end["scores"] = [int(x) for x in seat_out[:n, L.O_SCORE]]
    end["ranks"] = [int(x) for x in seat_out[:n, L.O_PLACE]]
    end["winners"] = [s for s in range(n) if seat_out[s, L.O_PLACE] == 1]
    end["breakdown"] = [{
        "district_value": int(seat_out[s, L.O_VALUE]),
        "colour_bonus": int(seat_out[s, L.O_COLOURS]),
        "completion_bonus": int(seat_out[s, L.O_COMPLETE]),
        "district_extras": int(seat_out[s, L.O_EXTRAS]),
        "total": int(seat_out[s, L.O_SCORE])} for s in range(n)]
    end["strategies"] = [s.name for s in lineup]
    end["rounds"] = int(game_out[L.OG_ROUNDS])
    return events


class _Names(NamedTuple):
    """What an event's numbers name in one game: characters by rank, districts by kind."""

    characters: tuple[str, ...]
    districts: dict[int, str]
    players: int


def _event(row: list[int], names: _Names) -> dict:
    """One logged event (its row of the log, as Python ints) as a dictionary."""
    name, fields = EVENTS[row[L.L_TYPE]]
    n, character, district = names.players, names.characters, names.districts
    out: dict = {"type": name, "round": row[L.L_ROUND]}
    if row[L.L_SEAT] >= 0:
        out["seat"] = row[L.L_SEAT]
    if row[L.L_RANK] >= 0:
        out["character"] = character[row[L.L_RANK]]
        if "character" in fields:  # the field names the target: keep who acts
            out["by"] = out["character"]
    for key, value in zip(fields, row[L.L_A:L.L_D + 1]):
        kind = _EVENT_FIELDS.get((name, key))
        if kind == "rank" or (kind is None and key in _RANK_FIELDS):
            value = character[value] if value >= 0 else None
        elif kind == "district" or (kind is None and key in _DISTRICT_FIELDS):
            value = district[value] if value >= 0 else None
        elif key == "district_type":
            value = L.TYPE_NAMES[value]
        out[key] = value
    sizes = row[L.L_CITY_N:L.L_CITY_N + n]
    cities = [row[L.L_CITY + s * L.CITY_CAP:L.L_CITY + s * L.CITY_CAP + sizes[s]]
              for s in range(n)]
    marks = [row[L.L_BEAUTIFIED + s * L.CITY_CAP:L.L_BEAUTIFIED + s * L.CITY_CAP + sizes[s]]
             for s in range(n)]
    out["state"] = {
        "gold": row[L.L_GOLD:L.L_GOLD + n],
        "hand_sizes": row[L.L_HAND_N:L.L_HAND_N + n],
        "cities": [[district[k] for k in city] for city in cities],
        "deck_size": row[L.L_DECK_N],
        "tax_pile": row[L.L_TAX_PILE],
        "crown": row[L.L_CROWN],
        # the cards under the Museum belong to whoever has it in his city (one Museum at most)
        "museum": [row[L.L_PILE_N] if L.D_MUSEUM in city else 0 for city in cities],
        "beautified": [[district[k] for k, b in zip(city, m) if b]
                       for city, m in zip(cities, marks)],
    }
    return out


def to_json_lines(events: list[dict]) -> str:
    """One JSON object per line."""
    return "\n".join(json.dumps(e) for e in events)


def _its(e: dict) -> str:
    """The Witch's pronoun, or a variant's that bewitches."""
    return "her" if e["by"] == "Witch" else "its"


def _describe(e: dict) -> str:
    who = f"P{e['seat']}" if "seat" in e else ""
    as_ = f" as {e['character']}" if "character" in e else ""
    t = e["type"]
    text = {
        "setup": lambda: (f"Setup: {e['state']['hand_sizes'][0]} cards and "
                          f"{e['state']['gold'][0]} gold each; P{e['state']['crown']} has the "
                          "crown."),
        "discard_face_up": lambda: f"  {e['character']} is discarded face up.",
        "discard_face_down": lambda: f"  {e['character']} is discarded face down.",
        "pick": lambda: f"  {who} picks {e['character']}.",
        "call": lambda: f"{e['character']} is called: {who} reveals it.",
        "skip_killed": lambda: f"{e['character']} is called: killed, {who} stays silent.",
        "theft": lambda: f"  The {e['by']} ({who}) takes {e['gold']} gold from P{e['victim']}.",
        "crown": lambda: f"  {who} takes the crown{as_} (from P{e['from']}).",
        "gather_gold": lambda: f"  {who} takes {e['gold']} gold.",
        "gather_cards": lambda: f"  {who} draws {e['drawn']} card(s), keeps {e['kept']}"
                                + (f" ({e['card']})" if e['kept'] == 1 else "") + ".",
        "income": lambda: f"  {who} collects {e['gold']} gold"
                          + (f" and {e['cards']} card(s)" if e["cards"] else "")
                          + f" for {e['district_type']} districts.",
        "bonus_gold": lambda: f"  {who} gains {e['gold']} extra gold{as_}.",
        "bonus_cards": lambda: f"  {who} gains {e['cards']} extra card(s){as_}.",
        "build": lambda: f"  {who} builds {e['district']} "
                         + (f"for {e['cost']}" if e["gold_paid"] or e["cards_paid"]
                            else "without paying")
                         + (f" ({e['cards_paid']} paid in cards)" if e['cards_paid'] else "")
                         + ".",
        "kill": lambda: f"  The {e['by']} ({who}) kills the {e['character']}.",
        "rob": lambda: f"  The {e['by']} ({who}) robs the {e['character']}.",
        "swap_hands": lambda: f"  The {e['character']} ({who}) swaps hands with P{e['with']} "
                              f"({e['gave']} cards for {e['got']}).",
        "redraw": lambda: f"  The {e['character']} ({who}) redraws {e['cards']} card(s).",
        "destroy": lambda: f"  The {e['character']} ({who}) destroys P{e['target']}'s "
                           f"{e['district']} for {e['cost']} gold.",
        "graveyard": lambda: f"  {who} pays 1 gold to keep the {e['district']} (Graveyard).",
        "laboratory": lambda: f"  {who} discards {e['district']} to the Laboratory for "
                              f"{e['gold']} gold.",
        "smithy": lambda: f"  {who} pays 2 gold at the Smithy for {e['cards']} card(s).",
        "heir": lambda: f"The killed {e['character']}'s holder {who} reveals it as heir.",
        "round_end": lambda: _round_end(e),
        "navigator": lambda: f"  The Navigator ({who}) takes "
                             + (f"{e['gold']} gold." if e["gold"] else f"{e['cards']} cards."),
        "refund": lambda: f"  The Alchemist ({who}) gets back {e['gold']} gold spent on builds.",
        "scholar": lambda: f"  The Scholar ({who}) draws {e['drawn']}, keeps {e['card']} and "
                           "shuffles the deck.",
        "tribute": lambda: f"  The richest player P{e['from']} pays the Abbot ({who}) "
                           f"{e['gold']} gold.",
        "tax": lambda: f"  {who} pays {e['gold']} gold of tax to the pile.",
        "crown_given": lambda: f"  The Emperor ({who}) gives the crown to P{e['to']}"
                               + (f" and receives {e['gold']} gold" if e["gold"] else "")
                               + (f" and receives a card ({e['card']})" if e["card"] else "")
                               + ".",
        "spy": lambda: f"  The Spy ({who}) looks at P{e['target']}'s hand for "
                       f"{e['district_type']} districts: {e['matches']} found, takes "
                       f"{e['gold']} gold and {e['matches']} card(s).",
        "seize": lambda: f"  The Marshal ({who}) seizes P{e['target']}'s {e['district']}, "
                         f"paying {e['cost']} gold.",
        "classic_tax": lambda: f"  {who} pays {e['gold']} gold of tax to the Tax Collector "
                               f"(P{e['to']}).",
        "poor_house": lambda: f"  {who} has no gold: the Poor House gives {e['gold']}.",
        "park": lambda: f"  {who} has no cards: the Park gives {e['cards']}.",
        "wizard": lambda: f"  The Wizard ({who}) takes {e['card']} from P{e['target']}'s hand"
                          + (" and builds it at once." if e["built"] else "."),
        "seer": lambda: f"  The Seer ({who}) takes a card from {e['players']} player(s) and "
                        "gives each one back.",
        "assist": lambda: f"  The Cardinal ({who}) takes {e['gold']} gold from P{e['from']} and "
                          f"gives {e['gold']} card(s) back.",
        "exchange": lambda: f"  The Diplomat ({who}) swaps his {e['gave']} for P{e['target']}'s "
                            f"{e['got']}, paying {e['paid']} gold.",
        "take_pile": lambda: f"  The Tax Collector ({who}) takes the pile: {e['gold']} gold.",
        "queen": lambda: f"  The Queen ({who}) gains {e['gold']} gold beside the rank-4 "
                         "character.",
        "bewitch": lambda: f"  The {e['by']} ({who}) bewitches the {e['character']}; "
                           f"{_its(e)} turn is suspended until its call.",
        "resume": lambda: f"  The {e['by']} ({who}) resumes {_its(e)} turn as the "
                          f"{e['character']}, on {_its(e)} own city, hand and stash.",
        "warrants": lambda: f"  The Magistrate ({who}) puts warrants on the {e['signed']} "
                            f"(signed), the {e['warrant']} and the {e['warrant2']}.",
        "confiscate": lambda: f"  P{e['magistrate']} (Magistrate) confiscates the {e['district']} "
                              f"from {who} ({e['gold_returned']} gold returned"
                              + (f", {e['cards_paid']} card(s) paid lost" if e["cards_paid"]
                                 else "") + f"): it goes to P{e['magistrate']}'s city.",
        "threats": lambda: f"  The Blackmailer ({who}) threatens the {e['real']} (flower) and the "
                           f"{e['bluff']} (bluff).",
        "bribe": lambda: f"  {who} pays a bribe of {e['gold']} to P{e['blackmailer']} "
                         "(Blackmailer).",
        "blackmail": lambda: f"  {who} refuses to pay the Blackmailer (P{e['blackmailer']}): "
                             + ("she does not reveal the marker." if not e["revealed"] else
                                f"she reveals the flower and takes all {e['gold']} gold."
                                if e["flower"] else "she reveals a bluff; nothing happens."),
        "beautify": lambda: f"  The Artist ({who}) beautifies the {e['district']} (1 gold onto "
                            "it, cost +1).",
        "museum": lambda: f"  {who} puts a card ({e['card']}) under the Museum.",
        "armory": lambda: f"  {who} destroys the Armory to destroy "
                          + ("his own" if e["target"] == e["seat"] else f"P{e['target']}'s")
                          + f" {e['district']}.",
        "sacrifice": lambda: (f"  {who} destroys the Framework to build:"
                              if e["district"] == "Framework" else
                              f"  {who} destroys his {e['district']} to build the Necropolis:"),
        "lighthouse": lambda: f"  {who} searches the deck with the Lighthouse, takes "
                              f"{e['card']} and shuffles the deck.",
        "bell_tower": lambda: f"  {who} rings the Bell Tower: cities are complete at "
                              f"{e['size']} districts from now on.",
        "throne_room": lambda: f"  {who} gains {e['gold']} gold (Throne Room: the crown changed "
                               "holder).",
        "theater": lambda: f"  {who} uses the Theater with P{e['with']}: gives the {e['gave']}, "
                           f"takes the {e['took']}.",
        "game_end": lambda: _game_end(e),
    }[t]()
    return text


def _city(names: list[str], beautified: list[str], museum: int) -> str:
    """A city as text: ``*`` marks a beautified district, the Museum shows its cards."""
    marks = list(beautified)
    out = []
    for name in names:
        text = name
        if name in marks:
            marks.remove(name)
            text += "*"
        if name == "Museum" and museum:
            text += f" ({museum} under)"
        out.append(text)
    return ", ".join(out)


def _round_end(e: dict) -> str:
    s = e["state"]
    cities = "; ".join(
        f"P{i}: {g}g {h}c [{_city(c, b, m)}]" for i, (g, h, c, b, m) in enumerate(
            zip(s["gold"], s["hand_sizes"], s["cities"], s["beautified"], s["museum"])))
    note = " (* beautified)" if any(s["beautified"]) else ""
    return (f"End of round {e['round']}. Crown P{s['crown']}. Deck {s['deck_size']}. "
            f"{cities}{note}\n")


def _game_end(e: dict) -> str:
    lines = [f"Game over after {e['rounds']} rounds"
             + (" (round cap reached)" if e["capped"] else "")
             + (f"; P{e['first_completer']} completed first." if e["first_completer"] >= 0
                else ".")]
    for s, b in enumerate(e["breakdown"]):
        lines.append(f"  P{s} ({e['strategies'][s]}): {b['district_value']} districts + "
                     f"{b['colour_bonus']} colours + {b['completion_bonus']} completion + "
                     f"{b['district_extras']} extras = {b['total']}  (rank {e['ranks'][s]})")
    lines.append("Winner(s): " + ", ".join(f"P{s}" for s in e["winners"]))
    return "\n".join(lines)


def to_text(events: list[dict]) -> str:
    """A readable play-by-play."""
    out, drafted = [], 0
    killed = bewitched = None
    for e in events:
        if e["type"] in ("discard_face_up", "discard_face_down", "pick") and e["round"] != drafted:
            drafted = e["round"]
            killed = bewitched = None
            out.append(f"Round {drafted}, draft:")
        if e["type"] == "kill":
            killed = e["character"]
        elif e["type"] == "bewitch":
            bewitched = e["character"]
        line = _describe(e)
        if e["type"] == "call" and e["character"] == killed:  # the classic Hospital
            line = (f"{e['character']} is called: killed, but P{e['seat']} has the Hospital: "
                    "reveals it and only gathers.")
        elif e["type"] == "call" and e["character"] == bewitched:
            line = (f"{e['character']} is called: P{e['seat']} reveals it, bewitched: only "
                    "gathers.")
        out.append(line)
    return "\n".join(out)
