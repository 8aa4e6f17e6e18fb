// head-params: splitting d_model into h heads shrinks each head's W_q, W_k and W_v by h,
// so the attention block's count does not depend on the head count.
#include "demo/demos.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/param_count.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

DemoResult run_head_params(const Params& params, std::uint64_t, RunCaches&) {
  const std::int64_t d_model = params.integer("d_model");
  const std::vector<std::int64_t> head_counts = params.integers("heads");
  for (const auto heads : head_counts)
    require_divides("head-params", d_model, heads, "heads");

  DemoResult result;
  Mat rows(static_cast<Index>(head_counts.size()), 7);
  std::vector<std::string> row_labels;
  bool closed_form_matches = true;
  // Up to this width the counts come from real modules (float: the smallest type that still
  // allocates every weight) and are checked against the closed form; wider models (a d_model 8192
  // block holds 268 million weights, 1 GiB) use the closed form the smaller sizes prove.
  constexpr std::int64_t kLargestCountedWidth = 1024;
  const bool count_modules = d_model <= kLargestCountedWidth;
  const Provenance counts = count_modules ? Provenance::counted : Provenance::derived;
  for (std::size_t i = 0; i < head_counts.size(); ++i) {
    const std::int64_t heads = head_counts[i];
    const auto closed = engine::attention_params_closed_form(d_model, heads, false);
    const auto closed_with_bias = engine::attention_params_closed_form(d_model, heads, true);
    const auto counted =
        count_modules
            ? engine::count_attention_params(engine::MhaParams<float>(d_model, heads, false))
            : closed;
    const auto with_bias =
        count_modules
            ? engine::count_attention_params(engine::MhaParams<float>(d_model, heads, true))
            : closed_with_bias;
    closed_form_matches = closed_form_matches && counted == closed && with_bias == closed_with_bias;
    const std::string h = fmt::format("h{}", heads);
    const std::string with_heads = text::count(heads, "head", "heads");
    // d_model / h: the split's arithmetic, whatever a module holds (the weights below are counted).
    result.set("head_dim_" + h, "Head dimension, " + with_heads,
               static_cast<double>(closed.head_dim), Provenance::derived);
    result.set("per_head_projection_" + h, "Weights in one head's query projection, " + with_heads,
               static_cast<double>(counted.per_head_projection), counts);
    result.set("per_head_qkv_" + h, "Query, key and value weights of one head, " + with_heads,
               static_cast<double>(counted.per_head_qkv), counts);
    result.set("qkv_total_" + h, "Query, key and value weights of all heads, " + with_heads,
               static_cast<double>(counted.qkv_weights), counts);
    result.set("total_" + h, "Attention parameters without biases, " + with_heads,
               static_cast<double>(counted.total()), counts);
    result.set("total_with_bias_" + h, "Attention parameters with biases, " + with_heads,
               static_cast<double>(with_bias.total()), counts);
    const auto row = static_cast<Index>(i);
    rows.row(row) << static_cast<double>(counted.head_dim),
        static_cast<double>(counted.per_head_projection), static_cast<double>(counted.per_head_qkv),
        static_cast<double>(counted.qkv_weights), static_cast<double>(counted.output_weights),
        static_cast<double>(counted.total()), static_cast<double>(with_bias.total());
    row_labels.push_back(fmt::format("{} head{}", heads, heads == 1 ? "" : "s"));
  }
  result.set("out_proj", "Weights in the output projection", static_cast<double>(d_model * d_model),
             Provenance::derived);
  result.set("closed_form_matches", "Closed form agrees with the counted modules",
             closed_form_matches, counts);
  result.set("counted_from_modules", "Counts taken from real modules", count_modules,
             Provenance::derived);
  const std::int64_t first = head_counts.front();
  const std::int64_t last = head_counts.back();
  // One head count is a total over itself: 1 by arithmetic, whatever the modules hold.
  result.set(fmt::format("ratio_h{}_h{}", last, first),
             fmt::format("Attention parameters, {} over {}", text::count(last, "head", "heads"),
                         text::count(first, "head", "heads")),
             result.find(fmt::format("total_h{}", last))->number /
                 result.find(fmt::format("total_h{}", first))->number,
             first == last ? Provenance::derived : counts);
  result.tables.push_back(
      Table{"parameters",
            fmt::format("attention parameters at d_model {}", d_model),
            row_labels,
            {"head dim", "W_q/head", "QKV/head", "QKV total", "W_o", "total", "+ biases"},
            rows,
            false});
  const std::int64_t many = head_counts.size() > 1 ? head_counts[1] : first;
  result.text = {
      fmt::format("One head projects d_model {0} into Q, K and V of width {0}: 3 × {0} × {0} = "
                  "{1} weights, plus the output projection {0} × {0} = {2}.",
                  d_model, text::group_digits(std::to_string(3 * d_model * d_model)),
                  text::group_digits(std::to_string(d_model * d_model))),
      many == 1
          ? fmt::format("With more heads each one's W_q, W_k, W_v shrink by exactly the factor "
                        "the head count grows, so the Q/K/V total stays {}: --set heads=1,8 "
                        "counts one head beside eight.",
                        text::group_digits(std::to_string(3 * d_model * d_model)))
          : fmt::format("{0} heads of width {1} each need their own W_q, W_k, W_v of {2} × {1}: "
                        "{3} per head, × {0} heads = {4}, the same Q/K/V total, because the "
                        "per-head matrices shrink by exactly the factor the head count grows.",
                        many, d_model / many, d_model,
                        text::group_digits(std::to_string(3 * d_model * (d_model / many))),
                        text::group_digits(std::to_string(3 * d_model * d_model))),
      "Splitting into heads is not a compression trick: the total is the same for every head "
      "count. What changes is that each head can specialise in its own subspace."};
  return result;
}

}  // namespace

DemoInfo head_params_demo() {
  return DemoInfo{
      "head-params",
      "Splitting into heads does not save parameters",
      "One head of width 512 or eight heads of 64: 1,048,576 attention weights either way.",
      "Why splitting into heads is (almost) parameter-neutral",
      {integer_param("d_model", 512, 1, 16384,
                     "embedding width (counted from real modules up to 1024, closed form above)"),
       list_param("heads", {1, 8}, 1, 16384, "head counts to compare (each must divide d_model)")},
      run_head_params,
      {engine::Op::linear, engine::Op::heads}};
}

}  // namespace proofdeck::demo
