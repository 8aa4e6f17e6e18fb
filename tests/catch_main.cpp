// Catch2's main, alone in its file so editing a test never recompiles it. Matrix products run on
// one thread, as the proofdeck binary runs them (this matters only in a build with OpenMP). A
// learner's day is local (TZ): the tests run in UTC wherever they run, and a test that needs
// another zone sets TZ for its own scope.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include "engine/blocking.hpp"

int main(int argc, char* argv[]) {
  proofdeck::engine::set_product_threads(1);
  ::setenv("TZ", "UTC", 1);
  return Catch::Session().run(argc, argv);
}
