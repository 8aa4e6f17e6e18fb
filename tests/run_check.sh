#!/usr/bin/env bash
# What ./scripts/run starts with no arguments (scripts/first_run.sh), checked against the real
# binary: a learner without progress gets the short first quiz, one with progress the usual quiz,
# and the script looks for progress.db exactly where the binary keeps it, under each of the
# binary's rules ($PROOFDECK_HOME, $XDG_DATA_HOME, $HOME). And scripts/build's progress: each
# step on a terminal, the first step and a closing line elsewhere, nothing on stdout.
#
#   tests/run_check.sh PATH/TO/proofdeck      (CTest runs it as run_script)
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 PROOFDECK" >&2
  exit 2
fi
proofdeck=$1
root=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/proofdeck-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/e2e_lib.sh
source "$root/tests/e2e_lib.sh"
# shellcheck source=scripts/first_run.sh
source "$root/scripts/first_run.sh"

# defaults_are WORDS...: what a bare ./scripts/run would run, in the current environment.
defaults_are() {
  choose_default_run_args
  [[ "${default_run_args[*]}" == "$*" ]] ||
    { echo "#   got: ${default_run_args[*]}"; return 1; }
}

# One quiz answered by the binary itself, so progress.db lands where the binary puts it.
take_a_quiz() {
  printf ':q\n' | "$proofdeck" quiz --count 1 --seed 0 --color never >/dev/null 2>&1
}

# Each rule of the data folder in turn, in a fresh folder: the one named, and those below it
# (which it must win over), set; those above it unset.
for rule in PROOFDECK_HOME XDG_DATA_HOME HOME; do
  (
    passed=0 failed=0
    unset PROOFDECK_HOME XDG_DATA_HOME
    export HOME="$work/$rule/home"
    mkdir -p "$HOME"
    case $rule in
      PROOFDECK_HOME) export PROOFDECK_HOME="$work/$rule/data" XDG_DATA_HOME="$work/$rule/xdg" ;;
      XDG_DATA_HOME) export XDG_DATA_HOME="$work/$rule/xdg" ;;
    esac
    check "$rule: without progress, a bare run is the first quiz of ten from the lesson" \
      defaults_are quiz --count 10 --from-bank transformer-layer
    take_a_quiz
    check "$rule: the binary's progress.db is where the script looks" \
      test -f "$(proofdeck_data_dir)/progress.db"
    check "$rule: with progress, a bare run is a quiz" defaults_are quiz
    echo "$passed $failed" >"$work/$rule.totals"
  )
  read -r p f <"$work/$rule.totals"
  passed=$((passed + p))
  failed=$((failed + f))
done

# The first quiz runs as it stands: ten questions, all of the lesson's bank.
PROOFDECK_HOME="$work/first" "$proofdeck" "${first_quiz[@]}" --seed 0 --color never \
  --report "$work/first.json" </dev/null >"$work/first.out" 2>&1 || true
check "the first quiz asks ten questions" grep -q "proofdeck quiz · 10 questions" "$work/first.out"

# scripts/build's progress, with a stand-in ninja that reports three steps (and a tree already
# configured with the options given, so cmake is not run).
mkdir -p "$work/bin" "$work/tree"
touch "$work/tree/build.ninja"
printf '%s' "-DX=1" >"$work/tree/.proofdeck-options"
cat >"$work/bin/ninja" <<'NINJA'
#!/usr/bin/env bash
echo "[0/2] Re-checking globbed directories..."
echo "[1/3] Building CXX object a.cpp.o"
echo "[2/3] Building CXX object b.cpp.o"
if [[ -n ${FAIL:-} ]]; then
  echo "FAILED: b.cpp.o"
  echo "b.cpp:1:1: error: expected declaration"
  exit 1
fi
echo "[3/3] Linking CXX executable proofdeck"
NINJA
chmod +x "$work/bin/ninja"
build() {
  status=0
  PATH="$work/bin:$PATH" "$root/scripts/build" "$work/tree" -DX=1 >"$work/build.out" \
    2>"$work/build.err" || status=$?
}
build
check "a build keeps stdout empty" test ! -s "$work/build.out"
check "a build into a file or pipe shows its first step" \
  grep -qx "tree: \[1/3\] Building CXX object a.cpp.o" "$work/build.err"
check "... and not each step after it" bash -c '! grep -q "\[2/3\]" "$1"' _ "$work/build.err"
check "... then how long it took" grep -qE "^tree: 3 steps in [0-9]+ s$" "$work/build.err"
check "... never ninja's own glob check" bash -c '! grep -q Re-checking "$1"' _ "$work/build.err"

# On a terminal (script(1) gives the build one): every step as it starts.
PATH="$work/bin:$PATH" script -qec "'$root/scripts/build' '$work/tree' -DX=1 2>&1" \
  "$work/typescript" >"$work/terminal.out" </dev/null
check "a build on a terminal shows every step" \
  test "$(grep -c "^tree: \[[1-3]/3\]" "$work/terminal.out")" -eq 3

FAIL=1 build
check "a failed build exits 2" test "$status" -eq 2
check "... and shows what failed, with the compiler's message" \
  grep -qz "FAILED: b.cpp.o.*error: expected declaration" "$work/build.err"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
