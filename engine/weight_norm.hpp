// Weight normalisation as torch.nn.utils.weight_norm(linear) applies it (name="weight", dim=0):
// the layer holds weight_v (out, in) and weight_g (out, 1) instead of its weight, and every
// forward rebuilds weight = g · v / ‖v‖ row by row, so output row i's weights have length |g_i|
// whatever v is. This is what normalising the weights would mean; LayerNorm does nothing of
// the kind (it normalises activations).
#pragma once

#include "engine/tensor.hpp"

namespace proofdeck::engine {

// weight-norm-no-division (fault): weight = g · v, the division by ‖v‖ left out, so the rows'
// lengths follow v as well as g.
template <typename T>
void weight_norm_forward(Matrix<T>& weight,           // (out, in)
                         const Matrix<T>& weight_v,   // (out, in)
                         const Vector<T>& weight_g);  // (out): PyTorch's (out, 1)

// Gradients for v and g from the gradient of the rebuilt weight: with v̂ = v / ‖v‖,
// dg_i = dw_i · v̂_i and dv_i = (g_i / ‖v_i‖) (dw_i − (dw_i · v̂_i) v̂_i). A zero row of v has no
// direction; it is refused.
template <typename T>
void weight_norm_backward(Matrix<T>& dweight_v,      // (out, in)
                          Vector<T>& dweight_g,      // (out)
                          const Matrix<T>& dweight,  // (out, in)
                          const Matrix<T>& weight_v, const Vector<T>& weight_g);

}  // namespace proofdeck::engine
