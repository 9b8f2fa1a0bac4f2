#!/usr/bin/env python3
# check-glossary.py — the window's English and both translations use the
# words of po/GLOSSARY.md
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The glossary's table gives each term its English word and the words
# that must not stand for it, in English, French and Korean. An English
# message of the window (from data/ or src/app/, src/collectors/; the
# CLI's output is its own contract) must not use a word of "Not in
# English"; the French or Korean translation of any message that has the
# term must not use a word of "Not in French" or "Not in Korean", unless
# the English also has one of the words listed after it in "unless: …".
# Korean placeholders take both forms of their particle: “%s이(가)”.
#
# Usage: check-glossary.py SOURCE_ROOT

import re
import sys
from pathlib import Path

from pofile import read_po, read_template
from taplib import check, finish

WINDOW_SOURCES = ("data/", "src/app/", "src/collectors/")
ENDING = r"(?:s|es|ed|ing)?"
# A placeholder or a closing quote followed by one form of a particle
# that depends on the sound before it (가/이, 를/을, 는/은, 로/으로, 와/과)
KOREAN_PARTICLE = re.compile(
    r"(?:%(?:\d+\$)?[-+ #0-9.]*(?:l|ll|z|h|<PRI[a-z0-9]+>)?[sdufgx]|”)(가|이|를|을|는|은|로|와|과)(?![(가-힣])")


def words(cell):
    """[(word, [unless words])] of a "Not in" cell"""
    found = []
    for part in re.findall(r"[^,(]+(?:\([^)]*\))?", cell):
        part = part.strip()
        if not part:
            continue
        match = re.match(r"(.*?)\s*\(unless:\s*(.*)\)$", part)
        if match:
            found.append((match.group(1).strip(), [w.strip() for w in match.group(2).split(",")]))
        else:
            found.append((part, []))
    return found


def read_glossary(path):
    terms = []
    in_terms = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            in_terms = line.strip() == "## Terms"
            continue
        if not in_terms or not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "English":
            continue
        terms.append({
            "term": cells[0],
            "en": words(cells[1]),
            "fr": cells[2], "fr_not": words(cells[3]),
            "ko": cells[4], "ko_not": words(cells[5]),
        })
    return terms


def english_word(word):
    return re.compile(r"(?<![\w-])" + r"\s+".join(map(re.escape, word.split())) + ENDING + r"(?![\w-])", re.I)


def has_any(text, unless):
    return any(english_word(word).search(text) for word in unless)


def without_options(text):
    """The text without option names and setting keys, which are not
    words, and without the access keys' underscores (“É_vènement”)"""
    return re.sub(r"--[\w-]+|“[\w-]+/[\w-]+”|[\w-]+/[\w-]+", " ", text).replace("_", "")


def main():
    root = Path(sys.argv[1])
    terms = read_glossary(root / "po" / "GLOSSARY.md")
    check("the glossary has its terms", len(terms) >= 30, f"{len(terms)} read")
    template = read_template(root / "po" / "perfscope.pot")
    check("the template has its messages", len(template) > 500, f"{len(template)} read")

    for entry in terms:
        found = []
        for context, msgid, plural, files in template:
            if not any(f.startswith(WINDOW_SOURCES) for f in files):
                continue
            for text in (msgid, plural or ""):
                text = without_options(text)
                for word, unless in entry["en"]:
                    if english_word(word).search(text) and not has_any(text, unless):
                        found.append(f"{word!r} in {msgid[:60]!r}")
        if entry["en"]:
            check(f"en: “{entry['term']}”, never {', '.join(w for w, _ in entry['en'])}", not found,
                  f"{len(found)}: " + " | ".join(found[:8]))

    for language in ("fr", "ko"):
        catalogue = read_po(root / "po" / f"{language}.po", every_form=True)
        for entry in terms:
            if not entry[f"{language}_not"]:
                continue
            term = english_word(entry["term"])
            found = []
            for (context, msgid), forms in catalogue.items():
                if not msgid or not term.search(without_options(msgid)):
                    continue
                for word, unless in entry[f"{language}_not"]:
                    if has_any(msgid, unless):
                        continue
                    if any(word.lower() in form.replace("_", "").lower() for form in forms):
                        found.append(f"{word!r} for {msgid[:50]!r}")
                        break
            check(f"{language}: “{entry['term']}” is {entry[language]}", not found,
                  f"{len(found)}: " + " | ".join(found[:8]))

    catalogue = read_po(root / "po" / "ko.po", every_form=True)
    found = [f"{msgid[:40]!r}: {m.group(0)}" for (context, msgid), forms in catalogue.items() if msgid
             for form in forms for m in [KOREAN_PARTICLE.search(form)] if m]
    check("ko: a particle after a placeholder has both forms (이(가), 을(를), (으)로)", not found,
          f"{len(found)}: " + " | ".join(found[:8]))
    finish()


if __name__ == "__main__":
    main()
