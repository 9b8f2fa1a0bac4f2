#!/usr/bin/env python3
# check-section-refs.py — every "§" reference in the sources, tests and
# benchmarks points into a document of the repository
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check-section-refs.py SOURCE_ROOT [DIR…]
#
# Without DIRs it checks src/, tests/, bench/ and docs/formats/.
#
# The code cites the format documents by section ("ce-perflog.md §4.5",
# or a bare "§4.5" under a header that says "specs: ce-perflog.md").
# A renumbered heading or a document that moved would leave those
# references pointing nowhere without anyone noticing. The rules are
# those of docs/formats/README.md ("How the code cites these documents"):
#
#   - "NAME.md §N" names docs/formats/NAME.md, else docs/NAME.md; a name
#     with a slash ("docs/formats/native-format.md") is a path from the root.
#   - A bare "§N" belongs to the document last named before it in the
#     same comment, else to the one document the file's first comment
#     names. In a Markdown document it belongs to that document itself,
#     unless a document is named right before it ("cli.md §3").
#   - §N exists when the document has a heading numbered N
#     ("## 4. …", "### 4.5 …"). "§7 #28", "§1.9 rule 6", "§4.2 step 9"
#     also need that numbered list item or table row in the section, and
#     "§9.3.7" without such a heading is item 7 of §9.3.
#   - A § right after the name of an outside standard (C11, RFC 4180,
#     CommonMark, …) is not one of ours and is not checked, nor is one in
#     code (`…` or a fenced block) of a Markdown document.
#
# Prints TAP: one line per file with references, and on failure
# "path:line: document §N: why" for each reference that does not resolve.

import os
import re
import sys

# The code, its tests and benchmarks, and the format documents themselves
DEFAULT_DIRS = ('src', 'tests', 'bench', os.path.join('docs', 'formats'))
SOURCE_SUFFIXES = ('.c', '.h')

DOC_NAME = re.compile(r'(?<![\w./-])((?:[\w-]+/)*[\w-]+\.md)\b')
SECTION = re.compile(r'§\s*(\d+(?:\.\d+)*)'
                     r'(?:,?\s*(?:#|(?:rules?|steps?|items?|cases?)\s+)(\d+)(?:\s*[–-]\s*#?(\d+))?)?')
# A numbered list item ("3. …") or the first cell of a table row ("| 3 | …")
LIST_ITEM = re.compile(r'^(?: {0,3}(\d+)[.)]\s|\|\s*(\d+)\s*\|)', re.M)
HEADING = re.compile(r'^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s', re.M)
OUTSIDE = re.compile(r'(?:\b(?:C\d\d|C\+\+\d\d|POSIX|ISO(?:/IEC)?(?:\s+\d+)?|RFC\s*\d+'
                     r'|CommonMark|GFM|ECMA-\d+|IEEE(?:\s+\d+)?|Unicode|UAX\s*#\d+))\s*$')


def comment_spans(text):
    """(start, end) of every C comment, skipping string and char literals."""
    spans = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '/' and text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            spans.append((i, end, '/*'))
            i = end
        elif c == '/' and text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            # Consecutive // lines read as one comment
            if spans and spans[-1][2] == '//' and text[spans[-1][1]:i].strip() == '':
                spans[-1] = (spans[-1][0], end, '//')
            else:
                spans.append((i, end, '//'))
            i = end
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            i = j + 1
        else:
            i += 1
    return [(s[0], s[1]) for s in spans]


def paragraph_spans(text):
    """Markdown: a bare § belongs to the document itself, so one span."""
    return [(0, len(text))]


class Documents:
    def __init__(self, root):
        self.root = root
        self.cache = {}

    def path_for(self, name):
        if '/' in name:
            candidates = [name]
        else:
            candidates = [os.path.join('docs', 'formats', name), os.path.join('docs', name)]
        for candidate in candidates:
            if os.path.isfile(os.path.join(self.root, candidate)):
                return candidate.replace(os.sep, '/')
        return None

    def sections(self, path):
        if path not in self.cache:
            with open(os.path.join(self.root, path), encoding='utf-8') as f:
                text = f.read()
            # Headings inside fenced code blocks are examples, not sections
            text = re.sub(r'^```.*?^```', '', text, flags=re.S | re.M)
            headings = list(HEADING.finditer(text))
            sections = {}
            for index, heading in enumerate(headings):
                # A section's numbered list items are those before the next heading
                end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
                body = re.split(r'^#', text[heading.end():end], maxsplit=1, flags=re.M)[0]
                sections[heading.group(1)] = {int(a or b) for a, b in LIST_ITEM.findall(body)}
            self.cache[path] = sections
        return self.cache[path]


def resolve(sections, number, first_item, last_item):
    """None if §number (and its item, as in "§7 #28" or "§4.2 step 9")
    exists, else what is missing. "§9.3.7" is item 7 of §9.3 when 9.3.7 is
    not a heading of its own."""
    items = [int(n) for n in (first_item, last_item) if n]
    if number not in sections:
        parent, _dot, last = number.rpartition('.')
        if not parent or parent not in sections:
            return f'has no heading numbered {number}'
        missing = [n for n in [int(last)] + items if n not in sections[parent]]
        if missing:
            return f'has no heading numbered {number}, nor §{parent} an item {missing[0]}'
        return None
    missing = [n for n in items if n not in sections[number]]
    if missing:
        return f'§{number} has no numbered item {missing[0]}'
    return None


def line_of(text, offset):
    return text.count('\n', 0, offset) + 1


def check_file(root, rel, documents):
    with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
        text = f.read()
    if '§' not in text:
        return 0, []

    is_markdown = rel.endswith('.md')
    if is_markdown:
        # Code in a document shows references as examples; blanked out,
        # offsets and lines kept
        blank = lambda m: re.sub(r'[^\n]', ' ', m.group(0))
        text = re.sub(r'^```.*?^```', blank, text, flags=re.S | re.M)
        text = re.sub(r'`[^`\n]*`', blank, text)
    spans = paragraph_spans(text) if is_markdown else comment_spans(text)

    if is_markdown:
        header_docs = {rel}
    else:
        header = text[spans[0][0]:spans[0][1]] if spans else ''
        header_docs = set(DOC_NAME.findall(header))

    problems = []
    count = 0
    for match in SECTION.finditer(text):
        start = match.start()
        before = text[max(0, start - 24):start]
        if OUTSIDE.search(before):
            continue
        count += 1
        number = match.group(1)
        span = next(((s, e) for s, e in spans if s <= start < e), None)
        if span is None:
            # Outside every comment: the line is the context
            line_start = text.rfind('\n', 0, start) + 1
            span = (line_start, start)
        if is_markdown:
            # Prose names the other document right before the sign
            line_start = text.rfind('\n', 0, start) + 1
            named = re.findall(r'((?:[\w-]+/)*[\w-]+\.md)`?\s*$', text[line_start:start])
        else:
            named = DOC_NAME.findall(text[span[0]:start])
        where = f'{rel}:{line_of(text, start)}'
        if named:
            document = named[-1]
        elif is_markdown:
            document = rel
        elif len(header_docs) == 1:
            document = next(iter(header_docs))
        else:
            problems.append(f'{where}: §{number}: no document named before it in its comment, '
                            f'and the file header names {len(header_docs)} '
                            f'({", ".join(sorted(header_docs)) or "none"})')
            continue
        path = document if is_markdown and document == rel else documents.path_for(document)
        if path is None:
            problems.append(f'{where}: {document} §{number}: no such document '
                            f'in docs/formats/ or docs/')
        else:
            problem = resolve(documents.sections(path), number, match.group(2), match.group(3))
            if problem:
                problems.append(f'{where}: {document} §{match.group(0)[1:].strip()}: {path} {problem}')
    return count, problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    dirs = sys.argv[2:] or DEFAULT_DIRS
    documents = Documents(root)

    results = []
    for top in dirs:
        for directory, subdirs, names in os.walk(os.path.join(root, top)):
            subdirs.sort()
            for name in sorted(names):
                if not (name.endswith(SOURCE_SUFFIXES) or name.endswith('.md')):
                    continue
                rel = os.path.relpath(os.path.join(directory, name), root).replace(os.sep, '/')
                count, problems = check_file(root, rel, documents)
                if count:
                    results.append((rel, count, problems))

    checks = [(f'{rel}: {count} section references resolve', problems)
              for rel, count, problems in results]
    if not checks:
        checks.append(('some file cites a section', ['no § reference found at all']))

    print(f'1..{len(checks)}')
    failed = 0
    for number, (description, problems) in enumerate(checks, 1):
        print(f'{"not ok" if problems else "ok"} {number} - {description}')
        for problem in problems:
            print(f'# {problem}')
            print(problem, file=sys.stderr)
        failed += bool(problems)
    total = sum(count for _rel, count, _p in results)
    print(f'# {total} references in {len(results)} files, {failed} files with unresolved ones')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
