# pofile.py — the translations of a po file, for the check-*.py scripts
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later

import re


def entries(path):
    """Each entry of a .po or .pot file as (fields, msgstr forms, fuzzy,
    source files), obsolete ones left out; fields has msgid and, where
    given, msgctxt and msgid_plural"""
    fields, forms, fuzzy, files, current = {}, [], False, [], None

    def flush():
        nonlocal fields, forms, fuzzy, files
        entry = (fields, forms, fuzzy, files) if "msgid" in fields else None
        fields, forms, fuzzy, files = {}, [], False, []
        return entry

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#~"):
            continue
        if line.startswith("#:"):
            files.extend(reference.rsplit(":", 1)[0] for reference in line[2:].split())
            continue
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
            continue
        if line.startswith("#"):
            continue
        if not line.strip():
            entry = flush()
            if entry:
                yield entry
            continue
        match = re.match(r'(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+"(.*)"$', line)
        if match:
            if match.group(1) == "msgctxt" and "msgid" in fields:
                entry = flush()
                if entry:
                    yield entry
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
    entry = flush()
    if entry:
        yield entry


def read_po(path, every_form=False):
    """(msgctxt, msgid) → the first msgstr of the translated, not fuzzy
    entries; with every_form, → the list of all their msgstr forms"""
    found = {}
    for fields, forms, fuzzy, _files in entries(path):
        if forms and forms[0] and not fuzzy:
            found[(fields.get("msgctxt"), fields["msgid"])] = list(forms) if every_form else forms[0]
    return found


def read_template(path):
    """(msgctxt, msgid, msgid_plural or None, [source files]) of each
    message of a .pot, in order"""
    return [(fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"), files)
            for fields, _forms, _fuzzy, files in entries(path) if fields["msgid"]]


def unescape(text):
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)
