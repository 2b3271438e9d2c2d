"""The parents a rule asks of, walked a statement at a time (``LazyParents``),
are libcst's own (``ParentNodeProvider``) for every node of every golden
input, asked in any order, with a subtree covered first or not."""

from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
from hijax_migrate.analysis.nodes import LazyParents
from libcst.metadata import MetadataWrapper, ParentNodeProvider

from golden import read_case

GOLDEN = sorted((Path(__file__).resolve().parent.parent / "golden").glob("*.py"))


def test_lazy_parents_are_libcsts():
    order = random.Random(0)
    for path in GOLDEN:
        wrapper = MetadataWrapper(cst.parse_module(read_case(path).source), unsafe_skip_copy=True)
        full = wrapper.resolve(ParentNodeProvider)
        nodes = list(full)
        order.shuffle(nodes)
        lazy = LazyParents(wrapper.module)
        assert all(lazy[node] is full[node] for node in nodes), path.name
        assert wrapper.module not in lazy and len(lazy) == len(full)
