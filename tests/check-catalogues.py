#!/usr/bin/env python3
# check-catalogues.py — every message of the sources is translated in every language
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check-catalogues.py SOURCE_ROOT [XGETTEXT]
#
# A message added or reworded in the code stays out of the catalogues
# until someone runs perfscope-update-po; until then it ships in English,
# or, reworded, as a fuzzy entry that gettext ignores. Extracts the
# messages from po/POTFILES.in with xgettext, with the keywords of meson's
# glib preset, and prints TAP: one line per language of po/LINGUAS, failing
# with each message that its catalogue lacks, leaves empty or marks fuzzy.

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pofile  # noqa: E402

# meson's i18n.gettext (preset: 'glib') keywords
KEYWORDS = ['_', 'N_', 'C_:1c,2', 'NC_:1c,2', 'g_dcgettext:2', 'g_dngettext:2,3', 'g_dpgettext2:2c,3']


def extract(root, xgettext):
    with tempfile.TemporaryDirectory() as directory:
        output = pathlib.Path(directory) / 'messages.pot'
        command = [xgettext, '--from-code=UTF-8', '--directory', str(root),
                   '--files-from', str(root / 'po' / 'POTFILES.in'), '--output', str(output)]
        command += ['--keyword=' + keyword for keyword in KEYWORDS]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(result.stderr.strip())
        return pofile.read_template(output)


def languages(root):
    for line in (root / 'po' / 'LINGUAS').read_text(encoding='utf-8').splitlines():
        line = line.split('#', 1)[0].strip()
        if line:
            yield line


def main():
    root = pathlib.Path(sys.argv[1])
    xgettext = sys.argv[2] if len(sys.argv) > 2 else shutil.which('xgettext')
    if xgettext is None:
        print('1..0 # SKIP xgettext is not installed (Debian: gettext)')
        return 0
    try:
        messages = extract(root, xgettext)
    except RuntimeError as error:
        print('1..1\nnot ok 1 - xgettext failed: ' + str(error).replace('\n', ' '))
        return 1
    langs = list(languages(root))
    print(f'1..{len(langs)}')
    failed = False
    for number, lang in enumerate(langs, 1):
        translated = pofile.read_po(root / 'po' / f'{lang}.po')
        missing = [(context, msgid, files) for context, msgid, _plural, files in messages
                   if (context, msgid) not in translated]
        if missing:
            failed = True
            print(f'not ok {number} - {lang}.po lacks {len(missing)} of {len(messages)} messages '
                  '(run ninja perfscope-update-po and translate them)')
            for context, msgid, files in missing[:20]:
                where = files[0] if files else '?'
                print(f'#   {where}: {msgid!r}' + (f' (context {context!r})' if context else ''))
        else:
            print(f'ok {number} - {lang}.po translates all {len(messages)} messages')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
