"""One package a rule (``<name>/__init__.py``: its facts and triage tests,
without libcst; ``<name>/rewrite.py``: its transformer), what the rules
share, and the registry: the one list of rules, in the order they run."""
