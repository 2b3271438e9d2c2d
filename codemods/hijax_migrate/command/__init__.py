"""One invocation of the tool: the command line's flags made typed ``Settings``,
``[tool.hijax-migrate]`` applied under them, and the session that runs and
reports. The only folder (with the entry points) that sees argparse.

Imports ``releases`` and below.
"""
