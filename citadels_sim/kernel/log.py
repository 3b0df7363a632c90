"""Replay events: what the kernel records when a game is played with logging on.

Each event is one row of ``State.log``: its type, round, seat, rank index, four arguments
(meaning per type below) and a snapshot of the public state after it (crown, deck size,
stashes, hand sizes, cities).  :mod:`citadels_sim.engine.replay` turns the rows into text or JSON.
Logging never draws random numbers, so a logged game is the same game as an unlogged one.
"""

from .jit import hot

from .layout import (CITY_CAP, G_CROWN, G_DECK_N, G_LOG_N, G_LOG_ON, G_NP, G_PILE_N, G_ROUND,
                     G_TAX_PILE, LOG_CAP, L_A, L_B, L_BEAUTIFIED, L_C, L_CITY, L_CITY_N, L_CROWN,
                     L_D, L_DECK_N, L_GOLD, L_HAND_N, L_PILE_N, L_RANK, L_ROUND, L_SEAT,
                     L_TAX_PILE, L_TYPE, P_CITY_N, P_GOLD, P_HAND_N)
from .state import beautified

#: event type -> (name, names of the arguments a, b, c, d that it uses)
EVENTS = (
    ("setup", ()),                                   # seat -1; a = first crowned seat
    ("discard_face_up", ("character",)),             # a = rank index
    ("discard_face_down", ("character",)),           # a = rank index (secret in play)
    ("pick", ("character",)),                        # a = rank index kept by seat
    ("call", ()),                                    # the character is revealed
    ("skip_killed", ()),                             # the killed character stays silent
    ("theft", ("victim", "gold")),                   # robbed on reveal: a = victim seat
    ("crown", ("from",)),                            # seat takes the crown; a = previous holder
    ("gather_gold", ("gold",)),
    ("gather_cards", ("drawn", "kept", "card", "card2")),  # card = first kept kind
    ("income", ("gold", "district_type", "cards")),  # per-district income (gold and/or cards)
    ("bonus_gold", ("gold",)),                       # Merchant +1
    ("bonus_cards", ("cards",)),                     # Architect +2
    ("build", ("district", "cost", "gold_paid", "cards_paid")),
    ("kill", ("character",)),                        # Assassin names a rank index
    ("rob", ("character",)),                         # Thief names a rank index
    ("swap_hands", ("with", "gave", "got")),         # Magician swap
    ("redraw", ("cards",)),                          # Magician redraw
    ("destroy", ("target", "district", "cost")),     # Warlord
    ("graveyard", ("district",)),                    # seat took the destroyed district
    ("laboratory", ("district", "gold")),
    ("smithy", ("cards",)),
    ("heir", ()),                                    # killed King takes the crown
    ("round_end", ()),
    ("game_end", ("first_completer", "capped")),
    ("navigator", ("gold", "cards")),                # Navigator: 4 gold or 4 cards
    ("refund", ("gold",)),                           # Alchemist: build gold back
    ("scholar", ("drawn", "card")),                  # Scholar: drew, kept card, shuffled
    ("tribute", ("from", "gold")),                   # Abbot: the richest pays 1 gold
    ("queen", ("gold",)),                            # Queen: +3 next to the rank-4 character
    ("tax", ("gold",)),                              # builder pays the 2016 tax to the pile
    ("take_pile", ("gold",)),                        # the Tax Collector takes the pile
    ("crown_given", ("to", "gold", "card")),         # Emperor: crown to seat a; tribute
    ("spy", ("target", "district_type", "matches", "gold")),  # Spy looks at a hand
    ("seize", ("target", "district", "cost")),       # Marshal takes a district, pays cost
    ("classic_tax", ("to", "gold")),                 # classic Tax Collector's tax
    ("poor_house", ("gold",)),
    ("park", ("cards",)),
    ("wizard", ("target", "card", "built")),         # Wizard takes a card (built at once?)
    ("seer", ("players",)),                          # Seer took and gave back 1 card each
    ("exchange", ("target", "gave", "got", "paid")),  # Diplomat swaps two districts
    ("assist", ("from", "gold")),                    # the build just logged was paid with a
                                                     # shortfall the Cardinal took for cards
    ("bewitch", ("character",)),                     # Witch names a rank index; turn ends
    ("resume", ()),                                  # the Witch resumes as the character
    ("warrants", ("signed", "warrant", "warrant2")),  # Magistrate's 3 warrants (1 signed)
    ("confiscate", ("magistrate", "district", "gold_returned", "cards_paid")),  # the seat's
                                                     # paid build goes to the Magistrate
    ("threats", ("real", "bluff")),                  # Blackmailer's 2 markers (rank indices)
    ("bribe", ("blackmailer", "gold")),              # threatened seat pays half his stash
    ("blackmail", ("blackmailer", "revealed", "flower", "gold")),  # bribe refused
    ("beautify", ("district",)),                     # Artist: 1 stash gold onto a district
    ("museum", ("card",)),                           # a hand card goes under the Museum
    ("armory", ("target", "district")),              # Armory destroyed to destroy a district
    ("sacrifice", ("district",)),                    # destroyed to build the next district
                                                     # free (Framework, Necropolis)
    ("lighthouse", ("card",)),                       # card taken from the deck, then shuffled
    ("bell_tower", ("size",)),                       # cities complete at 7 from now
    ("throne_room", ("gold",)),                      # the crown changed holder
    ("theater", ("with", "gave", "took")),           # blind character exchange (rank indices)
)
(EV_SETUP, EV_DISCARD_UP, EV_DISCARD_DOWN, EV_PICK, EV_CALL, EV_SKIP_KILLED, EV_THEFT,
 EV_CROWN, EV_GATHER_GOLD, EV_GATHER_CARDS, EV_INCOME, EV_BONUS_GOLD, EV_BONUS_CARDS,
 EV_BUILD, EV_KILL, EV_ROB, EV_SWAP, EV_REDRAW, EV_DESTROY, EV_GRAVEYARD, EV_LABORATORY,
 EV_SMITHY, EV_HEIR, EV_ROUND_END, EV_GAME_END, EV_NAVIGATOR, EV_REFUND, EV_SCHOLAR,
 EV_TRIBUTE, EV_QUEEN, EV_TAX, EV_TAKE_PILE, EV_CROWN_GIVEN, EV_SPY, EV_SEIZE,
 EV_CLASSIC_TAX, EV_POOR_HOUSE, EV_PARK, EV_WIZARD, EV_SEER,
 EV_EXCHANGE, EV_ASSIST, EV_BEWITCH, EV_RESUME, EV_WARRANTS, EV_CONFISCATE, EV_THREATS,
 EV_BRIBE, EV_BLACKMAIL, EV_BEAUTIFY, EV_MUSEUM, EV_ARMORY, EV_SACRIFICE, EV_LIGHTHOUSE,
 EV_BELL_TOWER, EV_THRONE_ROOM, EV_THEATER) = range(len(EVENTS))


@hot
def _record(st, etype, seat, rank, a, b, c, d):
    g = st.g
    i = g[G_LOG_N]
    if i >= LOG_CAP:
        return
    g[G_LOG_N] = i + 1
    row = st.log[i]
    row[L_TYPE] = etype
    row[L_ROUND] = g[G_ROUND]
    row[L_SEAT] = seat
    row[L_RANK] = rank
    row[L_A] = a
    row[L_B] = b
    row[L_C] = c
    row[L_D] = d
    row[L_CROWN] = g[G_CROWN]
    row[L_DECK_N] = g[G_DECK_N]
    row[L_TAX_PILE] = g[G_TAX_PILE]
    row[L_PILE_N] = g[G_PILE_N]
    for s in range(g[G_NP]):
        row[L_GOLD + s] = st.p[s, P_GOLD]
        row[L_HAND_N + s] = st.p[s, P_HAND_N]
        row[L_CITY_N + s] = st.p[s, P_CITY_N]
        for k in range(CITY_CAP):
            row[L_CITY + s * CITY_CAP + k] = st.city[s, k]
            row[L_BEAUTIFIED + s * CITY_CAP + k] = beautified(st, s, k)


@hot
def event(st, etype, seat, rank, a, b, c, d):
    """Record an event if logging is on (a single branch otherwise).  Every call passes
    all four arguments (0 where the event has fewer), so one compiled copy serves all."""
    if st.g[G_LOG_ON]:
        _record(st, etype, seat, rank, a, b, c, d)
