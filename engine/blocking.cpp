// Fixed cache sizes for Eigen's product blocking (see blocking.hpp).
#include "engine/blocking.hpp"

#include <Eigen/Core>

#include "engine/product.hpp"

namespace proofdeck::engine {

void fix_product_blocking() {
  // A function-local static is initialized once, even with threads racing to it.
  static const bool fixed = [] {
    Eigen::setCpuCacheSizes(64 * 1024, 512 * 1024, 16 * 1024 * 1024);
    return true;
  }();
  static_cast<void>(fixed);
}

bool product_threads_available() {
#ifdef _OPENMP
  return true;
#else
  return false;
#endif
}

void set_product_threads(int threads) {
  Eigen::setNbThreads(threads);
  set_blas_threads(threads);
}

}  // namespace proofdeck::engine
