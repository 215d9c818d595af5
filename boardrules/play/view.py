"""What the terminal shows of a game, as text: the board with its owners and buildings,
every seat's cash and holdings, and the decision being asked with its prompt, its legal
answers and the rulebook sentences of the rules that ask it. Edition-agnostic: it reads
the snapshot (runtime/state.py) and describe's data (harness/describe.py)."""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from ..agents.encoding import ActionCodec
from ..agents.views import visibility
from ..harness.seats import won_words

Described = dict[str, dict[str, Any]]


def decisions_described(edition: str) -> Described:
    """Each decision's prompt and the rulebook sentences of the rules that ask it, by name
    (describe's data: the checking front end, cached after its first run)."""
    from ..compiler.build.obtain import compile_edition
    from ..harness.describe import describe
    from ..runtime.loader import resolve_edition

    data = describe(compile_edition(resolve_edition(edition)))
    return {d["name"]: d for d in data["decisions"]}


def _shown(value: Any) -> str | None:
    """A counter's value worth showing (None for none, false and 0)."""
    if isinstance(value, list):
        return str(value) if any(v not in (None, False, 0) for v in value) else None
    if value is None or value is False or value == 0:
        return None
    if value is True:
        return ""
    return str(value)


def board_lines(module: ModuleType, snap: dict[str, Any]) -> list[str]:
    """A line per space: its name, the seats on it and its counters that are set."""
    here: dict[str, list[str]] = {}
    for p in snap["players"]:
        if p["alive"]:
            here.setdefault(p["position"], []).append(f"p{p['seat'] + 1}")
    player_counters = _typed(module, "space", "player")
    lines = []
    for space in snap["spaces"]:
        parts = []
        for name, value in space.items():
            if name in ("id", "name"):
                continue
            shown = _shown(value)
            if shown is None:
                continue
            if name in player_counters:
                shown = f"p{value + 1}"
            parts.append(f"{name} {shown}".strip())
        tokens = " ".join(here.get(space["id"], []))
        lines.append(f"{space['name'][:28]:<28} {tokens:<8} {', '.join(parts)}".rstrip())
    return lines


def _typed(module: ModuleType, owner: str, type_name: str) -> set[str]:
    """The names of the counters an owner kind has, of one answer type."""
    return {label.split(".", 1)[-1] for label, o, t in module.COUNTERS
            if o == owner and t.rstrip("?") == type_name}


def seat_lines(module: ModuleType, snap: dict[str, Any],
               viewer: int | None = None) -> list[str]:
    """A line per seat: cash, space, the spaces it owns and the cards it holds; with a
    `viewer`, the others' face-down cards (a `hidden` deck's) only counted by deck."""
    owners = _typed(module, "space", "player")
    currency = module.CURRENCY
    lines = []
    for p in snap["players"]:
        seat = p["seat"]
        held = [space["name"] for space in snap["spaces"]
                if any(space.get(c) == seat for c in owners)]
        cards = _cards_seen(module, [card for card, holder in snap["held_cards"].items()
                                     if holder == seat], seat == viewer or viewer is None)
        state = "" if p["alive"] else " (out)"
        marker = ">" if snap.get("pending", {}).get("player") == seat else " "
        lines.append(f"{marker}p{seat + 1}{state}: {p['cash']} {currency}, on {p['position']}"
                     + (f"; holds {', '.join(held)}" if held else "")
                     + (f"; cards {', '.join(cards)}" if cards else ""))
    return lines


def _cards_seen(module: ModuleType, cards: list[str], all_seen: bool) -> list[str]:
    """A seat's cards as the viewer sees them: face-down ones counted by deck."""
    if all_seen:
        return cards
    deck_of = visibility(module).deck_of
    shown = [c for c in cards if deck_of[module.CARD_IDS.index(c)] < 0]
    down: dict[str, int] = {}
    for c in cards:
        d = deck_of[module.CARD_IDS.index(c)]
        if d >= 0:
            down[module.DECK_NAMES[d]] = down.get(module.DECK_NAMES[d], 0) + 1
    return shown + [f"{n} face-down {deck}" for deck, n in down.items()]


def decision_lines(snap: dict[str, Any], described: Described, quotes: int = 2) -> list[str]:
    """The decision asked now: who, its prompt, and the rulebook's sentences."""
    pending = snap.get("pending")
    if pending is None:
        return [f"The game is over after {snap['turn']} turns: "
                f"{won_words(snap.get('winners', []))}."]
    name = pending["decision"]
    info = described.get(name, {})
    lines = [f"p{pending['player'] + 1} decides {name}: {info.get('prompt') or name}"]
    for sentence in rulebook_sentences(info, quotes):
        lines.append(f'  "{sentence}"')
    return lines


def rulebook_sentences(info: dict[str, Any], limit: int = 2) -> list[str]:
    """The decision's own quotes, else those of the rules that ask it, the sentences
    sharing most words with its prompt first."""
    own = list(info.get("quotes") or [])
    if own:
        return own[:limit]
    words = _words(info.get("prompt") or info.get("name", "").replace("_", " "))
    found: list[tuple[int, str]] = []
    for unit in info.get("reached_from", []):
        for sentence in unit.get("quotes", []):
            overlap = len(words & _words(sentence))
            found.append((overlap, sentence))
    found.sort(key=lambda pair: -pair[0])
    return [sentence for _, sentence in found[:limit]]


def _words(text: str) -> set[str]:
    """The longer words of a text (stems of four letters: "trade" meets "trades")."""
    return {w[:4] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3}


def answer_labels(codec: ActionCodec, snap: dict[str, Any]) -> list[tuple[int, str]]:
    """The legal answers now, each with its words (answer, label)."""
    pending = snap.get("pending")
    if pending is None:
        return []
    name = pending["decision"]
    seat = pending["player"]
    answers = pending["options"]
    seen = None
    if codec.view.hidden and codec.types[name] == "card":
        # face-down cards in their slots' order, which says nothing of which card is which
        seen = ([snap["held_cards"].get(c, -1) for c in codec.module.CARD_IDS], seat)
        answers = [a for _, a in sorted(codec.answers(name, answers, seen).items())]
    labels = [codec.words(name, a, seen).partition(": ")[2] for a in answers]
    return [(a, _numbered(label, labels[:i])) for i, (a, label)
            in enumerate(zip(answers, labels, strict=True))]


def _numbered(label: str, before: list[str]) -> str:
    """A label told apart from the same ones before it (face-down cards): `label (2)`."""
    same = before.count(label)
    return f"{label} ({same + 1})" if same else label
