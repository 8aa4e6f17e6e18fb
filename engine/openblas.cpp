// OpenBLAS computes the engine's large products in the tuned build (product_library.hpp): loaded
// at run time, after setting what it reads as it loads, and used only when its kernels cover the
// instruction set the build was compiled for (docs/performance.md, "Matrix products").
#include <cblas.h>  // the functions' types only: the library is loaded at run time
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <string_view>
#include <type_traits>

#include "engine/product_library.hpp"

namespace proofdeck::engine::product_library {

namespace {

// Whatever OPENBLAS_CORETYPE says (a user may set one), OpenBLAS is used only when its kernels use
// at least what this build was compiled for: its SSE3 "Prescott" kernels reach 30 GFLOP/s on a
// core where Eigen's AVX2 reaches 74.
bool kernels_cover_build(std::string core) {
  std::transform(core.begin(), core.end(), core.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  constexpr std::array<std::string_view, 3> avx512 = {"skylakex", "cooperlake", "sapphirerapids"};
  constexpr std::array<std::string_view, 2> avx2 = {"haswell", "zen"};
  const bool has_avx512 = std::find(avx512.begin(), avx512.end(), core) != avx512.end();
  const bool has_avx2 = has_avx512 || std::find(avx2.begin(), avx2.end(), core) != avx2.end();
  const std::string_view isa = compiled_isa();
  if (isa == "AVX-512") return has_avx512;
  if (isa == "AVX2+FMA") return has_avx2;
  return true;  // SSE2 or AVX: every x86-64 kernel OpenBLAS ships covers it
}

// The kernel family OpenBLAS is asked for, unless the user set OPENBLAS_CORETYPE: SkylakeX's are
// its AVX-512 kernels, Haswell's its AVX2 and FMA ones; nullptr to let it choose.
constexpr const char* wanted_core() {
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && defined(__AVX512VL__)
  return "SkylakeX";
#elif defined(__AVX2__) && defined(__FMA__)
  return "Haswell";
#else
  return nullptr;
#endif
}

// OpenBLAS, loaded at the first product (or set_product_threads, which main calls first) rather
// than linked, because it reads OPENBLAS_CORETYPE as it loads and this build sets it first, unless
// the user has (wanted_core). Left to itself, Debian 12's OpenBLAS (0.3.21) falls back to its SSE3
// kernels on CPUs newer than it. It then runs on one thread (set_threads raises it for
// `engine bench --threads`). Its pool of worker threads is left to start as it does: starting it
// with OPENBLAS_NUM_THREADS=1 instead made a layer's forward+backward 12% slower
// (docs/performance.md). Without the library, or with kernels that fall short anyway, Eigen
// computes the products.
struct Blas {
  bool used = false;
  ProductBackend backend;
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
  decltype(&openblas_set_num_threads) set_num_threads = nullptr;
};

template <typename Function>
bool resolve(void* library, const char* name, Function& function) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  return function != nullptr;
}

Blas load_openblas() {
  Blas result;
  result.backend = {std::string(compiled_isa()), eigen_name(), ""};
  if (const char* core = wanted_core()) setenv("OPENBLAS_CORETYPE", core, 0);
  void* library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  decltype(&openblas_get_corename) get_corename = nullptr;
  decltype(&openblas_get_config) get_config = nullptr;
  if (library == nullptr || !resolve(library, "cblas_sgemm", result.sgemm) ||
      !resolve(library, "cblas_dgemm", result.dgemm) ||
      !resolve(library, "openblas_set_num_threads", result.set_num_threads) ||
      !resolve(library, "openblas_get_corename", get_corename) ||
      !resolve(library, "openblas_get_config", get_config)) {
    const char* error = dlerror();
    result.backend.note = std::string("OpenBLAS could not be loaded (") +
                          (error != nullptr ? error : "libopenblas.so.0") +
                          "): Eigen computes the products; scripts/setup installs it";
    return result;
  }
  result.set_num_threads(1);
  const std::string core = get_corename();
  // openblas_get_config() begins "OpenBLAS 0.3.21 DYNAMIC_ARCH ...": name and version
  const std::string config = get_config();
  const std::size_t version_end = config.find(' ', config.find(' ') + 1);
  const std::string library_name = config.substr(0, version_end) + ", " + core + " kernels";
  result.used = kernels_cover_build(core);
  if (result.used) {
    result.backend.library = library_name;
  } else {
    result.backend.note = library_name + " do not use this build's " + std::string(compiled_isa()) +
                          ": Eigen computes the products";
  }
  return result;
}

const Blas& blas() {
  // A function-local static is initialised once, before any product runs on any thread.
  static const Blas state = load_openblas();
  return state;
}

// Products smaller than this many multiply-adds stay with Eigen: OpenBLAS's call costs more than
// it saves on them.
constexpr double kBlasMinimumMacs = 64.0 * 64 * 64;

bool takes_product(Index rows, Index inner, Index cols) {
  if (rows <= 0 || inner <= 0 || cols <= 0) return false;
  if (std::max({rows, inner, cols}) > INT_MAX) return false;
  if (static_cast<double>(rows) * static_cast<double>(inner) * static_cast<double>(cols) <
      kBlasMinimumMacs)
    return false;
  return blas().used;
}

template <typename T>
bool blas_gemm(const Matrix<T>& a, bool transpose_a, const Matrix<T>& b, bool transpose_b, T beta,
               Matrix<T>& c) {
  const Index inner = transpose_a ? a.rows() : a.cols();
  if (!takes_product(c.rows(), inner, c.cols())) return false;
  const auto gemm = [] {
    if constexpr (std::is_same_v<T, float>) {
      return blas().sgemm;
    } else {
      return blas().dgemm;
    }
  }();
  const auto as_int = [](Index value) { return static_cast<int>(value); };  // takes_product checked
  gemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans,
       transpose_b ? CblasTrans : CblasNoTrans, as_int(c.rows()), as_int(c.cols()), as_int(inner),
       T(1), a.data(), as_int(a.cols()), b.data(), as_int(b.cols()), beta, c.data(),
       as_int(c.cols()));
  return true;
}

}  // namespace

bool takes(Index rows, Index inner, Index cols) {
  return takes_product(rows, inner, cols);
}

bool gemm(const Matrix<float>& a, bool transpose_a, const Matrix<float>& b, bool transpose_b,
          float beta, Matrix<float>& c) {
  return blas_gemm(a, transpose_a, b, transpose_b, beta, c);
}

bool gemm(const Matrix<double>& a, bool transpose_a, const Matrix<double>& b, bool transpose_b,
          double beta, Matrix<double>& c) {
  return blas_gemm(a, transpose_a, b, transpose_b, beta, c);
}

const ProductBackend& backend() {
  return blas().backend;
}

void set_threads(int threads) {
  if (blas().set_num_threads != nullptr) blas().set_num_threads(threads);
}

}  // namespace proofdeck::engine::product_library
