// rmsnorm-vs-layernorm: RMSNorm divides by the root mean square without centring: it equals
// LayerNorm only when the input's mean is 0.
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/norm.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;
using Vec = engine::Vector<double>;

namespace {

DemoResult run_rmsnorm_vs_layernorm(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t features = params.integer("features");
  const std::int64_t tokens = params.integer("tokens");
  const double shift = params.number("shift");
  constexpr double eps = 1e-5;
  engine::Rng rng(seed);
  const Mat input = (random_matrix(tokens, features, rng, 0.0, 1.0).array() + shift).matrix();
  const Mat centred = input.colwise() - Vec(input.rowwise().mean());

  const engine::NormParams<double> layer_norm(features, true);       // γ = 1, β = 0
  const engine::NormParams<double> rms_norm(features, true, false);  // γ = 1, no β
  Vec mean, rstd, rrms;
  Mat ln_out, rms_out, ln_centred, rms_centred;
  engine::layernorm_forward(ln_out, mean, rstd, input, layer_norm, eps);
  engine::rmsnorm_forward(rms_out, rrms, input, rms_norm, eps);
  engine::layernorm_forward(ln_centred, mean, rstd, centred, layer_norm, eps);
  engine::rmsnorm_forward(rms_centred, rrms, centred, rms_norm, eps);

  const Vec rms_means = rms_out.rowwise().mean();
  const Vec ln_means = ln_out.rowwise().mean();
  const double max_diff_shifted = (rms_out - ln_out).cwiseAbs().maxCoeff();
  const double max_diff_centred = (rms_centred - ln_centred).cwiseAbs().maxCoeff();
  const double rms_of_output = std::sqrt(rms_out.squaredNorm() / as_double(rms_out.size()));
  const auto ln_params = static_cast<double>(layer_norm.weight.size() + layer_norm.bias.size());
  const auto rms_params = static_cast<double>(rms_norm.weight.size() + rms_norm.bias.size());

  DemoResult result;
  result.set("input_mean", "Mean of the shifted input", input.mean(), Provenance::measured);
  result.set("ln_output_mean", "Largest absolute token mean after LayerNorm",
             ln_means.cwiseAbs().maxCoeff(), Provenance::measured);
  result.set("rms_output_mean", "Mean of the RMSNorm output over all tokens", rms_means.mean(),
             Provenance::measured);
  result.set("rms_centres", "RMSNorm output has mean 0 in every token",
             rms_means.cwiseAbs().maxCoeff() < 1e-6, Provenance::measured);
  result.set("max_diff_shifted",
             "Largest output difference between RMSNorm and LayerNorm, shifted input",
             max_diff_shifted, Provenance::measured);
  result.set("max_diff_zero_mean",
             "Largest output difference between RMSNorm and LayerNorm, zero-mean input",
             max_diff_centred, Provenance::measured);
  result.set("equal_when_zero_mean", "RMSNorm equals LayerNorm on zero-mean input",
             max_diff_centred <= 1e-12, Provenance::measured);
  result.set("rms_params", "Trainable parameters, RMSNorm", rms_params, Provenance::counted);
  result.set("ln_params", "Trainable parameters, LayerNorm", ln_params, Provenance::counted);
  result.set("rms_output_rms", "Root mean square of the RMSNorm output", rms_of_output,
             Provenance::measured);

  const Index shown = std::min<Index>(features, 6);
  Mat first(4, shown);
  first << input.row(0).head(shown), ln_out.row(0).head(shown), rms_out.row(0).head(shown),
      rms_centred.row(0).head(shown);
  std::vector<std::string> columns;
  for (Index c = 0; c < shown; ++c)
    columns.push_back(fmt::format("feature {}", c));
  result.tables.push_back(Table{"token0",
                                "token 0: its input and both norms' outputs (γ = 1, β = 0)",
                                {"input", "LayerNorm", "RMSNorm", "RMSNorm, input mean removed"},
                                columns,
                                first,
                                false});
  Mat stats(3, 2);
  stats << input.rowwise().mean().mean(), input.norm() / std::sqrt(as_double(input.size())),
      ln_means.mean(), ln_out.norm() / std::sqrt(as_double(ln_out.size())), rms_means.mean(),
      rms_of_output;
  result.tables.push_back(Table{"means",
                                fmt::format("mean and root mean square over {} × {} features",
                                            text::count(tokens, "token", "tokens"), features),
                                {"input", "LayerNorm output", "RMSNorm output"},
                                {"mean", "root mean square"},
                                stats,
                                false});

  const Index drawn_tokens = std::min<Index>(tokens, 16);
  Series per_token{
      "output_mean_per_token",
      drawn_tokens < tokens
          ? fmt::format("each token's output mean (the first {} of {})", drawn_tokens, tokens)
          : std::string("each token's output mean"),
      "token",
      "mean",
      {},
      {{"LayerNorm", {}}, {"RMSNorm", {}}},
      false};
  for (Index t = 0; t < drawn_tokens; ++t) {
    per_token.x.push_back(static_cast<double>(t));
    per_token.lines[0].second.push_back(ln_means(t));
    per_token.lines[1].second.push_back(rms_means(t));
  }
  result.series.push_back(std::move(per_token));

  const bool shifted = std::fabs(shift) > 0.0;
  result.text = {
      fmt::format("LayerNorm subtracts each token's mean and divides by its standard deviation; "
                  "RMSNorm (Zhang & Sennrich 2019) only divides by the root mean square, "
                  "√(mean(x²) + ε). On inputs shifted by {} (mean {}), LayerNorm's outputs have "
                  "mean 0 (largest {}) while RMSNorm's keep a mean of {}: it rescales, it does "
                  "not centre.",
                  text::format_short(shift), text::format_short(input.mean()),
                  text::format_short(ln_means.cwiseAbs().maxCoeff()),
                  text::format_short(rms_means.mean())),
      fmt::format("{}Remove each token's mean first and the two agree: largest difference {}, as "
                  "mean(x²) is then the variance. RMSNorm is LayerNorm's output only for "
                  "zero-mean inputs.",
                  shifted ? fmt::format("So the outputs differ (largest difference {}). ",
                                        text::format_short(max_diff_shifted))
                          : std::string(),
                  text::format_short(max_diff_centred)),
      fmt::format("RMSNorm has {} parameters (γ) where LayerNorm has {} (γ and β): it is cheaper "
                  "and, as Llama uses it, works as well — but it is a different function, not "
                  "LayerNorm with fewer parameters.",
                  grouped(rms_params), grouped(ln_params))};
  return result;
}

}  // namespace

DemoInfo rmsnorm_vs_layernorm_demo() {
  return DemoInfo{"rmsnorm-vs-layernorm",
                  "RMSNorm rescales without centring",
                  "RMSNorm divides by the root mean square and does not subtract the mean: its "
                  "output equals LayerNorm's only when the input's mean is 0.",
                  "Beyond the lesson: Zhang & Sennrich 2019 (RMSNorm)",
                  {integer_param("features", 16, 2, 1024, "features per token"),
                   integer_param("tokens", 8, 1, 1024, "tokens"),
                   number_param("shift", 3.0, -100.0, 100.0, "added to every input entry")},
                  run_rmsnorm_vs_layernorm,
                  {engine::Op::rmsnorm, engine::Op::layernorm}};
}

}  // namespace proofdeck::demo
