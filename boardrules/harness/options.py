"""An edition's options as a command line or a caller chooses them: `name=value` settings
checked against what the module declares (types, enum members, ranges, exclusions)."""

from __future__ import annotations

from types import ModuleType


def parse_options(module: ModuleType, settings: list[str]) -> dict[str, int]:
    """`name=value` settings as option values: true/false, a number, or an enum member."""
    declared = {name: (type_name, title) for name, type_name, _, title in module.OPTIONS}
    chosen: dict[str, int] = {}
    for setting in settings:
        name, _, text = setting.partition("=")
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise ValueError(f"{module.EDITION} has no option '{name}' (options: {known})")
        type_name = declared[name][0]
        text = text.strip().lower() or "true"
        if type_name == "bool" and text in ("true", "yes", "on", "1", "false", "no", "off", "0"):
            chosen[name] = int(text in ("true", "yes", "on", "1"))
        elif type_name in module.ENUMS and text in module.ENUMS[type_name]:
            chosen[name] = module.ENUMS[type_name].index(text)
        elif type_name == "int" and text.lstrip("-").isdigit():
            chosen[name] = int(text)
            low, high = module.OPTION_RANGES.get(name, (-2**31, 2**31 - 1))  # 32-bit at most
            if not low <= chosen[name] <= high:
                raise ValueError(f"option '{name}' takes {low} to {high}, not {text}")
        else:
            raise ValueError(f"option '{name}' takes a {type_name}, not '{text}'")
    conflict = module.option_conflict(chosen)
    if conflict:
        raise ValueError(conflict)
    return chosen
