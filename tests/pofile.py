# pofile.py — the translations of a po file, for the check-*.py scripts
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later

import re


def read_po(path, every_form=False):
    """(msgctxt, msgid) → the first msgstr of the translated, not fuzzy
    entries; with every_form, → the list of all their msgstr forms"""
    entries = {}
    fields, forms, current, fuzzy = {}, [], None, False

    def flush():
        nonlocal fields, forms, fuzzy
        if "msgid" in fields and forms and forms[0] and not fuzzy:
            entries[(fields.get("msgctxt"), fields["msgid"])] = list(forms) if every_form else forms[0]
        fields, forms, fuzzy = {}, [], False

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#~"):
            continue
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
            continue
        if not line.strip():
            flush()
            continue
        match = re.match(r'(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+"(.*)"$', line)
        if match:
            if match.group(1) == "msgctxt" and "msgid" in fields:
                flush()
            current = match.group(1)
            if current.startswith("msgstr"):
                forms.append(unescape(match.group(2)))
            else:
                fields[current] = unescape(match.group(2))
        elif line.startswith('"') and current is not None:
            if current.startswith("msgstr"):
                forms[-1] += unescape(line[1:-1])
            else:
                fields[current] += unescape(line[1:-1])
    flush()
    return entries


def unescape(text):
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)




def read_template(path):
    """(msgctxt, msgid, msgid_plural or None, [source files]) of each
    message of a .pot, in order"""
    messages = []
    fields, files, current = {}, [], None

    def flush():
        nonlocal fields, files
        if fields.get("msgid"):
            messages.append((fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"), files))
        fields, files = {}, []

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#:"):
            files.extend(reference.rsplit(":", 1)[0] for reference in line[2:].split())
            continue
        if line.startswith("#"):
            continue
        if not line.strip():
            flush()
            continue
        match = re.match(r'(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+"(.*)"$', line)
        if match:
            current = match.group(1)
            if not current.startswith("msgstr"):
                fields[current] = unescape(match.group(2))
        elif line.startswith('"') and current is not None and not current.startswith("msgstr"):
            fields[current] += unescape(line[1:-1])
    flush()
    return messages
