// `engine run`'s moe: Mixtral's sparse mixture-of-experts block (Hugging Face's
// MixtralSparseMoeBlock: its config keys and parameter names), with Switch's expert capacity and
// load-balancing loss on request.
#include <cmath>
#include <string>

#include "engine/moe.hpp"
#include "engine_io/op_run.hpp"
#include "engine_io/ops.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io::detail {

namespace {

// A number ≥ 0, or null/absent for `fallback`.
double non_negative(ConfigReader& config, const std::string& source, const std::string& key,
                    double fallback, const std::string& zero_means) {
  const json* value = config.raw(key);
  if (value == nullptr || value->is_null()) return fallback;
  if (!value->is_number() || !std::isfinite(value->get<double>()) || value->get<double>() < 0.0) {
    spec_error(source, "config",
               fmt::format("config.{}: expected a number ≥ 0 ({}), got {}", key, zero_means,
                           json_preview(*value)));
  }
  return value->get<double>();
}

template <typename T>
engine::MoeConfig read_moe_config(OpRun<T>& run) {
  engine::MoeConfig config;
  config.hidden_size = run.config.dimension("hidden_size");
  config.intermediate_size = run.config.dimension("intermediate_size");
  config.num_local_experts = run.config.dimension("num_local_experts", 8);
  config.num_experts_per_tok = run.config.dimension("num_experts_per_tok", 2);
  if (config.num_experts_per_tok > config.num_local_experts) {
    spec_error(run.source, "config",
               fmt::format("config.num_experts_per_tok: a token runs at most the {} experts there "
                           "are (num_local_experts), got {}",
                           config.num_local_experts, config.num_experts_per_tok));
  }
  config.norm_topk_prob = run.config.flag("norm_topk_prob", true);
  config.capacity_factor =
      non_negative(run.config, run.source, "capacity_factor", 0.0, "0 or null: no capacity");
  config.router_aux_loss_coef = non_negative(run.config, run.source, "router_aux_loss_coef", 0.01,
                                             "0: no load-balancing loss");
  run.config.choice("hidden_act", "silu", {"silu"});  // each expert is a SwiGLU
  if (non_negative(run.config, run.source, "router_jitter_noise", 0.0, "0: no noise") != 0.0) {
    spec_error(run.source, "config",
               "config.router_jitter_noise: the engine is deterministic and routes without "
               "noise; expected 0");
  }
  return config;
}

template <typename T>
ordered_json routing_json(const engine::MoeCache<T>& cache) {
  ordered_json experts = ordered_json::array();
  for (const auto& chosen : cache.chosen)
    experts.push_back(chosen);
  ordered_json dropped = ordered_json::array();
  for (const engine::MoeDispatch& slot : cache.dropped)
    dropped.push_back({slot.token, slot.rank});
  return {{"selected_experts", experts},
          {"routing_weights", to_json(cache.weights)},
          {"capacity", cache.capacity},
          {"dropped", dropped}};
}

}  // namespace

template <typename T>
void run_moe(OpRun<T>& run) {
  const engine::MoeConfig config = read_moe_config(run);
  engine::MoeParams<T> params;
  run.params.matrix("gate.weight", params.gate, config.num_local_experts, config.hidden_size);
  params.experts.resize(static_cast<std::size_t>(config.num_local_experts));
  for (std::size_t i = 0; i < params.experts.size(); ++i) {
    const std::string name = "experts." + std::to_string(i) + ".";
    auto& expert = params.experts[i];
    run.params.matrix(name + "w1.weight", expert.gate_proj, config.intermediate_size,
                      config.hidden_size);
    run.params.matrix(name + "w2.weight", expert.down_proj, config.hidden_size,
                      config.intermediate_size);
    run.params.matrix(name + "w3.weight", expert.up_proj, config.intermediate_size,
                      config.hidden_size);
  }
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, config.hidden_size);
  run.check_elements(x.rows() * config.num_experts_per_tok * config.intermediate_size,
                     "the experts' hidden layers");
  const auto dout = run.grad_output_matrix(x.rows(), config.hidden_size);

  Matrix<T> y;
  engine::MoeCache<T> cache;
  engine::moe_forward(y, cache, x, params, config);
  const engine::MoeParamUse use = engine::moe_param_use(params, cache);
  run.result["output"] = to_json(y);
  run.result["router_logits"] = to_json(cache.logits);
  const ordered_json routing = routing_json(cache);
  for (const auto& [key, value] : routing.items())
    run.result[key] = value;
  run.result["aux_loss"] = engine::moe_load_balancing_loss(cache, config);
  run.result["parameters"] = {{"total", use.total},
                              {"router", use.router},
                              {"per_expert", use.per_expert},
                              {"active_per_token", use.active_per_token}};
  if (!dout) return;
  Matrix<T> dx;
  engine::MoeParams<T> grads;
  engine::moe_backward(dx, grads, *dout, x, params, config, cache);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
  // The load-balancing loss's own gradient, apart from the output's.
  Matrix<T> aux_dx = Matrix<T>::Zero(x.rows(), x.cols());
  engine::MoeParams<T> aux_grads(config);
  engine::moe_load_balancing_backward(aux_dx, aux_grads, x, params, config, cache);
  run.result["aux_loss_grads"] = {{"input", to_json(aux_dx)},
                                  {"gate.weight", to_json(aux_grads.gate)}};
}

template void run_moe<float>(OpRun<float>& run);
template void run_moe<double>(OpRun<double>& run);

}  // namespace proofdeck::engine_io::detail
