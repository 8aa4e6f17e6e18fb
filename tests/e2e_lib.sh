# Sourced by the end-to-end scripts: TAP-like reporting. `pass NAME`, `fail NAME [DETAIL]`,
# `check NAME COMMAND...` (passes when COMMAND succeeds); the caller prints the totals from
# $passed and $failed.
passed=0
failed=0
pass() {
  echo "ok - $1"
  passed=$((passed + 1))
}
# fail NAME [DETAIL]: DETAIL is shown indented under the line.
fail() {
  echo "not ok - $1"
  local line
  if [[ -n ${2:-} ]]; then
    while IFS= read -r line; do echo "#   $line"; done <<<"$2"
  fi
  failed=$((failed + 1))
}
check() {
  local name=$1
  shift
  if "$@"; then pass "$name"; else fail "$name"; fi
}
