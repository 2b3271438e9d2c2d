"""A run over many files: selecting them, the worker pool, Ctrl-C, reading, migrating and writing each.

Imports ``engine`` and below.
"""
