#!/usr/bin/env bash
# check-install.sh — meson install of the build being tested into a
# temporary DESTDIR, then everything where the freedesktop and GNOME
# conventions put it: programs in bindir, the desktop file, metainfo, the
# application icon (scalable and symbolic), the settings schema (which
# glib-compile-schemas --strict must accept as installed), the MIME XML,
# a .mo file for every language of po/LINGUAS, the collector plugins of
# this build (loaded by the installed program) and the demo logs. This is
# what flatpak-builder runs for the last module of the manifest.
#
# Arguments (from tests/meson.build): build dir, source dir, app id,
# bindir, datadir, localedir, collectordir (the last four absolute, with
# the prefix), then the file names of the collector modules the build
# installs.
# Prints TAP.
set -uo pipefail

build_dir=$1 source_dir=$2 app_id=$3 bindir=$4 datadir=$5 localedir=$6 collectordir=$7
shift 7
collector_modules=("$@")
# Where meson installs manual pages (meson's mandir)
mandir=${PERFSCOPE_MANDIR:-$datadir/man}

destdir=$(mktemp -d "${TMPDIR:-/tmp}/perfscope-install-XXXXXX")
trap 'rm -rf "$destdir"' EXIT

n=0
failed=0
check() {
  # check DESCRIPTION COMMAND...
  local description=$1
  shift
  n=$((n + 1))
  if "$@" >"$destdir/.out" 2>&1; then
    echo "ok $n - $description"
  else
    echo "not ok $n - $description"
    sed 's/^/# /' "$destdir/.out"
    failed=1
  fi
}

# Runs against this very build: no rebuild (meson test already built it),
# no post-install scripts (meson skips them with a DESTDIR)
check "meson install --destdir" \
  meson install -C "$build_dir" --no-rebuild --quiet --destdir "$destdir"

root=$destdir
check "perfscope in bindir, executable" test -x "$root$bindir/perfscope"
check "perfscope-cli in bindir, executable" test -x "$root$bindir/perfscope-cli"
check "perfscope-cli runs from the staging folder" "$root$bindir/perfscope-cli" --version
check "perfscope --version says its version" bash -c '"$0" --version | grep -q "^perfscope [0-9]"' "$root$bindir/perfscope"
for page in perfscope perfscope-cli; do
  check "manual page $page(1) in man1/" test -f "$root$mandir/man1/$page.1"
done
check "bash completion of perfscope-cli in bash-completion/completions/" \
  test -f "$root$datadir/bash-completion/completions/perfscope-cli"
check "zsh completion of perfscope-cli in zsh/site-functions/" \
  test -f "$root$datadir/zsh/site-functions/_perfscope-cli"

desktop=$root$datadir/applications/$app_id.desktop
check "desktop file in applications/" test -f "$desktop"
if command -v desktop-file-validate >/dev/null; then
  check "installed desktop file validates" desktop-file-validate "$desktop"
fi
check "desktop file runs the installed program" grep -qx "Exec=perfscope %U" "$desktop"
check "desktop file names the installed icon" grep -qx "Icon=$app_id" "$desktop"

metainfo=$root$datadir/metainfo/$app_id.metainfo.xml
check "metainfo in metainfo/" test -f "$metainfo"
check "metainfo launches the installed desktop file" \
  grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo"

check "scalable application icon" test -s "$root$datadir/icons/hicolor/scalable/apps/$app_id.svg"
check "symbolic application icon" test -s "$root$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"

schemas=$root$datadir/glib-2.0/schemas
check "settings schema in glib-2.0/schemas/" test -f "$schemas/$app_id.gschema.xml"
if command -v glib-compile-schemas >/dev/null; then
  check "installed schemas compile with --strict" \
    glib-compile-schemas --strict --targetdir="$destdir" "$schemas"
fi

mime=$root$datadir/mime/packages/$app_id.xml
check "MIME XML in mime/packages/" test -f "$mime"
check "MIME XML defines the pmclog and PLV2 types" \
  grep -q 'type="application/x-perfscope-plv2"' "$mime"
check "MIME XML defines the saved-run type" \
  grep -q 'type="application/x-perfscope"' "$mime"
if command -v xmllint >/dev/null; then
  check "installed MIME XML is well-formed" xmllint --noout "$mime"
fi

# Collector plugins in the plugin folder; the installed perfscope-cli
# loads the procfs one from there (pointed at the staging copy) and records
for module in "${collector_modules[@]}"; do
  check "collector plugin $module in the plugin folder" test -f "$root$collectordir/$module"
done
if printf '%s\n' "${collector_modules[@]}" | grep -q procfs; then
  check "the installed perfscope-cli records with the installed procfs plugin" \
    env PERFSCOPE_COLLECTOR_DIR="$root$collectordir" \
    "$root$bindir/perfscope-cli" record --backend procfs --duration 0.3
fi

while read -r lang; do
  case $lang in ''|'#'*) continue ;; esac
  check "translation $lang" test -f "$root$localedir/$lang/LC_MESSAGES/perfscope.mo"
done <"$source_dir/po/LINGUAS"

for demo in "$source_dir"/data/demo/*; do
  name=$(basename "$demo")
  check "demo log $name" cmp "$demo" "$root$datadir/perfscope/demo/$name"
done

# Nothing the app does not need: no headers, static libraries or tests
check "no headers, static libraries or test programs installed" \
  test -z "$(find "$root" \( -name '*.h' -o -name '*.a' -o -name 'test-*' \) -print)"

echo "1..$n"
exit $failed
