#!/bin/sh
# check-valgrind.sh CLI SOURCE_ROOT — perfscope-cli under valgrind memcheck
# over every fixture and demo log: no memory error and no definite leak
# (issue 12, "Sanitizer CI"). Each file is read by `info` and analysed by
# `stats`, `calltree` or `counters`; exit statuses 0–3 are the CLI's own
# answers, the test fails only on what memcheck reports. TAP output.
set -u

cli=$1
root=$2
# GLib's own, not Perfscope's: what the GIO modules installed on the
# machine keep until exit
suppressions="$root/tests/glib-modules.supp"
n=0
failed=0

files=$(find "$root/tests/data" "$root/data/demo" -type f \
          ! -name '*.md' ! -name 'LICENSE*' ! -name '*.gz' ! -path '*/expected-collapsed/*' \
          ! -path '*/tests/data/export/*' ! -path '*/symbols/*' | sort)
for file in $files; do
  # info reads; the analysis of what the file holds
  case "$file" in
    */pdh-csv/*|*/perflib-plv2/*|*.plv2|*/perfmon_*) analysis=counters ;;
    */pmcstat-callgraph/*|*/vs-report-csv/*|*.pmclog) analysis=calltree ;;
    *) analysis=stats ;;
  esac
  for command in info $analysis; do
    n=$((n + 1))
    log=$(mktemp)
    G_SLICE=always-malloc G_DEBUG=gc-friendly \
      valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
               --suppressions="$suppressions" \
               --show-leak-kinds=definite --num-callers=30 --log-file="$log" \
               "$cli" "$command" --quiet "$file" >/dev/null 2>&1
    status=$?
    name="${file#$root/}"
    if [ $status -eq 99 ] || [ $status -gt 3 ]; then
      echo "not ok $n - $command $name (status $status)"
      sed 's/^/# /' "$log"
      failed=$((failed + 1))
    else
      echo "ok $n - $command $name"
    fi
    rm -f "$log"
  done
done
echo "1..$n"
[ $failed -eq 0 ]
