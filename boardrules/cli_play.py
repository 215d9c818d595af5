"""`boardrules play` and `boardrules replay`: a game in the terminal (pip install
boardrules[play]: textual)."""

from __future__ import annotations

import argparse

from .cli_support import UsageError, at_least, checked_module

_seed = at_least(0)


def _seat(text: str) -> int:
    """p1, p2, ... (or 1, 2, ...) as a seat index."""
    digits = text.lower().removeprefix("p")
    if not digits.isdigit() or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"a seat is p1, p2, ..., not {text!r}")
    return int(digits) - 1


def add_play(commands: argparse._SubParsersAction) -> None:
    """Register `play` and `replay`."""
    play = commands.add_parser("play", help="play an edition in the terminal against the "
                               "default policy (undo, save, load)")
    play.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    play.add_argument("--seat", type=_seat, default=0, help="the seat you play: p1, p2, ...")
    play.add_argument("--players", type=at_least(1), default=4, help="players in the game")
    play.add_argument("--seed", type=_seed, default=0, help="the game's seed")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="choose one of the edition's options (variants); repeatable")
    play.add_argument("--load", metavar="FILE", help="go on with a game saved before")
    play.add_argument("--save", metavar="FILE", default="boardrules-game.json",
                      help="where the s key saves the game")
    replay = commands.add_parser("replay", help="step through a simulated game's turns "
                                 "in the terminal")
    replay.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    replay.add_argument("--seed", type=_seed, default=0, help="the game's seed")
    replay.add_argument("--players", type=at_least(1), default=4, help="players in the game")
    replay.add_argument("--policy", choices=("default", "random"), default="default",
                        help="the built-in policy every seat plays")
    replay.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="choose one of the edition's options (variants); repeatable")


def _textual() -> None:
    try:
        import textual  # noqa: F401
    except ImportError:
        raise UsageError("play and replay need textual: pip install 'boardrules[play]'") \
            from None


def _options(args) -> dict[str, int]:
    """The options chosen, once the edition, its players and its options are checked."""
    from .harness.options import parse_options

    module = checked_module(args.edition, "compiled", args.players, args.option)
    return parse_options(module, args.option)


def cmd_play(args) -> int:
    _textual()
    from .play.app import PlayApp
    from .play.session import Session

    if args.load:
        session = Session.load(args.load)
    else:
        if args.seat >= args.players:
            raise UsageError(f"--seat p{args.seat + 1}: the game has {args.players} seats")
        session = Session(args.edition, args.players, args.seat, args.seed,
                          _options(args))
    PlayApp(session, args.save).run()
    return 0


def cmd_replay(args) -> int:
    _textual()
    from .play.app import ReplayApp
    from .play.session import simulated_turns
    from .runtime.loader import load_module

    turns = simulated_turns(args.edition, args.players, args.seed,
                            _options(args), args.policy)
    ReplayApp(load_module(args.edition), turns, args.seed).run()
    return 0
