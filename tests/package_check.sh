#!/usr/bin/env bash
# The Debian package as a user gets it: its control fields and file list, then the package
# unpacked (dpkg-deb -x) into a temporary folder and its proofdeck run from another folder, with
# HOME in a temporary folder too, so nothing may come from the checkout or the user's files:
# --version, `check` on the built-in banks, `check --no-builtin --bank` on a small bank as a bank
# author's CI runs it, a quiz that writes its progress under HOME, and the man page as man renders
# it. Last, lintian: any error (an "E:" line) fails. Prints one "ok - ..." or "not ok - ..." line
# per check and "N passed, M failed".
#
#   tests/package_check.sh proofdeck_0.3.0_amd64.deb      (scripts/test runs it after
#                                                           scripts/package)
#
# Needs dpkg-deb, lintian, man, file and readelf (scripts/setup installs them).
set -euo pipefail

if [[ $# -ne 1 || ! -f $1 ]]; then
  echo "usage: $0 PACKAGE.deb" >&2
  exit 2
fi
deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tests=$(cd "$(dirname "$0")" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/proofdeck-package.XXXXXX")
trap 'rm -rf "$work"' EXIT

# shellcheck source=tests/e2e_lib.sh
source "$tests/e2e_lib.sh"

# --- the control file and the file list -------------------------------------------------------
field() { dpkg-deb --field "$deb" "$1"; }
version=$(field Version)
architecture=$(field Architecture)
depends=$(field Depends)
check "the package is named proofdeck_${version}_${architecture}.deb" \
  test "$(basename "$deb")" = "proofdeck_${version}_${architecture}.deb"
check "Package is proofdeck" test "$(field Package)" = proofdeck
check "Architecture is amd64" test "$architecture" = amd64
for name in Section Priority Maintainer Description; do
  check "the control file has $name" test -n "$(field "$name")"
done

dpkg-deb --contents "$deb" >"$work/contents"
# Every entry belongs to root, directories and the binary are 0755, every other file is 0644.
bad_entries=$(awk '
  $2 != "root/root" { print; next }
  /^d/ && $1 != "drwxr-xr-x" { print; next }
  /^-/ && $6 == "./usr/bin/proofdeck" { if ($1 != "-rwxr-xr-x") print; next }
  /^-/ && $1 != "-rw-r--r--" { print }' "$work/contents")
if [[ -z $bad_entries ]]; then
  pass "every entry is root's, 0755 (folders, the binary) or 0644"
else
  fail "every entry is root's, 0755 (folders, the binary) or 0644" "$bad_entries"
fi
for path in usr/bin/proofdeck usr/share/man/man1/proofdeck.1.gz \
            usr/share/doc/proofdeck/schema.json usr/share/doc/proofdeck/README.md \
            usr/share/doc/proofdeck/copyright usr/share/doc/proofdeck/changelog.gz; do
  check "the package holds /$path" grep -qE " \./$path\$" "$work/contents"
done

# --- unpacked, run from elsewhere ------------------------------------------------------------
dpkg-deb --extract "$deb" "$work/root"
proofdeck=$work/root/usr/bin/proofdeck
# my-bank/: the format's worked example, which proves all its keys but has lint findings;
# clean-bank/: the built-in banks, copied, which pass a bank author's strictest CI (together: a
# question may ask an objective another bank defines, and check wants every objective defined).
mkdir -p "$work/home" "$work/elsewhere/my-bank" "$work/elsewhere/clean-bank"
cp "$tests/banks/worked_example.json" "$work/elsewhere/my-bank/"
find "$(dirname "$tests")/questions" -maxdepth 1 -name '*.json' ! -name schema.json \
  -exec cp {} "$work/elsewhere/clean-bank/" \;
cd "$work/elsewhere"
export HOME=$work/home
unset PROOFDECK_HOME XDG_DATA_HOME PROOFDECK_NOW NO_COLOR FORCE_COLOR

# run ARGS...: proofdeck's stdout and stderr go to $work/out and $work/err, its exit code to $status.
run() {
  status=0
  "$proofdeck" "$@" </dev/null >"$work/out" 2>"$work/err" || status=$?
}
ran_ok() {
  if [[ $status -eq 0 ]] && grep -qF -- "$2" "$work/out"; then
    pass "$1"
  else
    fail "$1" "exit $status; stdout: $(head -c 600 "$work/out"); stderr: $(head -c 600 "$work/err")"
  fi
}

# Depends names the Debian package of every library the binary links directly (its NEEDED
# entries; SQLiteCpp is linked statically, and what those libraries need comes with theirs),
# found with dpkg -S under the path ldd resolves it to or, on a merged /usr, the real path.
depends_names=$(sed 's/ *([^)]*)//g; s/, */\n/g' <<<"$depends")
owner() {
  local path=$1 resolved
  resolved=$(readlink -f "$path")
  { dpkg -S "$path" || dpkg -S "$resolved" || dpkg -S "${resolved#/usr}"; } 2>/dev/null \
    | head -1 | cut -d: -f1
}
needed=$(readelf -d "$proofdeck" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
libraries=$(ldd "$proofdeck" | awk -v needed="$needed" '
  BEGIN { split(needed, names, "\n"); for (i in names) wanted[names[i]] = 1 }
  $2 == "=>" && ($1 in wanted) { print $3 }')
check "ldd finds each of the $(wc -l <<<"$needed") libraries the binary needs" \
  test "$(wc -l <<<"$libraries")" -eq "$(wc -l <<<"$needed")"
check "ldd shows the SQLite and fmt libraries" \
  bash -c "grep -q libsqlite3 <<<'$libraries' && grep -q libfmt <<<'$libraries'"
for library in $libraries; do
  package=$(owner "$library")
  if [[ -n $package ]] && grep -qxF "$package" <<<"$depends_names"; then
    pass "Depends names $package ($(basename "$library"))"
  else
    fail "Depends names ${package:-the package} of $(basename "$library")" "Depends: $depends"
  fi
done
check "the binary is stripped" bash -c "file -b '$proofdeck' | grep -q ', stripped'"
check "the binary has no RPATH or RUNPATH" \
  bash -c "! readelf -d '$proofdeck' | grep -qE 'RPATH|RUNPATH'"
check "every library the binary needs is found" bash -c "! ldd '$proofdeck' | grep -q 'not found'"
check "the binary names no path in the checkout it was built from" \
  bash -c "! grep -qaF '$(dirname "$tests")/' '$proofdeck'"

run --version
check "--version prints exactly 'proofdeck $version', the package's version" \
  test "$status:$(cat "$work/out")" = "0:proofdeck $version"
run check --color never
ran_ok "check proves the built-in banks (exit 0)" "verified"
run check --no-builtin --bank my-bank/ --color never
ran_ok "check --no-builtin --bank my-bank/ proves a bank outside the checkout" "verified"
run check --lint --strict --mutate --no-builtin --bank clean-bank/ --format junit
ran_ok "a bank author's CI: check --lint --strict --mutate --no-builtin --bank clean-bank/ --format junit" \
  'failures="0"'
run check --lint --strict --mutate --no-builtin --bank my-bank/ --format junit
if [[ $status -eq 1 ]] && grep -q '<testsuite name="lint"' "$work/out" \
   && grep -qF -- "--strict" "$work/err"; then
  pass "the same CI on a bank with lint findings exits 1, the findings in the JUnit XML"
else
  fail "the same CI on a bank with lint findings exits 1, the findings in the JUnit XML" \
    "exit $status; stdout: $(head -c 600 "$work/out"); stderr: $(head -c 600 "$work/err")"
fi
run check --no-builtin --bank missing-bank/ --color never
if [[ $status -eq 2 ]]; then pass "a bank that is not there exits 2"; else
  fail "a bank that is not there exits 2" "exit $status"; fi

status=0
printf ':q\n' | "$proofdeck" quiz --count 1 --seed 1 --color never >"$work/out" 2>"$work/err" \
  || status=$?
if [[ $status -eq 0 && -f $HOME/.local/share/proofdeck/progress.db ]]; then
  pass "a quiz keeps its progress in ~/.local/share/proofdeck/progress.db"
else
  fail "a quiz keeps its progress in ~/.local/share/proofdeck/progress.db" \
    "exit $status; $(ls -R "$HOME"); stderr: $(head -c 600 "$work/err")"
fi

# --- the man page as man renders it ----------------------------------------------------------
# gzip_9n FILE: compressed with gzip -9n (best compression, no name or time stamp kept).
gzip_9n() { file -b "$1" | grep -q 'max compression' && ! file -b "$1" | grep -qE 'was "|last modified'; }
man_page=$work/root/usr/share/man/man1/proofdeck.1.gz
check "the man page is gzip -9n" gzip_9n "$man_page"
check "the changelog is gzip -9n" gzip_9n "$work/root/usr/share/doc/proofdeck/changelog.gz"
MANWIDTH=80 man --local-file "$man_page" 2>"$work/man.err" | col -b >"$work/man.txt" || true
for section in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" FILES; do
  check "man -l shows $section" grep -qx "$section" "$work/man.txt"
done
check "man -l shows the subcommands (check)" grep -qE '^ +check ' "$work/man.txt"
check "man -l renders without a warning" test ! -s "$work/man.err"

# --- lintian --------------------------------------------------------------------------------
# Errors fail; warnings are printed for whoever reads the log. Its own temporary files (which it
# leaves behind) go to $work, which the trap removes.
lintian_status=0
mkdir -p "$work/lintian-tmp"
TMPDIR=$work/lintian-tmp lintian --tag-display-limit 0 "$deb" >"$work/lintian" 2>&1 \
  || lintian_status=$?
sed 's/^/# lintian: /' "$work/lintian"
if grep -q '^E:' "$work/lintian"; then
  fail "lintian reports no error" "$(grep '^E:' "$work/lintian")"
elif [[ $lintian_status -ne 0 ]]; then
  fail "lintian reports no error" "lintian exited $lintian_status"
else
  pass "lintian reports no error ($(grep -c '^W:' "$work/lintian" || true) warnings)"
fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
