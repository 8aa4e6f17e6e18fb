// Matrix types and the shape errors every engine op raises before Eigen could assert.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <sstream>
#include <stdexcept>
#include <string>

namespace proofdeck::engine {

// Row-major like PyTorch: a sequence is (T, E), one token a row; a Linear weight is (out, in).
template <typename T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

using Index = Eigen::Index;

// Raised for a bad shape, size or argument: the message names what was given and what was expected.
class EngineError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline std::string shape_string(Index rows, Index cols) {
  return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

template <typename Derived>
std::string shape_of(const Eigen::EigenBase<Derived>& m) {
  return shape_string(m.rows(), m.cols());
}

// Throws EngineError "<what> has shape (a, b), expected (c, d)" when the shape differs.
template <typename Derived>
void require_shape(const Eigen::EigenBase<Derived>& m, Index rows, Index cols, const char* what) {
  if (m.rows() != rows || m.cols() != cols) {
    throw EngineError(std::string(what) + " has shape " + shape_of(m) + ", expected " +
                      shape_string(rows, cols));
  }
}

template <typename Scalar>
void require_size(const Vector<Scalar>& v, Index size, const char* what) {
  if (v.size() != size) {
    throw EngineError(std::string(what) + " has " + std::to_string(v.size()) +
                      " elements, expected " + std::to_string(size));
  }
}

// A number for a message: 6 significant digits, no trailing zeros ("0", "1e-05", "0.1").
inline std::string number_string(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

inline void require(bool condition, const std::string& message) {
  if (!condition) throw EngineError(message);
}

}  // namespace proofdeck::engine
