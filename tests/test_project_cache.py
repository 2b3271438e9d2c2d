"""The project's memo of class kinds never goes stale when summaries are replaced."""

import gc

import libcst as cst
from hijax_migrate.analysis.project import Project, view_of
from hijax_migrate.analysis.summary import Kind, summarize

PRIM = "from jax.experimental.hijax import VJPHiPrimitive\nclass Mul(VJPHiPrimitive):\n    pass\n"
PLAIN = "class Quant:\n    pass\n"


def test_kinds_of_freed_classes_are_not_given_to_new_ones():
    project = Project()
    # What the session made before is set aside (gc.freeze): each full
    # collection below still frees all this test made, without walking the
    # whole session's heap 300 times (minutes, late in a long run).
    gc.freeze()
    try:
        for _ in range(300):  # freed objects' ids are reused by the allocator
            prim = summarize(cst.parse_module(PRIM), "m")
            assert project.class_kind(prim.classes[0]) is Kind.VJP
            del prim
            gc.collect()
            plain = summarize(cst.parse_module(PLAIN), "m")
            assert project.class_kind(plain.classes[0]) is Kind.NONE
    finally:
        gc.unfreeze()


def test_an_answer_resting_on_a_file_rewritten_earlier_in_the_process_is_cached(tmp_path):
    """An in-place run rewrites base.py, then decides uses.py on base.py as found
    (the rewrite stays in base.py's view of the tree): that answer rests on
    base.py's text as found, and may be cached. It was not, in whichever worker happened to do base.py
    first: cache entries then depended on the order of the files (test_hash_seeds)."""
    from hijax_migrate.analysis.ast_summary import parse_ast, summarize_ast
    from hijax_migrate.analysis.index import Index

    (tmp_path / "base.py").write_text(PRIM)
    index = Index(roots=(tmp_path,))
    project = view_of(index)
    found = summarize_ast(parse_ast(PRIM), "base")[0]
    project.add_summary(found, PRIM)  # as triage reads it
    project.add_summary(summarize_ast(parse_ast(PLAIN), "base")[0])  # its rewrite, not on disk
    answers = view_of(index).answers  # the next file's
    answers.touched.add("base")
    deps = index.dependencies(answers, "uses")
    assert deps is not None and deps[0][0] == "base" and deps[0][1] == str(tmp_path / "base.py")


def test_an_answer_that_no_suppression_reaches_rests_on_the_files_that_may_hold_one(tmp_path):
    """A file whose families were not walked, no file of the tree holding the bytes of a
    mark (``FileProject.marks_elsewhere``), is cached resting on that: a file of the tree
    gaining one, in any case, invalidates it; a file changed otherwise does not; a run
    whose modules may be found outside the folders it searches walks, never resting on it."""
    from hijax_migrate.analysis.index import Index
    from hijax_migrate.core.model import Options
    from hijax_migrate.tree.cache import Cache

    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text(PRIM)
    (tree / "b.py").write_text(PLAIN + "# noqa: E501\n")  # another tool's: no mark
    project = view_of(Index(roots=(tree,)))
    assert project.marks_elsewhere() is False and project.answers.marks
    deps = project.index.dependencies(project.answers, "a")
    cache = Cache(tmp_path / "cache", Options(target=(0, 10, 0)), (tree,), "tool")
    still = lambda: all(cache._still(dep, Index(roots=(tree,))) for dep in deps)  # noqa: E731 (a later run's)
    (tree / "b.py").write_text(PLAIN + "x = 1\n")
    assert still()
    (tree / "b.py").write_text(PLAIN + "# NOQA:Hjx001\n")
    assert not still()
    assert view_of(Index(roots=(tree,))).marks_elsewhere() is True
    (tree / "b.py").write_text(PLAIN)
    assert view_of(Index(roots=(tree,))).marks_elsewhere() is False
    assert view_of(Index(roots=(tmp_path,), walked=(tree,))).marks_elsewhere() is True  # a root above the tree
