#!/usr/bin/env zsh
# check-zsh-completion.zsh COMPLETION_DIR CLI — the zsh completion of
# perfscope-cli completes its commands, options, format names and export
# targets, and knows every option that perfscope-cli --help lists (TAP).
#
# An interactive zsh in a pseudo-terminal (zsh/zpty) loads the completion
# with compinit, as a user's shell does; Tab runs the completion, and a
# compadd wrapper writes the matches it is given to a file.
#
# Copyright 2026 The Perfscope authors
# SPDX-License-Identifier: GPL-3.0-or-later
emulate -L zsh
setopt err_return no_unset

completion_dir=${1:A} cli=${2:A}
work=$(mktemp -d)
capture=$work/matches
trap 'zpty -d shell 2>/dev/null; rm -rf $work' EXIT
integer n=0 failed=0

zmodload zsh/zpty
zpty -b shell "HOME=$work TERM=dumb zsh -f -i"
zpty -w shell "PS1='' PS2='' PROMPT_EOL_MARK=''"
zpty -w shell "path=(${(q)cli:h} \$path); fpath=(${(q)completion_dir} \$fpath)"
zpty -w shell "autoload -Uz compinit && compinit -u -D"
# No list on screen (it could ask "do you wish to see all"), no menu
zpty -w shell "unsetopt auto_list auto_menu list_beep beep"
zpty -w shell "compadd () {
  local -a found
  if (( \${@[(I)-[OAD]*]} )); then builtin compadd \"\$@\"; return; fi
  builtin compadd -O found \"\$@\"
  (( \$#found )) && print -rl -- \$found >> ${(q)capture}
  builtin compadd \"\$@\"
}"
zpty -w shell "capture-complete () { zle complete-word; print -r -- '<end>' >> ${(q)capture} }"
zpty -w shell "zle -N capture-complete; bindkey '^I' capture-complete"

# The matches, sorted and on one line, for a command line whose last word
# is being typed
complete_line () {
  local line=$1 text
  : > $capture
  zpty -w -n shell "$line"$'\t'
  for i in {1..100}; do
    [[ -s $capture && $(<$capture) == *'<end>'* ]] && break
    sleep 0.1
  done
  # Kill the line, whatever the completion inserted
  zpty -w -n shell $'\C-e\C-u'
  text=$(<$capture)
  [[ $text == *'<end>'* ]] || { print -r -- "(no answer)"; return }
  print -r -- ${(j: :)${(ou)${(f)text}:#<end>}}
}

expect () {
  local want=$1 line=$2 got
  got=$(complete_line $line)
  n+=1
  if [[ $got == $want ]]; then
    print -r -- "ok $n - $line → $want"
  else
    print -r -- "not ok $n - $line → “$got”, not “$want”"
    failed=1
  fi
}

expect "stats" "perfscope-cli st"
expect "calltree counters" "perfscope-cli c"
expect "--group-addresses --group-by-name" "perfscope-cli stats --gr"
expect "pdh-csv perflib-plv2 perfscope pmcstat-callgraph" "perfscope-cli --format=p"
expect "speedscope" "perfscope-cli export run.log --to=s"
expect "s1 view" "perfscope-cli calltree run.log --basis="
expect "4 8" "perfscope-cli --address-width="
expect "hwpmc" "perfscope-cli record --backend=h"
expect "summarize" "perfscope-cli su"
expect "name time version" "perfscope-cli trend nightly --by="

# Every option of --help, in the completion
listed=" $(complete_line 'perfscope-cli --') $(complete_line 'perfscope-cli -') "
for option in ${(f)"$($cli --help | grep -oE '^ +(-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+')"}; do
  n+=1
  if [[ $listed == *" $option "* || $listed == *" $option= "* ]]; then
    print -r -- "ok $n - $option is completed"
  else
    print -r -- "not ok $n - $option is in --help but not completed"
    failed=1
  fi
done
print -r -- "1..$n"
exit $failed
