// Parameter counting, from instantiated modules and in closed form. The lesson's arithmetic:
// splitting d_model into h heads of d_model/h shrinks each head's W_q, W_k, W_v by exactly the
// factor the head count grows, so the attention block's total does not depend on h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/encoder_layer.hpp"

namespace proofdeck::engine {

struct ParamCount {
  std::int64_t weights = 0;  // matrices and norm scales
  std::int64_t biases = 0;   // additive terms (names ending in "bias")
  std::int64_t tensors = 0;  // parameter tensors (a matrix or a vector each), whatever their size
  std::int64_t total() const { return weights + biases; }
  ParamCount& operator+=(const ParamCount& other) {
    weights += other.weights;
    biases += other.biases;
    tensors += other.tensors;
    return *this;
  }
  friend ParamCount operator+(ParamCount a, const ParamCount& b) { return a += b; }
  friend bool operator==(const ParamCount&, const ParamCount&) = default;
};

// One multi-head attention block, itemised.
struct AttentionParamBreakdown {
  std::int64_t heads = 0;
  std::int64_t head_dim = 0;
  std::int64_t per_head_projection = 0;  // one head's W_q (or W_k, W_v): d_model × head_dim
  std::int64_t per_head_qkv = 0;         // one head's W_q + W_k + W_v
  std::int64_t qkv_weights = 0;          // all heads' W_q, W_k, W_v
  std::int64_t output_weights = 0;       // W_o: d_model × heads·head_dim (d_model × d_model)
  std::int64_t biases = 0;               // in_proj_bias + out_proj.bias (0 without biases)
  std::int64_t weights() const { return qkv_weights + output_weights; }
  std::int64_t total() const { return weights() + biases; }
  friend bool operator==(const AttentionParamBreakdown&, const AttentionParamBreakdown&) = default;
};

// The closed form: 3·d² + d² weights (+ 4·d biases), whatever the head count.
AttentionParamBreakdown attention_params_closed_form(std::int64_t d_model, std::int64_t heads,
                                                     bool bias);

// Counted from the module's tensors, head by head through the per-head views.
template <typename T>
AttentionParamBreakdown count_attention_params(const MhaParams<T>& params);

// Counts any module that has visit_params, splitting by PyTorch name (…bias → biases), and the
// tensors it visits: SwiGLU's three matrices, the original feed-forward's two (four with biases).
template <typename Params>
ParamCount count_params(const Params& params) {
  ParamCount count;
  visit_params(params, "", [&count](const std::string& name, const auto& tensor) {
    const auto size = static_cast<std::int64_t>(tensor.size());
    const std::string_view suffix = "bias";
    const bool is_bias = name.size() >= suffix.size() &&
                         std::string_view(name).substr(name.size() - suffix.size()) == suffix;
    (is_bias ? count.biases : count.weights) += size;
    ++count.tensors;
  });
  return count;
}

// One encoder layer, by component.
struct EncoderLayerParamBreakdown {
  ParamCount attention;
  ParamCount feedforward;
  ParamCount norms;
  ParamCount total() const { return attention + feedforward + norms; }
};

template <typename T>
EncoderLayerParamBreakdown count_encoder_layer_params(const EncoderLayerParams<T>& params);

}  // namespace proofdeck::engine
