"""The ray engine: a run's games as Ray tasks, one task per batch of games, on a local Ray
started for the run or on an existing cluster (`ray start --head`, then `--address`).

The driver puts the edition's generated module in Ray's object store once and every task
receives it: a node needs boardrules installed (and a C compiler for the compiled backend)
but not the rules files, and builds the module into its own cache once, under the cache's
lock. Ray is optional (`pip install -e '.[ray]'`) and imported only here.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from ..runtime.loader import generated_code, load_generated

INSTALL_HINT = "pip install -e '.[ray]' (or pip install ray)"


class RayUnavailable(Exception):
    """The ray engine cannot run: Ray is not installed, or the cluster cannot be reached."""


def import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(f"the ray engine needs Ray: {INSTALL_HINT}") from None
    return ray


@contextmanager
def ray_session(address: str | None = None, cpus: int | None = None) -> Iterator[int]:
    """Connect to the Ray cluster at `address`, or start a local Ray with `cpus` CPUs (all
    by default) for the block and stop it after; a Ray this process already started is
    used as it is. Yields how many CPUs the cluster has."""
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                    "logging_level": logging.ERROR}
        if address:
            check_address(address)
        try:
            if address:
                ray.init(address=address, **settings)
            else:
                # "local": a Ray of our own even where `ray start` left one running
                ray.init(address="local", num_cpus=cpus or os.cpu_count() or 1, **settings)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            if not address:
                raise RayUnavailable(f"cannot start a local Ray: {_first_line(exc)}") from None
            hint = ("" if os.environ.get("RAY_AUTH_MODE") else
                    " (a cluster with token authentication, as `ray start` makes by default, "
                    "needs RAY_AUTH_MODE=token and its token: see the README)")
            raise RayUnavailable(f"cannot connect to the Ray cluster at {address}: "
                                 f"{_first_line(exc)}{hint}") from None
    try:
        yield max(1, int(ray.cluster_resources().get("CPU", 1)))
    finally:
        if started:
            ray.shutdown()


def run_batches(module: ModuleType, backend: str, batches: list[tuple],
                play: Callable[..., Any], failure: type[Exception]) -> Iterator[Any]:
    """Play each batch (the arguments of `play`, simulate's batch player, after the module)
    as one Ray task; yield each batch's tally as it finishes. A failed game stops the run,
    raised as `failure` (simulate's error: this module is below simulate and imports none
    of it)."""
    ray = import_ray()
    shipped = ray.put(generated_code(module))
    task = ray.remote(_play_batch)
    pending = [task.remote(shipped, backend, play, *batch) for batch in batches]
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            try:
                tally = ray.get(ready[0])
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, failure):
                    raise failure(str(cause)) from None
                raise failure(f"a Ray task failed: {_first_line(exc)}") from None
            yield tally
    finally:
        for ref in pending:
            ray.cancel(ref)


_modules: dict[tuple[str, str], ModuleType] = {}  # what this worker process has loaded


def _play_batch(shipped: tuple[str, str], backend: str, play: Callable[..., Any],
                *batch: Any) -> Any:
    """A Ray task: load the shipped module (building it here if need be) and play a batch."""
    name, code = shipped
    if (name, backend) not in _modules:
        _modules[name, backend] = load_generated(name, code, backend)
    return play(_modules[name, backend], *batch)


def check_address(address: str) -> None:
    """Fail fast on a host:port that nothing answers (Ray itself retries for minutes)."""
    host, colon, port = address.rpartition(":")
    if "://" in address or not colon or not port.isdigit():
        return  # 'auto', a ray:// client address: left to Ray
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise RayUnavailable(f"cannot connect to the Ray cluster at {address}: nothing "
                             f"answers there ({exc.strerror or exc})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
