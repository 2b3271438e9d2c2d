"""One module a rule; see registry.py for the order they run in."""
