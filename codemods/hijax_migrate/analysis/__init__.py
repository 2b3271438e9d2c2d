"""What the code means: module summaries (from ``ast`` or libcst), scopes and bindings, class kinds through chains of bases and families across files, the shape of a primitive and of its rules' returns.

Imports ``core``, ``sources`` and ``tree``.
"""
