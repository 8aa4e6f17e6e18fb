# shellcheck shell=bash disable=SC2034  # (variables for the scripts that source this file)
# The build a learner gets: sourced (not run) by scripts/run, which builds it, scripts/test, which
# builds the same tree and proves it gives the portable build's `check` verdicts, and scripts/bench,
# whose engine figures describe it. One place, so the three cannot drift apart.
# Release, tuned for the CPU it builds on (-march=native: AVX2/AVX-512, FMA), threaded matrix
# products for `engine bench --threads`, and no test suite: only the proofdeck binary. The tests
# and goldens run in the portable build (`build`), whose printouts are bit-identical across
# machines; FMA may change the last bits of the tuned build's.
tuned_build_dir=build-run
tuned_build_flags=(-DCMAKE_BUILD_TYPE=Release -DPROOFDECK_NATIVE=ON -DPROOFDECK_OPENMP=ON
                   -DPROOFDECK_TESTS=OFF)
