// Engine faults: named, deliberate changes to one mechanism the lesson teaches (no 1/√d_k
// scaling, a causal mask off by one, a KV cache that also keeps queries, ...), each tied to the
// trap or claim it breaks. `check --engine-faults` runs every proof under every fault: a proof
// that no fault moves rests on no engine computation, however right its key.
//
// A fault lives in the engine code that computes on tensors or builds a module's structure, never
// in demos, banks, closed-form counts, visitors, the RNG or initialisation. The active fault
// belongs to the thread's run context (run_context.hpp; the demo runner sets it per run with a
// FaultScope), so two runs on two threads may carry two faults. Every op asks once per call, on
// entry, which fault is active — one branch per call, never per element — and the answer also
// records that the op was reached, which is how a demo's declared dependencies are checked
// (docs/ARCHITECTURE.md § Engine faults).
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace proofdeck::engine {

// The mechanisms faults change, one per engine op family a proof can reach.
enum class Op : std::uint8_t {
  attention,          // scaled dot-product attention: scores, scaling, causal mask, softmax
  heads,              // a multi-head module's structure: per-head projections and their width
  kv_heads,           // grouped-query attention: which key/value head a query head reads
  kv_cache,           // decoding step by step with a key/value cache
  tiled_attention,    // attention in tiles with an online softmax
  positions_added,    // adding a positional encoding to the token embeddings
  sinusoidal,         // the sinusoidal table
  learned_positions,  // the learned table's lookup
  rope,               // rotary embedding of queries and keys
  alibi,              // ALiBi's distance penalty
  layernorm,
  rmsnorm,
  batchnorm,
  residual,         // a block's residual additions
  final_norm,       // a Pre-LN stack's final LayerNorm
  swiglu,           // the gated feed-forward
  linear,           // nn.Linear
  feedforward,      // the original feed-forward's activation
  optimizer,        // a training step's update of the parameters (SGD)
  mac_count,        // the multiply-add tally of the products a forward ran
  cross_attention,  // queries from one sequence, keys and values from another
  weight_norm,      // a Linear's weight rebuilt as g · v / ‖v‖
  padding,          // a padded batch's masks: padding keys in attention, padding rows in norms
  decoding,         // choosing the next token: temperature, top-k, top-p, beam search
  cross_entropy,    // the next-token loss: log-softmax, ignored targets, the reduction
  weight_tying,     // one matrix as the token embedding and the LM head
  sliding_window,   // a query sees only the last W keys; the rolling cache of W rows
  moe,              // a mixture of experts: routing, mixing weights, expert capacity
  quantize,         // integer fake quantization: scales, zero points, rounding, the STE
  number_format,    // rounding to float16, bfloat16 or FP8: steps, subnormals, overflow
  nf4,              // QLoRA's 4-bit NormalFloat: the code book, block absmax, double quantization
};
inline constexpr std::size_t kOpCount = 31;
std::string_view op_name(Op op);
using OpSet = std::bitset<kOpCount>;

enum class Fault : std::uint8_t {
  none,
  unscaled_scores,
  scores_averaged,
  causal_mask_ignored,
  causal_mask_off_by_one,
  causal_mask_always,
  softmax_wrong_axis,
  heads_share_projection,
  heads_full_width,
  gqa_all_kv_head_0,
  kv_cache_keeps_queries,
  kv_cache_drops_oldest,
  online_softmax_no_rescale,
  tiled_attention_materializes,
  positions_not_added,
  sinusoidal_one_frequency,
  sinusoidal_trainable,
  learned_positions_clamp,
  learned_table_one_short,
  rope_not_applied,
  rope_on_values,
  rope_additive,
  rope_base_1000,
  rope_scaling_ignored,
  alibi_equal_slopes,
  alibi_halved_slopes,
  layernorm_no_centring,
  layernorm_no_scaling,
  layernorm_unbiased_variance,
  layernorm_batch_statistics,
  layernorm_normalizes_gradients,
  rmsnorm_as_layernorm,
  batchnorm_per_token,
  residual_dropped,
  pre_ln_no_final_norm,
  swiglu_no_gate,
  linear_no_bias,
  feedforward_no_activation,
  optimizer_rescales_weights,
  mac_count_one_head,
  cross_attention_self_keys,
  weight_norm_no_division,
  key_padding_ignored,
  padding_in_batch_statistics,
  temperature_inverted,
  top_p_drops_crossing_token,
  top_p_share_of_vocabulary,
  beam_keeps_one,
  padding_counted_in_mean,
  perplexity_base_2,
  head_own_copy,
  window_off_by_one,
  rolling_cache_wrong_slot,
  topk_not_renormalised,
  every_expert_runs,
  overflow_rerouted,
  per_channel_as_tensor,
  round_half_away,
  subnormals_flushed,
  e4m3_top_binade_reserved,
  nf4_uniform_levels,
  overflow_saturates,
  bfloat16_ten_mantissa_bits,
  levels_linear_in_bits,
  smoothing_factor_inverted,
  double_quant_scales_free,
};

struct FaultInfo {
  Fault fault = Fault::none;
  std::string_view name;    // the contract name: "unscaled-scores"
  Op op = Op::attention;    // the mechanism it changes
  std::string_view change;  // what the broken engine does, one line
  std::string_view trap;    // the id of the banks' trap (misconception) it models; empty if none
  std::string_view claim;   // the lesson's claim it breaks, one line
  bool reshapes = false;    // changes which tensors a module holds or their shapes
  // Moves no demo's measured default outputs by 10%: only a proof that reads the right value, or
  // runs at the right edge, notices it (tests/test_demo_faults.cpp measures every fault).
  bool subtle = false;
};

// Every fault, in catalog order (Fault::none excluded): the one list of them, which
// `proofdeck check --list-faults` prints.
std::span<const FaultInfo> fault_catalog();
const FaultInfo& fault_info(Fault fault);
std::optional<Fault> find_fault(std::string_view name);

// The fault active on this thread; records that `op` was reached. Called once per op call.
Fault enter(Op op) noexcept;
// Makes `fault` the thread's active fault and starts a fresh record of reached ops, for as long
// as it lives; when it ends the previous fault is active again and the previous record gains what
// this one saw.
class FaultScope {
 public:
  explicit FaultScope(Fault fault) noexcept;
  ~FaultScope();
  FaultScope(const FaultScope&) = delete;
  FaultScope& operator=(const FaultScope&) = delete;
  // The ops reached on this thread since the scope began.
  OpSet reached() const noexcept;

 private:
  Fault previous_fault_;
  OpSet previous_reached_;
};

}  // namespace proofdeck::engine
