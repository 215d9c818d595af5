"""Seats as every output names them (`p1` is the first), and who won a game in words:
what simulate's records, the report's figures and the terminal game say alike."""

from __future__ import annotations


def seat_name(seat: int) -> str | None:
    """A seat's name, None for no seat (-1)."""
    return f"p{seat + 1}" if seat >= 0 else None


def won_words(winners: list[int]) -> str:
    """Who won: one seat, seats sharing the win, or nobody."""
    names = [f"p{seat + 1}" for seat in winners]
    if len(names) > 1:
        return f"{', '.join(names[:-1])} and {names[-1]} share the win"
    return f"{names[0]} wins" if names else "no winner"
