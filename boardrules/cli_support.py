"""What the command line checks before it works, and how its help reads.

The contract (README, "Commands"): a bad argument, an unknown edition or file, a bad
`--option`, an out-of-range number or an output path that cannot be written ends with
one line, `boardrules: error: ...`, and exit status 2, before any game is played; a
broken rules file ends with its diagnostics and exit status 1.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType

from .runtime.loader import EditionNotFound, resolve_edition

USAGE_ERROR, RULES_ERROR, INTERRUPTED = 2, 1, 130  # exit statuses
INT_MAX = 2**31 - 1  # the games' integers are 32-bit (runtime/kernel_support.py)


class UsageError(Exception):
    """A bad command-line argument: reported on one line, exit status 2."""


def interrupted(done: str = "") -> int:
    """Ctrl-C: one line (what was done, if anything), exit status 130."""
    print(f"boardrules: interrupted{': ' + done if done else ''}", file=sys.stderr)
    return INTERRUPTED


class DefaultsHelpFormatter(argparse.HelpFormatter):
    """Help in which every option says its default: "(default: X)" is added unless the
    text already says it ("none" for an option unset by default, "off" for a flag)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if ("default" in text.lower() or action.required
                or action.default is argparse.SUPPRESS
                or (not action.option_strings and action.nargs not in ("?", "*"))):
            return text
        if action.nargs == 0:  # a flag: store_true and friends
            shown = "on" if action.default else "off"
        elif action.default in (None, [], ()):
            shown = "none"
        else:
            shown = str(action.default).replace("%", "%%")
        return f"{text} (default: {shown})".lstrip()


def at_least(minimum: int, maximum: int | None = None):
    """An argparse type: a whole number no smaller than `minimum` (nor larger than
    `maximum`: what the games' 32-bit counters hold, for a turn limit)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum}, not {value}")
        return value

    return parse


def percent(text: str) -> float:
    """An argparse type: a percentage from 0 to 100."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"must be a percentage from 0 to 100, not {text}")
    return value


def check_output(path: Path | str | None, folder: bool = False) -> None:
    """Refuse an output path that cannot be written, before any work: a file's folder must
    exist; a folder is created when written (parents too), so a file is tried in it or in
    its nearest existing parent, and a run that fails leaves no empty folder. None: no
    output."""
    if path is None:
        return
    path = Path(path)
    try:
        if folder:
            where = path
            while not where.exists() and where.parent != where:
                where = where.parent
            if not where.is_dir():
                raise UsageError(f"cannot write to {path}: {where} is not a folder")
        elif path.is_dir():
            raise UsageError(f"cannot write to {path}: it is a folder")
        else:
            where = path.parent
        with tempfile.TemporaryFile(dir=where):
            pass
        if not folder and path.exists():
            path.open("a").close()
    except OSError as exc:
        raise UsageError(f"cannot write to {path}: {exc.strerror or exc}") from None


def cpu_count() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def cap_workers(args: argparse.Namespace) -> None:
    """No more local worker processes than CPUs (more only share them, each with its own
    memory), said in one line on stderr; the Ray engine's --workers are its CPUs."""
    workers = getattr(args, "workers", None)
    if workers is None or getattr(args, "engine", "processes") == "ray":
        return
    cpus = cpu_count()
    if workers > cpus:
        print(f"boardrules: --workers {workers} is more than the {cpus} CPU(s): "
              f"using {cpus}", file=sys.stderr)
        args.workers = cpus


def check_edition(edition: str) -> None:
    """An edition name or rules file that exists (exit 2 otherwise)."""
    try:
        resolve_edition(edition)
    except EditionNotFound as exc:
        raise UsageError(str(exc)) from None


def checked_module(edition: str, backend: str, players: int | None = None,
                   options: list[str] | None = None, params: list[str] | None = None
                   ) -> ModuleType:
    """The edition's module (compiled if need be, with `params` set), with the number of
    players, the options and the params checked against it (exit 2)."""
    from .compiler.param_settings import ParamError
    from .harness.options import parse_options
    from .runtime.loader import load_module

    check_edition(edition)
    try:
        module = load_module(edition, backend, params or ())
    except ParamError as exc:
        raise UsageError(str(exc)) from None
    if players is not None and not module.MIN_PLAYERS <= players <= module.MAX_PLAYERS:
        raise UsageError(f"{module.EDITION} is for {module.MIN_PLAYERS} to "
                         f"{module.MAX_PLAYERS} players, not {players}")
    try:
        parse_options(module, options or [])
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return module


def check_engine(engine: str, address: str | None) -> None:
    """The ray engine needs Ray installed, and the cluster at --address to answer;
    --address is for the ray engine only."""
    from .harness.ray_engine import INSTALL_HINT, RayUnavailable, check_address

    if address and engine != "ray":
        raise UsageError("--address is for the ray engine: add --engine ray")
    if engine == "ray" and find_spec("ray") is None:
        raise UsageError(f"the ray engine needs Ray: {INSTALL_HINT}")
    if address:
        try:
            check_address(address)
        except RayUnavailable as exc:
            raise UsageError(str(exc)) from None


class QuietWhenClosed:
    """The command's stdout, which goes quiet once its reader has gone (`| head -2`): what
    is printed after that is dropped, and the command still writes the files it was asked
    for and ends with its own exit status, not a broken pipe."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.reader_gone = False

    def write(self, text: str) -> int:
        if not self.reader_gone:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self._gone()
        return len(text)

    def flush(self) -> None:
        if not self.reader_gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._gone()

    def _gone(self) -> None:
        self.reader_gone = True
        try:  # the interpreter's own last flush at exit then goes nowhere too
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name: str):
        return getattr(self.stream, name)
