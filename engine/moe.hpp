// A sparse mixture-of-experts feed-forward, as Mixtral builds it (Hugging Face's
// MixtralSparseMoeBlock, its config and parameter names): a router (`gate.weight`) scores every
// expert for every token, softmax over all N logits, the k most probable experts run and their
// probabilities, renormalised to sum 1, mix the experts' outputs. Each expert is a SwiGLU
// feed-forward (`w1` is its gate_proj, `w3` its up_proj, `w2` its down_proj). The block replaces a
// decoder layer's feed-forward and nothing else: its output is added to the residual stream.
//
// Switch Transformer's parts (Fedus et al. 2022, §2.2) on request: an expert capacity, past which
// a token's slot is dropped — it contributes nothing, so the token passes on through the residual
// — and the load-balancing loss α·N·Σᵢ fᵢ·Pᵢ.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/decoder.hpp"
#include "engine/tensor.hpp"

namespace proofdeck::engine {

struct MoeConfig {
  Index hidden_size = 0;          // E
  Index intermediate_size = 0;    // F, each expert's SwiGLU width
  Index num_local_experts = 8;    // N
  Index num_experts_per_tok = 2;  // k: the experts each token runs
  // Mixtral renormalises the k kept probabilities to sum 1; false mixes by the probabilities as
  // they are (Switch at k = 1, so the router's gradient does not vanish: a renormalised single
  // weight is always 1).
  bool norm_topk_prob = true;
  // 0: no capacity (Mixtral). c > 0: an expert takes at most ⌈k·T / N · c⌉ slots (Fedus et al.'s
  // tokens / experts × capacity factor, counting a token's k slots), filled in sequence order,
  // every token's first choice before any token's second (Lepikhin et al. 2021).
  double capacity_factor = 0.0;
  double router_aux_loss_coef = 0.01;  // α of the load-balancing loss (Switch's value)
};

// Throws EngineError naming the first field out of range.
void check_moe_config(const MoeConfig& config);

// The capacity an expert has for T tokens: ⌈k·T / N · c⌉, or T·k (no limit) without a factor.
Index moe_capacity(const MoeConfig& config, Index tokens);

template <typename T>
struct MoeParams {
  using Scalar = T;
  Matrix<T> gate;                        // (N, E) the router
  std::vector<SwigluParams<T>> experts;  // N experts of width F

  MoeParams() = default;
  // Zeros of the config's shapes.
  explicit MoeParams(const MoeConfig& config);
};

template <typename P>
concept MoeParamsType =
    std::same_as<std::remove_const_t<P>, MoeParams<typename std::remove_const_t<P>::Scalar>>;

// Hugging Face's names: gate.weight, then experts.{i}.w1/w2/w3.weight for each expert in turn.
template <MoeParamsType P, typename Visitor>
void visit_params(P& params, const std::string& prefix, Visitor&& visit) {
  visit(prefix + "gate.weight", params.gate);
  for (std::size_t i = 0; i < params.experts.size(); ++i) {
    auto& expert = params.experts[i];
    const std::string name = prefix + "experts." + std::to_string(i) + ".";
    if (expert.has_gate()) visit(name + "w1.weight", expert.gate_proj);  // swiglu-no-gate
    visit(name + "w2.weight", expert.down_proj);
    visit(name + "w3.weight", expert.up_proj);
  }
}

// One token's slot sent to an expert: the token, which of its chosen experts the slot is (its
// rank, most probable first), the expert that ran it and the row it holds in that expert's batch.
struct MoeDispatch {
  Index token = 0;
  Index rank = 0;
  Index expert = 0;
  Index row = 0;
};

template <typename T>
struct MoeCache {
  Matrix<T> logits;                        // (T, N) the router's scores
  Matrix<T> probs;                         // (T, N) softmax over all N
  std::vector<std::vector<Index>> chosen;  // per token, its experts, most probable first
  Matrix<T> weights;                       // (T, k') the mixing weight of each chosen expert
  bool renormalised = true;                // weights are probs over the chosen set's sum
  Index capacity = 0;
  std::vector<MoeDispatch> dispatched;    // the slots that ran, in the order they were filled
  std::vector<MoeDispatch> dropped;       // the slots over capacity (expert: the one that was full)
  std::vector<Matrix<T>> expert_inputs;   // per expert, the rows it ran
  std::vector<Matrix<T>> expert_outputs;  // per expert, its outputs for those rows
  std::vector<SwigluCache<T>> expert_caches;
};

template <typename T>
void moe_forward(Matrix<T>& out,  // (T, E) the block's output, before the residual
                 MoeCache<T>& cache,
                 const Matrix<T>& inp,  // (T, E)
                 const MoeParams<T>& params, const MoeConfig& config);

template <typename T>
void moe_backward(Matrix<T>& dinp,        // (T, E)
                  MoeParams<T>& grads,    // same shapes as params, assigned
                  const Matrix<T>& dout,  // (T, E)
                  const Matrix<T>& inp, const MoeParams<T>& params, const MoeConfig& config,
                  const MoeCache<T>& cache);

// The load-balancing loss α·N·Σᵢ fᵢ·Pᵢ: fᵢ the share of tokens whose chosen experts include i
// (the router's choice, before any capacity drops a slot), Pᵢ the mean router probability of i.
// Evenly spread it is α·k; it grows as routing concentrates.
template <typename T>
T moe_load_balancing_loss(const MoeCache<T>& cache, const MoeConfig& config);

// Its gradient through Pᵢ (fᵢ counts choices and has none): adds to dinp and to grads.gate.
template <typename T>
void moe_load_balancing_backward(Matrix<T>& dinp, MoeParams<T>& grads, const Matrix<T>& inp,
                                 const MoeParams<T>& params, const MoeConfig& config,
                                 const MoeCache<T>& cache);

// Parameters the block holds, and those one token's forward used on average: the router's
// and the experts' the token's slots ran, read from the dispatch the forward made.
struct MoeParamUse {
  std::int64_t total = 0;
  std::int64_t router = 0;
  std::int64_t per_expert = 0;
  double active_per_token = 0.0;
};
template <typename T>
MoeParamUse moe_param_use(const MoeParams<T>& params, const MoeCache<T>& cache);

}  // namespace proofdeck::engine
