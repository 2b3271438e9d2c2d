"""Names resolved as Python resolves them (issue 25): the subclass search
finds a subclass however Python lets it be spelled."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_project import write

from hijax_migrate.analysis.project import Project

BASE = "class Base:\n    pass\n"
SPELLINGS = {
    "form_feed.py": "import base\n\n\fclass Sub(base.Base):\n    pass\n",
    "continued.py": "import base\n\nclass \\\nSub(base.Base):\n    pass\n",
    "comments.py": "import base\n\nclass\tSub (  # (\n\tbase.Base,  # )\n):\n    pass\n",
    "call_first.py": "import base, six\n\nclass Sub(six.with_metaclass(M), base.Base):\n    pass\n",
    "alias.py": "import base\n\nB = base.Base  # the alias\n\n\nclass Sub(B):\n    pass\n",
    "alias_elsewhere.py": "from alias import B\n\n\nclass Sub(B):\n    pass\n",
    "alias_attribute.py": "import alias as a\n\n\nclass Sub(a.B):\n    pass\n",
    "imported_as.py": "from base import Base as C\n",
    "through_imported_as.py": "from imported_as import C\n\n\nclass Sub(C):\n    pass\n",
    "grandchild.py": "from continued import Sub\n\n\nclass Deeper(Sub):\n    pass\n",
    "unrelated.py": "import base\n\nx = 'Base'\n",
}


@pytest.mark.parametrize("passes", [2, 0], ids=["by passes", "by the index"])
def test_the_subclass_search_finds_every_spelling(tmp_path: Path, passes: int):
    write(tmp_path, {"base.py": BASE, **SPELLINGS})
    project = Project(roots=(tmp_path,))
    project.search_passes = passes
    found = {summary.module for summary in project.modules_naming("Base")}
    assert found == {name[:-3] for name in SPELLINGS} - {"unrelated"}
    assert {"Base", "B", "C", "Sub"} <= project.searched  # each is part of what a cached answer rests on
