#!/usr/bin/env python3
# check-version-guards.py — GTK's version guards cover the code: meson.build
# sets GDK_VERSION_MIN_REQUIRED to the oldest GTK it accepts and caps
# GDK_VERSION_MAX_ALLOWED at the newest GTK_CHECK_VERSION branch of the
# code, every branch lies between the two, and config.h (which carries the
# guards) comes before GTK's headers in every file of the application and
# its tests. With libadwaita, the same for ADW_VERSION_*.
#
# The branches for a newer GTK than Debian 12's 4.8 cannot be compiled on
# the test machine; the Flatpak job of .github/workflows/ci.yml builds them
# against the GNOME runtime's GTK, with warnings as errors. This check keeps
# them within the guards that make such a build fail on newer API.
#
# Usage: check-version-guards.py SOURCE_ROOT. Prints TAP.

import pathlib
import re
import sys

# tests/ is the script's folder, first on sys.path
from taplib import check, finish

def sources(root):
    """The C files of the code and of its tests"""
    return sorted(list((root / "src").rglob("*.[ch]")) + list((root / "tests").rglob("*.[ch]")))


def find_branches(text, macro, relative):
    """(major, minor, "file:line") of every macro (X, Y, Z) in text"""
    branches = []
    for match in re.finditer(rf"{macro} \((\d+), (\d+), (\d+)\)", text):
        line = text.count("\n", 0, match.start()) + 1
        branches.append((int(match.group(1)), int(match.group(2)), f"{relative}:{line}"))
    return branches


def main():
    root = pathlib.Path(sys.argv[1])
    meson = (root / "meson.build").read_text(encoding="utf-8")

    oldest = re.search(r"^gtk_oldest = (\d+)$", meson, re.M)
    newest = re.search(r"^gtk_newest_branch = (\d+)$", meson, re.M)
    required = re.search(r"dependency\('gtk4', version: '>= 4\.(\d+)'\)", meson)
    check("meson.build names the oldest GTK (gtk_oldest) and the newest branch (gtk_newest_branch)",
          oldest and newest)
    check("the gtk4 dependency asks for the oldest GTK",
          oldest and required and required.group(1) == oldest.group(1),
          f"gtk_oldest {oldest and oldest.group(1)}, dependency 4.{required and required.group(1)}")
    for macro in ("GDK_VERSION_MIN_REQUIRED", "GDK_VERSION_MAX_ALLOWED"):
        check(f"config.h sets {macro}", re.search(rf"config_h\.set\('{macro}'", meson))
    if not (oldest and newest):
        return
    oldest, newest = int(oldest.group(1)), int(newest.group(1))

    app_headers = {path.name for path in (root / "src" / "app").rglob("*.h")}
    branches = []
    for path in sources(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        relative = path.relative_to(root)
        branches += find_branches(text, "GTK_CHECK_VERSION", relative)

        if path.suffix != ".c":
            continue
        includes = re.findall(r'^#include [<"]([^>"]+)[>"]', text, re.M)
        uses_gtk = any(name.startswith("gtk/") or name == "gui-fixture.h" or name in app_headers
                       for name in includes)
        if uses_gtk:
            check(f"{relative}: config.h is its first include, before GTK's headers",
                  includes and includes[0] == "config.h", f"first: {includes[:1]}")

    check("the code has GTK_CHECK_VERSION branches", branches)
    for major, minor, where in branches:
        check(f"{where}: GTK_CHECK_VERSION (4, {minor}, …) lies above 4.{oldest} and within 4.{newest}",
              major == 4 and oldest < minor <= newest,
              "raise gtk_newest_branch in meson.build for a newer branch; "
              "a branch at or below the oldest GTK is dead code")
    if branches:
        check(f"gtk_newest_branch (4.{newest}) is the newest branch, no higher",
              max(minor for _, minor, _ in branches) == newest,
              f"newest branch: 4.{max(minor for _, minor, _ in branches)}")

    if re.search(r"dependency\('libadwaita-1'", meson):
        for macro in ("ADW_VERSION_MIN_REQUIRED", "ADW_VERSION_MAX_ALLOWED"):
            check(f"config.h sets {macro} (libadwaita is used)", re.search(rf"config_h\.set\('{macro}'", meson))
        check_adw_branches(root, meson)


def check_adw_branches(root, meson):
    """The ADW_CHECK_VERSION branches lie above adw_oldest and within
    adw_newest_branch, as the GTK ones do within theirs"""
    oldest = re.search(r"^adw_oldest = (\d+)$", meson, re.M)
    newest = re.search(r"^adw_newest_branch = (\d+)$", meson, re.M)
    required = re.search(r"dependency\('libadwaita-1', version: '>= 1\.(\d+)'\)", meson)
    check("meson.build names the oldest libadwaita (adw_oldest) and the newest branch (adw_newest_branch)",
          oldest and newest)
    check("the libadwaita dependency asks for the oldest libadwaita",
          oldest and required and required.group(1) == oldest.group(1),
          f"adw_oldest {oldest and oldest.group(1)}, dependency 1.{required and required.group(1)}")
    if not (oldest and newest):
        return
    oldest, newest = int(oldest.group(1)), int(newest.group(1))
    check("adw_newest_branch is adw_oldest or newer", newest >= oldest)
    branches = []
    for path in sources(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        branches += find_branches(text, "ADW_CHECK_VERSION", path.relative_to(root))
    for major, minor, where in branches:
        check(f"{where}: ADW_CHECK_VERSION (1, {minor}, …) lies above 1.{oldest} and within 1.{newest}",
              major == 1 and oldest < minor <= newest,
              "raise adw_newest_branch in meson.build for a newer branch")
    check(f"adw_newest_branch (1.{newest}) is the newest branch, or adw_oldest without branches",
          max([minor for _, minor, _ in branches], default=oldest) == newest)


if __name__ == "__main__":
    main()
    finish()
