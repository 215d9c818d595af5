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
    # what each visible name is ("a parameter", "the outer loop's member"...), and which of
    # them this block declared itself: the generated function has one variable per name,
    # so an inner block may not declare again a name an enclosing block still uses
    kinds: dict[str, str] = field(default_factory=dict)
    own: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        for name, vtype in self.variables.items():  # parameters keep their declared type
            self.declared.setdefault(name, vtype)
            self.kinds.setdefault(name, "a parameter")
            self.own.add(name)

    def child(self) -> Scope:
        inner = Scope(self.function, self.returns, dict(self.variables), self.declared,
                      dict(self.kinds))
        inner.own = set()
        return inner

    def enclosing(self, name: str) -> str | None:
        """What `name` is when an enclosing block declared it and it is still visible here
        (None when it is free, or this block's own)."""
        if name in self.variables and name not in self.own:
            return self.kinds.get(name, "a local of an enclosing block")
        return None


def declared_locals(scope: Scope, params) -> tuple[tuple[str, Type], ...]:
    """The function's local variables other than its parameters, for typed declarations."""
    names = {n for n, _ in params}
    return tuple((n, t) for n, t in scope.declared.items() if n not in names)
