"""Finding the hijax primitives of one parsed module.

A pass over the libcst tree names every class the way Python's
``__qualname__`` does and pairs it with the module summary of the same code,
whose bases the project index resolves across files. Rules then ask "what
kind of class is this?" by node.
"""

from __future__ import annotations

from collections import Counter

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .project import Project
from .summary import ClassInfo, Kind, ModuleSummary


class PrimitiveMap(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, wrapper: MetadataWrapper, summary: ModuleSummary, project: Project):
        super().__init__()
        self.wrapper = wrapper  # the analysed tree, with its resolved metadata
        self._infos: dict[str, list[ClassInfo]] = {}
        for info in summary.classes:
            self._infos.setdefault(info.qualname, []).append(info)
        self._project = project
        self._seen: Counter[str] = Counter()
        self._prefix, self._saved = "", []
        self.kinds: dict[cst.ClassDef, Kind] = {}
        self.qualnames: dict[cst.ClassDef, str] = {}
        self.lines: dict[cst.CSTNode, int] = {}

    @classmethod
    def build(cls, wrapper: MetadataWrapper, summary: ModuleSummary, project: Project):
        found = cls(wrapper, summary, project)
        wrapper.visit(found)
        return found

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        qualname = self._prefix + node.name.value
        nth = self._seen[qualname]
        self._seen[qualname] += 1
        infos = self._infos.get(qualname, [])
        info = infos[nth] if nth < len(infos) else None
        self.kinds[node] = self._project.class_kind(info) if info else Kind.NONE
        self.qualnames[node] = qualname
        self.lines[node] = self.get_metadata(PositionProvider, node.name).start.line
        self._enter(f"{qualname}.")

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.lines[node] = self.get_metadata(PositionProvider, node.name).start.line
        self._enter(f"{self._prefix}{node.name.value}.<locals>.")

    def _enter(self, prefix: str) -> None:
        self._saved.append(self._prefix)
        self._prefix = prefix

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._prefix = self._saved.pop()

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._prefix = self._saved.pop()

    def line(self, node: cst.CSTNode) -> int:
        return self.lines.get(node, 0)
