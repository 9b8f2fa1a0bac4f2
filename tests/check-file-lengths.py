#!/usr/bin/env python3
# check-file-lengths.py — every source file can be held in one's head
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check-file-lengths.py SOURCE_ROOT. Prints TAP.
#
# No .c or .h file under src/ is longer than 1500 lines
# (docs/architecture.md, "Layers"). A file that grows past it is split
# along the sections it already has, into files named after the part they
# go on from (ps-series.c and ps-series-spans.c), which share a private
# header.

import pathlib
import sys

# tests/ is the script's folder, first on sys.path
from taplib import check, finish

LIMIT = 1500

root = pathlib.Path(sys.argv[1])
sources = sorted(p for p in (root / "src").rglob("*") if p.suffix in (".c", ".h"))
check("src/ has source files", len(sources) > 0, f"none found under {root / 'src'}")
for path in sources:
    with open(path, encoding="utf-8") as f:
        n = sum(1 for _ in f)
    check(f"{path.relative_to(root)}: at most {LIMIT} lines", n <= LIMIT,
          f"{n} lines: split it along its sections")
finish()
