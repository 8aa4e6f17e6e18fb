// The demos' factories, one per file: `name_demo()` in src/demo/<name>.cpp returns the DemoInfo
// of the demo the CLI calls name-with-dashes (sqrt_dk_scaling_demo() in sqrt_dk_scaling.cpp is
// "sqrt-dk-scaling"). Each demo builds its experiment from engine pieces with weights drawn from
// the seed and reports the numbers its claim rests on, each labelled with where it comes from
// (Provenance in demo.hpp: measured, counted, derived or param). catalog.cpp lists them in the
// order `demo list` shows.
#pragma once

#include "demo/demo.hpp"

namespace proofdeck::demo {

// The lesson's twelve.
DemoInfo order_blindness_demo();
DemoInfo head_params_demo();
DemoInfo head_width_demo();
DemoInfo variance_drift_demo();
DemoInfo residual_gradient_demo();
DemoInfo pre_vs_post_ln_demo();
DemoInfo rope_relative_demo();
DemoInfo pe_extrapolation_demo();
DemoInfo layernorm_vs_batchnorm_demo();
DemoInfo what_layernorm_normalizes_demo();
DemoInfo sqrt_dk_scaling_demo();
DemoInfo causal_mask_demo();
DemoInfo cross_attention_demo();
DemoInfo padded_attention_demo();

// The modern decoder layer's eight (engine/decoder.hpp).
DemoInfo gqa_params_demo();
DemoInfo kv_cache_demo();
DemoInfo rmsnorm_vs_layernorm_demo();
DemoInfo swiglu_params_demo();
DemoInfo alibi_distance_demo();
DemoInfo rope_scaling_demo();
DemoInfo tiled_attention_demo();
DemoInfo attention_flops_demo();

// Generation: choosing the next token (engine/decoding.hpp).
DemoInfo decoding_strategies_demo();

// The training objective (engine/loss.hpp).
DemoInfo perplexity_demo();
DemoInfo weight_tying_demo();
DemoInfo last_token_classifier_demo();
DemoInfo sliding_window_demo();
DemoInfo moe_routing_demo();
DemoInfo quant_granularity_demo();
DemoInfo number_formats_demo();
DemoInfo quant_error_demo();

}  // namespace proofdeck::demo
