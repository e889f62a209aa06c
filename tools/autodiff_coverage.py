"""Regenerates the coverage table at the end of docs/autodiff.md from
arraycore.autodiff.coverage() (run from the repository root)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import arraycore  # noqa: E402,F401
from arraycore.autodiff.coverage import markdown  # noqa: E402

MARK = "<!-- coverage table: regenerate with tools/autodiff_coverage.py -->"
path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                    "autodiff.md")
text = open(path).read()
head = text.split(MARK)[0]
open(path, "w").write(head + MARK + "\n\n" + markdown() + "\n")
print(f"wrote {path}")
