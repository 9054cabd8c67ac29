#!/bin/bash
# The man page and shell completions gpuscout writes from its command table (src/cli/shell_docs.cpp):
#   check_shell_files.sh GPUSCOUT_BIN BUILD_SHELL_DIR
# bash: the script parses, loads and completes a command, an option and a file; `gpuscout completion bash` is the
# installed file; zsh and fish: their parsers accept the scripts (skipped, with a line, where not installed); the
# man page renders through groff's man macros without a warning.
set -u
bin=$1 dir=$2 failed=0
fail() { echo "FAIL: $*"; failed=1; }

for f in gpuscout.1 gpuscout.bash _gpuscout gpuscout.fish; do
  [ -s "$dir/$f" ] || fail "$dir/$f was not generated"
done
cmp -s <("$bin" --lang en completion bash) "$dir/gpuscout.bash" || fail "completion bash differs from the build's file"

bash -n "$dir/gpuscout.bash" || fail "bash -n refuses gpuscout.bash"
complete_words() {  # complete_words WORD... : what bash offers for the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpuscout; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$dir/gpuscout.bash" "$@"
}
[ "$(complete_words gpuscout que)" = "query" ] || fail "gpuscout que<TAB> gave: $(complete_words gpuscout que)"
[ "$(complete_words gpuscout query --query-g)" = "--query-gpu" ] || fail "query --query-g<TAB>: $(complete_words gpuscout query --query-g)"
complete_words gpuscout doctor --js | grep -qx -- --json || fail "doctor --js<TAB> does not offer --json"
complete_words gpuscout doctor --col | grep -qx -- --color || fail "a global option is not offered after a command"
tmp=$(mktemp -d) && touch "$tmp/inventory.json"
[ "$(complete_words gpuscout info --from "$tmp/inv")" = "$tmp/inventory.json" ] || fail "info --from does not complete a file"
rm -rf "$tmp"
complete_words gpuscout __gen | grep -q . && fail "the hidden generator is offered"
bash -c "source '$dir/gpuscout.bash'; complete -p gpuscout" | grep -q -- "-F _gpuscout" || fail "complete -p gpuscout"

if command -v zsh >/dev/null; then
  zsh -n "$dir/_gpuscout" || fail "zsh -n refuses _gpuscout"
  got=$(zsh -f -c "fpath=('$dir' \$fpath); autoload -Uz compinit; compinit -u -D; print -r -- \${_comps[gpuscout]}")
  [ "$got" = "_gpuscout" ] || fail "zsh: compinit does not bind _gpuscout to gpuscout (got '$got')"
else echo "skip: zsh is not installed"; fi
if command -v fish >/dev/null; then
  fish --no-execute "$dir/gpuscout.fish" || fail "fish refuses gpuscout.fish"
  got=$(fish --no-config -c "source '$dir/gpuscout.fish'; complete -C 'gpuscout que'" | cut -f1)
  [ "$got" = "query" ] || fail "fish: gpuscout que<TAB> gave: $got"
  got=$(fish --no-config -c "source '$dir/gpuscout.fish'; complete -C 'gpuscout doctor --js'" | cut -f1)
  [ "$got" = "--json" ] || fail "fish: doctor --js<TAB> gave: $got"
else echo "skip: fish is not installed"; fi

if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$dir/gpuscout.1" 2>&1)
  [ -z "$warnings" ] || fail "groff warns on gpuscout.1: $warnings"
  groff -man -Tascii -rHY=0 "$dir/gpuscout.1" 2>/dev/null | grep -q -- "--query-gpu" || fail "the man page lacks query's options"
else echo "skip: groff is not installed"; fi
exit $failed
