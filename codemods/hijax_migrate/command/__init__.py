"""One invocation of the tool: the command line's options, ``[tool.hijax-migrate]``, and the session that runs and reports.

Imports ``releases`` and below.
"""
