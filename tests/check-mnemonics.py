#!/usr/bin/env python3
# check-mnemonics.py — no two entries of one menu share an access key, in
# English and in every translation
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# An access key (the letter after "_") shared by two entries of the same
# menu makes the letter stop at the first and never reach the second. Each
# menu and submenu of data/ui is checked (its sections together, as one
# popover shows them), with the English labels and with each po/*.po's
# translations of them (fuzzy ones are not shown, so not checked).
#
# Usage: check-mnemonics.py SOURCE_ROOT

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from pofile import read_po
from taplib import check, finish


def access_key(label):
    """The letter after the first "_" not doubled, lowercased; None if none"""
    i = 0
    while i < len(label) - 1:
        if label[i] == "_":
            if label[i + 1] == "_":
                i += 2
                continue
            return label[i + 1].lower()
        i += 1
    return None


def menu_groups(menu, name):
    """(group name, [(msgctxt, label)]) of a menu and of each submenu in it"""
    labels, groups = [], []

    def walk(element):
        for child in element:
            if child.tag == "item":
                label = child.find("attribute[@name='label']")
                if label is not None and label.get("translatable") == "yes":
                    labels.append((label.get("context"), label.text or ""))
            elif child.tag == "section":
                walk(child)
            elif child.tag == "submenu":
                label = child.find("attribute[@name='label']")
                if label is not None and label.get("translatable") == "yes":
                    labels.append((label.get("context"), label.text or ""))
                    groups.extend(menu_groups(child, f"{name} › {label.text}"))

    walk(menu)
    return [(name, labels)] + groups


def main():
    root = Path(sys.argv[1])
    groups = []
    for ui in sorted((root / "data" / "ui").glob("*.ui")):
        tree = ET.parse(ui).getroot()
        for menu in tree.iter("menu"):
            groups.extend(menu_groups(menu, f"{ui.name}: menu {menu.get('id')}"))

    languages = [("en", None)] + [(po.stem, read_po(po)) for po in sorted((root / "po").glob("*.po"))]
    for language, catalogue in languages:
        for name, labels in groups:
            seen = {}
            clashes = []
            for context, label in labels:
                shown = label if catalogue is None else catalogue.get((context, label), label)
                key = access_key(shown)
                if key is None:
                    continue
                if key in seen:
                    clashes.append(f"“{seen[key]}” and “{shown}” share {key.upper()}")
                else:
                    seen[key] = shown
            check(f"{language}: {name}: every access key is its own", not clashes, "; ".join(clashes))
    finish()


if __name__ == "__main__":
    main()
