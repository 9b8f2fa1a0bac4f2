#!/usr/bin/env bash
# check-man-pages.sh MAN_DIR PERFSCOPE PERFSCOPE_CLI — perfscope(1) and
# perfscope-cli(1) name every option their program's --help lists, and
# format without a warning (TAP).
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
man_dir=$1 app=$2 cli=$3
n=0 failed=0

result () {
  n=$((n + 1))
  if [[ $1 == 0 ]]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}

check_page () {
  local page=$1 program=$2 option
  while read -r option; do
    # roff writes "-" as "\-"
    grep -qF -- "${option//-/\\-}" "$page"
    result $? "$(basename "$page") names $option"
  done < <("$program" --help | grep -oE '^ +(-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' | grep -vx -- '--help-[a-z]*')
  if command -v man >/dev/null; then
    local warnings
    warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
    [[ -z $warnings ]]
    result $? "$(basename "$page") formats without warnings${warnings:+: $warnings}"
  fi
}

check_page "$man_dir/perfscope.1" "$app"
check_page "$man_dir/perfscope-cli.1" "$cli"
echo "1..$n"
exit $failed
