// The sparse mixture-of-experts block: routing (softmax, top-k, renormalising), dispatch under an
// expert capacity, the experts' SwiGLU, the backward through the mixing weights, and Switch's
// load-balancing loss.
#include "engine/moe.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/fault.hpp"
#include "engine/macs.hpp"
#include "engine/param_count.hpp"
#include "engine/product.hpp"

namespace proofdeck::engine {

void check_moe_config(const MoeConfig& config) {
  require(config.hidden_size > 0,
          "hidden_size must be positive, got " + std::to_string(config.hidden_size));
  require(config.intermediate_size > 0,
          "intermediate_size must be positive, got " + std::to_string(config.intermediate_size));
  require(config.num_local_experts > 0,
          "num_local_experts must be positive, got " + std::to_string(config.num_local_experts));
  require(config.num_experts_per_tok > 0 && config.num_experts_per_tok <= config.num_local_experts,
          "num_experts_per_tok must be 1 to num_local_experts (" +
              std::to_string(config.num_local_experts) + "), got " +
              std::to_string(config.num_experts_per_tok));
  require(std::isfinite(config.capacity_factor) && config.capacity_factor >= 0.0,
          "capacity_factor must be 0 (no capacity) or positive, got " +
              number_string(config.capacity_factor));
  require(std::isfinite(config.router_aux_loss_coef) && config.router_aux_loss_coef >= 0.0,
          "router_aux_loss_coef must be 0 or positive, got " +
              number_string(config.router_aux_loss_coef));
}

Index moe_capacity(const MoeConfig& config, Index tokens) {
  const Index slots = config.num_experts_per_tok * tokens;
  if (config.capacity_factor <= 0.0) return slots;
  const double share = static_cast<double>(slots) * config.capacity_factor /
                       static_cast<double>(config.num_local_experts);
  // A relative 1e-9 keeps a product like 10 × 1.1 / 11 (1.0000000000000002 in binary) at 1.
  return static_cast<Index>(std::ceil(share * (1.0 - 1e-9)));
}

template <typename T>
MoeParams<T>::MoeParams(const MoeConfig& config) {
  check_moe_config(config);
  gate = Matrix<T>::Zero(config.num_local_experts, config.hidden_size);
  experts.assign(static_cast<std::size_t>(config.num_local_experts),
                 SwigluParams<T>(config.hidden_size, config.intermediate_size));
}

namespace {

template <typename T>
void check_moe_shapes(const MoeParams<T>& params, const MoeConfig& config) {
  check_moe_config(config);
  require_shape(params.gate, config.num_local_experts, config.hidden_size, "moe gate.weight");
  require(static_cast<Index>(params.experts.size()) == config.num_local_experts,
          "moe holds " + std::to_string(params.experts.size()) + " experts, expected " +
              std::to_string(config.num_local_experts));
  for (const SwigluParams<T>& expert : params.experts) {
    // without w1 under swiglu-no-gate, whose experts are built with two matrices
    if (expert.has_gate())
      require_shape(expert.gate_proj, config.intermediate_size, config.hidden_size,
                    "moe expert w1");
    require_shape(expert.up_proj, config.intermediate_size, config.hidden_size, "moe expert w3");
    require_shape(expert.down_proj, config.hidden_size, config.intermediate_size, "moe expert w2");
  }
}

template <typename T>
Matrix<T> row_softmax(const Matrix<T>& logits) {
  Matrix<T> probs(logits.rows(), logits.cols());
  for (Index t = 0; t < logits.rows(); ++t) {
    const T top = logits.row(t).maxCoeff();
    probs.row(t) = (logits.row(t).array() - top).exp().matrix();
    probs.row(t) /= probs.row(t).sum();
  }
  return probs;
}

// Every expert for token t, most probable first (the lower index first on a tie).
template <typename T>
std::vector<Index> by_probability(const Matrix<T>& probs, Index t) {
  std::vector<Index> order(static_cast<std::size_t>(probs.cols()));
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](Index a, Index b) { return probs(t, a) > probs(t, b); });
  return order;
}

// The router's choice: the k most probable experts and their mixing weights.
// every-expert-runs (fault): every expert is chosen, mixed by the full softmax.
// topk-not-renormalised (fault): the k probabilities mix the experts as they are.
template <typename T>
void route(MoeCache<T>& cache, const MoeConfig& config, Fault fault) {
  const Index tokens = cache.probs.rows();
  const Index chosen =
      fault == Fault::every_expert_runs ? config.num_local_experts : config.num_experts_per_tok;
  cache.renormalised = config.norm_topk_prob && fault != Fault::topk_not_renormalised;
  cache.chosen.assign(static_cast<std::size_t>(tokens), {});
  cache.weights.resize(tokens, chosen);
  for (Index t = 0; t < tokens; ++t) {
    std::vector<Index> order = by_probability(cache.probs, t);
    order.resize(static_cast<std::size_t>(chosen));
    T kept = 0;
    for (Index r = 0; r < chosen; ++r) {
      cache.weights(t, r) = cache.probs(t, order[static_cast<std::size_t>(r)]);
      kept += cache.weights(t, r);
    }
    if (cache.renormalised) cache.weights.row(t) /= kept;
    cache.chosen[static_cast<std::size_t>(t)] = std::move(order);
  }
}

// Fills each expert's slots up to its capacity, every token's first choice before any token's
// second, in sequence order; a slot past it is dropped.
// overflow-rerouted (fault): the slot goes to the token's next most probable expert with room.
template <typename T>
void dispatch(MoeCache<T>& cache, const MoeConfig& config, Fault fault) {
  const Index tokens = cache.probs.rows();
  cache.capacity = moe_capacity(config, tokens);
  cache.dispatched.clear();
  cache.dropped.clear();
  std::vector<Index> filled(static_cast<std::size_t>(config.num_local_experts), 0);
  const auto has_room = [&](Index expert) {
    return filled[static_cast<std::size_t>(expert)] < cache.capacity;
  };
  for (Index r = 0; r < cache.weights.cols(); ++r) {
    for (Index t = 0; t < tokens; ++t) {
      Index expert = cache.chosen[static_cast<std::size_t>(t)][static_cast<std::size_t>(r)];
      if (!has_room(expert) && fault == Fault::overflow_rerouted) {
        for (const Index next : by_probability(cache.probs, t)) {
          if (has_room(next)) {
            expert = next;
            break;
          }
        }
      }
      if (!has_room(expert)) {
        cache.dropped.push_back({t, r, expert, -1});
        continue;
      }
      cache.dispatched.push_back({t, r, expert, filled[static_cast<std::size_t>(expert)]++});
    }
  }
}

// The slots expert e ran, in row order.
template <typename T>
std::vector<const MoeDispatch*> slots_of(const MoeCache<T>& cache, Index expert) {
  std::vector<const MoeDispatch*> slots;
  for (const MoeDispatch& slot : cache.dispatched) {
    if (slot.expert == expert) slots.push_back(&slot);
  }
  return slots;
}

}  // namespace

template <typename T>
void moe_forward(Matrix<T>& out, MoeCache<T>& cache, const Matrix<T>& inp,
                 const MoeParams<T>& params, const MoeConfig& config) {
  const Fault fault = enter(Op::moe);
  check_moe_shapes(params, config);
  require_shape(inp, inp.rows(), config.hidden_size, "moe input");
  project(cache.logits, inp, params.gate);
  count_macs(MacSite::linear, inp.rows(), config.hidden_size, config.num_local_experts);
  cache.probs = row_softmax(cache.logits);
  route(cache, config, fault);
  dispatch(cache, config, fault);

  const auto experts = static_cast<std::size_t>(config.num_local_experts);
  cache.expert_inputs.assign(experts, Matrix<T>());
  cache.expert_outputs.assign(experts, Matrix<T>());
  cache.expert_caches.assign(experts, SwigluCache<T>());
  out = Matrix<T>::Zero(inp.rows(), inp.cols());
  for (std::size_t e = 0; e < experts; ++e) {
    const auto slots = slots_of(cache, static_cast<Index>(e));
    if (slots.empty()) continue;
    Matrix<T>& rows = cache.expert_inputs[e];
    rows.resize(static_cast<Index>(slots.size()), inp.cols());
    for (const MoeDispatch* slot : slots)
      rows.row(slot->row) = inp.row(slot->token);
    swiglu_forward(cache.expert_outputs[e], cache.expert_caches[e], rows, params.experts[e]);
    for (const MoeDispatch* slot : slots) {
      out.row(slot->token) +=
          cache.weights(slot->token, slot->rank) * cache.expert_outputs[e].row(slot->row);
    }
  }
}

namespace {

// d(loss)/d(logits) from g(t, r) = d(loss)/d(weight of token t's r-th choice).
template <typename T>
Matrix<T> logit_gradient(const MoeCache<T>& cache, const Matrix<T>& g) {
  Matrix<T> dlogits = Matrix<T>::Zero(cache.probs.rows(), cache.probs.cols());
  for (Index t = 0; t < cache.probs.rows(); ++t) {
    const std::vector<Index>& chosen = cache.chosen[static_cast<std::size_t>(t)];
    // Renormalised, the weights are a softmax over the chosen logits alone:
    //   d/dl_q = w_q·(g_q − Σ_r g_r·w_r), and nothing for an expert not chosen.
    // As they are, each weight is a probability over all N: d/dl_j = [j chosen]·g_j·p_j − p_j·Σ_r
    // g_r·p_r.
    const T mixed = g.row(t).dot(cache.weights.row(t));
    for (std::size_t r = 0; r < chosen.size(); ++r) {
      const auto rank = static_cast<Index>(r);
      if (cache.renormalised) {
        dlogits(t, chosen[r]) += cache.weights(t, rank) * (g(t, rank) - mixed);
      } else {
        dlogits(t, chosen[r]) += g(t, rank) * cache.weights(t, rank);
      }
    }
    if (!cache.renormalised) dlogits.row(t) -= mixed * cache.probs.row(t);
  }
  return dlogits;
}

}  // namespace

template <typename T>
void moe_backward(Matrix<T>& dinp, MoeParams<T>& grads, const Matrix<T>& dout, const Matrix<T>& inp,
                  const MoeParams<T>& params, const MoeConfig& config, const MoeCache<T>& cache) {
  enter(Op::moe);
  check_moe_shapes(params, config);
  require_shape(dout, inp.rows(), config.hidden_size, "moe grad_output");
  require_shape(cache.probs, inp.rows(), config.num_local_experts, "moe cache");
  grads = MoeParams<T>(config);
  dinp = Matrix<T>::Zero(inp.rows(), inp.cols());
  Matrix<T> g = Matrix<T>::Zero(cache.weights.rows(), cache.weights.cols());
  for (std::size_t e = 0; e < params.experts.size(); ++e) {
    const auto slots = slots_of(cache, static_cast<Index>(e));
    if (slots.empty()) continue;
    Matrix<T> dexpert_out(static_cast<Index>(slots.size()), inp.cols());
    for (const MoeDispatch* slot : slots) {
      const T weight = cache.weights(slot->token, slot->rank);
      dexpert_out.row(slot->row) = weight * dout.row(slot->token);
      g(slot->token, slot->rank) =
          dout.row(slot->token).dot(cache.expert_outputs[e].row(slot->row));
    }
    Matrix<T> dexpert_in;
    swiglu_backward(dexpert_in, grads.experts[e], dexpert_out, cache.expert_inputs[e],
                    params.experts[e], cache.expert_caches[e]);
    for (const MoeDispatch* slot : slots)
      dinp.row(slot->token) += dexpert_in.row(slot->row);
  }
  const Matrix<T> dlogits = logit_gradient(cache, g);
  weight_gradient(grads.gate, dlogits, inp);
  project_back(dinp, dlogits, params.gate, Accumulate::yes);
}

namespace {

// fᵢ: the share of tokens whose chosen experts include i.
template <typename T>
Vector<T> dispatch_shares(const MoeCache<T>& cache) {
  Vector<T> shares = Vector<T>::Zero(cache.probs.cols());
  for (const std::vector<Index>& chosen : cache.chosen) {
    for (const Index expert : chosen)
      shares(expert) += T(1);
  }
  return shares / static_cast<T>(cache.probs.rows());
}

}  // namespace

template <typename T>
T moe_load_balancing_loss(const MoeCache<T>& cache, const MoeConfig& config) {
  require(cache.probs.rows() > 0, "moe load-balancing loss: the forward has run on no token");
  const Vector<T> mean_probs = cache.probs.colwise().mean().transpose();
  const T experts = static_cast<T>(config.num_local_experts);
  return static_cast<T>(config.router_aux_loss_coef) * experts *
         dispatch_shares(cache).dot(mean_probs);
}

template <typename T>
void moe_load_balancing_backward(Matrix<T>& dinp, MoeParams<T>& grads, const Matrix<T>& inp,
                                 const MoeParams<T>& params, const MoeConfig& config,
                                 const MoeCache<T>& cache) {
  require_shape(cache.probs, inp.rows(), config.num_local_experts, "moe cache");
  require_shape(dinp, inp.rows(), config.hidden_size, "moe input gradient");
  require_shape(grads.gate, config.num_local_experts, config.hidden_size, "moe gate gradient");
  // d(loss)/d(p_ti) = c_i = α·N·fᵢ / T; through the softmax, d/dl_tj = p_tj·(c_j − Σᵢ cᵢ·p_ti).
  const T scale = static_cast<T>(config.router_aux_loss_coef) *
                  static_cast<T>(config.num_local_experts) / static_cast<T>(inp.rows());
  const Vector<T> c = scale * dispatch_shares(cache);
  Matrix<T> dlogits(cache.probs.rows(), cache.probs.cols());
  for (Index t = 0; t < cache.probs.rows(); ++t) {
    const T mean = cache.probs.row(t).dot(c);
    dlogits.row(t) = cache.probs.row(t).cwiseProduct((c.array() - mean).matrix().transpose());
  }
  Matrix<T> dgate;
  weight_gradient(dgate, dlogits, inp);
  grads.gate += dgate;
  project_back(dinp, dlogits, params.gate, Accumulate::yes);
}

template <typename T>
MoeParamUse moe_param_use(const MoeParams<T>& params, const MoeCache<T>& cache) {
  MoeParamUse use;
  use.total = count_params(params).total();
  use.router = static_cast<std::int64_t>(params.gate.size());
  use.per_expert = params.experts.empty() ? 0 : count_params(params.experts.front()).total();
  const Index tokens = cache.probs.rows();
  if (tokens == 0) return use;
  std::int64_t ran = 0;
  for (const MoeDispatch& slot : cache.dispatched) {
    ran += count_params(params.experts[static_cast<std::size_t>(slot.expert)]).total();
  }
  use.active_per_token =
      static_cast<double>(use.router) + static_cast<double>(ran) / static_cast<double>(tokens);
  return use;
}

#define PROOFDECK_INSTANTIATE(T)                                                             \
  template struct MoeParams<T>;                                                              \
  template void moe_forward(Matrix<T>&, MoeCache<T>&, const Matrix<T>&, const MoeParams<T>&, \
                            const MoeConfig&);                                               \
  template void moe_backward(Matrix<T>&, MoeParams<T>&, const Matrix<T>&, const Matrix<T>&,  \
                             const MoeParams<T>&, const MoeConfig&, const MoeCache<T>&);     \
  template T moe_load_balancing_loss(const MoeCache<T>&, const MoeConfig&);                  \
  template void moe_load_balancing_backward(Matrix<T>&, MoeParams<T>&, const Matrix<T>&,     \
                                            const MoeParams<T>&, const MoeConfig&,           \
                                            const MoeCache<T>&);                             \
  template MoeParamUse moe_param_use(const MoeParams<T>&, const MoeCache<T>&);

PROOFDECK_INSTANTIATE(float)
PROOFDECK_INSTANTIATE(double)
#undef PROOFDECK_INSTANTIATE

}  // namespace proofdeck::engine
