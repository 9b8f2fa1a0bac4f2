#!/usr/bin/env python3
# check-flatpak-manifest.py — what can be checked of the Flatpak manifests
# and the CI workflow that builds them, on a machine without the GNOME
# runtime: valid JSON, the app id and command the rest of the build uses,
# the current GNOME runtime and SDK, the same runtime, permissions and
# cleanup in both manifests, every module but the app pinned by archive URL
# and sha256, and finish-args within the narrowest set that works (files
# come through the portals, not --filesystem).
#
# The development manifest builds this working tree (a dir source) with
# the tests and warnings as errors, and runs the test suite when asked
# (flatpak-builder --run-tests, the CI's run-tests). The Flathub manifest
# builds a release from a git tag pinned to its commit. The workflow builds
# both with the standard flatpak-builder action on the runtime's image, on
# every push, and runs the tests of the development build.
#
# Usage: check-flatpak-manifest.py DEVELOPMENT_MANIFEST FLATHUB_MANIFEST
#        WORKFLOW APP_ID. Prints TAP.

import json
import os
import re
import sys

# tests/ is the script's folder, first on sys.path
from taplib import check, finish, skip

# The GNOME runtimes Flathub supports: the current one and the one before.
# Raise this when a new GNOME release comes out (March and September).
OLDEST_SUPPORTED_RUNTIME = 50

ALLOWED_FINISH_ARGS = {
    "--share=ipc",
    "--socket=fallback-x11",
    "--socket=wayland",
    "--device=dri",
    # Recording a program of the system: flatpak-spawn --host perfscope-cli
    "--talk-name=org.freedesktop.Flatpak",
}

ARCHIVE_TYPES = {"archive", "file"}

def load(path, label):
    try:
        with open(path, encoding="utf-8") as stream:
            manifest = json.load(stream)
    except (OSError, ValueError) as error:
        check(f"{label} manifest is valid JSON", False, str(error))
        return None
    check(f"{label} manifest is valid JSON", isinstance(manifest, dict))
    return manifest if isinstance(manifest, dict) else None


def check_common(manifest, label, app_id):
    app = manifest.get("id", manifest.get("app-id"))
    check(f"{label}: app id is {app_id}", app == app_id, f"found {app!r}")
    check(f"{label}: command is perfscope", manifest.get("command") == "perfscope",
          f"found {manifest.get('command')!r}")

    check(f"{label}: runtime is org.gnome.Platform", manifest.get("runtime") == "org.gnome.Platform",
          f"found {manifest.get('runtime')!r}")
    check(f"{label}: sdk is org.gnome.Sdk", manifest.get("sdk") == "org.gnome.Sdk",
          f"found {manifest.get('sdk')!r}")
    version = str(manifest.get("runtime-version", ""))
    check(f"{label}: runtime-version is a supported GNOME release (>= {OLDEST_SUPPORTED_RUNTIME})",
          re.fullmatch(r"\d+", version) and int(version) >= OLDEST_SUPPORTED_RUNTIME,
          f"found {version!r}")

    finish_args = manifest.get("finish-args", [])
    extra = [arg for arg in finish_args if arg not in ALLOWED_FINISH_ARGS]
    check(f"{label}: finish-args within the allow-list (no --filesystem, --share=network, ...)",
          isinstance(finish_args, list) and not extra, f"not allowed: {extra}")
    for needed in ("--socket=wayland", "--socket=fallback-x11", "--share=ipc", "--device=dri",
                   "--talk-name=org.freedesktop.Flatpak"):
        check(f"{label}: finish-args has {needed}", needed in finish_args)

    modules = manifest.get("modules", [])
    check(f"{label}: manifest has modules", isinstance(modules, list) and modules)
    if not modules:
        return None

    last = modules[-1]
    check(f"{label}: the last module is perfscope", isinstance(last, dict) and last.get("name") == "perfscope",
          f"found {last!r:.80}")
    if not isinstance(last, dict):
        return None
    check(f"{label}: the last module builds with meson", last.get("buildsystem") == "meson",
          f"found {last.get('buildsystem')!r}")

    for module in modules[:-1]:
        if isinstance(module, str):
            check(f"{label}: module {module} is inline", False, "external module files are not checked")
            continue
        name = module.get("name", "?")
        check(f"{label}: module {name} has a build system",
              module.get("buildsystem") in ("meson", "cmake", "cmake-ninja", "autotools", "simple", None))
        for source in module.get("sources", []):
            if isinstance(source, str) or source.get("type") not in ARCHIVE_TYPES:
                check(f"{label}: module {name}: every source is a pinned archive", False, f"found {source!r}")
                continue
            url = source.get("url", "")
            check(f"{label}: module {name}: {url} is https", url.startswith("https://"))
            check(f"{label}: module {name}: {url} has a sha256",
                  re.fullmatch(r"[0-9a-f]{64}", source.get("sha256", "")),
                  f"found {source.get('sha256')!r}")
    return last


def check_development(manifest, app_id):
    last = check_common(manifest, "development", app_id)
    if last is None:
        return
    sources = last.get("sources", [])
    check("development: the app is built from this working tree (one dir source, path ..)",
          len(sources) == 1 and sources[0].get("type") == "dir" and sources[0].get("path") == "..",
          f"found {sources!r}")
    options = last.get("config-opts", [])
    check("development: the app is built with its tests and warnings as errors",
          "-Dtests=true" in options and "-Ddevelopment=true" in options
          and not any(option.startswith("-Dbuildtype=release") for option in options),
          f"found {options!r}")
    # flatpak-builder runs test-commands in the meson build folder; an empty
    # test-rule keeps it from running "ninja test" as well
    commands = last.get("test-commands", [])
    check("development: flatpak-builder runs the tests (--disable-tests skips them)",
          last.get("run-tests") is True)
    check("development: the tests run through meson test, in place of ninja test",
          last.get("test-rule") == "" and len(commands) == 1
          and re.match(r"meson test( |$)", commands[0]) and " -C " not in commands[0],
          f"found test-rule {last.get('test-rule')!r}, test-commands {commands!r}")


def check_flathub(manifest, app_id):
    last = check_common(manifest, "Flathub", app_id)
    if last is None:
        return
    sources = last.get("sources", [])
    source = sources[0] if len(sources) == 1 and isinstance(sources[0], dict) else {}
    check("Flathub: the app is built from one git source", source.get("type") == "git", f"found {sources!r}")
    check("Flathub: the git source is an https URL of the project",
          re.fullmatch(r"https://github\.com/perfscope/perfscope(\.git)?", source.get("url", "")),
          f"found {source.get('url')!r}")
    check("Flathub: the git source is a release tag (vMAJOR.MINOR.MICRO)",
          re.fullmatch(r"v\d+\.\d+\.\d+", source.get("tag", "")), f"found {source.get('tag')!r}")
    check("Flathub: the tag is pinned to its commit (40 hex digits)",
          re.fullmatch(r"[0-9a-f]{40}", source.get("commit", "")), f"found {source.get('commit')!r}")
    check("Flathub: the git source follows no branch", "branch" not in source)
    options = last.get("config-opts", [])
    check("Flathub: the app is built without tests, as a release",
          "-Dtests=false" in options and "-Ddevelopment=false" in options and "-Dbuildtype=release" in options,
          f"found {options!r}")
    check("Flathub: the app runs no tests", not last.get("run-tests", False))
    checker = source.get("x-checker-data", {})
    check("Flathub: x-checker-data follows the release tags",
          checker.get("type") == "git" and "tag-pattern" in checker, f"found {checker!r}")


def check_same(development, flathub):
    for key in ("id", "runtime", "runtime-version", "sdk", "command", "finish-args", "cleanup"):
        check(f"both manifests have the same {key}", development.get(key) == flathub.get(key),
              f"{development.get(key)!r} and {flathub.get(key)!r}")


def check_workflow(path, development_path, flathub_path, runtime_version):
    try:
        import yaml
    except ImportError:
        # The GNOME SDK, where the development build runs the tests, has no
        # PyYAML; the Debian setup installs it
        skip("the workflow's checks", "no PyYAML (Debian: python3-yaml)")
        return
    try:
        with open(path, encoding="utf-8") as stream:
            workflow = yaml.safe_load(stream)
    except (OSError, yaml.YAMLError) as error:
        check("the workflow is valid YAML", False, str(error))
        return
    check("the workflow is valid YAML", isinstance(workflow, dict))
    if not isinstance(workflow, dict):
        return
    # YAML reads the key "on" as true
    triggers = workflow.get("on", workflow.get(True, {}))
    check("the workflow runs on every push", isinstance(triggers, dict) and "push" in triggers
          and not (triggers.get("push") or {}).get("branches"), f"found {triggers!r}")

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(path))))
    builds = {}
    runs_test_suite = False
    for name, job in (workflow.get("jobs") or {}).items():
        steps = job.get("steps", [])
        for step in steps:
            if "run" in step and "build-aux/test" in step["run"]:
                runs_test_suite = True
            if not str(step.get("uses", "")).startswith("flatpak/flatpak-github-actions/flatpak-builder@"):
                continue
            settings = step.get("with", {})
            manifest = os.path.normpath(os.path.join(root, settings.get("manifest-path", "")))
            builds[manifest] = settings
            container = job.get("container", {})
            image = container.get("image", "") if isinstance(container, dict) else str(container)
            check(f"job {name}: builds on the image of GNOME {runtime_version}, the manifests' runtime",
                  image.endswith(f":gnome-{runtime_version}"), f"found {image!r}")
            check(f"job {name}: the container may run flatpak (--privileged)",
                  isinstance(container, dict) and "--privileged" in container.get("options", ""))
            check(f"job {name}: makes a bundle", settings.get("bundle", "").endswith(".flatpak"))
    check("a job runs the whole test suite (build-aux/test)", runs_test_suite)
    development = builds.get(os.path.normpath(os.path.abspath(development_path)))
    flathub = builds.get(os.path.normpath(os.path.abspath(flathub_path)))
    check("a job builds the development manifest with the flatpak-builder action", development is not None,
          f"manifests built: {sorted(builds)}")
    check("that job runs the tests in the bundle's build (run-tests)",
          development is not None and development.get("run-tests") in (True, "true"))
    check("a job builds the Flathub manifest with the flatpak-builder action", flathub is not None)


def main():
    development_path, flathub_path, workflow_path, app_id = sys.argv[1:5]
    development = load(development_path, "development")
    flathub = load(flathub_path, "Flathub")
    if development is not None:
        check_development(development, app_id)
    if flathub is not None:
        check_flathub(flathub, app_id)
    if development is not None and flathub is not None:
        check_same(development, flathub)
    check_workflow(workflow_path, development_path, flathub_path,
                   str((development or {}).get("runtime-version", "")))


if __name__ == "__main__":
    main()
    finish()
