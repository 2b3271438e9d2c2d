"""Which jax release to migrate to: the flag, the project's pins (pip, Poetry) and raising a pin's floor.

Imports ``output`` and below.
"""
