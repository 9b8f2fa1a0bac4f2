# bench-lib.sh — what the parsing benchmarks share: options, sizes, GNU
# time, the build, the input file, the timing rounds and the table.
# Sourced by run-ce-bench and run-rtl-bench, not run on its own.
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The script that sources it sets bench_name (the prefix of its messages)
# and defines usage (), then calls, in this order:
#
#   bench_parse_options "$@"
#   bench_require_gnu_time
#   bench_build GENERATOR                  sets $cli and $gen
#   bench_input_file NAME [GENERATOR_ARG…] sets $file and $file_bytes
#   bench_measure OUTPUT CLI_ARG…          sets $wc_s $wc_rss $cat_s $cat_rss
#                                          $cli_s $cli_rss $lines $cli_output
#   bench_print_table TITLE CLI_LABEL
#   (its own lines about what was parsed)
#   bench_print_targets SPEED_FACTOR MEMORY_PERCENT
#
# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables are the interface to the scripts

bench_name=${bench_name:-$(basename "$0")}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$top/_build-bench
size=1G
runs=3
seed=1
also_args=()
also_label=
base_dir=
input_file=
keep=false
build=true

work_dir=
measure_dir=

die() { echo "$bench_name: $*" >&2; exit 1; }
note() { echo "$bench_name: $*" >&2; }

# --- options ------------------------------------------------------------

bench_parse_options() {
  while [ $# -gt 0 ]; do
    case $1 in
      --size) size=${2:?}; shift 2 ;;
      --seed) seed=${2:?}; shift 2 ;;
      --runs) runs=${2:?}; shift 2 ;;
      --dir) base_dir=${2:?}; shift 2 ;;
      --file) input_file=${2:?}; shift 2 ;;
      --build-dir) build_dir=${2:?}; shift 2 ;;
      --no-build) build=false; shift ;;
      --keep) keep=true; shift ;;
      -h|--help) usage; exit 0 ;;
      *) usage >&2; exit 2 ;;
    esac
  done
  [[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs needs a positive number"
}

# Size in bytes of "1G", "500M", "64K" or a plain number (binary units,
# like the generators)
bench_size_bytes() {
  local text=${1%[bB]} ; text=${text%i}
  case $text in
    *[gG]) echo $(( ${text%?} * 1024 * 1024 * 1024 )) ;;
    *[mM]) echo $(( ${text%?} * 1024 * 1024 )) ;;
    *[kK]) echo $(( ${text%?} * 1024 )) ;;
    *[!0-9]*|'') die "bad size: $1 (use e.g. 1G, 500M, 100M)" ;;
    *) echo "$text" ;;
  esac
}

# --- tools --------------------------------------------------------------

bench_require_gnu_time() {
  if [ ! -x /usr/bin/time ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      note "installing GNU time (package 'time') for peak-RSS measurement"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null ||
        die "could not install package 'time'"
    else
      die "/usr/bin/time (GNU time) is missing; it measures peak memory. Install it: sudo apt-get install time (Debian/Ubuntu) or sudo dnf install time (Fedora)"
    fi
  fi
  /usr/bin/time -f '%e %M' -o /dev/null true 2>/dev/null ||
    die "/usr/bin/time is not GNU time (needs -f '%e %M' and -o)"
}

# Configures and builds the release build directory; $1 is the generator
bench_build() {
  if [ ! -d "$build_dir" ]; then
    $build || die "$build_dir does not exist (drop --no-build)"
    note "configuring $build_dir (release, no GUI)"
    (cd "$top" && meson setup "$build_dir" -Dgui=false -Dbuildtype=release -Db_lto=true) >/dev/null ||
      die "meson setup $build_dir failed"
  fi
  if $build; then
    ninja -C "$build_dir" >/dev/null || die "ninja -C $build_dir failed"
  fi
  cli=$build_dir/src/cli/perfscope-cli
  gen=$build_dir/bench/$1
  [ -x "$cli" ] || die "$cli was not built"
}

# --- the input file -----------------------------------------------------

# shellcheck disable=SC2317  # called from the EXIT trap
bench_cleanup() {
  if [ -n "$measure_dir" ]; then
    rm -rf "$measure_dir"
  fi
  if [ -n "$work_dir" ]; then
    if $keep; then note "kept $work_dir"; else rm -rf "$work_dir"; fi
  fi
}

# Free bytes in a directory
bench_free_bytes() {
  local kib
  kib=$(df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print $4 }')
  [ -n "$kib" ] && echo $(( kib * 1024 ))
}

# The first of --dir (alone when given), $TMPDIR, /var/tmp and /tmp with
# room for $1 bytes plus 10 % and 256 MiB to spare; nothing when none has
bench_dir_with_room() {
  local bytes=$1 dir free
  local candidates=()

  if [ -n "$base_dir" ]; then
    candidates=("$base_dir")
  else
    candidates=(${TMPDIR:+"$TMPDIR"} /var/tmp /tmp)
  fi
  for dir in "${candidates[@]}"; do
    if [ ! -d "$dir" ] || [ ! -w "$dir" ]; then continue; fi
    free=$(bench_free_bytes "$dir")
    if [ -n "$free" ] && [ "$free" -gt $(( bytes + bytes / 10 + 256 * 1024 * 1024 )) ]; then
      echo "$dir"
      return
    fi
  done
}

# The file to measure: --file, or a generated one named $1 (the generator
# also gets --size, --seed, the other arguments and -o)
bench_input_file() {
  local name=$1; shift
  local wanted try chosen_dir

  trap bench_cleanup EXIT

  if [ -n "$input_file" ]; then
    [ -r "$input_file" ] || die "cannot read $input_file"
    file=$input_file
  else
    [ -x "$gen" ] || die "$gen was not built"
    wanted=$(bench_size_bytes "$size")

    # If no directory has room for the file, the smaller standard sizes
    chosen_dir=
    for try in "$wanted" $((500 * 1024 * 1024)) $((100 * 1024 * 1024)); do
      [ "$try" -le "$wanted" ] || continue
      chosen_dir=$(bench_dir_with_room "$try")
      [ -z "$chosen_dir" ] || break
    done
    [ -n "$chosen_dir" ] || die "no room for even a 100 MiB file (use --dir)"
    if [ "$try" -lt "$wanted" ]; then
      note "not enough free space for $size; using $(( try / 1024 / 1024 )) MiB instead"
    fi

    work_dir=$(mktemp -d "$chosen_dir/perfscope-bench.XXXXXX")
    file=$work_dir/$name
    note "generating $(( try / 1024 / 1024 )) MiB into $file"
    "$gen" --size "$try" --seed "$seed" "$@" -o "$file" >&2 || die "$(basename "$gen") failed"
  fi

  file_bytes=$(stat -c %s "$file")
  [ "$file_bytes" -gt 0 ] || die "$file is empty"

  local mem_available_kib
  mem_available_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null || echo 0)
  if [ "${mem_available_kib:-0}" -gt 0 ] && [ "$file_bytes" -gt $(( mem_available_kib * 1024 )) ]; then
    note "warning: the file is larger than available memory; 'warm cache' will not hold and times include disk reads"
  fi
}

# --- measuring ----------------------------------------------------------

# One timed run: appends "seconds peak_rss_kib" to $measure_dir/$1.
# The wall time comes from bash's microsecond clock when available (%e has
# only hundredths), peak RSS from GNU time's %M.
bench_timed() {
  local name=$1 output=$2; shift 2
  local t0 t1 status=0 seconds rss elapsed user system
  t0=${EPOCHREALTIME:-}
  /usr/bin/time -f '%e %M %U %S' -o "$measure_dir/time.out" "$@" >"$output" || status=$?
  t1=${EPOCHREALTIME:-}
  if [ $status -ne 0 ]; then
    note "$name failed with exit status $status: $*"
    return $status
  fi
  read -r elapsed rss user system < <(tail -n 1 "$measure_dir/time.out")
  if [ -n "$t0" ] && [ -n "$t1" ]; then
    seconds=$(awk -v a="${t0/,/.}" -v b="${t1/,/.}" 'BEGIN { printf "%.3f", b - a }')
  else
    seconds=$elapsed
  fi
  echo "$seconds $rss $(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')" >>"$measure_dir/$name"
}

# Best (lowest) wall time of a tool, the highest peak RSS over its runs,
# and the CPU time (user + system) of the best run
bench_best() {
  awk 'NR == 1 || $1 < t { t = $1; c = $3 } $2 > m { m = $2 } END { printf "%s %s %s\n", t, m, c }' "$measure_dir/$1"
}

# Times wc -l, cat and the command "$cli" CLI_ARG… FILE in rounds. The
# command's output of the first round is kept in $measure_dir/$1 (a few
# KiB of JSON, so writing it instead of to /dev/null changes nothing).
# A script may set also_args (an array of CLI arguments) and also_label
# for a second command timed in the same rounds (also_s, also_rss).
bench_measure() {
  local keep_name=$1; shift
  local round failed=false output

  measure_dir=$(mktemp -d)
  cli_output=$measure_dir/$keep_name

  note "warming the page cache"
  cat "$file" >/dev/null

  # Rounds interleave the tools so that a slow phase of the machine hits all
  for round in $(seq 1 "$runs"); do
    note "round $round of $runs"
    bench_timed wc "$measure_dir/wc.out" wc -l "$file" || failed=true
    bench_timed cat /dev/null cat "$file" || failed=true
    if [ "$round" = 1 ]; then output=$cli_output; else output=/dev/null; fi
    bench_timed cli "$output" "$cli" "$@" "$file" || failed=true
    if [ "${#also_args[@]}" -gt 0 ]; then
      bench_timed also /dev/null "$cli" "${also_args[@]}" "$file" || failed=true
    fi
    $failed && break
  done

  if $failed; then
    die "a tool failed; no results"
  fi

  read -r wc_s wc_rss wc_cpu < <(bench_best wc)
  read -r cat_s cat_rss cat_cpu < <(bench_best cat)
  read -r cli_s cli_rss cli_cpu < <(bench_best cli)
  if [ "${#also_args[@]}" -gt 0 ]; then
    read -r also_s also_rss also_cpu < <(bench_best also)
  fi
  lines=$(awk '{ print $1 }' "$measure_dir/wc.out")
}

# A number member of the kept JSON output ("" if absent)
bench_json_number() {
  grep -o "\"$1\"[[:space:]]*:[[:space:]]*[0-9]*" "$cli_output" | grep -o '[0-9]*$' || true
}

# --- the report ---------------------------------------------------------

bench_row() {
  awk -v tool="$1" -v s="$2" -v rss="$3" -v cpu="$4" -v base="$wc_s" -v bytes="$file_bytes" 'BEGIN {
    mbs = (s > 0) ? sprintf("%.0f", bytes / s / 1e6) : "∞"
    ratio = (base > 0) ? sprintf("%.2f", s / base) : "n/a"
    printf "| %s | %.3f | %.2f | %s | %s | %.1f MiB | %.2f %% |\n", tool, s, cpu, mbs, ratio, rss / 1024, rss * 1024 * 100 / bytes
  }'
}

# The machine, the file and the table; $1 is the title, $2 the label of
# the perfscope-cli row
bench_print_table() {
  local title=$1 cli_label=$2
  local cpu_model revision wc_version

  cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
  revision=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
  # sed reads to the end: with head, wc could die of SIGPIPE and pipefail
  # would report a failure
  wc_version=$(wc --version 2>/dev/null | sed -n 1p || true)

  echo
  echo "## $title"
  echo
  echo "- file: $(basename "$file"), $file_bytes bytes ($(awk -v b="$file_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB), $lines lines"
  echo "- machine: ${cpu_model:-unknown CPU}, $(nproc) CPUs, $(uname -sr)"
  echo "- baseline: ${wc_version:-wc (unknown version)}"
  echo "- perfscope: $revision, $(basename "$build_dir") (release)"
  echo "- best of $runs warm-cache runs; peak RSS is the highest of the runs"
  echo
  echo "| tool | wall s | CPU s | MB/s | ratio to wc -l | peak RSS | RSS / file size |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  # shellcheck disable=SC2016  # backquotes are Markdown code spans
  bench_row '`wc -l`' "$wc_s" "$wc_rss" "$wc_cpu"
  # shellcheck disable=SC2016
  bench_row '`cat > /dev/null`' "$cat_s" "$cat_rss" "$cat_cpu"
  bench_row "$cli_label" "$cli_s" "$cli_rss" "$cli_cpu"
  if [ "${#also_args[@]}" -gt 0 ]; then
    bench_row "$also_label" "$also_s" "$also_rss" "$also_cpu"
  fi
  echo
}

bench_verdict() { if [ "$1" = 1 ]; then echo PASS; else echo FAIL; fi; }

# Targets: parse time at most $1 × wc -l, peak RSS under $2 % of the file
bench_print_targets() {
  local factor=$1 percent=$2 speed_ok memory_ok

  speed_ok=$(awk -v a="$cli_s" -v b="$wc_s" -v f="$factor" 'BEGIN { print (a <= f * b) ? 1 : 0 }')
  memory_ok=$(awk -v r="$cli_rss" -v bytes="$file_bytes" -v p="$percent" 'BEGIN { print (r * 1024 < p / 100 * bytes) ? 1 : 0 }')
  echo "Targets:"
  echo
  echo "- parse time ≤ $factor × wc -l: $(awk -v a="$cli_s" -v b="$wc_s" 'BEGIN { printf "%.2f ×", (b > 0) ? a / b : 0 }') — $(bench_verdict "$speed_ok")"
  echo "- peak memory < $percent % of file size: $(awk -v r="$cli_rss" -v bytes="$file_bytes" 'BEGIN { printf "%.1f %%", r * 1024 * 100 / bytes }') — $(bench_verdict "$memory_ok")"
}
