"""The vocabulary every stage speaks: errors, the data a run passes around, jax's releases
as versions, and small helpers on texts and ``ast`` trees.

Imports nothing else of the package.
"""
