"""Git hooks: installing them, and what a hook checks (the content pushed or committed, in
a copy of the tree kept between runs).

Imports ``command`` and below.
"""
