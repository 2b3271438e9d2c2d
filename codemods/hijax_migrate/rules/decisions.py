"""What another file's migration does with its classes' rules.

A call in one file follows a rule renamed in another only when that file's
own migration renames it. The answer is not guessed from a summary: the
other file is migrated (its text on disk, with an index of its own, once a
run), so every reason it may keep or convert a rule instead (structured
residuals, value uses, fixtures, conflicts, refusals) is the same on both
sides.
"""

from __future__ import annotations

from dataclasses import replace

RENAMES = ("renamed `vjp_bwd` to `vjp_bwd_retval`", "renamed the bound `vjp_bwd`")


def renamed_rules(project, options, module: str) -> frozenset[str]:
    """Qualified names of ``module``'s classes whose ``vjp_bwd`` its migration renames."""
    project.volatile = True  # the answer rests on what that migration rests on
    memo = project.decisions
    if module not in memo:
        memo[module] = frozenset()  # asked again while deciding (a cycle): nothing followed
        memo[module] = _decide(project, options, module)
    return memo[module]


def _decide(project, options, module: str) -> frozenset[str]:
    from ..analysis.project import Project
    from ..core.errors import MigrationError, SourceError
    from ..sources.files import read_source

    path = project.find(module)
    if path is None:
        return frozenset()
    other = Project(tuple(project.extra_bases), project.roots, project.reads,  # the run's reads of the tree
                    project.walked)
    other.decisions, other.migrate = project.decisions, project.migrate
    try:
        text = read_source(path, as_found=project.reads.originals).text
        result = project.migrate(text, str(path), replace(options, black=False, classes=None), other, module)
    except (SourceError, MigrationError, RecursionError):
        return frozenset()  # a file left as it is renames nothing
    return frozenset(change.cls for change in result.report.changes
                     if change.rule == "HJX001" and change.action.startswith(RENAMES))
