// Weight normalisation's forward and backward (see weight_norm.hpp).
#include "engine/weight_norm.hpp"

#include <string>

#include "engine/fault.hpp"

namespace proofdeck::engine {

namespace {

template <typename T>
Vector<T> row_lengths(const Matrix<T>& weight_v, const Vector<T>& weight_g) {
  require(weight_g.size() == weight_v.rows(),
          "weight_norm: weight_g has " + std::to_string(weight_g.size()) +
              " entries, expected one per row of weight_v " + shape_of(weight_v));
  Vector<T> lengths = weight_v.rowwise().norm();
  for (Index row = 0; row < lengths.size(); ++row) {
    require(lengths(row) > T(0), "weight_norm: row " + std::to_string(row) +
                                     " of weight_v is zero, so it has no direction to scale");
  }
  return lengths;
}

}  // namespace

template <typename T>
void weight_norm_forward(Matrix<T>& weight, const Matrix<T>& weight_v, const Vector<T>& weight_g) {
  const bool divide = enter(Op::weight_norm) != Fault::weight_norm_no_division;
  const Vector<T> lengths = row_lengths(weight_v, weight_g);
  weight.resize(weight_v.rows(), weight_v.cols());
  for (Index row = 0; row < weight_v.rows(); ++row) {
    const T scale = divide ? weight_g(row) / lengths(row) : weight_g(row);
    weight.row(row) = scale * weight_v.row(row);
  }
}

template <typename T>
void weight_norm_backward(Matrix<T>& dweight_v, Vector<T>& dweight_g, const Matrix<T>& dweight,
                          const Matrix<T>& weight_v, const Vector<T>& weight_g) {
  // forward was: w_i = g_i · v_i / ‖v_i‖ (under the fault w_i = g_i · v_i)
  const bool divide = enter(Op::weight_norm) != Fault::weight_norm_no_division;
  const Vector<T> lengths = row_lengths(weight_v, weight_g);
  require_shape(dweight, weight_v.rows(), weight_v.cols(), "weight_norm grad of the weight");
  dweight_v.resize(weight_v.rows(), weight_v.cols());
  dweight_g.resize(weight_v.rows());
  for (Index row = 0; row < weight_v.rows(); ++row) {
    if (!divide) {
      dweight_g(row) = dweight.row(row).dot(weight_v.row(row));
      dweight_v.row(row) = weight_g(row) * dweight.row(row);
      continue;
    }
    const auto direction = weight_v.row(row) / lengths(row);
    const T along = dweight.row(row).dot(direction);
    dweight_g(row) = along;
    dweight_v.row(row) = (weight_g(row) / lengths(row)) * (dweight.row(row) - along * direction);
  }
}

template void weight_norm_forward<float>(Matrix<float>&, const Matrix<float>&,
                                         const Vector<float>&);
template void weight_norm_forward<double>(Matrix<double>&, const Matrix<double>&,
                                          const Vector<double>&);
template void weight_norm_backward<float>(Matrix<float>&, Vector<float>&, const Matrix<float>&,
                                          const Matrix<float>&, const Vector<float>&);
template void weight_norm_backward<double>(Matrix<double>&, Vector<double>&, const Matrix<double>&,
                                           const Matrix<double>&, const Vector<double>&);

}  // namespace proofdeck::engine
