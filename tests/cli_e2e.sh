#!/usr/bin/env bash
# End-to-end checks of the real proofdeck binary: every PyTorch fixture through `engine run` (from
# a file, and one from standard input), the exit codes of the CLI contract, and what reaches stdout
# and stderr. Prints one "ok - ..." or "not ok - ..." line per check and "N passed, M failed".
#
#   tests/cli_e2e.sh PATH/TO/proofdeck tests/fixtures     (CTest runs it as cli_end_to_end)
#
# Needs only bash and python3's standard library.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 PROOFDECK FIXTURES_DIR" >&2
  exit 2
fi
proofdeck=$1
fixtures=$2

work=$(mktemp -d "${TMPDIR:-/tmp}/proofdeck-e2e.XXXXXX")
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/e2e_lib.sh
source "$(dirname "$0")/e2e_lib.sh"

# run ARGS...: proofdeck's stdout and stderr go to $work/out and $work/err, its exit code to $status.
run() {
  status=0
  "$proofdeck" "$@" </dev/null >"$work/out" 2>"$work/err" || status=$?
}

exit_code_is() { [[ $status -eq $1 ]]; }
stdout_is_empty() { [[ ! -s $work/out ]]; }
stderr_contains() { grep -qF -- "$1" "$work/err"; }
stderr_has_escape_codes() { grep -q $'\x1b' "$work/err"; }
stderr_has_no_escape_codes() { ! stderr_has_escape_codes; }

# tests/e2e_fixtures.py writes the fixtures' specs and compares the results with PyTorch's.

# compare_results < MANIFEST: one check per manifest line (see tests/e2e_fixtures.py compare).
compare_results() {
  local verdict label detail
  if ! python3 "$(dirname "$0")/e2e_fixtures.py" compare >"$work/report" 2>&1; then
    fail "e2e_fixtures.py compare ran" "$(cat "$work/report")"
    return
  fi
  while IFS=$'\t' read -r verdict label detail; do
    if [[ $verdict == ok ]]; then pass "$label"; else fail "$label" "$detail"; fi
  done <"$work/report"
}

# --- every fixture agrees with PyTorch ---------------------------------------------------------
shopt -s nullglob
fixture_files=("$fixtures"/*.json)
shopt -u nullglob
check "fixtures found in $fixtures" test ${#fixture_files[@]} -gt 0

mkdir "$work/specs" "$work/results"
python3 "$(dirname "$0")/e2e_fixtures.py" specs "$work/specs" "${fixture_files[@]}"
: >"$work/manifest"
for fixture in "${fixture_files[@]}"; do
  name=$(basename "$fixture" .json)
  run engine run "$work/specs/$name.json"
  if grep -q '"expected_nan"' "$fixture"; then
    # PyTorch answered NaN: the engine refuses the spec as bad input and says why.
    check "engine run $name is refused where PyTorch returns NaN (exit 2)" exit_code_is 2
    check "engine run $name names the queries and PyTorch's NaN" stderr_contains "PyTorch returns NaN"
    continue
  fi
  if [[ $status -ne 0 ]]; then
    fail "engine run $name matches PyTorch (exit $status)" "$(cat "$work/err")"
  else
    cp "$work/out" "$work/results/$name.json"
    printf '%s\t%s\t%s\n' "engine run $name matches PyTorch" "$fixture" \
      "$work/results/$name.json" >>"$work/manifest"
  fi
done

# --- a spec from standard input ----------------------------------------------------------------
if [[ ! -f $work/specs/mha.json ]]; then
  fail "engine run - reads the spec from stdin" "no mha.json fixture to read"
else
  status=0
  "$proofdeck" engine run - <"$work/specs/mha.json" >"$work/results/stdin.json" 2>"$work/err" ||
    status=$?
  if [[ $status -ne 0 ]]; then
    fail "engine run - reads the spec from stdin (exit $status)" "$(cat "$work/err")"
  else
    printf '%s\t%s\t%s\n' "engine run - reads the spec from stdin" "$fixtures/mha.json" \
      "$work/results/stdin.json" >>"$work/manifest"
  fi
fi
compare_results <"$work/manifest"

# --- exit codes and streams --------------------------------------------------------------------
run engine run "$work/missing.json"
check "a missing spec file exits 2" exit_code_is 2
check "a missing spec file is named on stderr" stderr_contains "$work/missing.json"
check "stdout of an error run is empty" stdout_is_empty

printf '{\n  "op": "relu",\n  "input": [[1,]]\n}\n' >"$work/malformed.json"
run engine run "$work/malformed.json"
check "malformed JSON exits 2" exit_code_is 2
check "malformed JSON is located as file:line:col" stderr_contains "$work/malformed.json:3:16:"
check "stdout of a malformed-JSON run is empty" stdout_is_empty

run engine run "$work"
check "a directory given as the spec exits 2" exit_code_is 2
check "a directory given as the spec is named on stderr" stderr_contains "$work"

echo '{"op": "relu", "input": [[-1, 2]]}' >"$work/relu.json"
run engine run "$work/relu.json" --output "$work/no/such/dir/out.json"
check "an unwritable --output exits 3" exit_code_is 3
check "an unwritable --output leaves nothing behind" test ! -e "$work/no"

run engine run "$work/relu.json" --output "$work/relu.out.json"
check "--output FILE exits 0" exit_code_is 0
check "--output FILE writes the result there" grep -qF '"output":[[0.0,2.0]]' "$work/relu.out.json"

run --help
check "--help exits 0" exit_code_is 0
check "--help lists the engine subcommand" grep -q engine "$work/out"

run bogus
check "an unknown subcommand exits 2" exit_code_is 2
check "an unknown subcommand points to --help" stderr_contains "Run with --help"

# stdout is a pipe here; the environment must not force colour for the check to mean anything.
env -u NO_COLOR -u FORCE_COLOR TERM=xterm-256color \
  "$proofdeck" engine run "$work/missing.json" 2>"$work/err" </dev/null | cat >/dev/null || true
check "an error is reported when stdout is a pipe" test -s "$work/err"
check "stderr has no escape codes when stdout is a pipe" stderr_has_no_escape_codes

run --color always engine run "$work/missing.json"
check "--color always puts escape codes on stderr" stderr_has_escape_codes

# --- a bank of 10,000 questions ----------------------------------------------------------------
# What scripts/bench times (the bound is there, not here): the generated bank loads and every key
# is proven.
python3 "$(dirname "$0")/../scripts/gen_bank.py" 10000 >"$work/large.json"
run check --no-builtin --bank "$work/large.json" --format json
check "check proves a bank of 10,000 questions" exit_code_is 0
check "all 10,000 keys are verified" python3 -c '
import json, sys
summary = json.load(open(sys.argv[1]))["summary"]
sys.exit(0 if summary["questions"] == summary["verified"] == 10000 else 1)' "$work/out"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
