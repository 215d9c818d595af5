"""The command line for authors: `boardrules new`, `--lib DIR`, and `check` on a library.

Kept apart from cli.py, which only registers these: `add_authoring(commands)` adds
the `new` command and the `--lib` option of every command that compiles;
`library_search(args)` is the context a command runs in; `check_library_file`
answers `boardrules check` for a library module.
"""

from __future__ import annotations

import argparse
from contextlib import AbstractContextManager
from pathlib import Path

from .cli_support import UsageError
from .compiler.common.diagnostics import print_warnings
from .compiler.front.libpath import ENV, library_dirs

NO_LIBRARY_OPTION = ("cache",)  # commands that compile nothing


def add_authoring(commands: argparse._SubParsersAction) -> None:
    """Register `new`, then give every command that compiles a repeatable `--lib DIR`."""
    new = commands.add_parser(
        "new", help="start an edition: a folder with the rulebook and a skeleton to fill in")
    new.add_argument("name", help="the edition's name: letters, digits and _")
    new.add_argument("--rulebook", required=True, metavar="FILE",
                     help="the rulebook's text, copied byte for byte to NAME/rulebook.txt")
    new.add_argument("--import", dest="imports", action="append", default=[],
                     metavar="MODULES", help="library modules to import, comma-separated; "
                     "repeatable (default: none)")
    new.add_argument("--dir", default=".", metavar="DIR",
                     help="the folder to create NAME/ in (default: the current folder)")
    for name, command in commands.choices.items():
        if name not in NO_LIBRARY_OPTION:
            command.add_argument(
                "--lib", action="append", default=[], metavar="DIR",
                help=f"also look for imported libraries in DIR, before ${ENV} and the "
                "bundled library; repeatable (default: none)")


def library_search(args: argparse.Namespace) -> AbstractContextManager[None]:
    """The library folders the command's --lib options add, checked, for the whole run."""
    folders = getattr(args, "lib", None) or []
    for folder in folders:
        if not Path(folder).is_dir():
            raise UsageError(f"--lib {folder}: no such folder")
    return library_dirs(folders)


def cmd_new(args: argparse.Namespace) -> int:
    from .harness.scaffold import ScaffoldError, new_edition

    imports = [m.strip() for group in args.imports for m in group.split(",") if m.strip()]
    try:
        edition = new_edition(args.name, Path(args.rulebook), imports, Path(args.dir))
    except ScaffoldError as exc:
        raise UsageError(str(exc)) from None
    libs = "".join(f" --lib {folder}" for folder in getattr(args, "lib", None) or [])
    starter = ", ".join(f"scenarios/{p.name}" for p in
                        sorted((edition.parent / "scenarios").glob("*.rules")))
    print(f"created {edition.parent}/: {edition.name}, rulebook.txt, {starter} (an example "
          "scenario, commented) and conformance/")
    print(f"next: boardrules coverage {edition.parent}{libs}")
    return 0


def check_library_file(name: str) -> int | None:
    """`boardrules check` on a library module: check it and print its summary (0); None
    when the file is an edition (or not a .rules file), for the edition's check."""
    from .compiler.library_check import check_library, library_module, summary

    path = Path(name)
    if path.suffix != ".rules" or not path.is_file():
        return None
    module = library_module(path)
    if module is None:
        return None
    compilation = check_library(path, module)
    print_warnings(compilation)
    print(summary(name, compilation))
    return 0
