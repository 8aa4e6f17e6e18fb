// moe-routing: a sparse mixture of experts replaces a decoder layer's feed-forward with N experts
// and runs k of them a token (Mixtral: the softmax over all N router logits, the k most probable
// kept and renormalised to sum 1), so a token uses the router's and k experts' parameters of the
// N·3·E·F the layer holds, and computes about what a dense feed-forward k times as wide does;
// attention, with its T² scores, is left as it was. Switch's capacity drops a slot past it, and
// the token passes on through the residual (Shazeer et al. 2017; Fedus et al. 2022, §2.1–2.2;
// Jiang et al. 2024, Mixtral of Experts, §2.1).
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/macs.hpp"
#include "engine/moe.hpp"
#include "engine/param_count.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

struct Routed {
  Mat out;
  engine::MoeCache<double> cache;
  double macs = 0;
};

Routed route(const engine::MoeParams<double>& moe, const engine::MoeConfig& config, const Mat& x) {
  Routed routed;
  const engine::MacTally tally;
  engine::moe_forward(routed.out, routed.cache, x, moe, config);
  routed.macs = as_double(tally.count().total());
  return routed;
}

// The score products' multiply-adds (q·kᵀ and P·v) of one attention forward over x.
double score_macs(const engine::MhaParams<double>& attention, const Mat& x) {
  Mat out;
  engine::MhaCache<double> cache;
  const engine::MacTally tally;
  engine::mha_forward<double>(out, cache, x, attention, {});
  return as_double(tally.count().scores + tally.count().weighted_values);
}

double dense_macs(const engine::SwigluParams<double>& dense, const Mat& x) {
  Mat out;
  engine::SwigluCache<double> cache;
  const engine::MacTally tally;
  engine::swiglu_forward(out, cache, x, dense);
  return as_double(tally.count().total());
}

// How the chosen experts' weights relate to the router's probabilities, over every token.
struct Mixing {
  double smallest_sum = 1.0;  // the smallest sum of a token's k weights
  bool proportional = true;   // each token's weights in the ratio of its probabilities
  bool equal = true;          // each token's weights all alike
};

Mixing mixing_of(const engine::MoeCache<double>& cache) {
  Mixing mixing;
  for (Index t = 0; t < cache.weights.rows(); ++t) {
    const auto& chosen = cache.chosen[static_cast<std::size_t>(t)];
    mixing.smallest_sum = std::min(mixing.smallest_sum, cache.weights.row(t).sum());
    for (Index r = 1; r < cache.weights.cols(); ++r) {
      const double ratio = cache.weights(t, r) / cache.weights(t, 0);
      const double probs =
          cache.probs(t, chosen[static_cast<std::size_t>(r)]) / cache.probs(t, chosen.front());
      mixing.proportional = mixing.proportional && std::abs(ratio - probs) <= 1e-12;
      mixing.equal = mixing.equal && cache.weights(t, r) == cache.weights(t, 0);
    }
  }
  if (cache.weights.cols() < 2) mixing.equal = false;
  return mixing;
}

// cells(t, e): the weight token t gives expert e's output (0: not run).
Mat routing_grid(const engine::MoeCache<double>& cache, Index experts) {
  Mat grid = Mat::Zero(cache.weights.rows(), experts);
  for (const engine::MoeDispatch& slot : cache.dispatched)
    grid(slot.token, slot.expert) = cache.weights(slot.token, slot.rank);
  return grid;
}

// Switch's layer on the same experts: one expert a token, at `factor` times an even share.
struct SwitchRun {
  double capacity = 0;
  double dropped = 0;
  double ran = 0;
  double output_rows = 0;
  bool dropped_pass_through = true;  // x + moe(x) is x, bit for bit, for every dropped token
  Mat grid;  // (T, N): 1 where an expert ran the token, −1 where the token found it full
};

SwitchRun run_switch(const engine::MoeParams<double>& moe, engine::MoeConfig config, double factor,
                     const Mat& x) {
  config.num_experts_per_tok = 1;
  config.norm_topk_prob = false;
  config.capacity_factor = factor;
  const Routed routed = route(moe, config, x);
  SwitchRun run;
  run.capacity = as_double(routed.cache.capacity);
  run.dropped = as_double(static_cast<std::int64_t>(routed.cache.dropped.size()));
  run.ran = as_double(static_cast<std::int64_t>(routed.cache.dispatched.size()));
  run.output_rows = as_double(routed.out.rows());
  run.grid = Mat::Zero(x.rows(), config.num_local_experts);
  for (const engine::MoeDispatch& slot : routed.cache.dispatched)
    run.grid(slot.token, slot.expert) = 1.0;
  for (const engine::MoeDispatch& slot : routed.cache.dropped)
    run.grid(slot.token, slot.expert) = -1.0;
  const Mat layer = x + routed.out;  // the residual stream after the block
  for (const engine::MoeDispatch& slot : routed.cache.dropped)
    run.dropped_pass_through =
        run.dropped_pass_through && layer.row(slot.token) == x.row(slot.token);
  return run;
}

struct Model {
  engine::MoeConfig config;
  engine::MoeParams<double> moe;
  engine::SwigluParams<double> dense;  // a feed-forward k experts wide
  engine::MhaParams<double> attention;
};

Model build(const Params& params, engine::Rng& rng) {
  Model model;
  model.config.hidden_size = params.integer("d_model");
  model.config.intermediate_size = params.integer("width");
  model.config.num_local_experts = params.integer("experts");
  model.config.num_experts_per_tok = params.integer("per_token");
  model.moe = engine::MoeParams<double>(model.config);
  visit_params(model.moe, "",
               [&](const std::string&, Mat& tensor) { engine::fill_xavier_uniform(tensor, rng); });
  model.dense = engine::SwigluParams<double>(
      model.config.hidden_size, model.config.num_experts_per_tok * model.config.intermediate_size);
  visit_params(model.dense, "",
               [&](const std::string&, Mat& tensor) { engine::fill_xavier_uniform(tensor, rng); });
  model.attention =
      engine::MhaParams<double>(model.config.hidden_size, params.integer("heads"), false);
  engine::fill_xavier_uniform(model.attention.in_proj.weight, rng);
  engine::fill_xavier_uniform(model.attention.out_proj.weight, rng);
  return model;
}

// The load-balancing loss α·N·Σ fᵢ·Pᵢ of the same block on three batches of routing: the drawn
// tokens, the same tokens with a router eight times as sure of each choice, and a batch of one
// token repeated, which every token routes alike.
struct LoadBalance {
  double spread = 0;
  double sharp = 0;
  double alike = 0;
};

double balance_loss(const engine::MoeParams<double>& moe, const engine::MoeConfig& config,
                    const Mat& x) {
  return engine::moe_load_balancing_loss(route(moe, config, x).cache, config);
}

LoadBalance load_balance(const Model& model, const Mat& x) {
  LoadBalance balance;
  balance.spread = balance_loss(model.moe, model.config, x);
  engine::MoeParams<double> sure = model.moe;
  sure.gate *= 8.0;
  balance.sharp = balance_loss(sure, model.config, x);
  const Mat alike = x.row(0).replicate(x.rows(), 1);
  balance.alike = balance_loss(model.moe, model.config, alike);
  return balance;
}

void check_params(const Params& params) {
  const std::int64_t experts = params.integer("experts");
  const std::int64_t per_token = params.integer("per_token");
  if (per_token > experts) {
    param_error("moe-routing", fmt::format("per_token={}: a token runs at most the {} experts "
                                           "there are; give per_token ≤ experts",
                                           per_token, experts));
  }
  require_divides("moe-routing", params.integer("d_model"), params.integer("heads"), "heads");
}

void add_tables_and_text(DemoResult& result, const Model& model, const Routed& mixtral,
                         const SwitchRun& switch_run, std::int64_t tokens) {
  const Index experts = model.config.num_local_experts;
  const std::vector<std::string> token_labels = numbered("t", tokens);
  const std::vector<std::string> expert_labels = numbered("e", experts);
  result.tables.push_back(
      heatmap("routing",
              fmt::format("the weight each token gives each expert (0: not run), top {} of {}",
                          model.config.num_experts_per_tok, experts),
              token_labels, expert_labels, routing_grid(mixtral.cache, experts)));
  result.tables.push_back(
      Table{"switch_slots",
            fmt::format(
                "the Switch layer, {} slots an expert: 1 the expert ran the token, −1 it was full",
                text::format_readable(switch_run.capacity, 6)),
            token_labels, expert_labels, switch_run.grid, false});
  const auto value = [&](const char* name) { return result.find(name)->number; };
  result.text = {
      fmt::format("Each token runs {} of the {} experts, mixed by their router probabilities "
                  "renormalised to sum 1 (the smallest sum here {}): it uses {} of the block's {} "
                  "parameters ({} of them), the router's {} and {}.",
                  model.config.num_experts_per_tok, experts,
                  text::format_readable(value("mixing_weights_sum"), 6),
                  grouped(value("active_params_per_token")), grouped(value("total_params")),
                  text::format_readable(value("active_share"), 3), grouped(value("router_params")),
                  text::count(model.config.num_experts_per_tok, "expert's", "experts'")),
      fmt::format("A token costs {} multiply-adds in the block, {} times a dense SwiGLU {} "
                  "experts wide ({}), though the block holds {} times its parameters. Twice the "
                  "tokens cost the block {} times as much, and attention's scores {} times: the "
                  "experts replace the feed-forward, not attention's quadratic cost.",
                  grouped(value("moe_macs_per_token")),
                  text::format_readable(value("macs_ratio"), 4), model.config.num_experts_per_tok,
                  grouped(value("dense_macs_per_token")),
                  text::format_readable(value("total_params") / value("dense_ffn_params"), 4),
                  text::format_readable(value("moe_macs_growth"), 4),
                  text::format_readable(value("attention_scores_growth"), 4)),
      switch_run.dropped == 0
          ? fmt::format("In a Switch layer (one expert a token) each expert takes {}: every "
                        "token found room in its expert.",
                        text::count(switch_run.capacity, "slot", "slots"))
          : fmt::format("In a Switch layer (one expert a token) each expert takes {}; {} of the "
                        "{} tokens found theirs full, ran no expert and {} the layer unchanged "
                        "through the residual.",
                        text::count(switch_run.capacity, "slot", "slots"),
                        text::format_readable(switch_run.dropped, 6), tokens,
                        switch_run.dropped_pass_through ? "left" : "did not leave")};
}

DemoResult run_moe_routing(const Params& params, std::uint64_t seed, RunCaches&) {
  check_params(params);
  const std::int64_t tokens = params.integer("tokens");
  engine::Rng rng(seed);
  const Model model = build(params, rng);
  const Mat x = random_matrix(tokens, model.config.hidden_size, rng, 0.0, 1.0);
  const Mat doubled = random_matrix(2 * tokens, model.config.hidden_size, rng, 0.0, 1.0);

  const Routed mixtral = route(model.moe, model.config, x);
  const engine::MoeParamUse use = engine::moe_param_use(model.moe, mixtral.cache);
  const Mixing mixing = mixing_of(mixtral.cache);
  const double per_token_macs = mixtral.macs / as_double(tokens);
  const double dense_per_token = dense_macs(model.dense, x) / as_double(tokens);
  const double dense_params = as_double(engine::count_params(model.dense).total());
  const double moe_growth = route(model.moe, model.config, doubled).macs / mixtral.macs;
  const double score_growth = score_macs(model.attention, doubled) / score_macs(model.attention, x);
  const LoadBalance balance = load_balance(model, x);
  const SwitchRun switch_run = run_switch(model.moe, model.config, params.number("capacity"), x);

  DemoResult result;
  const auto k = model.config.num_experts_per_tok;
  result.set("total_params", "Parameters the MoE block holds (router and every expert)",
             as_double(use.total), Provenance::counted);
  result.set("router_params", "Router parameters", as_double(use.router), Provenance::counted);
  result.set("expert_params", "Parameters of one expert", as_double(use.per_expert),
             Provenance::counted);
  result.set("active_params_per_token", "Parameters a token's forward uses, on average",
             use.active_per_token, Provenance::counted);
  result.set("active_share", "Active parameters over the block's total",
             use.active_per_token / as_double(use.total), Provenance::counted);
  result.set(
      "slots_per_token", "Experts a token runs, on average",
      as_double(static_cast<std::int64_t>(mixtral.cache.dispatched.size())) / as_double(tokens),
      Provenance::counted);
  result.set("dense_ffn_params", fmt::format("Parameters of a dense SwiGLU {} experts wide", k),
             dense_params, Provenance::counted);
  result.set("moe_macs_per_token", "Multiply-adds a token costs in the MoE block", per_token_macs,
             Provenance::measured);
  result.set("dense_macs_per_token", "Multiply-adds a token costs in that dense SwiGLU",
             dense_per_token, Provenance::measured);
  result.set("macs_ratio", "MoE block's multiply-adds over the dense SwiGLU's",
             per_token_macs / dense_per_token, Provenance::measured);
  result.set("moe_macs_growth", "MoE block's multiply-adds at 2T over at T", moe_growth,
             Provenance::measured);
  result.set("attention_scores_growth", "Attention's score multiply-adds at 2T over at T",
             score_growth, Provenance::measured);
  result.set("mixing_weights_sum", "Smallest sum of a token's mixing weights", mixing.smallest_sum,
             Provenance::measured);
  result.set("weights_proportional", "Each token's weights keep its probabilities' ratio",
             mixing.proportional, Provenance::measured);
  result.set("weights_equal", "Each token's experts weighed alike", mixing.equal,
             Provenance::measured);
  result.set("aux_loss", "Load-balancing loss α·N·Σ fᵢ·Pᵢ of this routing", balance.spread,
             Provenance::measured);
  result.set("aux_loss_sharp", "The loss with a router eight times as sure of each choice",
             balance.sharp, Provenance::measured);
  result.set("aux_loss_alike", "The loss of a batch of one token repeated, all routed alike",
             balance.alike, Provenance::measured);
  // Ratios, so a proof can ask for a margin: under a fault that makes the three losses equal in
  // exact arithmetic, a comparison of the losses themselves would fall to rounding.
  result.set("aux_loss_sharp_ratio", "The surer router's loss over the drawn batch's",
             balance.sharp / balance.spread, Provenance::measured);
  result.set("aux_loss_alike_ratio", "The repeated token's loss over the drawn batch's",
             balance.alike / balance.spread, Provenance::measured);
  result.set("aux_loss_balanced", "Its value for a perfectly even routing, α·k",
             model.config.router_aux_loss_coef * as_double(k), Provenance::derived);
  result.set("switch_capacity", "Slots each expert takes in the Switch layer", switch_run.capacity,
             Provenance::counted);
  result.set("switch_dropped", "Tokens over capacity in the Switch layer", switch_run.dropped,
             Provenance::measured);
  result.set("switch_ran", "Tokens run by an expert in the Switch layer", switch_run.ran,
             Provenance::measured);
  result.set("switch_output_rows", "Rows the Switch layer outputs", switch_run.output_rows,
             Provenance::counted);
  result.set("dropped_pass_through",
             "Each token over capacity leaves the layer unchanged, through the residual",
             switch_run.dropped_pass_through, Provenance::measured);
  add_tables_and_text(result, model, mixtral, switch_run, tokens);
  return result;
}

}  // namespace

DemoInfo moe_routing_demo() {
  return DemoInfo{
      "moe-routing",
      "Mixture of experts: k of N run",
      "A router sends each token to k of N SwiGLU experts: the layer holds N experts' "
      "parameters, a token uses k, and attention is untouched.",
      "Beyond the lesson: mixture of experts (Shazeer et al. 2017; Fedus et al. 2022, §2; Jiang "
      "et al. 2024, Mixtral, §2.1)",
      {integer_param("experts", 8, 1, 64, "experts in the layer (N)"),
       integer_param("per_token", 2, 1, 64, "experts each token runs (k)"),
       integer_param("tokens", 16, 1, 256, "tokens in the sequence (T)"),
       integer_param("d_model", 16, 2, 256, "embedding width (E)"),
       integer_param("width", 32, 1, 1024, "each expert's SwiGLU width (F)"),
       integer_param("heads", 2, 1, 16, "attention heads, for the score count"),
       number_param("capacity", 1.0, 0.25, 8.0, "Switch's capacity factor (c)")},
      run_moe_routing,
      {engine::Op::moe, engine::Op::swiglu, engine::Op::attention, engine::Op::heads,
       engine::Op::mac_count}};
}

}  // namespace proofdeck::demo
