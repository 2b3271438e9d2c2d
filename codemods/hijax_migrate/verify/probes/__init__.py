"""Modules the command under test loads (this folder on its PYTHONPATH, each
module by its own top-level name): never imported by the tool itself."""
