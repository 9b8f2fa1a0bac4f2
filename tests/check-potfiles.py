#!/usr/bin/env python3
# check-potfiles.py — every file with translatable strings is in po/POTFILES.in
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check-potfiles.py SOURCE_ROOT
#
# A source file whose strings are marked but missing from POTFILES.in
# ships untranslated without anyone noticing: xgettext never sees it.
# Scans src/ for the gettext markers the project uses and data/ui/ for
# translatable="yes", and prints TAP: one failing line per missing file,
# and one per listed file that no longer exists. A message that goes on
# with one of GLib's format macros (G_GINT64_FORMAT…) is cut there by
# xgettext, which knows only <inttypes.h>'s: each marked file is checked
# for one too.

import os
import re
import sys

C_MARKERS = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|ngettext|g_dngettext|g_dpgettext2?)\s*\(')
UI_MARKER = re.compile(r'translatable\s*=\s*"(?:yes|true|1)"', re.IGNORECASE)
STRING = r'"(?:[^"\\\n]|\\.)*"'
CUT_MESSAGE = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_)\s*\(\s*' + STRING + r'(?:\s*' + STRING + r')*\s*(G_G\w*_FORMAT)')


def strip_comments(text):
    # Comments such as "/* _( is a marker */" would count otherwise
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def marked_files(root):
    found = set()
    for top, pattern, clean in (('src', C_MARKERS, strip_comments),
                                (os.path.join('data', 'ui'), UI_MARKER, lambda t: t)):
        for directory, _dirs, names in os.walk(os.path.join(root, top)):
            for name in names:
                if top == 'src' and not name.endswith('.c'):
                    continue
                if top != 'src' and not name.endswith('.ui'):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    if pattern.search(clean(f.read())):
                        found.add(os.path.relpath(path, root).replace(os.sep, '/'))
    return found


def listed_files(root):
    listed = set()
    with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                listed.add(line)
    return listed


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    marked = marked_files(root)
    listed = listed_files(root)
    missing = sorted(marked - listed)
    gone = sorted(path for path in listed if not os.path.exists(os.path.join(root, path)))

    checks = [(f'{path} has translatable strings and is in po/POTFILES.in', path not in missing)
              for path in sorted(marked)]
    checks += [(f'{path} of po/POTFILES.in exists', False) for path in gone]
    cut = []
    for path in sorted(marked):
        if not path.endswith('.c'):
            continue
        with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
            macros = sorted({match.group(1) for match in CUT_MESSAGE.finditer(strip_comments(f.read()))})
        checks.append((f'{path}: no message cut by a GLib format macro'
                       + (f' ({", ".join(macros)}: format the number as %s)' if macros else ''), not macros))
        cut += macros
    if not marked:
        checks.append(('some source file has translatable strings', False))

    print(f'1..{len(checks)}')
    for number, (description, ok) in enumerate(checks, 1):
        print(f'{"ok" if ok else "not ok"} {number} - {description}')
    if missing:
        print('# Add to po/POTFILES.in:', file=sys.stderr)
        for path in missing:
            print(f'#   {path}', file=sys.stderr)
    return 1 if missing or gone or cut or not marked else 0


if __name__ == '__main__':
    sys.exit(main())
