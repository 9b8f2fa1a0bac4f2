#!/usr/bin/env python3
# check-app-layers.py — includes in src/app run one way
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: check-app-layers.py SOURCE_ROOT. Prints TAP.
#
# The folders of src/app are layers (docs/architecture.md, "Layers"):
#
#   window/ → pages/ → views/ → charts/ → models/ → the engine
#
# and util/, which every layer may include and which includes only
# itself and the engine. A file may include a header of its own layer or
# of a layer to its right, never one to its left: a page does not know the
# window it is in, a view not the page, a chart not the view. main.c, at
# the top of src/app, may include anything. Headers are included by name
# alone (every folder is on the include path), so a name is unique across
# the folders. Beside the direction, no two parts of src/app include each
# other, through any number of steps: a part is a file's name without
# .c/.h, and a file whose name goes on from another's in its folder
# belongs to that one's part (ps-rtl-view-cells.c, ps-rtl-view-private.h
# and ps-rtl-view.c are one part; ps-window-actions.c belongs to ps-window).

import pathlib
import re
import sys

# tests/ is the script's folder, first on sys.path
from taplib import check, finish

# Left to right: a layer may include its own and those after it
LAYERS = ["window", "pages", "views", "charts", "models"]
SHARED = "util"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# Known gaps, reported as TODO: (file, header) → why it is still there
KNOWN_INCLUDES = {
}
# Circles still open: the parts, sorted → why
KNOWN_CIRCLES = {
}


def part_of(path):
    """views/ps-rtl-view-cells.c, views/ps-rtl-view-private.h → ps-rtl-view:
    the shortest name of a file in the folder that the name goes on from"""
    stem = path.name.rsplit(".", 1)[0]
    stems = {other.name.rsplit(".", 1)[0] for other in path.parent.glob("*.[ch]")}
    words = stem.split("-")
    for end in range(2, len(words) + 1):
        if "-".join(words[:end]) in stems:
            return "-".join(words[:end])
    return stem


def may_include(layer, included):
    if layer is None:  # main.c
        return True
    if included == SHARED:
        return True
    if layer == SHARED:
        return False
    return LAYERS.index(layer) <= LAYERS.index(included)


def cycles(graph):
    """The strongly connected components of more than one part (Tarjan)"""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    app = root / "src" / "app"
    files = sorted(path for path in app.rglob("*.[ch]"))
    check("src/app has C files", files)

    layer_of = {}
    header_layer = {}
    header_path = {}
    for path in files:
        relative = path.relative_to(app)
        folder = relative.parts[0] if len(relative.parts) > 1 else None
        known = folder in LAYERS or folder == SHARED or (folder is None and path.name == "main.c")
        check(f"src/app/{relative} is in a layer's folder ({', '.join(LAYERS + [SHARED])}/)",
              known and len(relative.parts) <= 2,
              "a new file goes into the folder of its layer, not beside main.c or deeper")
        layer_of[path] = folder
        if path.suffix == ".h":
            if path.name in header_layer:
                check(f"{path.name} is one header, not two of one name",
                      False, f"in {header_layer[path.name]}/ and {folder}/")
            header_layer[path.name] = folder
            header_path[path.name] = path

    graph = {}
    for path in files:
        layer = layer_of[path]
        relative = path.relative_to(root)
        text = path.read_text(encoding="utf-8", errors="replace")
        wrong = []
        for name in INCLUDE.findall(text):
            name = pathlib.PurePosixPath(name).name
            if name not in header_layer:
                continue  # config.h, the engine's headers
            included = header_layer[name]
            header = header_path[name]
            if not may_include(layer, included):
                wrong.append(f"{name} ({included}/)")
            # A known wrong include is reported once, above, not as a circle
            if part_of(header) != part_of(path) and (str(relative), name) not in KNOWN_INCLUDES:
                graph.setdefault(part_of(path), set()).add(part_of(header))
        where = f"{layer}/" if layer else "src/app/"
        description = f"{relative} includes only {where} and the layers after it"
        known = [KNOWN_INCLUDES.get((str(relative), name.split(" ")[0])) for name in wrong]
        if wrong and all(known):
            description += f" # TODO {'; '.join(known)}"
        check(description, not wrong,
              f"{', '.join(wrong)}: before {where} in window → pages → views → charts → models" if wrong else "")

    circles = cycles(graph)
    for component in circles:
        description = f"{' ↔ '.join(component)} do not include each other"
        if tuple(component) in KNOWN_CIRCLES:
            description += f" # TODO {KNOWN_CIRCLES[tuple(component)]}"
        check(description, False, "a part includes another that includes it back, directly or through others")
    if not circles:
        check("no parts of src/app include each other", True)
    finish()


if __name__ == "__main__":
    main()
