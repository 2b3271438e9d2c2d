"""One file's migration: triage (does it need libcst at all?), the selected rules run over
it, the post-conditions checked before anything is written.

Imports ``rules`` and below.
"""
