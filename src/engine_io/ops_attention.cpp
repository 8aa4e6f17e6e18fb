// `engine run`'s attention: mha (self-attention, or cross-attention over a memory), the
// transformer encoder layer around it, and Llama's grouped-query attention. rope_scaling is read
// here, not with the position codes (ops_position.cpp): it is a setting of gqa's config.
#include "engine_io/ops.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/activation.hpp"
#include "engine/attention.hpp"
#include "engine/decoder.hpp"
#include "engine/encoder_layer.hpp"
#include "engine/macs.hpp"
#include "engine_io/op_run.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io::detail {

namespace {

// Per-head attention weights, (H, T, T), as nn.MultiheadAttention returns them with
// average_attn_weights=False.
template <typename T>
ordered_json attention_weights_json(const std::vector<Matrix<T>>& probs_per_head) {
  ordered_json heads = ordered_json::array();
  for (const auto& probs : probs_per_head)
    heads.push_back(to_json(probs));
  return heads;
}

template <typename T>
void check_attention_size(const OpRun<T>& run, std::int64_t heads, std::int64_t queries,
                          std::int64_t keys) {
  run.check_elements(heads * queries * keys,
                     queries == keys
                         ? fmt::format("attention over {} token{} with {} head{}", queries,
                                       queries == 1 ? "" : "s", heads, heads == 1 ? "" : "s")
                         : fmt::format("attention of {} quer{} over {} memory position{} with {} "
                                       "head{}",
                                       queries, queries == 1 ? "y" : "ies", keys,
                                       keys == 1 ? "" : "s", heads, heads == 1 ? "" : "s"));
}

// mha with a memory: cross-attention, queries from the input, keys and values from the memory
// (nn.MultiheadAttention(input, memory, memory)); gradients for both.
template <typename T>
void run_cross_attention(OpRun<T>& run, const engine::MhaParams<T>& params, const Matrix<T>& x,
                         engine::AttentionOptions options) {
  const auto embed = static_cast<std::int64_t>(params.embed_dim());
  const Matrix<T> memory =
      matrix_from_json<T>(*run.memory, run.source + ": memory", kAnySize, embed);
  if (options.causal || options.sinusoidal_qk) {
    spec_error(run.source, "config",
               "config.causal and config.sinusoidal_qk: cross-attention reads the whole memory "
               "with no mask or code on q and k; leave them out when a memory is given");
  }
  check_attention_size(run, params.num_heads, x.rows(), memory.rows());
  options.key_padding =
      run.mask(run.key_padding_mask, "key_padding_mask", memory.rows(), "memory row");
  const auto dout = run.grad_output_matrix(x.rows(), embed);
  Matrix<T> y;
  engine::CrossAttentionCache<T> cache;
  const engine::MacTally tally;
  engine::cross_attention_forward(y, cache, x, memory, params, options);
  run.result["output"] = to_json(y);
  run.result["multiply_adds"] = multiply_adds_json(tally.count());
  run.result["attn_weights"] = attention_weights_json(cache.probs);
  if (!dout) return;
  Matrix<T> dx, dmemory;
  engine::MhaParams<T> grads;
  engine::cross_attention_backward(dx, dmemory, grads, *dout, x, memory, params, cache, options);
  run.result["grads"] = {{"input", to_json(dx)}, {"memory", to_json(dmemory)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

// `width_key` and `heads_key` are the op's own names for E and H, for the message.
template <typename T>
void read_mha_params(OpRun<T>& run, engine::MhaParams<T>& params, const std::string& prefix,
                     std::int64_t embed, std::int64_t heads, bool bias, const char* width_key,
                     const char* heads_key) {
  if (embed % heads != 0) {
    spec_error(run.source, "config",
               fmt::format("config.{0} {2} is not divisible by config.{1} {3}: each head gets an "
                           "equal share of the width ({0} / {1})",
                           width_key, heads_key, embed, heads));
  }
  params.num_heads = heads;
  run.params.matrix(prefix + "in_proj_weight", params.in_proj.weight, 3 * embed, embed);
  if (bias) run.params.vector(prefix + "in_proj_bias", params.in_proj.bias, 3 * embed);
  run.params.matrix(prefix + "out_proj.weight", params.out_proj.weight, embed, embed);
  if (bias) run.params.vector(prefix + "out_proj.bias", params.out_proj.bias, embed);
}

}  // namespace

template <typename T>
void run_mha(OpRun<T>& run) {
  const auto embed = run.config.dimension("embed_dim");
  const auto heads = run.config.dimension("num_heads");
  const bool bias = run.config.flag("bias", true);
  engine::AttentionOptions options;
  options.causal = run.config.flag("causal", false);
  // a sinusoidal code added to each head's Q and K after projection, positions 0, 1, …
  options.sinusoidal_qk = run.config.flag("sinusoidal_qk", false);
  run.config.flag("batch_first", true);  // the input is one sequence either way
  run.config.require_no_dropout();
  engine::MhaParams<T> params;
  read_mha_params(run, params, "", embed, heads, bias, "embed_dim", "num_heads");
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, embed);
  if (run.memory != nullptr) {
    run_cross_attention(run, params, x, options);
    return;
  }
  check_attention_size(run, heads, x.rows(), x.rows());
  options.key_padding = run.mask(run.key_padding_mask, "key_padding_mask", x.rows(), "input row");
  const auto dout = run.grad_output_matrix(x.rows(), embed);

  Matrix<T> y;
  engine::MhaCache<T> cache;
  const engine::MacTally tally;
  engine::mha_forward(y, cache, x, params, options);
  run.result["output"] = to_json(y);
  run.result["multiply_adds"] = multiply_adds_json(tally.count());
  run.result["attn_weights"] = attention_weights_json(cache.probs);
  if (!dout) return;
  Matrix<T> dx;
  engine::MhaParams<T> grads;
  engine::mha_backward(dx, grads, *dout, x, params, cache, options);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

template <typename T>
void run_encoder_layer(OpRun<T>& run) {
  engine::EncoderLayerConfig config;
  config.d_model = run.config.dimension("d_model");
  config.nhead = run.config.dimension("nhead");
  config.dim_feedforward = run.config.dimension("dim_feedforward", 2048);
  config.norm = run.config.flag("norm_first", false) ? engine::NormPlacement::pre
                                                     : engine::NormPlacement::post;
  config.activation =
      *engine::parse_activation(run.config.choice("activation", "relu", {"relu", "gelu"}));
  config.layer_norm_eps = run.config.positive_number("layer_norm_eps", 1e-5);
  config.bias = run.config.flag("bias", true);
  config.attention.causal = run.config.flag("causal", false);
  if (!run.config.flag("batch_first", true)) {
    spec_error(run.source, "config",
               "config.batch_first: the engine takes one sequence as (T, E), which is "
               "batch_first=true with the batch dimension left out; expected true");
  }
  run.config.require_no_dropout();

  engine::EncoderLayerParams<T> params;
  read_mha_params(run, params.self_attn, "self_attn.", config.d_model, config.nhead, config.bias,
                  "d_model", "nhead");
  const auto ff = config.dim_feedforward;
  auto& linear1 = params.feedforward.linear1;
  auto& linear2 = params.feedforward.linear2;
  run.params.matrix("linear1.weight", linear1.weight, ff, config.d_model);
  if (config.bias) run.params.vector("linear1.bias", linear1.bias, ff);
  run.params.matrix("linear2.weight", linear2.weight, config.d_model, ff);
  if (config.bias) run.params.vector("linear2.bias", linear2.bias, config.d_model);
  for (auto [name, norm] : {std::pair{"norm1", &params.norm1}, std::pair{"norm2", &params.norm2}}) {
    run.params.vector(std::string(name) + ".weight", norm->weight, config.d_model);
    if (config.bias) run.params.vector(std::string(name) + ".bias", norm->bias, config.d_model);
  }
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, config.d_model);
  check_attention_size(run, config.nhead, x.rows(), x.rows());
  run.check_elements(x.rows() * ff, "the feed-forward hidden layer");
  const auto dout = run.grad_output_matrix(x.rows(), config.d_model);

  Matrix<T> y;
  engine::EncoderLayerCache<T> cache;
  engine::encoder_layer_forward(y, cache, x, params, config);
  run.result["output"] = to_json(y);
  run.result["attn_weights"] = attention_weights_json(cache.attn.probs);
  if (!dout) return;
  Matrix<T> dx;
  engine::EncoderLayerParams<T> grads;
  engine::encoder_layer_backward(dx, grads, *dout, x, params, cache, config);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

namespace {

// rope_scaling: null (none) or {"rope_type": "linear", "factor": s > 0}, as in LlamaConfig.
double read_rope_scaling(const json* value, const std::string& source) {
  if (value == nullptr || value->is_null()) return 1.0;
  if (!value->is_object()) {
    spec_error(source, "config",
               fmt::format("config.rope_scaling: expected null or {{\"rope_type\": \"linear\", "
                           "\"factor\": a number > 0}}, got {} {}",
                           json_kind(*value), json_preview(*value)));
  }
  for (const auto& [key, item] : value->items()) {
    if (key != "rope_type" && key != "type" && key != "factor") {
      spec_error(source, "config",
                 fmt::format("config.rope_scaling.{}: not a setting of linear rope_scaling; "
                             "expected rope_type, factor",
                             key));
    }
  }
  const auto type = value->contains("rope_type") ? value->find("rope_type") : value->find("type");
  if (type == value->end() || !type->is_string() || type->get<std::string>() != "linear") {
    spec_error(source, "config",
               fmt::format("config.rope_scaling.rope_type: the engine implements linear position "
                           "interpolation only; expected \"linear\", got {}",
                           type == value->end() ? std::string("nothing") : json_preview(*type)));
  }
  const auto factor = value->find("factor");
  if (factor == value->end() || !factor->is_number() || !(factor->get<double>() > 0.0) ||
      !std::isfinite(factor->get<double>())) {
    spec_error(
        source, "config",
        fmt::format("config.rope_scaling.factor: expected a number > 0, got {}",
                    factor == value->end() ? std::string("nothing") : json_preview(*factor)));
  }
  return factor->get<double>();
}

}  // namespace

template <typename T>
void run_gqa(OpRun<T>& run) {
  engine::GqaConfig config;
  config.hidden_size = run.config.dimension("hidden_size");
  config.num_attention_heads = run.config.dimension("num_attention_heads");
  config.num_key_value_heads =
      run.config.dimension("num_key_value_heads", config.num_attention_heads);
  const json* head_dim = run.config.raw("head_dim");
  if (head_dim != nullptr && !head_dim->is_null())
    config.head_dim = run.config.dimension("head_dim");
  config.causal = run.config.flag("causal", true);
  config.rope = run.config.flag("rope", true);
  config.rope_theta = run.config.positive_number("rope_theta", 10000.0);
  config.rope_scaling = read_rope_scaling(run.config.raw("rope_scaling"), run.source);
  config.alibi = run.config.flag("alibi", false);
  const json* window = run.config.raw("sliding_window");
  if (window != nullptr && !window->is_null())
    config.sliding_window = run.config.dimension("sliding_window");
  if (run.config.flag("attention_bias", false)) {
    spec_error(run.source, "config",
               "config.attention_bias: the engine's gqa has no biases, as Llama's; expected false");
  }
  if (run.config.fraction("attention_dropout", 0.0) != 0.0) {
    spec_error(run.source, "config",
               "config.attention_dropout: the engine is deterministic and runs without dropout; "
               "expected 0");
  }
  const auto heads = config.num_attention_heads;
  const auto kv_heads = config.num_key_value_heads;
  if (heads % kv_heads != 0) {
    spec_error(run.source, "config",
               fmt::format("config.num_attention_heads {} is not divisible by "
                           "config.num_key_value_heads {}: every key/value head serves the same "
                           "number of query heads",
                           heads, kv_heads));
  }
  if (config.head_dim == 0 && config.hidden_size % heads != 0) {
    spec_error(run.source, "config",
               fmt::format("config.hidden_size {} is not divisible by config.num_attention_heads "
                           "{}: give config.head_dim or sizes that divide",
                           config.hidden_size, heads));
  }
  const auto dim = config.resolved_head_dim();
  if (config.rope && dim % 2 != 0) {
    spec_error(run.source, "config",
               fmt::format("config.head_dim {}: RoPE rotates pairs of dimensions, so with rope on "
                           "head_dim must be even",
                           dim));
  }
  if (!(config.rope_theta > 1.0)) {
    spec_error(run.source, "config",
               fmt::format("config.rope_theta: expected a number > 1, got {}", config.rope_theta));
  }
  run.check_elements(heads * dim * config.hidden_size, "q_proj.weight");
  engine::GqaParams<T> params;
  params.config = config;
  run.params.matrix("q_proj.weight", params.q_proj, heads * dim, config.hidden_size);
  run.params.matrix("k_proj.weight", params.k_proj, kv_heads * dim, config.hidden_size);
  run.params.matrix("v_proj.weight", params.v_proj, kv_heads * dim, config.hidden_size);
  run.params.matrix("o_proj.weight", params.o_proj, config.hidden_size, heads * dim);
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, config.hidden_size);
  check_attention_size(run, heads, x.rows(), x.rows());
  const auto dout = run.grad_output_matrix(x.rows(), config.hidden_size);

  Matrix<T> y;
  engine::GqaCache<T> cache;
  engine::gqa_forward(y, cache, x, params);
  run.result["output"] = to_json(y);
  ordered_json weights = ordered_json::array();
  for (const auto& probs : cache.probs)
    weights.push_back(to_json(probs));
  run.result["attn_weights"] = std::move(weights);
  if (!dout) return;
  Matrix<T> dx;
  engine::GqaParams<T> grads;
  engine::gqa_backward(dx, grads, *dout, x, params, cache);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

template void run_mha<float>(OpRun<float>& run);
template void run_mha<double>(OpRun<double>& run);
template void run_encoder_layer<float>(OpRun<float>& run);
template void run_encoder_layer<double>(OpRun<double>& run);
template void run_gqa<float>(OpRun<float>& run);
template void run_gqa<double>(OpRun<double>& run);

}  // namespace proofdeck::engine_io::detail
