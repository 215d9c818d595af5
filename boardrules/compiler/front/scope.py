"""The locals of a function being lowered, shared by the checker and the scenario lowering."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.nodes import Type


@dataclass
class Scope:
    """The locals of one function being lowered."""

    function: str
    returns: Type
    variables: dict[str, Type] = field(default_factory=dict)
    declared: dict[str, Type] = field(default_factory=dict)  # every local, for typed declarations

    def __post_init__(self) -> None:
        for name, vtype in self.variables.items():  # parameters keep their declared type
            self.declared.setdefault(name, vtype)

    def child(self) -> Scope:
        return Scope(self.function, self.returns, dict(self.variables), self.declared)


def declared_locals(scope: Scope, params) -> tuple[tuple[str, Type], ...]:
    """The function's local variables other than its parameters, for typed declarations."""
    names = {n for n, _ in params}
    return tuple((n, t) for n, t in scope.declared.items() if n not in names)
