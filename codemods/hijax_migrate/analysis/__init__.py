"""What the code means, read once from ``ast``: module summaries, names by scope and
qualified names, class kinds through chains of bases and families across files,
the shape of a primitive and of its rules' returns; the run's index of the tree.

Imports ``core``, ``sources`` and ``tree``.
"""
