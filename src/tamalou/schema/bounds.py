"""The bounds of a ruleset's numbers (``MAX_PLAYERS``, ``MAX_TURNS``, ``MAX_MATCH_TURNS``, ``MAX_POINTS``...) and of
its texts (``MAX_NAME_LENGTH``, ``MAX_DESCRIPTION_LENGTH``...): every key of the variant format is checked against
them, and each says why it is what it is.
"""

# --- the bounds of a ruleset's numbers ---------------------------------------------------------------
# Everything a ruleset may hold is bounded, so that whatever is accepted can be played, saved and restored:
# the snapshots (``Game.to_json``, ``Match.to_json``) of a game of any legal ruleset are read back by
# ``from_json``, which refuses times from 1e12 seconds on (``actions.MAX_TIME``: ``now``, a clock's deadlines)
# and texts over 600,000,000 characters (``engine.snapshot.MAX_TEXT``).

#: The most players at a table (``players.min`` and ``players.max``).
MAX_PLAYERS = 12
#: The most cards dealt to each player (``deal.cards``); a peek names slots below it.
MAX_DEAL = 12
#: The most ranks a deck may have (``deck.ranks``): with 16 copies of a rank (``deck.counts``), 4 decks
#: (``deck.copies``) and 2 jokers, a deck has at most 4,104 cards.
MAX_RANKS = 64
#: The longest time a ruleset may set, in seconds (a year): every time of ``rules.timing`` is finite, at least 0
#: and at most this. A round's clock then stays far below the 1e12 s a snapshot accepts: it starts at 0 and
#: moves by at most one such time per turn (a turn's deadline) plus the opening peek and the final countdown,
#: (``MAX_TURNS`` + 2) x ``MAX_SECONDS`` = 3.2e11 s.
MAX_SECONDS = 86_400.0 * 365
#: The most entries of ``timing.lockouts`` (past the list, matching is locked for the rest of the round).
MAX_LOCKOUTS = 64
#: The most turns of a round (``end.max_turns``), so that a round cannot be made endless.
MAX_TURNS = 10_000
#: The most rounds of a match (``rounds.count``, ``rounds.max_rounds``).
MAX_ROUNDS = 1_000
#: The most turns a whole match may last: its most rounds (1, ``rounds.count`` or ``rounds.max_rounds`` by its
#: form) times ``end.max_turns`` (the defaults: 100 rounds of at most 400 turns). A snapshot holds every action of
#: the round (``Game.to_json``), a match snapshot every action of every round (``Match.to_json``): a turn takes 35
#: to 65 characters in random legal play, so the longest legal match takes 1,400,000 to 2,600,000. The engine bounds
#: the actions of a turn (each player throws at most ``matching.max_cards`` cards on a thrown card, a turn throws at
#: most ``draw.per_turn`` cards, a right card taken from an opponent needs one give; a tick that fires nothing takes
#: the place of a tick before it in the log, so at most one follows each other action), and at the worst (12
#: players, each throwing every card they may on every thrown card, the right ones first, a tick after every
#: action, every action stamped with the longest time text) a turn takes about 9,500 characters: the longest legal
#: match played so, some 380,000,000, is under the 600,000,000 that ``from_json`` reads
#: (``engine.snapshot.MAX_TEXT``) with a margin of 1.5 and more (measured by tests/properties/test_restorable.py).
MAX_MATCH_TURNS = 40_000
#: The most points, either way, of a card (``values``), a threshold (``call.threshold``, ``end.win_max``) or a
#: penalty (``scoring.caller_lost_penalty``).
MAX_POINTS = 1_000
#: The largest points limit of a match (``rounds.limit``).
MAX_LIMIT = 1_000_000_000

# --- the bounds of a ruleset's texts -----------------------------------------------------------------
# Every text a ruleset holds has a bound too, and those shown on one line (names, aliases, a power's name, the title,
# each source, the base) refuse control characters and line breaks: a name is printed in the middle of a line (a
# heading, a comment of ``tamalou show --toml``, a log), where a line break would start a line of the text's choice.
# Only the description may span several lines (newlines and tabs; no other control character).

#: The longest name (``name``; each name of a composition's, ``french+gabo``), alias (``aliases``) or power name
#: (``rules.powers``), in characters.
MAX_NAME_LENGTH = 64
#: The most rulesets a composition's name joins with ``+`` (as a snapshot's variant names at most 16:
#: ``engine.snapshot.MAX_PARTS``).
MAX_NAME_PARTS = 16
#: The most entries of ``aliases``.
MAX_ALIASES = 16
#: The longest ``title``, in characters.
MAX_TITLE_LENGTH = 200
#: The longest ``description``, in characters.
MAX_DESCRIPTION_LENGTH = 4_000
#: The longest entry of ``sources`` (a reference or an address), in characters.
MAX_SOURCE_LENGTH = 500
#: The most entries of ``sources``.
MAX_SOURCES = 32
#: The most tables of ``[options]`` (one per mechanic that takes settings: ``[options.<mechanic name>]``).
MAX_OPTION_TABLES = 64
#: The most keys of one table of ``[options]``.
MAX_OPTIONS = 256
#: The longest ``base`` (a registered ruleset's name or, in a trusted load, a file's path), in characters.
MAX_BASE_LENGTH = 4_096
