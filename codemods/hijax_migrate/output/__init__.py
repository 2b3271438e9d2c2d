"""What people and machines read: diffs, summaries, JSON and GitHub annotations, the
interactive review, the progress bar, the rule reference.

Imports ``run`` and below.
"""
