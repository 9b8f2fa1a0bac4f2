#!/usr/bin/env python3
# check-french-typography.py — French punctuation as French typography
# wants it in po/fr.po
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Before « : » a no-break space (U+00A0), before « ; ! ? » a narrow one
# (U+202F), and inside « » no-break spaces: a normal space there lets the
# line break between a word and its colon or guillemet. Each translated
# message (every plural form) is checked.
#
# Usage: check-french-typography.py SOURCE_ROOT

import re
import sys
from pathlib import Path

from pofile import read_po
from taplib import check, finish

RULES = [
    (re.compile(r" :"), "normal space before “:” (U+00A0 is wanted)"),
    (re.compile(r" [;!?]"), "normal space before “;”, “!” or “?” (U+202F is wanted)"),
    (re.compile(r"« | »"), "normal space inside « » (U+00A0 is wanted)"),
]


def main():
    catalogue = read_po(Path(sys.argv[1]) / "po" / "fr.po", every_form=True)
    for rule, description in RULES:
        found = []
        for (context, msgid), forms in catalogue.items():
            if msgid == "":
                continue
            for form in forms:
                match = rule.search(form)
                if match:
                    found.append(f"{msgid[:50]!r}: …{form[max(0, match.start() - 20):match.end() + 10]}…")
        check(f"fr.po: no {description}", not found, f"{len(found)} messages: " + " | ".join(found[:5]))
    check("fr.po has its translations", len(catalogue) > 100, f"{len(catalogue)} read")
    finish()


if __name__ == "__main__":
    main()
