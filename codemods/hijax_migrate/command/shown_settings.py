"""``--show-settings``: the settings a run would use, the configuration
applied and the target resolved, each value with where it came from (the
command line, ``[tool.hijax-migrate]`` of a file, or the default), as ruff's
``--show-settings`` shows its own."""

from __future__ import annotations

import json
from dataclasses import fields

from ..core.settings import Settings
from . import config

# Fields no flag sets, or that say where the others came from.
_INTERNAL = frozenset({"family_files", "here", "given", "from_config", "root", "config_file", "show_settings"})


def entries(settings: Settings, target) -> list[tuple[str, object, str]]:
    """(name as a flag spells it, value, where it came from), the target first."""
    keys = {field: key for key, (_, field) in config.KEYS.items()}
    default = Settings()
    rows = [("target", ".".join(map(str, target.version)), target.source)]
    for item in fields(Settings):
        if item.name in _INTERNAL:
            continue
        value = getattr(settings, item.name)
        source = _source(settings, item.name, keys, value, default)
        rows.append((item.name.replace("_", "-"), _shown(item.name, value), source))
    return rows


def _shown(name: str, value):
    """A value as the configuration writes it: per-file-ignores as its table."""
    return {pattern: list(codes) for pattern, codes in value} if name == "per_file_ignores" else value


def _source(settings: Settings, name: str, keys: dict, value, default: Settings) -> str:
    if name in settings.given:
        return "command line"
    if keys.get(name) in settings.from_config:
        return config.describe(settings.config_file, keys[name])
    if name == "extend_exclude" and value and settings.config_file is not None:
        return f"command line and {config.describe(settings.config_file, 'extend-exclude')}"
    return "command line" if value != getattr(default, name) else "default"


def show(settings: Settings, target, fmt: str = "text") -> str:
    rows = entries(settings, target)
    head = {"configuration": str(settings.config_file) if settings.config_file else None, "root": str(settings.root)}
    if fmt == "json":
        return json.dumps(head | {name: {"value": _plain(v), "source": s} for name, v, s in rows}, indent=2)
    width = max(len(name) for name, _, _ in rows)
    lines = [f"configuration: {head['configuration'] or 'none found'}", f"project root: {head['root']}"]
    lines += [f"{name:<{width}} = {json.dumps(_plain(value))}  # {source}" for name, value, source in rows]
    return "\n".join(lines)


def _plain(value):
    return list(value) if isinstance(value, tuple) else value
