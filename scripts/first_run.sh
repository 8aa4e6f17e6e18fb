# shellcheck shell=bash disable=SC2034  # (default_run_args is for the scripts that source this)
# What ./scripts/run starts when given no arguments, sourced by it and by tests/run_check.sh.
#
# A learner with no progress yet gets a short first quiz from the lesson's own bank (ten
# questions, a few minutes); from then on `quiz` (twenty from every bank). The progress folder is
# found as the binary finds it (src/study/progress.cpp, resolve_data_dir): $PROOFDECK_HOME, else
# $XDG_DATA_HOME/proofdeck, else ~/.local/share/proofdeck; tests/run_check.sh holds the two
# rules together.

first_quiz=(quiz --count 10 --from-bank transformer-layer)

# The folder progress.db is kept in, or nothing when there is no place for it.
proofdeck_data_dir() {
  if [[ -n ${PROOFDECK_HOME:-} ]]; then
    printf '%s\n' "$PROOFDECK_HOME"
  elif [[ -n ${XDG_DATA_HOME:-} ]]; then
    printf '%s\n' "$XDG_DATA_HOME/proofdeck"
  elif [[ -n ${HOME:-} ]]; then
    printf '%s\n' "$HOME/.local/share/proofdeck"
  fi
}

# Sets default_run_args to what a bare ./scripts/run runs.
choose_default_run_args() {
  local dir
  dir=$(proofdeck_data_dir)
  if [[ -n $dir && -f $dir/progress.db ]]; then
    default_run_args=(quiz)
  else
    default_run_args=("${first_quiz[@]}")
  fi
}
