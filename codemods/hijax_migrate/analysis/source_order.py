"""Nodes in the order they stand in the source.

libcst keeps a name's references, a scope's assignments and accesses, and
a node's qualified names in sets, hashed by identity or by string: iterated
as they are, the first use reported (and so the findings, the JSON and the
cache entries) would change from run to run with the hash seed.
"""

from __future__ import annotations

import libcst as cst

from .nodes import findall


def in_source_order(root: cst.CSTNode, nodes) -> list[cst.CSTNode]:
    """``nodes`` (all under ``root``) sorted as they stand in it."""
    nodes = list(nodes)
    if len(nodes) < 2:
        return nodes
    wanted = set(nodes)
    place = {node: i for i, node in enumerate(findall(root, cst.CSTNode, wanted.__contains__))}
    return sorted(nodes, key=lambda node: place.get(node, len(place)))


def by_name(qualified) -> list:
    """libcst's qualified names of a node (a set), sorted by name."""
    return sorted(qualified, key=lambda q: (q.name, str(q.source)))
