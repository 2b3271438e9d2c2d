"""A rewrite's code: libcst's code of each statement an earlier rewrite's
code generation made, where a later rule keeps it in place; libcst generates
only the rest.

libcst's code generation of a module costs about a third of its parse; rules
that each edit a method would pay it for the whole file, once for each
rule's output. A statement's code depends on nothing but the statement (a
node never changes) and the indentation it stands at: the code libcst
generated for it once, at that indentation, is its code again. The first
rewrite's code is generated whole, and the code of each statement of the
module and of class and function bodies is kept; a later rewrite's code
takes the code kept for each statement it left in place (libcst's own
text, byte for byte, whatever libcst's parse kept of the input).
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


class _Recording(CodegenState):
    """libcst's code generation, keeping the code of each of ``wanted``'s
    statements with the indentation it stands at."""

    def __init__(self, module: cst.Module, wanted: set, texts: dict):
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.wanted, self.texts, self.started = wanted, texts, {}

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node in self.wanted:
            self.started[node] = len(self.tokens)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.started.pop(node, None)
        if start is not None:
            self.texts[node] = (tuple(self.indent_tokens), "".join(self.tokens[start:]))


class KeptText:
    """The code of the statements of a module generated before, for the code of a rewrite of it."""

    def __init__(self):
        self._texts: dict[cst.CSTNode, tuple[tuple[str, ...], str]] = {}  # statement -> (indents, code)
        self._layout: tuple | None = None

    def code(self, new: cst.Module) -> str:
        """``new.code``: generated whole the first time (its statements' code
        kept), then with the code kept for each statement left in place."""
        layout = tuple(getattr(new, name) for name in _LAYOUT)
        if self._layout is None or layout != self._layout or not new.has_trailing_newline:
            # A module without a final newline drops the last token: a statement's whole code here.
            self._layout, self._texts = layout, {}
            state = _Recording(new, set(_statements(new.body)), self._texts)
            new._codegen(state)
            return "".join(state.tokens)
        return new.with_changes(body=self._spliced(new.body, (), new.default_indent)).code

    def _spliced(self, body, indents: tuple[str, ...], default: str) -> list:
        found = []
        for statement in body:
            known = self._texts.get(statement)
            if known is not None and known[0] == indents:
                found.append(_Text(known[1]))
            elif isinstance(statement, _DEFS) and isinstance(statement.body, cst.IndentedBlock):
                block = statement.body
                inner = self._spliced(block.body, (*indents, block.indent or default), default)
                found.append(statement.with_changes(body=block.with_changes(body=inner)))
            else:
                found.append(statement)
        return found


def _statements(body):
    """The statements of ``body`` and, within them, of class and function bodies."""
    for statement in body:
        yield statement
        if isinstance(statement, _DEFS) and isinstance(statement.body, cst.IndentedBlock):
            yield from _statements(statement.body.body)
