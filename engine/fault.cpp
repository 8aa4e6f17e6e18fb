// The fault catalog and the thread's active fault (see fault.hpp).
#include "engine/fault.hpp"

#include <algorithm>
#include <array>

namespace proofdeck::engine {

namespace {

thread_local Fault active = Fault::none;
thread_local OpSet reached_ops;

constexpr std::array<std::string_view, kOpCount> kOpNames{
    "attention",       "heads",       "kv-heads",          "kv-cache",  "tiled-attention",
    "positions-added", "sinusoidal",  "learned-positions", "rope",      "alibi",
    "layernorm",       "rmsnorm",     "batchnorm",         "residual",  "final-norm",
    "swiglu",          "linear",      "feedforward",       "optimizer", "mac-count",
    "cross-attention", "weight-norm", "padding",           "decoding"};

// Each row's last two fields, named.
constexpr bool kReshapes = true, kKeepsShapes = false;
constexpr bool kSubtle = true, kNoticed = false;

// clang-format off
constexpr std::array kFaults{
    FaultInfo{Fault::unscaled_scores, "unscaled-scores", Op::attention,
              "scores are not divided by √d_k",
              "sdpa-scale-irrelevant",
              "without 1/√d_k the scores' spread grows with d_k and softmax saturates",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::causal_mask_ignored, "causal-mask-ignored", Op::attention,
              "a causal mask is asked for and not applied",
              "arch-decoder-sees-future",
              "a causal position must give its future weight 0",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::causal_mask_off_by_one, "causal-mask-off-by-one", Op::attention,
              "the causal mask lets each query see its next token too",
              "arch-decoder-sees-future",
              "position t attends to positions ≤ t only",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::causal_mask_always, "causal-mask-always", Op::attention,
              "bidirectional attention applies a causal mask it was not asked for",
              "arch-mlm-is-causal-mask",
              "an encoder's attention is bidirectional, every position sees both sides",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::softmax_wrong_axis, "softmax-wrong-axis", Op::attention,
              "softmax normalises each key's column instead of each query's row",
              "sdpa-scale-normalizes-rows",
              "each query's weights over the keys sum to 1",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::heads_share_projection, "heads-share-projection", Op::heads,
              "every head reads one shared W_q, W_k, W_v of head width",
              "heads-identical-copies",
              "each head has its own projections",
              kReshapes, kNoticed},
    FaultInfo{Fault::heads_full_width, "heads-full-width", Op::heads,
              "each head projects to the full d_model instead of d_model / h",
              "mha-cuts-params",
              "splitting into h heads keeps the attention block's parameter count",
              kReshapes, kNoticed},
    FaultInfo{Fault::gqa_all_kv_head_0, "gqa-all-kv-head-0", Op::kv_heads,
              "every query head reads key/value head 0",
              "dec-gqa-shrinks-queries",
              "query head h reads key/value head ⌊h·G/H⌋, groups share one each",
              kKeepsShapes, kSubtle},
    FaultInfo{Fault::kv_cache_keeps_queries, "kv-cache-keeps-queries", Op::kv_cache,
              "the decode cache also keeps every token's query",
              "dec-cache-stores-queries",
              "a past query is never read again, so only K and V are cached",
              kReshapes, kSubtle},
    FaultInfo{Fault::kv_cache_drops_oldest, "kv-cache-drops-oldest", Op::kv_cache,
              "the decode cache drops the first token's row once a second arrives",
              "dec-cache-approximate",
              "a cache of every past K and V makes decoding exact",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::online_softmax_no_rescale, "online-softmax-no-rescale", Op::tiled_attention,
              "the online softmax does not rescale its sum and output when the running maximum grows",
              "dec-flash-approximate",
              "tiled attention is exact only with the rescale",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::tiled_attention_materializes, "tiled-attention-materializes", Op::tiled_attention,
              "the tiled pass builds the whole T × T score matrix and takes its softmax at once",
              "dec-flash-materializes",
              "the tiled pass never holds more than one tile of scores",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::positions_not_added, "positions-not-added", Op::positions_added,
              "the positional encoding is not added to the embeddings",
              "pe-optional",
              "without positions attention cannot tell word order",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::sinusoidal_one_frequency, "sinusoidal-one-frequency", Op::sinusoidal,
              "every pair of sinusoidal dimensions uses the first pair's frequency",
              "sinusoidal-is-learned",
              "the table's geometric frequencies give every position its own code",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::sinusoidal_trainable, "sinusoidal-trainable", Op::sinusoidal,
              "the sinusoidal scheme holds a trainable max_len × d_model table, initialised with the sinusoids",
              "sinusoidal-is-learned",
              "the sinusoidal encoding is a formula with no trained values",
              kReshapes, kSubtle},
    FaultInfo{Fault::learned_positions_clamp, "learned-positions-clamp", Op::learned_positions,
              "a position past the learned table reads the table's last row instead of failing",
              "learned-extrapolates",
              "a learned table has no row past max_len",
              kKeepsShapes, kSubtle},
    FaultInfo{Fault::learned_table_one_short, "learned-table-one-short", Op::learned_positions,
              "the learned table is built with max_len − 1 rows, so position max_len − 1 has none",
              "learned-extrapolates",
              "a learned table holds one trained row for each position 0 … max_len − 1",
              kReshapes, kSubtle},
    FaultInfo{Fault::rope_not_applied, "rope-not-applied", Op::rope,
              "queries and keys are not rotated",
              "rope-is-additive",
              "RoPE's rotation is what makes scores depend on the offset",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::rope_on_values, "rope-on-values", Op::rope,
              "values are rotated as well as queries and keys",
              "rope-is-additive",
              "RoPE rotates Q and K only, just before QKᵀ",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::rope_additive, "rope-additive", Op::rope,
              "queries and keys get each pair's (cos, sin) added instead of being rotated by it",
              "rope-is-additive",
              "a rotation makes q·k depend on the offset alone; an added code does not",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::rope_base_1000, "rope-base-1000", Op::rope,
              "RoPE's frequencies use base 1,000 instead of the configured base",
              "dec-rope-extrapolates",
              "the base sets the wavelengths, and with them the angles past training",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::rope_scaling_ignored, "rope-scaling-ignored", Op::rope,
              "linear position interpolation's factor is ignored (angles at p, not p / s)",
              "dec-pi-truncates",
              "interpolation maps positions into the trained range",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::alibi_equal_slopes, "alibi-equal-slopes", Op::alibi,
              "every head uses head 0's ALiBi slope",
              "dec-alibi-one-slope",
              "each head has its own slope, from a geometric sequence",
              kKeepsShapes, kSubtle},
    FaultInfo{Fault::alibi_halved_slopes, "alibi-halved-slopes", Op::alibi,
              "ALiBi's distance penalty uses half of each head's slope",
              "dec-alibi-table",
              "the bias is −m_h·|i − j|, with Press et al.'s slopes",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::layernorm_no_centring, "layernorm-no-centring", Op::layernorm,
              "LayerNorm does not subtract the row's mean (its variance is then the mean of squares)",
              "dec-rmsnorm-subtracts-mean",
              "centring is what LayerNorm adds to RMSNorm",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::layernorm_no_scaling, "layernorm-no-scaling", Op::layernorm,
              "LayerNorm subtracts the mean and does not divide by the standard deviation",
              "ln-normalizes-weights",
              "LayerNorm gives each token's features unit variance",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::layernorm_unbiased_variance, "layernorm-unbiased-variance", Op::layernorm,
              "LayerNorm divides its variance by n − 1 instead of n",
              "batchnorm-interchangeable",
              "LayerNorm uses the biased variance of one row",
              kKeepsShapes, kSubtle},
    FaultInfo{Fault::layernorm_batch_statistics, "layernorm-batch-statistics", Op::layernorm,
              "LayerNorm takes each feature's mean and variance over the batch's rows, as BatchNorm does",
              "batchnorm-interchangeable",
              "LayerNorm normalises each token over its own features, whatever its batch",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::rmsnorm_as_layernorm, "rmsnorm-as-layernorm", Op::rmsnorm,
              "RMSNorm subtracts the row's mean as LayerNorm does",
              "dec-rmsnorm-same-output",
              "RMSNorm skips centring, so it differs unless the mean is 0",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::batchnorm_per_token, "batchnorm-per-token", Op::batchnorm,
              "BatchNorm takes its statistics over each token's features instead of the batch",
              "batchnorm-interchangeable",
              "BatchNorm's statistics depend on the whole batch",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::residual_dropped, "residual-dropped", Op::residual,
              "a block's residual additions are dropped",
              "residual-is-normalization",
              "the identity path carries the gradient down the stack",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::pre_ln_no_final_norm, "pre-ln-no-final-norm", Op::final_norm,
              "a Pre-LN stack leaves out its final LayerNorm",
              "post-ln-clean-path",
              "Pre-LN's residual stream grows until the final LayerNorm",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::swiglu_no_gate, "swiglu-no-gate", Op::swiglu,
              "SwiGLU is built without gate_proj: down(silu(up(x)))",
              "dec-swiglu-just-activation",
              "SwiGLU adds a third matrix, the gate",
              kReshapes, kSubtle},
    FaultInfo{Fault::linear_no_bias, "linear-no-bias", Op::linear,
              "a Linear asked for a bias is built without one",
              "mha-cuts-params",
              "the projections' biases, one per output, add 4·d_model for any head count",
              kReshapes, kSubtle},
    FaultInfo{Fault::feedforward_no_activation, "feedforward-no-activation", Op::feedforward,
              "the feed-forward sublayer skips its activation: linear2(linear1(x))",
              "mechanisms-optional-polish",
              "the non-linearity is part of the block's computation",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::optimizer_rescales_weights, "optimizer-rescales-weights", Op::optimizer,
              "an SGD step scales each weight row, and a norm's γ, back to its length before the step",
              "ln-normalizes-weights",
              "nothing normalises the weights; a step moves them by −lr·∇ alone",
              kKeepsShapes, kSubtle},
    FaultInfo{Fault::mac_count_one_head, "mac-count-one-head", Op::mac_count,
              "a multiply-add tally keeps only the first score product and the first weighted sum it sees",
              "split-means-cheaper",
              "every head's products count; together they cost one full-width head",
              kKeepsShapes, kSubtle},
    FaultInfo{Fault::cross_attention_self_keys, "cross-attention-self-keys", Op::cross_attention,
              "cross-attention projects its keys and values from the decoder's own sequence instead of the memory",
              "arch-cross-attention-direction",
              "the decoder's queries read keys and values from the encoder's output",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::weight_norm_no_division, "weight-norm-no-division", Op::weight_norm,
              "weight normalisation rebuilds the weight as g · v without dividing by ‖v‖",
              "ln-normalizes-weights",
              "normalising the weights fixes each row's length ‖w_i‖ at g_i, whatever v",
              kKeepsShapes, kSubtle},
    FaultInfo{Fault::key_padding_ignored, "key-padding-ignored", Op::padding,
              "attention gives padding keys weight as if they were tokens: the key-padding mask is not applied",
              "sdpa-mask-zero-score",
              "a masked key's weight is exactly 0, so padding never reaches a real token's output",
              kKeepsShapes, kSubtle},
    FaultInfo{Fault::padding_in_batch_statistics, "padding-in-batch-statistics", Op::padding,
              "masked BatchNorm takes its per-feature statistics over the padding rows too",
              "batchnorm-interchangeable",
              "BatchNorm's statistics come from the rows sharing the batch, padding included unless masked out",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::temperature_inverted, "temperature-inverted", Op::decoding,
              "sampling multiplies the logits by the temperature instead of dividing by it",
              "decode-temperature-sharpens",
              "dividing by T > 1 flattens the distribution, T < 1 sharpens it",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::top_p_drops_crossing_token, "top-p-drops-crossing-token", Op::decoding,
              "nucleus sampling removes the token that takes the kept mass to top_p, so the nucleus holds less than top_p",
              "decode-top-p-fixed-count",
              "top-p keeps the smallest set of likeliest tokens whose mass reaches p",
              kKeepsShapes, kNoticed},
    FaultInfo{Fault::beam_keeps_one, "beam-keeps-one", Op::decoding,
              "beam search keeps one sequence per step whatever the beam width, so it is greedy",
              "decode-greedy-is-optimal",
              "a wider beam can find a likelier sequence that greedy's first choice rules out",
              kKeepsShapes, kSubtle},
};
// clang-format on

}  // namespace

std::string_view op_name(Op op) {
  return kOpNames.at(static_cast<std::size_t>(op));
}

std::span<const FaultInfo> fault_catalog() {
  return kFaults;
}

const FaultInfo& fault_info(Fault fault) {
  static const FaultInfo none{Fault::none, "none", Op::attention, "no fault", "", "", false, false};
  const auto it = std::find_if(kFaults.begin(), kFaults.end(),
                               [&](const FaultInfo& info) { return info.fault == fault; });
  return it == kFaults.end() ? none : *it;
}

std::optional<Fault> find_fault(std::string_view name) {
  for (const FaultInfo& info : kFaults) {
    if (info.name == name) return info.fault;
  }
  return std::nullopt;
}

Fault enter(Op op) noexcept {
  reached_ops.set(static_cast<std::size_t>(op));
  return active;
}

FaultScope::FaultScope(Fault fault) noexcept
    : previous_fault_(active), previous_reached_(reached_ops) {
  active = fault;
  reached_ops.reset();
}

FaultScope::~FaultScope() {
  active = previous_fault_;
  reached_ops |= previous_reached_;
}

OpSet FaultScope::reached() const noexcept {
  return reached_ops;
}

}  // namespace proofdeck::engine
