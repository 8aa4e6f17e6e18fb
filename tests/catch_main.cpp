// Catch2's main, alone in its file so editing a test never recompiles it. Eigen runs on one
// thread, as the proofdeck binary does: demo-sized products only slow down with more.
#define CATCH_CONFIG_RUNNER
#include <Eigen/Core>
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
  Eigen::setNbThreads(1);
  return Catch::Session().run(argc, argv);
}
