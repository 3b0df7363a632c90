"""The kernel's state layout: every array, every index, in one place.

A game is one numpy *record* of the structured dtype ``STATE_DTYPE`` (below), whose fields
are small fixed-shape integer arrays; the constant per-run tables are one record of
``TABLES_DTYPE``.  A record reaches a compiled function as a single pointer, so every
kernel call passes two pointers and a few integers instead of a dozen array structs (each
~7 machine arguments): that keeps calls cheap without numba's IR inlining, and the compile
short.  Field access (``st.g[i]``, ``st.p[s, P_GOLD]``) reads the record's memory in place,
from compiled code and from Python alike (``np.record`` views).  Every index used by the
kernel is a named constant below; no module computes offsets by hand.

``State`` fields:

=================  ===========================  =====================================================
field              shape / dtype                contents
=================  ===========================  =====================================================
``g``              (G_LEN,) int32               game scalars, indexed by ``G_*``: the
                                                configuration (copied from ``Tables.cfg``),
                                                the round's state, the rank holders
                                                (``G_HOLDER + r``), the draft's pick order
                                                (``G_PICKS`` picks, ``G_PICKER + k`` the
                                                seat of pick k) and scratch space
``p``              (MAX_SEATS, P_LEN) int32     per-seat scalars, indexed by ``P_*``, then the
                                                city's count of each printed type
                                                (``P_TYPES + t``) and of each district kind
                                                (``P_KINDS + kind``), the draft counts
                                                (``P_OFFERED``, ``P_PICKED``) and what the
                                                seat saw in this round's draft: the ranks
                                                offered at its first and second pick
                                                (``P_OFFER + j``), their pick numbers
                                                (``P_STEP + j``) and the ranks it discarded
                                                face down (``P_DOWN``), from which a seat
                                                infers who may hold which character
``hand``           (MAX_SEATS, HAND_CAP) int16  district kinds in each hand; ``p[s, P_HAND_N]`` used
``city``           (MAX_SEATS, CITY_CAP) int16  district kinds in each city, in build order;
                                                ``p[s, P_CITY_N]`` used
``city_round``     (MAX_SEATS, CITY_CAP) int16  round in which each city slot was built
                                                (``& ROUND_MASK``), the seat that built it
                                                (``>> BUILDER_SHIFT & 7``; the Haunted City,
                                                D44), ``| BEAUTIFIED`` once the Artist
                                                beautified it (cost +1); all three travel with
                                                the district when it changes city
``deck``           (DECK_CAP + PILE_CAP,) int16 ``[0, DECK_CAP)``: the deck, a circular buffer
                                                with its top at ``g[G_DECK_HEAD]``, ``g[G_DECK_N]``
                                                cards, the bottom at ``(head + n) % DECK_CAP``;
                                                ``[DECK_CAP, DECK_CAP + g[G_PILE_N])``: the cards
                                                face down under the Museum (a deck holds at most
                                                one Museum; the pile is its owner's)
``params``         (MAX_SEATS, N_PARAMS) float64 each seat's strategy parameters this game
                                                (``PR_*``): the row of ``Tables.params`` its
                                                strategy plays (a mixed one draws it per game)
``work``           (WORK_ROWS, MAX_RANKS)       work space per rank for functions that may not
                   float64                      allocate, rows ``W_*`` (the reference bots' aim)
``rng``            (N_STREAMS,) uint64          SplitMix64 states: deck, draft, one per seat,
                                                then the mixed strategies' draw
``log``            (LOG_CAP, LOG_W) int32       replay events, ``g[G_LOG_N]`` rows used (only
                                                written when ``g[G_LOG_ON]``; untouched, so never
                                                paged in, otherwise)
=================  ===========================  =====================================================

``Tables`` fields: ``kinds`` (K_LEN, N_KINDS) int32 with each district kind's cost, type and
copies in the deck (rows ``K_*``); ``cfg`` (G_LEN,) int32 with the configuration part of
``g`` (ruleset, players, ranks, N, cap, face-up discards, first crown, the character of
each rank, each seat's strategy family and the ranks it may not pick, for restricted
play, and the rule numbers a house rule may change: ``G_START_GOLD`` ... ``G_INCOME + ch``,
game/house_rules.py); ``params`` (MAX_SEATS, MAX_MIX, N_PARAMS) float64 with each
seat's strategy parameters (indices ``PR_*``, below), one row per component of a mixed
strategy, and ``mix`` (MAX_SEATS, MAX_MIX) float64 with the components' cumulative chances
(1 in the first column for a plain strategy).  They are arguments, never globals,
so numba's cache cannot freeze stale values.

Ranks are 0-based in the kernel (``rank index 0`` is the rank-1 character); character and
district *kinds* are global ids (``CH_*``, ``D_*``) shared by every ruleset, so a power is
dispatched by its id whatever the ruleset.
"""

from __future__ import annotations

import numpy as np

# --- capacities --------------------------------------------------------------------
MAX_SEATS = 8
MAX_RANKS = 9
HAND_CAP = 96
CITY_CAP = 32
DECK_CAP = 128  # power of two: the deck is a circular buffer
PILE_CAP = 96  # cards under the Museum
ROUND_MASK = (1 << 10) - 1  # ``city_round`` bits 0-9: the round built in (max_rounds <= 1000)
BUILDER_SHIFT = 10  # bits 10-12: the seat that built it
BEAUTIFIED = 1 << 14  # flag in ``city_round``: the Artist beautified it
N_STREAMS = 3 + MAX_SEATS
RNG_DECK = 0
RNG_DRAFT = 1
RNG_SEAT0 = 2  # seat s decides with stream RNG_SEAT0 + s
RNG_MIX = RNG_SEAT0 + MAX_SEATS  # which component each mixed strategy plays this game
#: components of a mixed strategy (a per-game draw among parameter rows of one family)
MAX_MIX = 8
MAX_PICKS = MAX_SEATS  # character picks in one round's draft, at most (8 players: 8)
SCRATCH_LEN = 16  # ``g[G_SCRATCH:]``: work space for functions that may not allocate
# the rows of ``State.work``, one number per rank (``bots.reference.rank_effects``)
(W_EFFECT,   # the expected effect of an aim at the rank
 W_LIVE,     # the chance that an opponent plays it
 W_SCALE,    # ``odds_scale`` (0: a character already called, or nobody can hold it)
 W_READ,     # ``read_picks``: how likely one pick is read to have kept the rank
 WORK_ROWS) = range(5)
#: rounds whose leader the per-seat bitmask ``P_LED`` records (bit k - 1: round k)
LED_ROUNDS = 31

# --- Tables.kinds rows ------------------------------------------------------------------
K_COST = 0
K_TYPE = 1
K_COUNT = 2
K_LEN = 3

# --- rulesets ----------------------------------------------------------------------
R_CLASSIC = 0
R_2016 = 1
R_FOUR_COLOR = 2
RULESET_NAMES = ("classic", "2016", "four_color")

# --- district types ----------------------------------------------------------------
T_NOBLE = 0
T_RELIGIOUS = 1
T_TRADE = 2
T_MILITARY = 3
T_UNIQUE = 4  # classic "special" (purple), 2016 "unique"
N_TYPES = 5
TYPE_NAMES = ("noble", "religious", "trade", "military", "unique")

# --- district kinds (global ids; one per name, shared by the rulesets) -------------
DISTRICT_KEYS = (
    "manor", "castle", "palace", "temple", "church", "monastery", "cathedral",
    "tavern", "market", "trading_post", "docks", "harbor", "town_hall",
    "watchtower", "prison", "battlefield", "fortress",
    "haunted", "keep", "laboratory", "smithy", "observatory", "graveyard",
    "dragon_gate", "university", "library", "great_wall", "school_of_magic",
    "lighthouse", "armory", "museum", "imperial_treasury", "map_room", "wishing_well",
    "quarry", "poor_house", "bell_tower", "factory", "park", "hospital", "throne_room",
    "ball_room", "basilica", "capitol", "framework", "gold_mine", "ivory_tower",
    "monument", "necropolis", "secret_vault", "stables", "statue", "theater", "thieves_den",
)
N_KINDS = len(DISTRICT_KEYS)
(D_MANOR, D_CASTLE, D_PALACE, D_TEMPLE, D_CHURCH, D_MONASTERY, D_CATHEDRAL,
 D_TAVERN, D_MARKET, D_TRADING_POST, D_DOCKS, D_HARBOR, D_TOWN_HALL,
 D_WATCHTOWER, D_PRISON, D_BATTLEFIELD, D_FORTRESS,
 D_HAUNTED, D_KEEP, D_LABORATORY, D_SMITHY, D_OBSERVATORY, D_GRAVEYARD,
 D_DRAGON_GATE, D_UNIVERSITY, D_LIBRARY, D_GREAT_WALL, D_SCHOOL_OF_MAGIC,
 D_LIGHTHOUSE, D_ARMORY, D_MUSEUM, D_IMPERIAL_TREASURY, D_MAP_ROOM, D_WISHING_WELL,
 D_QUARRY, D_POOR_HOUSE, D_BELL_TOWER, D_FACTORY, D_PARK, D_HOSPITAL, D_THRONE_ROOM,
 D_BALL_ROOM, D_BASILICA, D_CAPITOL, D_FRAMEWORK, D_GOLD_MINE, D_IVORY_TOWER,
 D_MONUMENT, D_NECROPOLIS, D_SECRET_VAULT, D_STABLES, D_STATUE, D_THEATER,
 D_THIEVES_DEN) = range(N_KINDS)

# --- characters (global ids) ---------------------------------------------------------
CHARACTER_KEYS = (
    "assassin", "witch", "magistrate",
    "thief", "spy", "blackmailer", "tax_collector_classic",
    "magician", "wizard", "seer",
    "king", "emperor", "patrician",
    "bishop", "abbot", "cardinal",
    "merchant", "alchemist", "trader",
    "architect", "navigator", "scholar",
    "warlord", "diplomat", "marshal",
    "queen", "artist", "tax_collector",
)
N_CHARACTERS = len(CHARACTER_KEYS)
(CH_ASSASSIN, CH_WITCH, CH_MAGISTRATE,
 CH_THIEF, CH_SPY, CH_BLACKMAILER, CH_TAX_COLLECTOR_CLASSIC,
 CH_MAGICIAN, CH_WIZARD, CH_SEER,
 CH_KING, CH_EMPEROR, CH_PATRICIAN,
 CH_BISHOP, CH_ABBOT, CH_CARDINAL,
 CH_MERCHANT, CH_ALCHEMIST, CH_TRADER,
 CH_ARCHITECT, CH_NAVIGATOR, CH_SCHOLAR,
 CH_WARLORD, CH_DIPLOMAT, CH_MARSHAL,
 CH_QUEEN, CH_ARTIST, CH_TAX_COLLECTOR) = range(N_CHARACTERS)
RANK_KING = 3  # rank index of the rank-4 (crown) characters
RANK_BISHOP = 4
RANK_9 = 8

# --- how a build is paid (a decision's answer, bots.choose_build_mode) ------------------
PAY_GOLD = 0        # pay the cost (gold, Thieves' Den cards, a Cardinal's assist)
PAY_FRAMEWORK = 1   # destroy the Framework instead (2016)
PAY_NECROPOLIS = 2  # build the Necropolis by destroying one of his districts (2016)

# --- Tables.params: one row of strategy parameters per seat ---------------------------
# (which family reads which: game/strategies.py FAMILY_PARAMS; values of the reference
# family's own parameters are in gold)
PR_BASE = 0  # PR_BASE + r: base desire for the rank-r character (r = 0..MAX_RANKS - 1)
(PR_W_INCOME,        # value of each district that pays the character's income
 PR_W_AGGRESSION,    # value of attacking characters per district of the leader's lead
 PR_W_THREAT,        # penalty on characters the Assassin/Thief are likely to name
 PR_CARD_NEED,       # gather cards while fewer than this many buildable cards are in hand
 PR_GOLD_RESERVE,    # gold kept back when paying for attacks or the Smithy
 PR_W_NEW_TYPE,      # build/keep bonus for a district type missing from the city
 PR_SWAP_MARGIN,     # Magician swaps when another hand is this many cards larger
 ) = range(PR_BASE + MAX_RANKS, PR_BASE + MAX_RANKS + 7)
PR_CHAR = PR_SWAP_MARGIN + 1  # PR_CHAR + ch: desire for character ch (CH_*), whatever its rank
(PR_R_CARD,          # value of a card gained
 PR_R_CROWN,         # value of taking the crown (picking first next round)
 PR_R_URGENCY,       # extra weight of harm to a seat per (share of his city built)^2
 PR_R_DRAW_NEED,     # draw cards while fewer useful cards in hand than this ...
 PR_R_DRAW_GOLD,     # ... plus this many per 4 gold in the stash
 PR_R_BRIBE,         # pay a bribe of at most this x P(flower) x stash
 PR_R_FINISH,        # complete the city first only when at most this many points behind
 PR_R_BUILD,         # value of one build this turn (build limits, a lost turn)
 PR_R_DENY,          # 2 players: weight of the opponent's gain in the face-down discard
 PR_R_READ,          # aiming: an opponent's pick kept rank r with odds ~ exp(this x its worth
 PR_R_MEMORY,        # ... + this x the share of earlier rounds in which he revealed rank r)
 ) = range(PR_CHAR + N_CHARACTERS, PR_CHAR + N_CHARACTERS + 11)
N_PARAMS = PR_R_MEMORY + 1  # strategy parameters per seat

# --- g: game scalars -----------------------------------------------------------------
# The first G_CFG_LEN entries are the configuration, copied from ``Tables.cfg``.
(G_RULESET,        # R_*
 G_NP,             # number of players
 G_NRANKS,         # 8 or 9 ranks in the character set
 G_N_COMPLETE,     # complete-city size N
 G_MAX_ROUNDS,     # safety cap on rounds
 G_N_FACEUP,       # face-up discards per selection phase
 G_CROWN,          # seat holding the crown (in the config: first holder, -1 = random seat)
 ) = range(7)
G_RANK_CHAR = 7                        # G_RANK_CHAR + r: character id of rank r (-1 if none)
G_FAMILY = G_RANK_CHAR + MAX_RANKS     # G_FAMILY + s: strategy family of seat s
G_FORBID = G_FAMILY + MAX_SEATS        # G_FORBID + s: bitmask of ranks seat s may not pick
# the rule numbers a house rule may change (game/house_rules.py: name, default, range)
(G_START_GOLD,       # gold each player starts with
 G_START_CARDS,      # district cards dealt to each player
 G_GATHER_GOLD,      # gold taken by the gather action
 G_GATHER_DRAW,      # cards drawn by the gather action ...
 G_GATHER_KEEP,      # ... of which this many are kept
 G_N_FULL,           # the complete-city size N as configured (G_N_COMPLETE: as it stands)
 G_FIRST_BONUS,      # points for the first complete city
 G_COMPLETE_BONUS,   # points for another complete city
 G_COLOUR_BONUS,     # points for a district of every type (colour)
 G_MERCHANT_GOLD,    # the Merchant's extra gold
 G_ARCHITECT_CARDS,  # the Architect's extra cards
 G_ARCHITECT_BUILDS,  # the Architect's build limit
 G_THIEF_SHARE,      # percent of the robbed stash the Thief takes (rounded down)
 G_WARLORD_DISCOUNT,  # gold off a district's cost when the Warlord destroys it
 G_NAVIGATOR_GAIN,   # the Navigator's gold or cards
 G_QUEEN_GOLD,       # the Queen's gold beside the rank-4 character
 G_SCHOLAR_DRAW,     # cards the Scholar draws (keeping 1)
 G_SCHOLAR_BUILDS,   # the Scholar's build limit
 G_SEER_BUILDS,      # the Seer's build limit
 G_ARTIST_BEAUTIFY,  # districts the Artist may beautify in a turn
 G_BRIBE_SHARE,      # percent of his stash a threatened player's bribe is (rounded down)
 G_MARSHAL_MAX,      # the costliest district the Marshal may seize
 G_TAX,              # gold of a Tax Collector's tax (classic: to him; 2016: to the pile)
 G_ABBOT_TRIBUTE,    # gold the richest player gives the Abbot
 ) = range(G_FORBID + MAX_SEATS, G_FORBID + MAX_SEATS + 24)
G_INCOME = G_ABBOT_TRIBUTE + 1  # G_INCOME + ch: gold (or cards) per district of ch's income
# a card variant's added effects (game.variants), per rank r, taken after gathering:
G_EXTRA_GOLD = G_INCOME + N_CHARACTERS    # + r: gold
G_EXTRA_CARDS = G_EXTRA_GOLD + MAX_RANKS  # + r: cards drawn
G_EXTRA_INCOME = G_EXTRA_CARDS + MAX_RANKS  # + r: district type paying 1 gold each, -1 none
G_BUILD_LIMIT = G_EXTRA_INCOME + MAX_RANKS  # + r: builds allowed in its turn, -1: its own
G_EXTRA_POWER = G_BUILD_LIMIT + MAX_RANKS  # + r: an added target power (POWER_*), 0 none
G_CFG_LEN = G_EXTRA_POWER + MAX_RANKS
#: a card variant's added target power (game.variants.POWERS), in ``G_EXTRA_POWER + r``
POWER_KILL, POWER_ROB, POWER_SWAP_HANDS, POWER_DESTROY, POWER_BEWITCH = 1, 2, 3, 4, 5
POWER_NAMES = ("kill", "rob", "swap_hands", "destroy", "bewitch")  # POWER_NAMES[code - 1]
(G_ROUND,          # current round, 1-based
 G_DECK_HEAD,      # index of the top card in ``deck``
 G_DECK_N,         # cards in the deck
 G_EVENT,          # global counter of builds and city changes (first completer, D25)
 G_KILLED,         # rank index killed this round, -1 if none
 G_ROBBED,         # rank index robbed this round, -1 if none
 G_ROBBER,         # seat of the Thief's holder this round
 G_FACEUP,         # bitmask of ranks discarded face up this round
 G_OVER,           # 1 once the game has ended
 G_CAP_HIT,        # 1 if the round cap ended the game
 G_LOG_ON,         # 1 when replay events are recorded
 G_LOG_N,          # events recorded so far
 G_TURN_RANK,      # rank index whose turn is being played, -1 outside turns
 G_TURN_SEAT,      # seat playing that turn
 G_BUILDS_LEFT,    # builds still allowed this turn
 G_TURN_USED,      # bitmask of once-per-turn uses this turn (U_* bits)
 G_FIRST,          # seat that completed first, -1
 G_BANK_OUT,       # gold the bank has paid out (conserved: stashes + tax pile = 2n + out - in)
 G_BANK_IN,        # gold paid to the bank
 G_TURN_CHAR,      # character id whose powers and limits apply this turn, -1 outside turns
 G_TURN_BUILD_GOLD,  # gold paid for builds this turn (Alchemist)
 G_TAX_PILE,       # gold on the 2016 Tax Collector's pile (carried over between rounds)
 G_TURN_BUILT,     # districts built this turn
 G_RANK1_BUILT,    # districts the rank-1 character built this round (classic Tax Collector)
 G_TAXER,          # seat collecting the classic Tax Collector's tax this round, -1
 G_BEWITCHED,      # rank index the Witch bewitched this round, -1
 G_WITCH,          # seat of the Witch's holder who bewitched it
 G_WITCH_RANK,     # rank index that bewitched (the Witch's, or a variant's with the power)
 G_WARRANT,        # rank index carrying the Magistrate's signed warrant this round, -1
 G_WARRANTS,       # bitmask of the ranks carrying a warrant (signed or not)
 G_MAGISTRATE,     # seat that placed the warrants
 G_THREAT,         # rank index under the Blackmailer's real (flower) threat, -1
 G_THREATS,        # bitmask of the ranks still carrying a threat marker
 G_BLACKMAILER,    # seat that placed the threats (it receives bribes and the stash)
 G_PILE_N,         # cards under the Museum (``deck[DECK_CAP:]``)
 G_BELL,           # 1 while a Bell Tower announcement holds N at 7 (classic)
 G_TURN_OVER,      # set by a power that ends the turn at once (the Witch naming)
 G_PICKS,          # character picks made so far in this round's draft
 G_FIRST_CROWN,    # seat that held the crown when the game began
 G_HOLDER,         # G_HOLDER + r: seat holding rank r this round, -1 if nobody
 ) = range(G_CFG_LEN, G_CFG_LEN + 40)
G_PICKER = G_HOLDER + MAX_RANKS        # G_PICKER + k: seat that made pick k this round
G_SCRATCH = G_PICKER + MAX_PICKS       # work space for functions that may not allocate
G_LEN = G_SCRATCH + SCRATCH_LEN
#: g[G_ROUND_SCORE + s]: seat s's score at this round's end (scratch, past the scoring's
#: type counts at G_SCRATCH)
G_ROUND_SCORE = G_SCRATCH + N_TYPES

# once-per-turn use bits (g[G_TURN_USED])
U_INCOME = 1 << 0
U_ABILITY = 1 << 1
U_LABORATORY = 1 << 2
U_SMITHY = 1 << 3
U_GATHERED = 1 << 4
U_ASSIST = 1 << 5  # the Cardinal's build assist
U_MUSEUM = 1 << 6
U_WARRANT = 1 << 7  # the warrant was spent on this turn's first paid build

# --- p: per-seat scalars -------------------------------------------------------------
(P_GOLD,           # stash
 P_HAND_N,         # cards in hand
 P_CITY_N,         # districts in city
 P_FAMILY,         # strategy family (its place in bots.FAMILIES)
 P_AT_BELL,        # event index when the city size last rose to >= 7 (Bell Tower), -1 if below
 P_AT_FULL,        # same for >= the configured N (g[G_N_FULL])
 P_REVEALED,       # highest rank (1-based) revealed this round, 0 if none (2016 tie-break)
 P_SCORE,          # final score
 P_VALUE,          # final district value (classic tie-break)
 P_PLACE,          # final place, competition ranking (1 = winner)
 P_COLOURS,        # final colour/type bonus
 P_COMPLETE,       # final completion bonus (+4 first, +2 other complete cities)
 P_EXTRAS,         # final points from district effects
 P_TYPES,          # P_TYPES + t: districts of printed type ``t`` in the seat's city
 ) = range(14)
P_KINDS = P_TYPES + N_TYPES  # P_KINDS + kind: copies of district ``kind`` in the seat's city
P_OFFERED = P_KINDS + N_KINDS  # P_OFFERED + r: draft picks in which rank r was offered
P_PICKED = P_OFFERED + MAX_RANKS  # P_PICKED + r: draft picks that took rank r
# what the seat saw in this round's draft (reset every round): its first and second pick
P_OFFER = P_PICKED + MAX_RANKS  # P_OFFER + j: bitmask of the ranks offered at its j-th pick
P_STEP = P_OFFER + 2  # P_STEP + j: the round's pick number of its j-th pick, -1 if none
P_DOWN = P_STEP + 2  # bitmask of the ranks it discarded face down itself (2 players)
P_SHOWN = P_DOWN + 1  # P_SHOWN + r: rounds in which it revealed rank r (public: bots read it)
# game-quality counters (game.track_lead), kept at every round's end
P_LED = P_SHOWN + MAX_RANKS  # bitmask: bit k - 1 set if the seat led alone after round k
P_BEHIND = P_LED + 1  # the most points it trailed the leading score by after a round
P_CITY_VALUE = P_BEHIND + 1  # its districts' value (costs, +1 each beautified), kept up to date
P_LEN = P_CITY_VALUE + 1

# --- log: one row per replay event ---------------------------------------------------
LOG_CAP = 4096
(L_TYPE, L_ROUND, L_SEAT, L_RANK, L_A, L_B, L_C, L_D,
 L_CROWN, L_DECK_N, L_TAX_PILE, L_PILE_N) = range(12)
L_GOLD = 12
L_HAND_N = L_GOLD + MAX_SEATS
L_CITY_N = L_HAND_N + MAX_SEATS
L_CITY = L_CITY_N + MAX_SEATS  # MAX_SEATS * CITY_CAP district kinds, -1 padded
L_BEAUTIFIED = L_CITY + MAX_SEATS * CITY_CAP  # the same slots: 1 where beautified
LOG_W = L_BEAUTIFIED + MAX_SEATS * CITY_CAP

# --- per-game outputs ------------------------------------------------------------------
(O_SCORE, O_PLACE, O_DISTRICTS, O_GOLD, O_VALUE, O_HAND, O_FIRST, O_COLOURS, O_COMPLETE,
 O_EXTRAS, O_UNIQUE_LO, O_UNIQUE_HI, O_LED, O_BEHIND, O_SEAT_LEN) = range(15)
#: O_UNIQUE_LO/HI: bitmask of the purple/unique kinds in the final city, bit (kind - D_HAUNTED)
#: in LO for the first UNIQUE_LO_BITS kinds, the rest in HI
UNIQUE_LO_BITS = 30
#: per (seat, rank) records of a game: ``records[s, r, C_*]``
(C_KILLED,         # rounds the character was killed
 C_ROBBED,         # rounds it was robbed
 C_GOLD,           # net change of the holder's stash over its turns
 C_BUILT,          # districts built in its turns
 C_OFFERED,        # draft picks of the seat in which it was offered
 C_PICKED,         # draft picks of the seat that took it (before any Theater exchange)
 C_LEN) = range(7)
(OG_ROUNDS, OG_CAP_HIT, OG_FIRST, OG_CROWN, OG_FIRST_CROWN, OG_HOLDER) = range(6)
OG_GAME_LEN = OG_HOLDER + MAX_RANKS  # OG_HOLDER + r: seat holding rank r in the final round

# --- the record dtypes -------------------------------------------------------------------
STATE_DTYPE = np.dtype([
    ("g", np.int32, (G_LEN,)),
    ("p", np.int32, (MAX_SEATS, P_LEN)),
    ("hand", np.int16, (MAX_SEATS, HAND_CAP)),
    ("city", np.int16, (MAX_SEATS, CITY_CAP)),
    ("city_round", np.int16, (MAX_SEATS, CITY_CAP)),
    ("deck", np.int16, (DECK_CAP + PILE_CAP,)),
    ("params", np.float64, (MAX_SEATS, N_PARAMS)),
    ("work", np.float64, (WORK_ROWS, MAX_RANKS)),
    ("rng", np.uint64, (N_STREAMS,)),
    ("log", np.int32, (LOG_CAP, LOG_W)),
], align=True)
TABLES_DTYPE = np.dtype([
    ("kinds", np.int32, (K_LEN, N_KINDS)),
    ("cfg", np.int32, (G_LEN,)),
    ("params", np.float64, (MAX_SEATS, MAX_MIX, N_PARAMS)),
    ("mix", np.float64, (MAX_SEATS, MAX_MIX)),
], align=True)
