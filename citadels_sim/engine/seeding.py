"""Seeds and seatings: the seed of every independent stream of games, derived from the master
seed, and the rotations of a line-up over the seats."""

import hashlib


def derive_seed(master: int, *parts: object) -> int:
    """A seed in [0, 2**63) determined by ``master`` and ``parts`` (independent streams for
    different parts)."""
    digest = hashlib.sha256(":".join(map(str, (master, *parts))).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def rotations(pattern: tuple[str, ...], players: int, seating: str) -> tuple[tuple[str, ...], ...]:
    """The line-ups a cell plays: ``pattern`` repeated over the seats, then every distinct
    rotation of it (``seating="rotate"``) or only itself (``"fixed"``)."""
    seats = tuple(pattern[i % len(pattern)] for i in range(players))
    if seating == "fixed":
        return (seats,)
    return tuple(dict.fromkeys(seats[r:] + seats[:r] for r in range(players)))
