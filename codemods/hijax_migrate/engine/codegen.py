"""A rewrite's code: libcst's code of each statement an earlier rewrite's
code generation made, where a later rule keeps it in place; libcst generates
only the rest.

libcst's code generation of a module costs about a third of its parse; rules
that each edit a method would pay it for the whole file, once for each
rule's output. A statement's code depends on nothing but the statement (a
node never changes) and the indentation it stands at: the code libcst
generated for it once, at that indentation, is its code again. The first
rewrite's code is generated statement by statement (a class's own code
around its statements' code: each node once), and the code of each
statement of the module and of class and function bodies is kept; a later
rewrite's code takes it for each statement left in place. It is libcst's
own, byte for byte, not the input's text: libcst's parse may lose a byte
(a space before an ``except``'s colon), and its output is the tool's.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst._nodes.internal import CodegenState

_DEFS = (cst.ClassDef, cst.FunctionDef)
_LAYOUT = ("default_indent", "default_newline", "has_trailing_newline")


@dataclass(frozen=True)
class _Text(cst.CSTNode):
    """A statement's code as generated before, in place of the statement."""

    text: str

    def _visit_and_replace_children(self, visitor):
        return self

    def _codegen_impl(self, state: CodegenState) -> None:
        state.add_token(self.text)


class KeptText:
    """The code of the statements of a module generated before, for the code of a rewrite of it."""

    def __init__(self):
        self._texts: dict[int, tuple] = {}  # id of a statement -> (it, its indents, its code)
        self._layout: tuple | None = None

    def code(self, new: cst.Module) -> str:
        """``new.code``: generated whole the first time (its statements' code
        kept), then with the code kept for each statement left in place."""
        if not new.has_trailing_newline:  # its last token dropped: a statement's whole code here
            self._layout = None
            return new.code
        layout = tuple(getattr(new, name) for name in _LAYOUT)
        if layout != self._layout:
            self._layout, self._texts = layout, {}
            body = [_Text(self._generated(statement, (), new)) for statement in new.body]
            return new.with_changes(body=body).code
        return new.with_changes(body=self._spliced(new.body, (), new.default_indent)).code

    def _generated(self, statement: cst.CSTNode, indents: tuple[str, ...], module: cst.Module) -> str:
        """``statement``'s code at ``indents``, kept, and that of each statement of its body
        (a class's, a function's): each node's code is generated once."""
        shell = statement
        if isinstance(statement, _DEFS) and isinstance(statement.body, cst.IndentedBlock):
            block = statement.body
            inner = (*indents, block.indent or module.default_indent)
            codes = [_Text(self._generated(each, inner, module)) for each in block.body]
            shell = statement.with_changes(body=block.with_changes(body=codes))
        state = CodegenState(module.default_indent, module.default_newline, indent_tokens=list(indents))
        shell._codegen(state)
        self._texts[id(statement)] = (statement, indents, code := "".join(state.tokens))
        return code

    def _spliced(self, body, indents: tuple[str, ...], default: str) -> list:
        found = []
        for statement in body:
            known = self._texts.get(id(statement))
            if known is not None and known[0] is statement and known[1] == indents:
                found.append(_Text(known[2]))
            elif isinstance(statement, _DEFS) and isinstance(statement.body, cst.IndentedBlock):
                block = statement.body
                inner = self._spliced(block.body, (*indents, block.indent or default), default)
                found.append(statement.with_changes(body=block.with_changes(body=inner)))
            else:
                found.append(statement)
        return found
