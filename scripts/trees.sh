# shellcheck shell=bash disable=SC2034  # (variables for the scripts that source this file)
# The three build trees, sourced (not run) by every script that builds one, so that no two of
# them can build a tree with different flags:
#
#   build/       portable Release with the Debian package's flags and the test suite: the tests
#                run the very binary scripts/package ships. Portable (no -march=native, no FMA
#                contraction), so printouts and goldens are bit-identical on every x86-64 machine.
#                scripts/test, scripts/test --quick, scripts/package.
#   build-fuzz/  clang, libFuzzer's coverage, AddressSanitizer + UndefinedBehaviorSanitizer,
#                libstdc++'s and Eigen's assertions: the test suite again, under sanitizers and a
#                second compiler, and the fuzz targets. scripts/test, scripts/fuzz.
#   build-run/   Release tuned for the CPU it builds on (-march=native: AVX2/AVX-512, FMA), the
#                large matrix products through OpenBLAS where its kernels cover that
#                (engine/product.hpp), threaded products for `engine bench --threads`, and no test
#                suite: FMA and OpenBLAS may change its last bits, so scripts/test proves it
#                reaches the portable build's `check` verdicts instead; and the man page (build-run/man/proofdeck.1.gz).
#                ./scripts/run, scripts/bench.
#   build-avx2/  build-run/'s flags for the CPUs most learners have, AVX2 and FMA without AVX-512
#                (-march=x86-64-v3), whatever this machine has: scripts/bench --isa avx2.
#
# build/ compiles its sources five to a unity batch, so that an edit in the quick loop recompiles
# five files; build-fuzz/ and build-run/, which the quick loop never builds, each library as one
# translation unit (batch size 0) and the test suite in four (CMakeLists.txt), which compiles in
# a sixth less time than sixteen files to a batch (docs/performance.md).
portable_build_dir=build
portable_build_flags=(-DCMAKE_BUILD_TYPE=Release -DPROOFDECK_PACKAGE=ON -DPROOFDECK_TESTS=ON)
sanitized_build_dir=build-fuzz
sanitized_build_flags=(-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
                       -DPROOFDECK_FUZZ=ON -DPROOFDECK_TESTS=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0)
tuned_build_dir=build-run
tuned_build_flags=(-DCMAKE_BUILD_TYPE=Release -DPROOFDECK_NATIVE=ON -DPROOFDECK_MARCH=native
                   -DPROOFDECK_BLAS=ON -DPROOFDECK_OPENMP=ON -DPROOFDECK_MAN_PAGE=ON -DPROOFDECK_TESTS=OFF
                   -DCMAKE_UNITY_BUILD_BATCH_SIZE=0)
avx2_build_dir=build-avx2
avx2_build_flags=("${tuned_build_flags[@]/-DPROOFDECK_MARCH=native/-DPROOFDECK_MARCH=x86-64-v3}")
