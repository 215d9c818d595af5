"""No import loops in the package: each module imports only modules below it; and the
compiler's stages import in one direction.

Every import counts, also one inside a function (a lazy import that closes a loop is a
loop all the same); only imports for type checking (`if TYPE_CHECKING:`) do not, since
they never run. A loop shows which modules should share a smaller module below them.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "boardrules"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, name: str, known: set[str]) -> set[str]:
    """The package's modules that a module imports (a `from X import Y` of a submodule Y
    counts as an import of X.Y)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for branch in ast.walk(tree)
                   if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                   for node in ast.walk(branch)}
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: imported(path, name, set(paths)) for name, path in paths.items()}


def test_the_package_has_no_import_loop():
    try:
        graphlib.TopologicalSorter(import_graph()).prepare()
    except graphlib.CycleError as loop:
        cycle = " -> ".join(loop.args[1])
        raise AssertionError(f"an import loop: {cycle}") from None


def test_the_graph_sees_lazy_imports():
    """A lazy import inside a function is an edge (so the test above can fail)."""
    graph = import_graph()
    build = "boardrules.compiler.build"
    assert f"{build}.cython_process" in graph[f"{build}.artifacts"]
    assert "boardrules.compiler.pipeline" in graph["boardrules.cli"]


# The compiler's stages, each with the stages it may import. The IR is the contract: the
# front end writes it, the back end reads it; the pipeline's own modules (pipeline,
# library_check, param_settings, at the package's top) run the stages; the build and
# mutation testing sit above the pipeline, and nothing in the compiler imports them.
STAGE_IMPORTS = {
    "common": set(),
    "ir": {"common"},
    "front": {"common", "ir"},
    "back": {"common", "ir", "front"},
    "pipeline": {"common", "ir", "front", "back"},
    "build": {"common", "ir", "front", "back", "pipeline"},
    "mutation": {"common", "ir", "front", "back", "pipeline"},
}


def stage(module: str) -> str | None:
    """The compiler stage a module belongs to (None outside the compiler's stages)."""
    parts = module.split(".")
    if parts[:2] != ["boardrules", "compiler"] or len(parts) < 3:
        return None
    return parts[2] if parts[2] in STAGE_IMPORTS else "pipeline"


def stage_violations(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{module} -> {target}" for module, targets in graph.items()
                  for target in targets
                  if stage(module) and stage(target) and stage(target) != stage(module)
                  and stage(target) not in STAGE_IMPORTS[stage(module)])


def test_the_compiler_stages_import_in_one_direction():
    assert stage_violations(import_graph()) == []


def test_every_compiler_module_is_in_a_stage():
    """A module added to the compiler's top is a pipeline module: only those three are."""
    top = {name for name in import_graph() if stage(name) == "pipeline"}
    assert top == {f"boardrules.compiler.{name}"
                   for name in ("pipeline", "library_check", "param_settings")}


def test_a_stage_importing_a_later_one_is_seen():
    graph = {"boardrules.compiler.front.checker": {"boardrules.compiler.back.codegen"},
             "boardrules.compiler.back.codegen": {"boardrules.compiler.front.symbols"},
             "boardrules.compiler.ir.optimize.fold": {"boardrules.compiler.common.files"}}
    assert stage_violations(graph) == [
        "boardrules.compiler.front.checker -> boardrules.compiler.back.codegen"]


# The runtime imports an edition's module; finding or making it is the build's business,
# asked through its one entry point. Besides it, the runtime reads only where the bundled
# rulesets are (the library path, standard library only).
RUNTIME_REACHES = {"boardrules.compiler.build.obtain", "boardrules.compiler.front.libpath"}


def compiler_imports_of_runtime(graph: dict[str, set[str]]) -> list[str]:
    """The runtime's imports of the compiler beyond the build's entry point."""
    return sorted(f"{module} -> {target}" for module, targets in graph.items()
                  if module.startswith("boardrules.runtime.")
                  for target in targets
                  if target.startswith("boardrules.compiler") and target not in RUNTIME_REACHES)


def test_the_runtime_asks_the_build_only_through_its_entry_point():
    graph = import_graph()
    assert compiler_imports_of_runtime(graph) == []
    assert "boardrules.compiler.build.obtain" in graph["boardrules.runtime.loader"]


def test_a_runtime_import_of_the_build_beyond_the_entry_point_is_seen():
    graph = {"boardrules.runtime.loader": {"boardrules.compiler.build.obtain",
                                           "boardrules.compiler.build.source_index"},
             "boardrules.runtime.kernel": {"boardrules.compiler.pipeline"}}
    assert compiler_imports_of_runtime(graph) == [
        "boardrules.runtime.kernel -> boardrules.compiler.pipeline",
        "boardrules.runtime.loader -> boardrules.compiler.build.source_index"]
