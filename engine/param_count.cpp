// Parameter counts, closed form and counted.
#include "engine/param_count.hpp"

namespace proofdeck::engine {

AttentionParamBreakdown attention_params_closed_form(std::int64_t d_model, std::int64_t heads,
                                                     bool bias) {
  check_head_split(d_model, heads);
  AttentionParamBreakdown b;
  b.heads = heads;
  b.head_dim = d_model / heads;
  b.per_head_projection = d_model * b.head_dim;
  b.per_head_qkv = 3 * b.per_head_projection;
  b.qkv_weights = heads * b.per_head_qkv;
  b.output_weights = d_model * d_model;
  b.biases = bias ? 3 * d_model + d_model : 0;
  return b;
}

template <typename T>
AttentionParamBreakdown count_attention_params(const MhaParams<T>& params) {
  AttentionParamBreakdown b;
  b.heads = params.num_heads;
  b.head_dim = params.head_dim();
  b.per_head_projection = params.query_weight(0).size();
  for (Index h = 0; h < params.num_heads; ++h) {
    const std::int64_t head_qkv =
        params.query_weight(h).size() + params.key_weight(h).size() + params.value_weight(h).size();
    if (h == 0) b.per_head_qkv = head_qkv;
    // heads that read the rows an earlier head reads (one projection every head shares) hold
    // nothing of their own
    const bool own_rows = h == 0 || params.head_row(h) != params.head_row(h - 1);
    if (own_rows) b.qkv_weights += head_qkv;
  }
  b.output_weights = params.out_proj.weight.size();
  b.biases = params.in_proj.bias.size() + params.out_proj.bias.size();
  return b;
}

template <typename T>
EncoderLayerParamBreakdown count_encoder_layer_params(const EncoderLayerParams<T>& params) {
  EncoderLayerParamBreakdown b;
  b.attention = count_params(params.self_attn);
  b.feedforward = count_params(params.feedforward);
  for (const NormParams<T>* norm : {&params.norm1, &params.norm2}) {
    b.norms.weights += norm->weight.size();
    b.norms.biases += norm->bias.size();
    b.norms.tensors += (norm->weight.size() != 0 ? 1 : 0) + (norm->bias.size() != 0 ? 1 : 0);
  }
  return b;
}

template AttentionParamBreakdown count_attention_params<float>(const MhaParams<float>&);
template AttentionParamBreakdown count_attention_params<double>(const MhaParams<double>&);
template EncoderLayerParamBreakdown count_encoder_layer_params<float>(
    const EncoderLayerParams<float>&);
template EncoderLayerParamBreakdown count_encoder_layer_params<double>(
    const EncoderLayerParams<double>&);

}  // namespace proofdeck::engine
