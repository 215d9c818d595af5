"""Progress on a terminal for the command line's long work; nothing when stderr is piped.

Building an edition shows its step (front end, Cython, C compiler) with an estimate of the
step's time: the size of what the step reads times the rate of the last build, recorded in
the cache (`build-times.json`), or a rate measured on a 2-core machine before any build.
Games show how many are done, their rate and the time left (`ProgressBar` in
harness/simulate.py). Both draw with tqdm.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from .compiler.common.cache_folder import cache_root

# seconds per byte of input, measured building Disney on 2 cores (front end: the rules file,
# the libraries it imports and its scenario files, 331 kB)
DEFAULT_RATES = {"front end": 2.3 / 330_858, "Cython": 6.6 / 188_130,
                 "C compiler": 6.5 / 1_931_469}
WHAT = {"front end": "front end (parse, check, optimize, generate)",
        "Cython": "Cython (generated Python to C)",
        "C compiler": "C compiler (C to an extension module)"}
TIMES_FILE = "build-times.json"
MAX_RATE = 0.01  # seconds per byte: 100 times slower than any build measured


class BuildProgress:
    """A build-step watcher (compiler.build.watching): one bar per step, with its estimate."""

    def __init__(self, stream: TextIO | None = None, times: Path | None = None) -> None:
        self.stream = stream or sys.stderr
        self.times = times or cache_root() / TIMES_FILE

    def estimate(self, step: str, size: int) -> float | None:
        """Seconds the step should take for an input of `size` bytes (None: no idea)."""
        rate = self._rates().get(step, DEFAULT_RATES.get(step))
        return rate * size if rate and size else None

    @contextmanager
    def __call__(self, step: str, size: int) -> Iterator[None]:
        estimate = self.estimate(step, size)
        started = time.perf_counter()
        with _ticking_bar(f"compiling: {WHAT.get(step, step)}", estimate, self.stream):
            yield
        if size:
            self._record(step, (time.perf_counter() - started) / size)

    def _rates(self) -> dict[str, float]:
        """The recorded rates that make sense (a damaged or hand-edited file, with 1e308 or
        Infinity, would give an estimate no clock can show): the others are ignored, and
        dropped from the file by the next record."""
        try:
            rates = json.loads(self.times.read_text())
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in rates.items() if _sane_rate(v)} \
            if isinstance(rates, dict) else {}

    def _record(self, step: str, rate: float) -> None:
        """Keep the step's rate for the next estimate (best effort, written atomically)."""
        rates = self._rates()
        if not _sane_rate(rate):
            return
        rates[step] = rate
        try:
            self.times.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".build-times.", dir=self.times.parent)
            with os.fdopen(fd, "w") as handle:
                json.dump(rates, handle)
            os.replace(tmp, self.times)
        except OSError:
            pass


def _sane_rate(value: object) -> bool:
    """A number of seconds per byte a build step can take: positive, finite, at most
    MAX_RATE."""
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and 0 < value <= MAX_RATE)


@contextmanager
def _ticking_bar(description: str, estimate: float | None, stream: TextIO) -> Iterator[None]:
    """A bar of seconds spent against the estimate, ticking while the block runs (a step
    that runs another program reports nothing in between); only on a terminal."""
    if not _is_terminal(stream):
        yield
        return
    from tqdm import tqdm

    total = round(estimate, 1) if estimate else None
    bar_format = ("{desc}: {bar} {elapsed} of about " + tqdm.format_interval(total) if total
                  else "{desc}: {elapsed}")
    bar = tqdm(total=total, desc=description, file=stream, leave=False,
               bar_format=bar_format, dynamic_ncols=True)
    done = threading.Event()

    def tick() -> None:
        started = time.perf_counter()
        while not done.wait(0.2):
            spent = time.perf_counter() - started
            bar.n = min(spent, 0.99 * total) if total else spent
            bar.refresh()
    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        bar.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
