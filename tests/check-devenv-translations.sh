#!/usr/bin/env bash
# check-devenv-translations.sh BUILD_DIR — run from the build tree through
# meson devenv, as a developer tries a language, perfscope-cli speaks
# French and Korean with the translations compiled in that tree (TAP).
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
build=$1
n=0 failed=0

check () {
  local language=$1 expected=$2 output
  n=$((n + 1))
  # LANGUAGE needs a locale other than C for gettext to read it
  output=$(LC_ALL=C.UTF-8 LANG=C.UTF-8 LANGUAGE=$language meson devenv -C "$build" perfscope-cli --help 2>&1)
  if grep -qF -- "$expected" <<<"$output"; then
    echo "ok $n - $language: --help says “$expected”"
  else
    echo "not ok $n - $language: --help does not say “$expected”:"
    sed 's/^/# /' <<<"$output" | head -5
    failed=1
  fi
}

echo "1..2"
check fr "Inspecter des journaux de performances sans affichage."
check ko "화면 없이 성능 로그를 살펴봅니다."
exit $failed
