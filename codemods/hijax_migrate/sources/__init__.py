"""Files as the tool reads and writes them: exact bytes and encodings, the safe write, the
originals an in-place run keeps, notebooks' and Markdown's code cells, libcst's guarded
parse, and what git says changed.

Imports only ``core``.
"""
