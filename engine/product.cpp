// Eigen's products, or OpenBLAS's in a build configured with PROOFDECK_BLAS (see product.hpp).
#include "engine/product.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <string_view>
#include <type_traits>

#ifdef PROOFDECK_BLAS
#include <cblas.h>  // the functions' types only: the library is loaded at run time
#include <dlfcn.h>

#include <cstdlib>
#endif

namespace proofdeck::engine {

namespace {

constexpr std::string_view compiled_isa() {
#if defined(__AVX512F__)
  return "AVX-512";
#elif defined(__AVX2__) && defined(__FMA__)
  return "AVX2+FMA";
#elif defined(__AVX__)
  return "AVX";
#else
  return "SSE2";
#endif
}

std::string eigen_name() {
  return "Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." +
         std::to_string(EIGEN_MAJOR_VERSION) + "." + std::to_string(EIGEN_MINOR_VERSION);
}

#ifdef PROOFDECK_BLAS

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

// OpenBLAS, loaded at the first product (or set_product_threads, which main calls first) rather
// than linked, because it reads OPENBLAS_CORETYPE as it loads and this build sets it first, unless
// the user has: the kernels for the instruction set the build was compiled for (SkylakeX's are its
// AVX-512 kernels, Haswell's its AVX2 and FMA ones). Left to itself, Debian 12's OpenBLAS (0.3.21)
// falls back to its SSE3 kernels on CPUs newer than it. It then runs on one thread
// (set_blas_threads raises it for `engine bench --threads`). Its pool of worker threads is left
// to start as it does: starting it with OPENBLAS_NUM_THREADS=1 instead made a layer's
// forward+backward 12% slower (docs/performance.md). Without the library, or with kernels that
// fall short anyway, Eigen computes the products.
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
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && defined(__AVX512VL__)
  setenv("OPENBLAS_CORETYPE", "SkylakeX", 0);
#elif defined(__AVX2__) && defined(__FMA__)
  setenv("OPENBLAS_CORETYPE", "Haswell", 0);
#endif
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

bool use_blas(Index rows, Index inner, Index cols) {
  if (rows <= 0 || inner <= 0 || cols <= 0) return false;
  if (std::max({rows, inner, cols}) > INT_MAX) return false;
  if (static_cast<double>(rows) * static_cast<double>(inner) * static_cast<double>(cols) <
      kBlasMinimumMacs)
    return false;
  return blas().used;
}

// c = op(a)·op(b) + beta·c by OpenBLAS, every matrix row-major as the engine keeps them, c already
// of the product's shape; false, with nothing computed, when the product is Eigen's to compute.
template <typename T>
bool blas_product(const Matrix<T>& a, bool transpose_a, const Matrix<T>& b, bool transpose_b,
                  T beta, Matrix<T>& c) {
  const Index inner = transpose_a ? a.rows() : a.cols();
  if (!use_blas(c.rows(), inner, c.cols())) return false;
  const auto gemm = [] {
    if constexpr (std::is_same_v<T, float>) {
      return blas().sgemm;
    } else {
      return blas().dgemm;
    }
  }();
  const auto as_int = [](Index value) { return static_cast<int>(value); };  // use_blas checked
  gemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans,
       transpose_b ? CblasTrans : CblasNoTrans, as_int(c.rows()), as_int(c.cols()), as_int(inner),
       T(1), a.data(), as_int(a.cols()), b.data(), as_int(b.cols()), beta, c.data(),
       as_int(c.cols()));
  return true;
}

#endif  // PROOFDECK_BLAS

}  // namespace

template <typename T>
void project(Matrix<T>& out, const Matrix<T>& inp, const Matrix<T>& weight, const Vector<T>& bias) {
  out.resize(inp.rows(), weight.rows());
  const bool biased = bias.size() != 0;
#ifdef PROOFDECK_BLAS
  // OpenBLAS adds the product to the bias, as PyTorch's addmm does: no pass to clear the output
  // first and none to add the bias after.
  if (biased && use_blas(inp.rows(), inp.cols(), weight.rows())) {
    require_size(bias, weight.rows(), "projection bias");
    out.rowwise() = bias.transpose();
  }
  if (blas_product(inp, false, weight, true, biased ? T(1) : T(0), out)) return;
#endif
  out.noalias() = inp * weight.transpose();
  if (biased) out.rowwise() += bias.transpose();
}

template <typename T>
void project_back(Matrix<T>& dinp, const Matrix<T>& dout, const Matrix<T>& weight,
                  Accumulate accumulate) {
  const bool add = accumulate == Accumulate::yes;
  if (!add) dinp.resize(dout.rows(), weight.cols());
  require_shape(dinp, dout.rows(), weight.cols(), "accumulated input gradient");
#ifdef PROOFDECK_BLAS
  if (blas_product(dout, false, weight, false, add ? T(1) : T(0), dinp)) return;
#endif
  if (add) {
    dinp.noalias() += dout * weight;
  } else {
    dinp.noalias() = dout * weight;
  }
}

template <typename T>
void weight_gradient(Matrix<T>& dweight, const Matrix<T>& dout, const Matrix<T>& inp) {
  dweight.resize(dout.cols(), inp.cols());
#ifdef PROOFDECK_BLAS
  if (blas_product(dout, true, inp, false, T(0), dweight)) return;
#endif
  dweight.noalias() = dout.transpose() * inp;
}

const ProductBackend& product_backend() {
#ifdef PROOFDECK_BLAS
  return blas().backend;
#else
  static const ProductBackend backend{std::string(compiled_isa()), eigen_name(), ""};
  return backend;
#endif
}

void set_blas_threads([[maybe_unused]] int threads) {
#ifdef PROOFDECK_BLAS
  if (blas().set_num_threads != nullptr) blas().set_num_threads(threads);
#endif
}

#define PROOFDECK_INSTANTIATE(T)                                                              \
  template void project<T>(Matrix<T>&, const Matrix<T>&, const Matrix<T>&, const Vector<T>&); \
  template void project_back<T>(Matrix<T>&, const Matrix<T>&, const Matrix<T>&, Accumulate);  \
  template void weight_gradient<T>(Matrix<T>&, const Matrix<T>&, const Matrix<T>&);
PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
