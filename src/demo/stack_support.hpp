// The deep stacks of transformer blocks that residual-gradient and pre-vs-post-ln build: their
// configuration, the head check and what a pass through one block costs.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/stack.hpp"

namespace proofdeck::demo {

inline void check_heads(const std::string& demo, std::int64_t heads, std::int64_t d_model) {
  if (d_model % heads != 0) {
    param_error(demo, fmt::format("heads={} does not divide d_model={}: every head gets "
                                  "d_model / heads features, so heads must be a divisor of {}",
                                  heads, d_model, d_model));
  }
}

// Multiply-adds of one transformer block's forward and backward pass, roughly: per token the
// projections (4·E²), the feed-forward sublayer (2·E·F) and the attention scores (2·T·E), with
// the backward pass costing twice the forward.
inline double block_work(std::int64_t tokens, std::int64_t d_model, std::int64_t d_ff) {
  const double t = as_double(tokens), e = as_double(d_model), f = as_double(d_ff);
  return 3.0 * t * (4.0 * e * e + 2.0 * e * f + 2.0 * t * e);
}

inline engine::StackConfig stack_config(std::int64_t layers, std::int64_t d_model,
                                        std::int64_t heads, std::int64_t d_ff,
                                        engine::NormPlacement norm) {
  engine::StackConfig config;
  config.layer.d_model = d_model;
  config.layer.nhead = heads;
  config.layer.dim_feedforward = d_ff;
  config.layer.norm = norm;
  config.layer.activation = engine::Activation::relu;
  config.num_layers = layers;
  config.final_norm = norm == engine::NormPlacement::pre;  // Pre-LN ends with a LayerNorm
  return config;
}

}  // namespace proofdeck::demo
