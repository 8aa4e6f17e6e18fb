#!/usr/bin/env bash
# Every command proofdeck suggests works as printed for a learner who follows the README, whose
# only command is ./scripts/run. Runs quiz, exam, drill, stats and `demo run` through
# ./scripts/run, from the clone and from another folder, each with an empty HOME; collects every
# command line the output suggests (a line that starts with the program, or pipes into it);
# checks that none says the installed name `proofdeck` the learner does not have; and runs each
# with standard input closed: none may exit 127 or print "command not found".
#
# It calls ./scripts/run itself, which builds build-run/ when stale: scripts/test runs it after
# that tree is built, so each call only checks that nothing changed.
#
#   tests/suggested_commands.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/proofdeck-suggested.XXXXXX")
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/e2e_lib.sh
source "$root/tests/e2e_lib.sh"

# Twenty answers of one letter each: every single-choice question gets one.
letters() {
  for _ in $(seq 20); do echo "$1"; done
}

# session WHERE PROGRAM: the study sessions and demos, run the way the learner runs proofdeck;
# their output goes to $work/WHERE/*.out.
session() {
  local where=$1 program=$2 out="$work/$1"
  mkdir -p "$out"
  # A fixed clock and seed: the same sessions whatever the day.
  local clock=(--color never --width 60 --seed 3)
  export PROOFDECK_NOW=2026-03-02T09:00:00Z
  letters a | $program quiz --type single "${clock[@]}" >"$out/quiz.out" 2>&1 || true
  { letters a | head -3; printf 'submit\nyes\n'; } |
    $program exam --count 3 --type single "${clock[@]}" >"$out/exam.out" 2>&1 || true
  # A topic of one objective: one new card a day, the others wait once it was reviewed.
  letters a | $program drill --topic ln-placement --auto-rate --type single "${clock[@]}" \
    >"$out/drill.out" 2>&1 || true
  PROOFDECK_NOW=2026-03-02T15:00:00Z $program drill --topic ln-placement "${clock[@]}" \
    </dev/null >"$out/drill-later.out" 2>&1 || true
  # No answer read: the drill says how to pipe answers in.
  PROOFDECK_NOW=2026-03-09T09:00:00Z $program drill --type single "${clock[@]}" </dev/null \
    >"$out/drill-no-answer.out" 2>&1 || true
  # A store with nothing to drill: the drill points to the forecast.
  PROOFDECK_HOME="$out/empty" $program drill --new 0 "${clock[@]}" </dev/null \
    >"$out/drill-nothing.out" 2>&1 || true
  $program stats "${clock[@]}" >"$out/stats.out" 2>&1 || true
  # Quiz feedback's figures, and a heatmap whose numbers need a wider terminal.
  $program demo run order-blindness --compact --color never --width 60 >"$out/demo.out" 2>&1 ||
    true
  $program demo run alibi-distance --color never --width 60 >"$out/demo-wide.out" 2>&1 || true
  unset PROOFDECK_NOW
}

# suggestions WHERE PROGRAM: each command line suggested in WHERE's outputs, one a line, the
# lines a command was wrapped over (ended by " \") joined.
suggestions() {
  local program=$1
  shift
  # The program through the environment: awk -v would read its backslashes as escapes.
  PROGRAM=$program awk '
    function starts(text) {
      sub(/^[ \t]+/, "", text)
      return index(text, program " ") == 1 || (text ~ /^printf / && index(text, "| " program " ") > 0)
    }
    BEGIN { program = ENVIRON["PROGRAM"] }
    {
      line = $0
      if (joining) {
        sub(/^[ \t]+/, "", line)
        command = command " " line
      } else if (starts(line)) {
        command = line
        joining = 1
      } else {
        next
      }
      if (command ~ / \\$/) { sub(/ \\$/, "", command); next }
      sub(/^[ \t]+/, "", command)
      print command
      joining = 0
    }' "$@" | sort -u
}

for where in clone elsewhere; do
  home="$work/home-$where"
  mkdir -p "$home"
  if [[ $where == clone ]]; then
    cd "$root"
    program=./scripts/run
  else
    mkdir -p "$work/folder"
    cd "$work/folder"
    program=$(printf '%q' "$root/scripts/run")
  fi
  (
    export HOME="$home"
    unset PROOFDECK_HOME XDG_DATA_HOME PROOFDECK_COMMAND
    session "$where" "$program"
  )
  outputs=("$work/$where"/*.out)
  # The installed name in a suggestion would be "command not found" here. A title such as
  # "proofdeck quiz · 20 questions" is not a suggestion: it holds a " · ".
  stray=$(grep -hE '(^|[ (`])proofdeck (quiz|exam|drill|stats|demo|list)( |$)' "${outputs[@]}" |
    grep -vF ' · ' || true)
  if [[ -z $stray ]]; then pass "$where: no suggestion says proofdeck"; else
    fail "$where: no suggestion says proofdeck" "$stray"; fi
  mapfile -t commands < <(suggestions "$program" "${outputs[@]}")
  # What each session must have suggested, so the list cannot be empty by accident.
  for expected in "quiz --type single --missed" "exam --review 1" "drill --topic ln-placement --no-bury" \
    "stats" "quiz --trap " "demo run order-blindness" "demo run alibi-distance --format md"; do
    found=0
    for command in "${commands[@]}"; do
      [[ $command == *"$program $expected"* ]] && found=1
    done
    check "$where: suggested: $program $expected" test "$found" -eq 1
  done
  for command in "${commands[@]}"; do
    status=0
    output=$(HOME="$home" PROOFDECK_NOW=2026-03-02T16:00:00Z bash -c "$command" <&- 2>&1) ||
      status=$?
    if [[ $status -ne 127 && $output != *"command not found"* && $output != *"No such file"* ]]; then
      pass "$where: runs as printed: $command (exit $status)"
    else
      fail "$where: runs as printed: $command (exit $status)" "$(tail -3 <<<"$output")"
    fi
  done
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
