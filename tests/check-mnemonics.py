#!/usr/bin/env python3
# check-mnemonics.py — no two access keys shown together are the same
# letter, in English and in every translation
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# An access key (the letter after "_") shared by two entries shown
# together makes the letter stop at the first and never reach the
# second. Checked, with the English labels and with each po/*.po's
# translations of them (fuzzy ones are not shown, so not checked):
# - each menu and submenu of data/ui (its sections together, as one
#   popover shows them);
# - each page of each .ui file: the labels, buttons and stack titles with
#   use-underline of a template or window, where a stack's page counts
#   with everything around the stack (its switcher, the toolbar above)
#   but not with the stack's other pages;
# - the access keys a C file gives in one function
#   (gtk_*_new_with_mnemonic, labels of a grid built there), and those it
#   adds to a page of a .ui file (ADDED below).
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


UNDERLINED_PROPERTIES = ("label", "title")


def page_groups(element, name, inherited):
    """(group name, [(msgctxt, label)]) of an object's page and of each
    stack page in it, each with the labels around it (inherited)"""
    own = []
    pages = []

    def walk(node):
        for child in node:
            if child.tag == "object" and child.get("class") in ("GtkStackPage", "AdwViewStackPage"):
                underline = child.find("property[@name='use-underline']")
                for prop in child.findall("property"):
                    if prop.get("name") == "title" and prop.get("translatable") == "yes" \
                            and underline is not None and underline.text == "True":
                        own.append((prop.get("context"), prop.text or ""))
                for page_child in child.findall("property[@name='child']/object") + child.findall("child/object"):
                    named = child.find("property[@name='title']")
                    if named is None:
                        named = child.find("property[@name='name']")
                    title = named.text if named is not None else page_child.get("id", f"page {len(pages) + 1}")
                    pages.append((page_child, f"{name} › {title}"))
                continue
            if child.tag == "object":
                underline = child.find("property[@name='use-underline']")
                if underline is not None and underline.text == "True":
                    for prop in child.findall("property"):
                        if prop.get("name") in UNDERLINED_PROPERTIES and prop.get("translatable") == "yes":
                            own.append((prop.get("context"), prop.text or ""))
            if child.tag != "menu":
                walk(child)

    walk(element)
    groups = [(name, inherited + own)]
    for page, page_name in pages:
        groups.extend(page_groups(page, page_name, inherited + own))
    return groups


C_MNEMONIC = re.compile(r'(?:_with_mnemonic\s*\(|add_row\s*\([^;]*?,)\s*_\("((?:[^"\\]|\\.)*)"\)')
C_ADD_MENU = re.compile(r'g_menu_append\s*\(\s*\w+\s*,\s*_\("((?:[^"\\]|\\.)*)"\)')

# Access keys a C file puts into a page of a .ui file: (C file, function,
# .ui file, group name prefix)
ADDED = [
    ("ps-chart-util.c", "ps_chart_zoom_button_new", "ps-counters-view.ui", "ps-counters-view.ui"),
]


def c_functions(text):
    """(function name, body) of each top-level function of a C file"""
    for match in re.finditer(r'^(\w+)\s*\([^;{]*\)\s*\{(.*?)^\}', text, re.M | re.S):
        yield match.group(1), match.group(2)


def c_groups(root):
    groups = []
    for path in sorted((root / "src" / "app").rglob("*.c")):
        for function, body in c_functions(path.read_text(encoding="utf-8")):
            labels = [(None, label) for label in C_MNEMONIC.findall(body)]
            if len(labels) > 1:
                groups.append((f"{path.name}: {function}", labels))
            menu = [(None, label) for label in C_ADD_MENU.findall(body)]
            if len(menu) > 1:
                groups.append((f"{path.name}: {function}: menu", menu))
    return groups


def added_labels(root):
    """{(.ui file): [(None, label)]} of the access keys C adds to a page"""
    added = {}
    for c_file, function, ui_file, _prefix in ADDED:
        # The folders of src/app are layers; a file's name is unique in them
        text = next((root / "src" / "app").rglob(c_file)).read_text(encoding="utf-8")
        for name, body in c_functions(text):
            if name == function:
                added.setdefault(ui_file, []).extend((None, label) for label in re.findall(r'_\("((?:[^"\\]|\\.)*)"\)', body) if "_" in label)
    return added


def main():
    root = Path(sys.argv[1])
    groups = []
    added = added_labels(root)
    for ui in sorted((root / "data" / "ui").glob("*.ui")):
        tree = ET.parse(ui).getroot()
        for menu in tree.iter("menu"):
            groups.extend(menu_groups(menu, f"{ui.name}: menu {menu.get('id')}"))
        for top in tree:
            if top.tag in ("template", "object") and top.get("class") not in ("GtkAdjustment", "GtkStringList"):
                name = f"{ui.name}: {top.get('class')}"
                groups.extend(page_groups(top, name, added.get(ui.name, [])))
    groups.extend(c_groups(root))
    check("the .ui files and the C files give access keys to check",
          sum(len(labels) for _name, labels in groups) > 100, f"{sum(len(labels) for _name, labels in groups)} found")

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
                if key in seen and seen[key] != shown:
                    clashes.append(f"“{seen[key]}” and “{shown}” share {key.upper()}")
                else:
                    seen[key] = shown
            check(f"{language}: {name}: every access key is its own", not clashes, "; ".join(clashes))
    finish()


if __name__ == "__main__":
    main()
