"""The README's screenshot of `boardrules play`: a game of Disney played some way in, drawn
by textual's headless pilot and saved as SVG.

    python scripts/play_screenshot.py [--out docs/images/play.svg] [--answers N] [--seed S]

The human seat (p1) takes the first answer offered each time (often "yes" or "none"), the
other seats play the default strategy; the picture is the screen after N answers.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from boardrules.play.app import PlayApp
from boardrules.play.session import Session


async def shoot(out: Path, answers: int, seed: int, size: tuple[int, int]) -> None:
    session = Session("disney_theme_park", 3, 0, seed=seed)
    app = PlayApp(session, str(out.with_suffix(".json")))
    async with app.run_test(size=size) as pilot:
        for _ in range(answers):
            await pilot.press("enter")
        await pilot.pause()
        app.save_screenshot(out.name, str(out.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images/play.svg"))
    parser.add_argument("--answers", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(shoot(args.out, args.answers, args.seed, (140, 44)))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
