"""The report's figures, drawn with matplotlib (Agg, no display needed), one panel per
variant side by side: the board coloured by where throws leave the token, the
distribution of game length, win rate by seat with its 95% intervals, and cash over time
in a few sample games. Each figure is written as a reproducible SVG (no date, fixed ids).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)
from matplotlib import colormaps  # noqa: E402
from matplotlib.colors import Normalize  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from ..outputs import atomic_file  # noqa: E402
from .seats import won_words  # noqa: E402

STYLE = {"svg.hashsalt": "boardrules", "svg.fonttype": "none", "font.size": 8,
         "axes.spines.top": False, "axes.spines.right": False}
SEAT_COLOURS = plt.get_cmap("tab10").colors
BOARD_COLOURS = "YlOrRd"
PANEL_INCHES = 7.5  # a board's width


@dataclass
class CashSample:
    """One sample game played turn by turn: each seat's cash and score after every turn."""

    game: int  # its index in the run
    seed: int
    turns: list[int]  # the turn number after each step (0: after the start)
    cash: list[list[int | None]]  # per seat; None once the player is out
    winners: list[int]  # several when they shared the win
    # per seat, the edition's score (what decides the winner: worth, points...); None once out
    score: list[list[int | None]] | None = None


@dataclass
class Panel:
    """One variant's figures: its label, simulate's JSON, game lengths and sample games."""

    label: str
    data: dict[str, Any]
    turns: list[int]
    samples: list[CashSample] = field(default_factory=list)


def save(figure: Figure, path: Path) -> None:
    """Write a figure as SVG (reproducible: no date) and free it."""
    with plt.rc_context(STYLE):
        with atomic_file(path, "wb") as handle:
            figure.savefig(handle, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(figure)


def _new(columns: int, rows: int = 1, width: float = 4.2, height: float = 3.2,
         **kwargs: Any) -> tuple[Figure, list[list[Any]]]:
    with plt.rc_context(STYLE):
        figure, axes = plt.subplots(rows, columns, figsize=(width * columns, height * rows),
                                    squeeze=False, **kwargs)
    return figure, [list(row) for row in axes]


# ---- the board ----------------------------------------------------------------------------
def ring_cells(n: int) -> list[tuple[float, float, float]]:
    """Where each track position is drawn: (x, y, size) of a square. A track whose length
    divides by 4 is a square ring (position 0 at the bottom right, play going clockwise
    as on a printed board); any other is a circle."""
    if n >= 8 and n % 4 == 0:
        side = n // 4
        cells = []
        for t in range(n):
            leg, step = divmod(t, side)
            x, y = [(side - step, 0), (0, step), (step, side), (side, side - step)][leg]
            cells.append((float(x), float(y), 1.0))
        return cells
    radius = max(n / (2 * math.pi), 2.5)
    size = min(1.0, 0.8 * 2 * math.pi * radius / max(n, 1))
    return [(radius * math.cos(-math.pi / 2 - 2 * math.pi * t / n) - size / 2,
             radius * math.sin(-math.pi / 2 - 2 * math.pi * t / n) - size / 2, size)
            for t in range(n)]


NAME_WIDTH = 12  # characters a line of a square's name holds at the label's full size


def name_lines(name: str) -> list[str]:
    """A square's name wrapped at word boundaries, in at most three lines, as narrow as that
    allows: every word kept whole and every line shown, so that two squares whose names
    differ only in their last words ("Collect 2 Resources: Cranes") still read apart."""
    longest = max((len(word) for word in name.split()), default=0)
    for width in range(max(NAME_WIDTH, longest), len(name) + 1):
        lines = textwrap.wrap(name, width, break_long_words=False)
        if len(lines) <= 3:
            return lines
    return [name]


def _label(axes: Any, x: float, y: float, size: float, entry: dict[str, Any],
           points: float, dark: bool, hosting: bool = False) -> None:
    """A square's name and share, sized to the square: a name wider or taller than two
    lines of NAME_WIDTH characters shrinks to fit; a square hosting an inset keeps its
    bottom strip and left side for them."""
    lines = name_lines(entry["name"])
    shrink = min(1.0, NAME_WIDTH / max(len(line) for line in lines))
    shrink *= 0.8 if len(lines) > 2 else 1.0
    colour = "white" if dark else "black"
    name_at = (x + size / 2, y + size * 0.22) if hosting else (x + size / 2, y + size * 0.62)
    share_at = (x + size * 0.22, y + size * 0.7) if hosting else (x + size / 2, y + size * 0.2)
    axes.text(*name_at, "\n".join(lines), ha="center", va="center", color=colour,
              fontsize=max(3.0, points * size * (0.09 if hosting else 0.11) * shrink),
              linespacing=0.9)
    axes.text(*share_at, f"{100 * entry['frequency']:.1f}%", ha="center", va="center",
              fontsize=max(5.5, points * size * (0.12 if hosting else 0.15)), weight="bold",
              color=colour)


def draw_board(axes: Any, landing: list[dict[str, Any]], norm: Normalize, title: str) -> None:
    """One board: each track space coloured by its resting share; spaces off the track
    (In Jail) as an inset of the space they stand at."""
    cmap = colormaps[BOARD_COLOURS]
    length = max(entry["position"] for entry in landing) + 1
    cells = ring_cells(length)
    low = min(min(x, y) for x, y, _ in cells)
    high = max(max(x, y) + size for x, y, size in cells)
    extent = high - low
    points = PANEL_INCHES * 72 / (extent + 0.2)  # a unit's size in points
    positions = [entry["position"] for entry in landing]
    seen: set[int] = set()
    for entry in landing:
        x, y, size = cells[entry["position"]]
        hosting = False
        if entry["position"] in seen:  # off the track (declared after its host): an inset
            x, y, size = x + size * 0.45, y + size * 0.45, size * 0.55
            edge, width = "black", 0.8
        else:
            seen.add(entry["position"])
            edge, width = "#555555", 0.4
            hosting = positions.count(entry["position"]) > 1
        axes.add_patch(Rectangle((x, y), size, size, facecolor=cmap(norm(entry["frequency"])),
                                 edgecolor=edge, linewidth=width))
        _label(axes, x, y, size, entry, points, norm(entry["frequency"]) > 0.65, hosting)
    ranked = sorted(landing, key=lambda e: -e["frequency"])[:5]
    middle = (low + high) / 2
    axes.text(middle, middle + extent * 0.2, title, ha="center", va="center",
              fontsize=13, weight="bold")
    axes.text(middle, middle - extent * 0.02,
              "share of dice throws after which\nthe token rests on each space\n\nmost often:\n"
              + "\n".join(f"{e['name']}  {100 * e['frequency']:.2f}%" for e in ranked),
              ha="center", va="center", fontsize=9)
    axes.set_xlim(low - 0.1, high + 0.1)
    axes.set_ylim(low - 0.1, high + 0.1)
    axes.set_aspect("equal")
    axes.axis("off")


def board_figure(panels: Sequence[Panel]) -> Figure:
    """The board(s), one per variant, on one colour scale."""
    top = max(e["frequency"] for p in panels for e in p.data["landing"]) or 1.0
    norm = Normalize(0.0, top)
    figure, axes = _new(len(panels), width=PANEL_INCHES, height=PANEL_INCHES + 0.4)
    for panel, ax in zip(panels, axes[0], strict=True):
        draw_board(ax, panel.data["landing"], norm, panel.label)
    with plt.rc_context(STYLE):
        bar = figure.colorbar(plt.cm.ScalarMappable(norm=norm, cmap=BOARD_COLOURS),
                              ax=[ax for row in axes for ax in row], orientation="horizontal",
                              fraction=0.04, pad=0.02, aspect=40)
        bar.set_label("share of dice throws after which the token rests there")
        bar.ax.xaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    return figure


# ---- game length, win rates, cash --------------------------------------------------------
def turns_figure(panels: Sequence[Panel]) -> Figure:
    """Histograms of game length (turns), on shared bins, with median and mean marked."""
    everything = [t for panel in panels for t in panel.turns]
    low, high = min(everything), max(everything)
    bins = min(40, max(1, high - low + 1))
    figure, axes = _new(len(panels), sharex=True, sharey=True)
    for panel, ax in zip(panels, axes[0], strict=True):
        turns = panel.data["turns"]
        ax.hist(panel.turns, bins=bins, range=(low, high + 1), color="#4c72b0",
                edgecolor="white", linewidth=0.4)
        ax.axvline(turns["p50"], color="black", linewidth=1, label=f"median {turns['p50']:.0f}")
        ax.axvline(turns["mean"], color="black", linestyle="--", linewidth=1,
                   label=f"mean {turns['mean']:.1f} (sd {turns['sd']:.1f})")
        ax.axvspan(turns["p5"], turns["p95"], color="grey", alpha=0.12,
                   label=f"5% to 95%: {turns['p5']:.0f} to {turns['p95']:.0f}")
        capped = panel.data["capped_games"]
        ax.set_title(f"{panel.label}\n{panel.data['games']} games, {capped} capped")
        ax.set_xlabel("turns per game")
        ax.set_ylabel("games")
        ax.legend(frameon=False, fontsize=7)
    figure.tight_layout()
    return figure


def win_rate_figure(panels: Sequence[Panel]) -> Figure:
    """Win rate by seat with its 95% (Wilson) interval, against an equal share."""
    figure, axes = _new(len(panels), sharey=True)
    for panel, ax in zip(panels, axes[0], strict=True):
        rates = panel.data["win_rate_by_seat"]
        intervals = panel.data["win_rate_ci95"]
        seats = [f"p{i + 1}" for i in range(len(rates))]
        below = [max(0.0, 100 * (r - low)) for r, (low, _) in zip(rates, intervals, strict=True)]
        above = [max(0.0, 100 * (high - r)) for r, (_, high) in zip(rates, intervals, strict=True)]
        colours = [SEAT_COLOURS[i % 10] for i in range(len(rates))]
        ax.bar(seats, [100 * r for r in rates], yerr=[below, above], capsize=4,
               color=colours, alpha=0.85)
        shared = panel.data.get("shared_win_rate_by_seat", [])
        if any(shared):  # stacked above, hatched: games whose win the seat shared
            ax.bar(seats, [100 * r for r in shared], bottom=[100 * r for r in rates],
                   color=colours, alpha=0.35, hatch="//", label="shared wins")
        ax.axhline(100 / len(rates), color="black", linestyle=":", linewidth=1,
                   label="equal share")
        for i, rate in enumerate(rates):
            ax.text(i, 100 * intervals[i][1] + 0.8, f"{100 * rate:.1f}%", ha="center",
                    fontsize=7)
        ax.set_title(f"{panel.label}\nseat differences: {panel.data['seat_differences']}")
        ax.set_ylabel("games won (%), with 95% interval")
        ax.legend(frameon=False, fontsize=7, loc="lower right")
    figure.tight_layout()
    return figure


def cash_figure(panels: Sequence[Panel], currency: str = "") -> Figure:
    """Each seat's cash (solid) and score (dashed: the edition's measure of who wins, such as
    net worth) after every turn in a few sample games (rows), per variant."""
    rows = max(1, max(len(panel.samples) for panel in panels))
    figure, axes = _new(len(panels), rows, width=4.6, height=2.4)
    for column, panel in enumerate(panels):
        for row in range(rows):
            ax = axes[row][column]
            if row >= len(panel.samples):
                ax.axis("off")
                continue
            sample = panel.samples[row]
            for seat, series in enumerate(sample.cash):
                ax.plot(sample.turns, [math.nan if v is None else v for v in series],
                        color=SEAT_COLOURS[seat % 10], linewidth=1, label=f"p{seat + 1}")
            for seat, series in enumerate(sample.score or []):  # dashed: what wins
                ax.plot(sample.turns, [math.nan if v is None else v for v in series],
                        color=SEAT_COLOURS[seat % 10], linewidth=0.8, linestyle="--")
            won = won_words(sample.winners)
            ax.set_title(f"{panel.label}: game {sample.game + 1} (seed {sample.seed})\n"
                         f"{won} after {sample.turns[-1]} turns", fontsize=8)
            ax.set_xlabel("turn")
            ax.set_ylabel(f"cash, and score dashed{' (' + currency + ')' if currency else ''}")
            ax.legend(frameon=False, fontsize=6, ncol=len(sample.cash))
    figure.tight_layout()
    return figure
