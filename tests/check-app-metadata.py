#!/usr/bin/env python3
# check-app-metadata.py — what a store, a file manager and a packager read
# about Perfscope says the same everywhere and claims no more than it owns:
#
# - the newest release of the metainfo is the version meson builds (and
#   that --version and the manual pages say), the releases run from the
#   newest to the oldest with their dates, and the Flathub manifest builds
#   the tag of that release, whose commit carries that version;
# - the metainfo has its branding colours, its URLs and a <provides>
#   mediatype for every MIME type of the desktop file, and its screenshots
#   are files of the tree at that release's tag, not of a moving branch;
# - the desktop file claims only MIME types that data/*.mime.xml defines
#   and Perfscope owns: by their content (magic) or by a name pattern of
#   Perfscope's own types (*.perfscope, *.nopid), never a generic type
#   such as text/plain, text/x-log or text/csv, which would make Perfscope
#   the default application of every log or CSV file.
#
# Usage: check-app-metadata.py SOURCE_ROOT VERSION APP_ID
#        FLATHUB_MANIFEST. Prints TAP.

import configparser
import datetime
import json
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

# tests/ is the script's folder, first on sys.path
from taplib import check, finish, skip

MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"

# Globs whose files belong to every program that reads text
GENERIC_GLOBS = {"*.log", "*.txt", "*.csv", "*.tsv", "*.out", "*.dat", "*"}

def version_key(version):
    return tuple(int(part) for part in version.split("."))


def git(root, *args):
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None


def check_releases(root, metainfo, version, flathub_path):
    releases = metainfo.findall("releases/release")
    check("the metainfo lists releases", releases)
    if not releases:
        return
    versions = [release.get("version", "") for release in releases]
    dates = [release.get("date", "") for release in releases]
    check(f"the newest release of the metainfo is meson's version {version}", versions[0] == version,
          f"newest release {versions[0]!r}; change meson.build's version and the releases together")
    check("every release has a version MAJOR.MINOR.MICRO",
          all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in versions), f"found {versions}")
    check("every release has an ISO date",
          all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", d) for d in dates), f"found {dates}")
    if all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in versions):
        check("the releases run from the newest version to the oldest",
              all(version_key(a) > version_key(b) for a, b in zip(versions, versions[1:])), f"found {versions}")
    if all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", d) for d in dates):
        check("the release dates run from the newest to the oldest", dates == sorted(dates, reverse=True),
              f"found {dates}")
        check("no release is dated in the future",
              max(dates) <= (datetime.date.today() + datetime.timedelta(days=1)).isoformat(), f"found {dates}")
    check("every release says what changed", all(release.find("description") is not None for release in releases))

    for page in sorted((root / "data" / "man").glob("*.1")):
        header = next((line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith(".TH ")), "")
        check(f"{page.name} says Perfscope {version}", f'"Perfscope {version}"' in header, f"found {header!r}")

    try:
        flathub = json.loads(pathlib.Path(flathub_path).read_text(encoding="utf-8"))
        source = flathub["modules"][-1]["sources"][0]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
        check("the Flathub manifest names its git source", False, str(error))
        return
    tag, commit = source.get("tag", ""), source.get("commit", "")
    check(f"the Flathub manifest builds the tag of a release the metainfo lists ({tag})",
          tag.startswith("v") and tag[1:] in versions, f"releases {versions}")

    # In a git checkout with its history: the commit is there, carries the
    # tag's version, and the tag, where it exists, is that commit
    shallow = git(root, "rev-parse", "--is-shallow-repository")
    if shallow is None or shallow.returncode != 0:
        skip("the Flathub manifest's commit", "not a git checkout")
        return
    if shallow.stdout.strip() == "true":
        skip("the Flathub manifest's commit", "a shallow clone, without the project's history")
        return
    shown = git(root, "show", f"{commit}:meson.build")
    check(f"the Flathub manifest's commit {commit[:12]} is in this repository",
          shown is not None and shown.returncode == 0,
          "a manifest cannot build a commit that is not in the project's history")
    if shown is not None and shown.returncode == 0:
        tagged = re.search(r"version: '([^']+)'", shown.stdout)
        check(f"meson.build at that commit says version {tag[1:]}", tagged and tagged.group(1) == tag[1:],
              f"found {tagged and tagged.group(1)!r}")
        for screenshot in metainfo.findall("screenshots/screenshot/image"):
            name = (screenshot.text or "").strip().rsplit("/docs/", 1)[-1]
            listed = git(root, "cat-file", "-e", f"{commit}:docs/{name}")
            check(f"docs/{name} is in the tagged commit", listed is not None and listed.returncode == 0)
    resolved = git(root, "rev-parse", "--verify", "--quiet", f"refs/tags/{tag}^{{commit}}")
    if resolved is not None and resolved.returncode == 0:
        check(f"the tag {tag} is the manifest's commit", resolved.stdout.strip() == commit,
              f"{tag} is {resolved.stdout.strip()}")


def check_metainfo(root, metainfo, version, mime_types):
    colors = {color.get("scheme_preference"): color.text or ""
              for color in metainfo.findall("branding/color") if color.get("type") == "primary"}
    for scheme in ("light", "dark"):
        check(f"<branding> has a primary colour for {scheme} pages",
              re.fullmatch(r"#[0-9a-fA-F]{6}", colors.get(scheme, "")), f"found {colors}")

    urls = {url.get("type"): (url.text or "").strip() for url in metainfo.findall("url")}
    for kind in ("homepage", "bugtracker", "vcs-browser"):
        check(f"<url type=\"{kind}\"> is https", urls.get(kind, "").startswith("https://"), f"found {urls}")

    provided = {item.text for item in metainfo.findall("provides/mediatype")}
    for mime_type in sorted(mime_types):
        check(f"<provides> has the mediatype {mime_type} of the desktop file", mime_type in provided)
    for mime_type in sorted(provided - set(mime_types)):
        check(f"<provides> mediatype {mime_type} is claimed by the desktop file", False)
    binaries = {item.text for item in metainfo.findall("provides/binary")}
    check("<provides> names both programs", {"perfscope", "perfscope-cli"} <= binaries, f"found {binaries}")

    images = metainfo.findall("screenshots/screenshot/image")
    check("the metainfo has screenshots", images)
    for image in images:
        url = (image.text or "").strip()
        match = re.fullmatch(r"https://raw\.githubusercontent\.com/perfscope/perfscope/([^/]+)/(docs/.+)", url)
        check(f"screenshot {url.rsplit('/', 1)[-1]} is a file of the project", match, f"found {url!r}")
        if match:
            check(f"screenshot {url.rsplit('/', 1)[-1]} is at the tag of release {version}, not a branch",
                  match.group(1) == f"v{version}", f"found {match.group(1)!r}")
            check(f"{match.group(2)} is in the tree", (root / match.group(2)).is_file())


def check_desktop_claims(root, mime_types):
    types = {}
    for path in sorted((root / "data").glob("*.mime.xml")):
        for element in ElementTree.parse(path).getroot().findall(f"{MIME_NS}mime-type"):
            types[element.get("type")] = element
    check("data/*.mime.xml defines MIME types", types)
    for name in sorted(types):
        check(f"the MIME XML defines no generic type ({name})",
              not name.startswith("text/") and name != "application/octet-stream")

    check("the desktop file claims MIME types", mime_types)
    for mime_type in mime_types:
        element = types.get(mime_type)
        check(f"{mime_type}: the desktop file claims it and data/*.mime.xml defines it", element is not None,
              "a type only another package defines (text/plain, text/x-log, text/csv) is everyone's")
        if element is None:
            continue
        globs = {glob.get("pattern") for glob in element.findall(f"{MIME_NS}glob")}
        has_magic = element.find(f"{MIME_NS}magic/{MIME_NS}match") is not None
        own_name = mime_type.startswith("application/x-perfscope") and globs and not (globs & GENERIC_GLOBS)
        check(f"{mime_type}: Perfscope owns it, by its content (magic) or by a name of its own",
              has_magic or own_name, f"globs {sorted(globs)}, magic {has_magic}")
        check(f"{mime_type}: no generic name pattern", not (globs & GENERIC_GLOBS), f"globs {sorted(globs)}")


def main():
    root = pathlib.Path(sys.argv[1])
    version, app_id, flathub_path = sys.argv[2], sys.argv[3], sys.argv[4]

    desktop = configparser.ConfigParser(interpolation=None)
    desktop.optionxform = str
    desktop.read(root / "data" / f"{app_id}.desktop.in", encoding="utf-8")
    mime_types = [t for t in desktop.get("Desktop Entry", "MimeType", fallback="").split(";") if t]

    metainfo = ElementTree.parse(root / "data" / f"{app_id}.metainfo.xml.in").getroot()

    check_releases(root, metainfo, version, flathub_path)
    check_metainfo(root, metainfo, version, mime_types)
    check_desktop_claims(root, mime_types)


if __name__ == "__main__":
    main()
    finish()
