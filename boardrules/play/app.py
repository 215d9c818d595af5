"""The terminal's game view (textual): `PlayApp` asks one seat's decisions, `ReplayApp`
steps through a simulated game's turns; both show the same board, seats and status."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from .session import Session
from .view import answer_labels, board_lines, decision_lines, seat_lines


class GameView(App):
    """The board on the left; the seats, the status and (when playing) the answers on
    the right."""

    CSS = """
    #board { width: 2fr; }
    #side { width: 3fr; }
    #answers { height: 1fr; }
    """

    def __init__(self, module, title: str):
        super().__init__()
        self.module = module
        self.title = title
        self.viewer: int | None = None  # the seat whose face-down cards are shown alone

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with VerticalScroll(id="board"):
                yield Static(id="board_text")
            with Vertical(id="side"):
                yield Static(id="seats")
                yield Static(id="status")
                yield from self.side_widgets()
        yield Footer()

    def side_widgets(self) -> ComposeResult:
        return iter(())

    def show(self, snap: dict[str, Any], status: list[str]) -> None:
        self.query_one("#board_text", Static).update("\n".join(board_lines(self.module, snap)))
        self.query_one("#seats", Static).update(
            f"turn {snap['turn']}\n" + "\n".join(seat_lines(self.module, snap, self.viewer)))
        self.query_one("#status", Static).update("\n".join(status))


class PlayApp(GameView):
    BINDINGS = [Binding("u", "undo", "Undo"), Binding("s", "save", "Save"),
                Binding("q", "quit", "Quit")]

    def __init__(self, session: Session, save_path: str):
        super().__init__(session.module, f"{session.module.EDITION}: you are "
                         f"p{session.seat + 1}")
        self.session = session
        self.viewer = session.seat
        self.save_path = save_path
        self.message = ""

    def side_widgets(self) -> ComposeResult:
        yield OptionList(id="answers")

    def on_mount(self) -> None:
        self.refresh_view()

    def refresh_view(self) -> None:
        session = self.session
        snap = session.snapshot()
        status = decision_lines(snap, session.described)
        if self.message:
            status.append(self.message)
        self.show(snap, status)
        answers = self.query_one("#answers", OptionList)
        answers.clear_options()
        answers.add_options([Option(label, id=str(value))
                             for value, label in answer_labels(session.codec, snap)])
        if answers.option_count:
            answers.highlighted = 0
        answers.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.message = ""
        self.session.answer(int(event.option.id))
        self.refresh_view()

    def action_undo(self) -> None:
        try:
            self.session.undo()
            self.message = "undone"
        except ValueError as exc:
            self.message = str(exc)
        self.refresh_view()

    def action_save(self) -> None:
        self.session.save(self.save_path)
        self.message = f"saved to {self.save_path}"
        self.refresh_view()


class ReplayApp(GameView):
    BINDINGS = [Binding("n", "step(1)", "Next turn"), Binding("p", "step(-1)", "Previous"),
                Binding("q", "quit", "Quit")]

    def __init__(self, module, turns: list[dict[str, Any]], seed: int):
        super().__init__(module, f"{module.EDITION}: seed {seed}")
        self.turns = turns
        self.at = 0

    def on_mount(self) -> None:
        self.action_step(0)

    def action_step(self, by: int) -> None:
        self.at = max(0, min(len(self.turns) - 1, self.at + by))
        snap = self.turns[self.at]
        status = [f"after turn {snap['turn']} ({self.at + 1} of {len(self.turns)} views)"]
        if self.at == len(self.turns) - 1:
            status.append("the game is over" + (" (turn cap)" if snap["capped"] else ""))
        self.show(snap, status)
