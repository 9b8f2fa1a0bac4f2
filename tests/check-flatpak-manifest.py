#!/usr/bin/env python3
# check-flatpak-manifest.py — what can be checked of the Flatpak manifest
# on a machine without the GNOME runtime: valid JSON, the app id and
# command the rest of the build uses, the current GNOME runtime and SDK,
# the app built from this working tree with meson, every other module
# pinned by archive URL and sha256, and finish-args within the narrowest
# set that works (files come through the portals, not --filesystem).
#
# Usage: check-flatpak-manifest.py MANIFEST APP_ID. Prints TAP.

import json
import re
import sys

# The GNOME runtimes Flathub supports: the current one and the one before.
# Raise this when a new GNOME release comes out (March and September).
OLDEST_SUPPORTED_RUNTIME = 50

ALLOWED_FINISH_ARGS = {
    "--share=ipc",
    "--socket=fallback-x11",
    "--socket=wayland",
    "--device=dri",
}

ARCHIVE_TYPES = {"archive", "file"}

results = []


def check(description, condition, detail=""):
    results.append((description, bool(condition), detail))


def main():
    manifest_path, app_id = sys.argv[1], sys.argv[2]

    try:
        with open(manifest_path, encoding="utf-8") as stream:
            manifest = json.load(stream)
    except (OSError, ValueError) as error:
        check("manifest is valid JSON", False, str(error))
        return
    check("manifest is valid JSON", isinstance(manifest, dict))

    app = manifest.get("id", manifest.get("app-id"))
    check("app id is " + app_id, app == app_id, f"found {app!r}")
    check("command is perfscope", manifest.get("command") == "perfscope",
          f"found {manifest.get('command')!r}")

    check("runtime is org.gnome.Platform", manifest.get("runtime") == "org.gnome.Platform",
          f"found {manifest.get('runtime')!r}")
    check("sdk is org.gnome.Sdk", manifest.get("sdk") == "org.gnome.Sdk",
          f"found {manifest.get('sdk')!r}")
    version = str(manifest.get("runtime-version", ""))
    check(f"runtime-version is a supported GNOME release (>= {OLDEST_SUPPORTED_RUNTIME})",
          re.fullmatch(r"\d+", version) and int(version) >= OLDEST_SUPPORTED_RUNTIME,
          f"found {version!r}")

    finish_args = manifest.get("finish-args", [])
    extra = [arg for arg in finish_args if arg not in ALLOWED_FINISH_ARGS]
    check("finish-args within the allow-list (no --filesystem, --share=network, ...)",
          isinstance(finish_args, list) and not extra, f"not allowed: {extra}")
    for needed in ("--socket=wayland", "--socket=fallback-x11", "--share=ipc", "--device=dri"):
        check(f"finish-args has {needed}", needed in finish_args)

    modules = manifest.get("modules", [])
    check("manifest has modules", isinstance(modules, list) and modules)
    if not modules:
        return

    last = modules[-1]
    check("the last module is perfscope", isinstance(last, dict) and last.get("name") == "perfscope",
          f"found {last!r:.80}")
    check("the last module builds with meson", last.get("buildsystem") == "meson",
          f"found {last.get('buildsystem')!r}")
    sources = last.get("sources", [])
    check("the last module builds this working tree (one dir source, path ..)",
          len(sources) == 1 and sources[0].get("type") == "dir" and sources[0].get("path") == "..",
          f"found {sources!r}")
    options = last.get("config-opts", [])
    check("the app is built without tests and as a release",
          "-Dtests=false" in options and "-Dbuildtype=release" in options, f"found {options!r}")

    for module in modules[:-1]:
        if isinstance(module, str):
            check(f"module {module} is inline", False, "external module files are not checked")
            continue
        name = module.get("name", "?")
        check(f"module {name} has a build system",
              module.get("buildsystem") in ("meson", "cmake", "cmake-ninja", "autotools", "simple", None))
        for source in module.get("sources", []):
            if isinstance(source, str) or source.get("type") not in ARCHIVE_TYPES:
                check(f"module {name}: every source is a pinned archive", False, f"found {source!r}")
                continue
            url = source.get("url", "")
            check(f"module {name}: {url} is https", url.startswith("https://"))
            check(f"module {name}: {url} has a sha256",
                  re.fullmatch(r"[0-9a-f]{64}", source.get("sha256", "")),
                  f"found {source.get('sha256')!r}")


if __name__ == "__main__":
    main()
    failed = 0
    for number, (description, passed, detail) in enumerate(results, 1):
        print(f"{'ok' if passed else 'not ok'} {number} - {description}")
        if not passed:
            failed = 1
            if detail:
                print(f"# {detail}")
    print(f"1..{len(results)}")
    sys.exit(failed)
