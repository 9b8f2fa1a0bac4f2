#!/usr/bin/env bash
# check-completion.sh COMPLETION CLI — the bash completion of perfscope-cli
# completes its commands, options, format names and export targets, and
# knows every option that perfscope-cli --help lists (TAP).
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -u
completion=$1 cli=$2
# shellcheck source=/dev/null
source "$completion"
n=0 failed=0

# The completions of a command line whose last word is being typed
complete_words () {
  COMP_WORDS=("$@")
  COMP_CWORD=$(( $# - 1 ))
  COMPREPLY=()
  _perfscope_cli
  echo "${COMPREPLY[*]}"
}

expect () {
  local want=$1 got
  shift
  got=$(complete_words "$@")
  n=$((n + 1))
  if [[ $got == "$want" ]]; then
    echo "ok $n - $* → $want"
  else
    echo "not ok $n - $* → “$got”, not “$want”"
    failed=1
  fi
}

expect "stats" "$cli" st
expect "calltree counters" "$cli" c
expect "--group-by-name --group-addresses" "$cli" stats --gr
expect "--format=pmcstat-callgraph --format=pdh-csv --format=perflib-plv2 --format=perfscope" "$cli" --format=p
expect "pmcstat-callgraph pdh-csv perflib-plv2 perfscope" "$cli" --format = p
expect "speedscope" "$cli" export run.log --to = s
expect "s1 view" "$cli" calltree run.log --basis =
expect "summarize" "$cli" su
expect "time version name" "$cli" trend nightly --by =
expect "p95" "$cli" trend nightly --value = p

# Every option of --help, in the completion
listed=$(complete_words "$cli" --)
while read -r option; do
  n=$((n + 1))
  if [[ " $listed " == *" $option "* || " $listed " == *" $option= "* ]]; then
    echo "ok $n - $option is completed"
  else
    echo "not ok $n - $option is in --help but not completed"
    failed=1
  fi
done < <("$cli" --help | grep -oE '^ +(-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+')
echo "1..$n"
exit $failed
