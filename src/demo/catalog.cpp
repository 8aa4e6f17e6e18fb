// The demo catalog, in the order `demo list` shows it (the numbering): the one list of
// the demos, each defined in its own file (demos.hpp).
#include "demo/demo.hpp"
#include "demo/demos.hpp"

namespace proofdeck::demo {

const std::vector<DemoInfo>& catalog() {
  static const std::vector<DemoInfo> demos = {
      order_blindness_demo(),
      head_params_demo(),
      head_width_demo(),
      variance_drift_demo(),
      residual_gradient_demo(),
      pre_vs_post_ln_demo(),
      rope_relative_demo(),
      pe_extrapolation_demo(),
      layernorm_vs_batchnorm_demo(),
      what_layernorm_normalizes_demo(),
      sqrt_dk_scaling_demo(),
      causal_mask_demo(),
      cross_attention_demo(),
      padded_attention_demo(),
      // The modern decoder layer.
      gqa_params_demo(),
      kv_cache_demo(),
      rmsnorm_vs_layernorm_demo(),
      swiglu_params_demo(),
      alibi_distance_demo(),
      rope_scaling_demo(),
      tiled_attention_demo(),
      attention_flops_demo(),
      // Generation.
      decoding_strategies_demo(),
      // The training objective.
      perplexity_demo(),
      weight_tying_demo(),
      last_token_classifier_demo(),
      sliding_window_demo(),
      moe_routing_demo(),
      quant_granularity_demo(),
      number_formats_demo(),
      quant_error_demo(),
  };
  return demos;
}

}  // namespace proofdeck::demo
