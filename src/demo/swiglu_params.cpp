// swiglu-params: SwiGLU's three matrices at Llama's width F ≈ 8/3·E hold as many weights as
// the original two-matrix feed-forward at 4E.
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/decoder.hpp"
#include "engine/feedforward.hpp"
#include "engine/param_count.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using Mat = engine::Matrix<double>;

namespace {

DemoResult run_swiglu_params(const Params& params, std::uint64_t, RunCaches&) {
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t asked = params.integer("intermediate");
  const std::int64_t multiple_of = params.integer("multiple_of");
  // Llama's rule: two thirds of 4·E, rounded up to a multiple of multiple_of.
  const std::int64_t two_thirds = 2 * 4 * d_model / 3;
  const std::int64_t width =
      asked > 0 ? asked : (two_thirds + multiple_of - 1) / multiple_of * multiple_of;
  const double e = as_double(d_model), f = as_double(width);
  const double swiglu_closed = 3.0 * e * f;
  const double ffn_closed = 2.0 * e * 4.0 * e;
  // Counted from engine objects while they fit in memory comfortably; past that the parameters
  // come from the closed forms, and the matrices (whatever the sizes) from the smallest modules.
  const bool count_modules = 3 * d_model * width <= (std::int64_t{1} << 22);
  const std::int64_t counted_model = count_modules ? d_model : 1;
  const engine::ParamCount swiglu_count =
      engine::count_params(engine::SwigluParams<double>(counted_model, count_modules ? width : 1));
  const engine::ParamCount ffn_count = engine::count_params(
      engine::FeedForwardParams<double>(counted_model, 4 * counted_model, false));
  // SwiGLU kept at the original width 4·E, counted while it fits as the others are.
  const bool count_at_4e = 3 * d_model * 4 * d_model <= (std::int64_t{1} << 22);
  const double swiglu_at_4e =
      count_at_4e
          ? as_double(
                engine::count_params(engine::SwigluParams<double>(d_model, 4 * d_model)).total())
          : 3.0 * e * 4.0 * e;
  const Provenance at_4e_kind = count_at_4e ? Provenance::counted : Provenance::derived;
  // The parameter counts come from the modules or, past the size counted, the closed forms.
  const Provenance counts = count_modules ? Provenance::counted : Provenance::derived;
  const Provenance width_kind = asked > 0 ? Provenance::param : Provenance::derived;
  const double swiglu = count_modules ? as_double(swiglu_count.total()) : swiglu_closed;
  const double ffn = count_modules ? as_double(ffn_count.total()) : ffn_closed;
  const double swiglu_matrices = as_double(swiglu_count.tensors);
  const double ffn_matrices = as_double(ffn_count.tensors);
  DemoResult result;
  result.set("intermediate_size", "SwiGLU hidden width", f, width_kind);
  result.set("swiglu_params", "SwiGLU parameters at its hidden width", swiglu, counts);
  result.set("swiglu_matrices", "Weight matrices in SwiGLU", swiglu_matrices, Provenance::counted);
  result.set("ffn_params", "Original feed-forward parameters at hidden width 4E", ffn, counts);
  result.set("ffn_matrices", "Weight matrices in the original feed-forward", ffn_matrices,
             Provenance::counted);
  result.set("ratio", "SwiGLU parameters over the original feed-forward's", swiglu / ffn, counts);
  result.set("swiglu_params_at_4e", "SwiGLU parameters at hidden width 4E", swiglu_at_4e,
             at_4e_kind);
  result.set("ratio_at_4e", "SwiGLU parameters at hidden width 4E over the original's",
             swiglu_at_4e / ffn,
             count_at_4e && count_modules ? Provenance::counted : Provenance::derived);
  result.set("counted_from_modules", "Counts taken from real modules, matching the closed forms",
             count_modules && swiglu == swiglu_closed && ffn == ffn_closed, counts);

  Mat table(3, 4);
  table << swiglu_matrices, f, swiglu, swiglu / ffn,  //
      ffn_matrices, 4.0 * e, ffn, 1.0,                //
      swiglu_matrices, 4.0 * e, swiglu_at_4e, swiglu_at_4e / ffn;
  result.tables.push_back(Table{"feed_forward",
                                fmt::format("feed-forward sublayers at d_model {}", d_model),
                                {fmt::format("SwiGLU, F = {}", grouped(f)),
                                 fmt::format("original FFN, 4E = {}", grouped(4.0 * e)),
                                 fmt::format("SwiGLU at 4E = {}", grouped(4.0 * e))},
                                {"matrices", "hidden width", "parameters", "÷ original"},
                                table,
                                false});
  Series widths{"params_by_width",
                "SwiGLU and the original FFN at the same hidden width",
                "hidden width",
                "parameters",
                {},
                {{fmt::format("SwiGLU ({} matrices)", swiglu_count.tensors), {}},
                 {fmt::format("original FFN ({} matrices)", ffn_count.tensors), {}}},
                false};
  std::vector<double> xs = {e, 2.0 * e, f, 4.0 * e};
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  for (const double x : xs) {
    widths.x.push_back(x);
    widths.lines[0].second.push_back(3.0 * e * x);
    widths.lines[1].second.push_back(2.0 * e * x);
  }
  result.series.push_back(std::move(widths));

  result.text = {
      fmt::format(
          "SwiGLU (Shazeer 2020, as Llama uses it) computes down_proj(silu(gate_proj(x)) "
          "⊙ up_proj(x)): three E×F matrices where the original feed-forward has two of "
          "E×4E. At d_model {} and F = {}{} that is {} weights against the original's "
          "{} (ratio {}).",
          d_model, grouped(f),
          asked > 0 ? std::string()
                    : fmt::format(" (⌊2·4E/3⌋ = {}{})", grouped(as_double(two_thirds)),
                                  multiple_of > 1
                                      ? fmt::format(", rounded up to a multiple of {}", multiple_of)
                                      : std::string()),
          grouped(swiglu), grouped(ffn), text::format_readable(swiglu / ffn, 5)),
      fmt::format("The third matrix is paid for by the narrower width: F ≈ 8/3·E keeps the count "
                  "of the 4E two-matrix FFN. SwiGLU at the full 4E would hold {} weights, 1.5 "
                  "times as many — the gating, not extra parameters, is what Shazeer compared.",
                  grouped(3.0 * e * 4.0 * e))};
  return result;
}

}  // namespace

DemoInfo swiglu_params_demo() {
  return DemoInfo{"swiglu-params",
                  "SwiGLU: three matrices, the same count",
                  "SwiGLU's feed-forward has three matrices; Llama's width F ≈ 8/3·E keeps the "
                  "parameter count of the original 4E two-matrix FFN.",
                  "Beyond the lesson: Shazeer 2020 (GLU variants), Touvron et al. 2023 (Llama)",
                  {integer_param("d_model", 512, 8, 1024, "embedding width E"),
                   integer_param("intermediate", 0, 0, 16384,
                                 "hidden width F (0: Llama's ⌊8E/3⌋ rounded up to multiple_of)"),
                   integer_param("multiple_of", 1, 1, 1024, "round F up to a multiple of this")},
                  run_swiglu_params,
                  {engine::Op::swiglu}};
}

}  // namespace proofdeck::demo
