"""Pass 6 (build.py): the content-keyed cache and its atomic publishing."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import sysconfig
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from boardrules.compiler.build import artifacts as build
from boardrules.compiler.build import build_settings, cython_process, profile_guided
from boardrules.compiler.common import cache_folder
from boardrules.compiler.pipeline import compile_rules

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"


def key_of(path: Path) -> str:
    return build.content_key(compile_rules(path))


def leftovers(root: Path) -> list[str]:
    """Temporary build folders that were not cleaned up."""
    return sorted(p.name for p in root.iterdir() if p.name.startswith("."))


# ---- the content key ------------------------------------------------------------------------


def test_key_is_stable(tiny_copy):
    compilation = compile_rules(tiny_copy)
    key = build.content_key(compilation)
    assert len(key) == 16 and int(key, 16) >= 0
    assert build.content_key(compilation) == key
    assert key_of(tiny_copy) == key


SCENARIO = """
scenario "everyone starts with the cash" for start_cash {
  players 2
  expect p1.cash == 100
}
"""


def test_key_follows_the_generated_code_not_the_rules_text(tiny_copy):
    """A comment changes no generated code, so no key; a changed value does."""
    before_code = compile_rules(tiny_copy).code
    before = key_of(tiny_copy)
    original = tiny_copy.read_text()
    tiny_copy.write_text(original + "\n# a comment changes no generated code\n")
    assert compile_rules(tiny_copy).code == before_code
    assert key_of(tiny_copy) == before
    tiny_copy.write_text(original.replace("set start_cash = 100", "set start_cash = 101"))
    changed = key_of(tiny_copy)
    assert changed != before
    tiny_copy.write_text(original)
    assert key_of(tiny_copy) == before


def test_key_follows_the_library_code_but_not_the_rulebook(tiny_copy):
    """Only what goes into the module counts: the rulebook is checked, never compiled in."""
    before = key_of(tiny_copy)
    library = tiny_copy.parent.parent / "lib" / "tinylib.rules"
    original = library.read_text()
    library.write_text(original + "\n# library comment\n")
    assert key_of(tiny_copy) == before
    library.write_text(original.replace("param salary: money = 10", "param salary: money = 11"))
    with_library = key_of(tiny_copy)
    assert with_library != before
    rulebook = tiny_copy.parent / "rulebook.txt"
    rulebook.write_text(rulebook.read_text() + "\nAn appendix.\n")
    assert key_of(tiny_copy) == with_library


def test_key_follows_the_toolchain(tiny_copy, monkeypatch):
    compilation = compile_rules(tiny_copy)
    before = build.content_key(compilation)
    monkeypatch.setattr(build_settings, "C_FLAGS", (*build_settings.C_FLAGS, "-DNDEBUG"))
    with_flags = build.content_key(compilation)
    assert with_flags != before
    monkeypatch.setenv("CC", "some-other-cc")
    assert build.content_key(compilation) not in (before, with_flags)


def test_key_does_not_depend_on_where_the_files_are(tiny_copy, tmp_path):
    tiny_copy.write_text(tiny_copy.read_text() + SCENARIO)  # scenarios name their file
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(tiny_copy.parent.parent, elsewhere)
    assert key_of(elsewhere / "tiny" / "tiny.rules") == key_of(tiny_copy)
    code = compile_rules(tiny_copy).code
    assert str(tmp_path) not in code and str(ROOT) not in code


def test_artifact_lives_in_the_configured_cache(cache, tiny_copy):
    compilation = compile_rules(tiny_copy)
    artifact = build.artifact_for(compilation)
    key = build.content_key(compilation)
    assert artifact.module_name == f"br_tiny_{key}"
    assert artifact.directory == cache / artifact.module_name
    assert artifact.source == artifact.directory / f"br_tiny_{key}.py"


def test_cache_root_fallbacks(monkeypatch, tmp_path):
    monkeypatch.delenv("BOARDRULES_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_folder.cache_root() == tmp_path / "boardrules"
    monkeypatch.setenv("BOARDRULES_CACHE", str(tmp_path / "mine"))
    assert cache_folder.cache_root() == tmp_path / "mine"


# ---- publishing ----------------------------------------------------------------------------


def test_write_source_publishes_once(cache, tiny_copy):
    compilation = compile_rules(tiny_copy)
    artifact = build.write_source(compilation)
    assert artifact.source.read_text() == compilation.code
    inode = artifact.source.stat().st_ino
    again = build.write_source(compilation)
    assert again == artifact
    assert artifact.source.stat().st_ino == inode  # not rewritten
    assert [p.name for p in cache.iterdir()] == [artifact.module_name]
    assert sorted(p.name for p in artifact.directory.iterdir()) == [
        artifact.source.name, artifact.source.name + ".sum"]
    assert build.verified(artifact.source)


def test_losing_publisher_drops_its_copy(cache, tiny_copy, monkeypatch):
    """Another process publishes while this one is still writing: its copy wins intact."""
    compilation = compile_rules(tiny_copy)
    artifact = build.artifact_for(compilation)
    real_publish = build._publish

    def winner(tmp: Path) -> None:
        build.seal(tmp / artifact.source.name, compilation.code.encode())
        (tmp / "winner").write_text("")

    def racing_publish(artifact_, make, replace_existing_dir=False):
        def make_then_lose(tmp: Path) -> None:
            make(tmp)
            (tmp / "loser").write_text("")
            real_publish(artifact_, winner)  # the other process finishes first

        real_publish(artifact_, make_then_lose, replace_existing_dir)

    monkeypatch.setattr(build, "_publish", racing_publish)
    result = build.write_source(compilation)
    assert result.directory == artifact.directory
    names = {p.name for p in artifact.directory.iterdir()}
    assert {artifact.source.name, artifact.source.name + ".sum", "winner"} <= names
    assert artifact.source.read_text() == compilation.code and build.verified(artifact.source)
    assert leftovers(cache) == []


def test_concurrent_publishers(cache, tiny_copy):
    compilation = compile_rules(tiny_copy)
    barrier = threading.Barrier(8)

    def publish(_):
        barrier.wait()
        return build.write_source(compilation)

    with ThreadPoolExecutor(8) as pool:
        artifacts = list(pool.map(publish, range(8)))
    assert len(set(artifacts)) == 1
    (artifact,) = set(artifacts)
    assert artifact.source.read_text() == compilation.code
    assert [p.name for p in cache.iterdir()] == [artifact.module_name]
    assert sorted(p.name for p in artifact.directory.iterdir()) == [
        artifact.source.name, artifact.source.name + ".sum"]


def test_failed_build_publishes_nothing(cache, tiny_copy):
    compilation = compile_rules(tiny_copy)
    artifact = build.artifact_for(compilation)

    def broken(tmp: Path) -> None:
        (tmp / artifact.source.name).write_text("half a file")
        raise build_settings.BuildError("the C compiler failed")

    with pytest.raises(build_settings.BuildError):
        build._publish(artifact, broken)
    assert not artifact.directory.exists()
    assert leftovers(cache) == []


def test_failed_build_keeps_the_good_copy(cache, tiny_copy):
    compilation = compile_rules(tiny_copy)
    artifact = build.write_source(compilation)

    def broken(tmp: Path) -> None:
        (tmp / artifact.source.name).write_text("garbage")
        (tmp / artifact.extension.name).write_text("garbage")
        raise build_settings.BuildError("boom")

    with pytest.raises(build_settings.BuildError):
        build._publish(artifact, broken, replace_existing_dir=True)
    assert artifact.source.read_text() == compilation.code
    assert not artifact.extension.exists()
    assert leftovers(cache) == []


def test_compile_reports_a_missing_c_compiler(cache, tiny_copy, monkeypatch):
    monkeypatch.setenv("CC", "no-such-compiler-boardrules")  # part of the key: set it first
    compilation = compile_rules(tiny_copy)
    artifact = build.write_source(compilation)
    ran = []
    monkeypatch.setattr(cython_process, "run", lambda arguments: ran.append(arguments))
    with pytest.raises(build_settings.BuildError, match="no C compiler found"):
        build.build_extension(compilation)
    assert ran == [], "Cython's work would be lost: the compiler is looked for first"
    assert not artifact.extension.exists()
    assert leftovers(cache) == []


def test_compile_reports_a_missing_cython(cache, tiny_copy, monkeypatch):
    """Without Cython the interpreted backend still works; a compiled build says what is
    missing (the command line prints it on one line)."""
    monkeypatch.setattr(build_settings, "find_spec", lambda name: None)
    build_settings.cython_version.cache_clear()
    try:
        compilation = compile_rules(tiny_copy)
        artifact = build.write_source(compilation)
        with pytest.raises(build_settings.BuildError, match="Cython is not installed"):
            build.build_extension(compilation)
        assert artifact.source.is_file() and not artifact.extension.exists()
        assert leftovers(cache) == []
    finally:
        build_settings.cython_version.cache_clear()


def import_file(name: str, path: Path, extension: bool):
    loader_type = (importlib.machinery.ExtensionFileLoader if extension
                   else importlib.machinery.SourceFileLoader)
    loader = loader_type(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.mark.skipif(shutil.which(os.environ.get("CC", "gcc").split()[0]) is None,
                    reason="no C compiler")
def test_build_extension_of_the_tiny_edition(cache, tiny_copy, monkeypatch):
    """The one real build: Cython + C into the cache, next to the published source."""
    compilation = compile_rules(tiny_copy)
    source_artifact = build.write_source(compilation)
    inode = source_artifact.source.stat().st_ino
    artifact = build.build_extension(compilation)
    assert artifact == source_artifact
    assert artifact.extension.is_file()
    # the module's source, its extension and their sums: not Cython's intermediate C
    assert sorted(p.suffix for p in artifact.directory.iterdir()) == [".py", ".so", ".sum",
                                                                     ".sum"]
    assert artifact.source.stat().st_ino == inode  # the published source stays
    assert leftovers(cache) == []

    def no_second_build(source, extension):
        raise AssertionError("built again although the cache has the extension")

    monkeypatch.setattr(build, "_compile", no_second_build)
    assert build.build_extension(compilation) == artifact

    assert_same_games(artifact)


def assert_same_games(artifact: build.Artifact) -> None:
    """The built extension plays the same seeded game as its source, interpreted."""
    compiled = import_file(artifact.module_name, artifact.extension, extension=True)
    interpreted = import_file(artifact.module_name + "_py", artifact.source, extension=False)
    games = [module.Game(3, seed=11, turn_cap=40, trace=True)
             for module in (compiled, interpreted)]
    for game in games:
        game.play()
    a, b = games
    assert a.players_cash() == b.players_cash()
    assert a.counter_values() == b.counter_values()
    assert a.trace() == b.trace()
    assert a.payments() == b.payments()


def test_optimization_level_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, "2")
    assert "-O2" in build_settings.c_flags()
    monkeypatch.delenv(build_settings.OPT_LEVEL_ENV)
    assert f"-O{build_settings.DEFAULT_OPT_LEVEL}" in build_settings.c_flags()
    monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, "fast")
    with pytest.raises(build_settings.BuildError,
                       match=r"BOARDRULES_OPT_LEVEL must be one of 0, 1, 2, 3, pgo"):
        build_settings.c_flags()
    monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, "pgo")
    assert "-O3" in build_settings.c_flags()


def test_a_profile_guided_build_needs_gcc(monkeypatch):
    monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, "pgo")
    monkeypatch.setenv("CC", "clang")
    with pytest.raises(build_settings.BuildError, match=r"BOARDRULES_OPT_LEVEL=pgo needs gcc"):
        build_settings.c_flags()


TRAINED_MODULE = """import cython

MIN_PLAYERS = 2
MAX_PLAYERS = 3


class RuleError(Exception):
    pass


@cython.cclass
class Game:
    turn: cython.int
    seed: cython.int

    def __init__(self, n_players, seed=0, policies=None):
        self.turn = 0
        self.seed = seed

    def play(self):
        while self.turn < 10:
            self.turn += 1
        if self.seed % 7 == 0:
            raise RuleError("a game the rules end with an error")
        return self.turn
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")
def test_a_profile_guided_build_trains_on_games(tmp_path, monkeypatch):
    """gcc's second build reads the counts that the training games (each player count, a
    game ended by a rules error among them) left in the profile folder, then that folder
    goes. (A module of one class: the full editions' trained builds play their golden
    games, checked by hand with `BOARDRULES_OPT_LEVEL=pgo`; each takes half a minute.)"""
    monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, "pgo")
    monkeypatch.setenv("CC", "gcc")
    counted = []
    train = profile_guided.train

    def train_and_look(extension):
        train(extension)
        counted.extend((extension.parent / "profile").rglob("*.gcda"))

    monkeypatch.setattr(profile_guided, "train", train_and_look)
    source = tmp_path / "br_trained.py"
    source.write_text(TRAINED_MODULE)
    extension = tmp_path / f"br_trained{sysconfig.get_config_var('EXT_SUFFIX')}"
    build._compile(source, extension)
    assert counted
    assert not (tmp_path / "profile").exists()
    assert import_file("br_trained", extension, extension=True).Game(2, seed=1).play() == 10


def test_failed_training_games_are_a_build_error(tmp_path):
    with pytest.raises(profile_guided.TrainingError, match="the training games failed"):
        profile_guided.train(tmp_path / f"br_gone{sysconfig.get_config_var('EXT_SUFFIX')}")


def test_gcc_splits_code_generation_over_the_cores_above_o0(monkeypatch):
    monkeypatch.setattr(build_settings.os, "cpu_count", lambda: 2)
    monkeypatch.setenv("CC", "gcc")
    assert build_settings.parallel_codegen_flags("1") == ("-flto=auto",)
    assert build_settings.parallel_codegen_flags("0") == ()
    monkeypatch.setenv("CC", "clang")
    assert build_settings.parallel_codegen_flags("1") == ()
    monkeypatch.setenv("CC", "gcc")
    monkeypatch.setattr(build_settings.os, "cpu_count", lambda: 1)
    assert build_settings.parallel_codegen_flags("1") == ()


def test_gcc_inlines_what_the_code_declares_inline_above_o0(monkeypatch):
    monkeypatch.setenv("CC", "gcc")
    monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, "1")
    assert build_settings.inlining_flags("1") == ("--param=max-inline-insns-single=400",
                                                  "--param=inline-unit-growth=60")
    assert set(build_settings.inlining_flags("1")) <= set(build_settings.c_flags())
    assert build_settings.inlining_flags("0") == ()
    monkeypatch.setenv("CC", "clang")
    assert build_settings.inlining_flags("1") == ()


def test_a_compiler_that_refuses_the_parallel_flags_builds_without_them(tmp_path,
                                                                       monkeypatch):
    """A gcc without its link-time optimization plugin: the same module, without the flags
    (a module of one class: the fallback is the subject, not the kernel's C)."""
    monkeypatch.setattr(build_settings, "parallel_codegen_flags",
                        lambda level: ("-fno-such-flag-for-boardrules",))
    source = tmp_path / "br_fallback.py"
    source.write_text("import cython\n\n\n@cython.cclass\nclass Game:\n"
                      "    turn: cython.int\n\n    def played(self) -> int:\n"
                      "        self.turn = 7\n        return self.turn\n")
    extension = tmp_path / f"br_fallback{sysconfig.get_config_var('EXT_SUFFIX')}"
    build._compile(source, extension)
    assert import_file("br_fallback", extension, extension=True).Game().played() == 7


def test_each_optimization_level_has_its_own_cache_entry(monkeypatch):
    keys = set()
    monkeypatch.setenv("CC", "gcc")
    for level in ("0", "1", "2", "pgo"):
        monkeypatch.setenv(build_settings.OPT_LEVEL_ENV, level)
        keys.add(build_settings.toolchain())
    assert len(keys) == 4


def test_the_suite_builds_in_a_cache_of_its_own():
    """The suite's some fifty test editions never land in the user's cache (conftest.py)."""
    root = Path(__file__).resolve().parents[2]
    suite = Path(os.environ.get("BOARDRULES_TEST_CACHE", root / ".cache" / "builds"))
    assert cache_folder.cache_root() == suite
    user = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "boardrules"
    assert suite.resolve() != user.resolve()
