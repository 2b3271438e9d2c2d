"""The migration a person would write by hand for a generated program tree
(``program_trees``), per target: ``refusals.py --reference`` runs these
instead of the tool, so every program's stated gradient is checked to be
what correct code gives, under each jax, before the tool is judged by it.

It knows the generator's own spellings, nothing more: value rules renamed to
``vjp_bwd_retval`` (calls and bindings too) with lists made tuples; a
half-port's returned cotangents written where the rule does not write them
already; at 0.12, ``HiPrim`` and ``dce(self, used_outs, live_ins)``."""

from __future__ import annotations

import dataclasses
import re

from program_trees import Tree

VALUE_DEF = re.compile(r"def vjp_bwd\(self, res, g\):")
RENAMES = [
    ("vjp_bwd = _shared_bwd", "vjp_bwd_retval = _shared_bwd"),
    ("vjp_bwd = functools.partialmethod", "vjp_bwd_retval = functools.partialmethod"),
    ('{"vjp_bwd": _lin_bwd}', '{"vjp_bwd_retval": _lin_bwd}'),
    ("super().vjp_bwd(res, g)", "super().vjp_bwd_retval(res, g)"),
    ("super(Sub, self).vjp_bwd(res, g)", "super(Sub, self).vjp_bwd_retval(res, g)"),
]
AT_012 = [
    ("VJPHiPrimitive", "HiPrim"),
    ("dce(self, used_outs):", "dce(self, used_outs, live_ins):"),
    ("dce(self, used_outs)", "dce(self, used_outs, live_ins)"),
    ("super().dce(used_outs)", "super().dce(used_outs, live_ins)"),
]


def split_items(text: str) -> list[str]:
    """A tuple display's items, split at its top-level commas."""
    items, depth, item = [], 0, ""
    for ch in text:
        depth += (ch in "([") - (ch in ")]")
        if ch == "," and depth == 0:
            items.append(item.strip())
            item = ""
        else:
            item += ch
    return [*items, item.strip()] if item.strip() else items


def port_half(text: str) -> str:
    """A half-port's last return becomes writes of what the rule does not write already."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("    def vjp_bwd(self, res, g, ")), None)
    if start is None:
        return text
    star = "*arg_accums" in lines[start]
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("        return ("))
    body = "\n".join(lines[start:end])
    writes = []
    for i, ct in enumerate(split_items(lines[end].strip()[len("return (") : -1])):
        acc = f"arg_accums[{i}]" if star else f"x{i}_acc"
        if ct != "None" and f"{acc}.accum(" not in body:
            writes.append(f"        {acc}.accum({ct})")
    return "\n".join([*lines[:end], *writes, "        return None", *lines[end + 1 :]])


def port_value(text: str) -> str:
    text = VALUE_DEF.sub("def vjp_bwd_retval(self, res, g):", text)
    for old, new in RENAMES:
        text = text.replace(old, new)
    text = re.sub(r"return (\[.*\])$", r"return tuple(\1)", text, flags=re.MULTILINE)
    return re.sub(r"^( +)return cts$", r"\1return tuple(cts)", text, flags=re.MULTILINE)


def migrated(tree: Tree, target: str) -> Tree:
    """The tree as a person would migrate it to ``target`` (its look-alikes untouched)."""
    files = {}
    for rel, text in tree.files.items():
        if rel.endswith(".py") and rel not in tree.fixed:
            text = port_half(text) if "rule:half" in tree.forms else port_value(text)
            for old, new in AT_012 if target.startswith("0.12") else []:
                text = text.replace(old, new)
        files[rel] = text
    return dataclasses.replace(tree, files=files)
