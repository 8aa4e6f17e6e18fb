// rope-scaling: RoPE position interpolation divides positions by s, keeping a longer context's
// angles inside the trained range while scores still depend only on the offset.
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "demo/demo_support.hpp"
#include "engine/positional.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using Mat = engine::Matrix<double>;

namespace {

// The angle RoPE turns pair `pair` by at `position` under `config`: a unit vector in the pair's
// first coordinate, rotated by the engine, read back with atan2 (in (−π, π]).
double turned_angle(std::int64_t head_dim, std::int64_t pair, std::int64_t position,
                    const engine::RopeConfig& config) {
  Mat unit = Mat::Zero(1, head_dim);
  unit(0, pair) = 1.0;
  Mat turned;
  engine::rope_forward(turned, unit, {position}, config);
  return std::atan2(turned(0, pair + head_dim / 2), turned(0, pair));
}

// Where `last` lands under `config`, read off the rotation itself: the slowest pair (θ =
// base^(−(d−2)/d), the one least likely to wrap) is turned at the last position and the angle
// divided by θ. Past a half turn the angle wraps; the whole turns come from the expected
// position (`expected`), the fraction from the rotation.
double landed_position(std::int64_t head_dim, std::int64_t last, double expected,
                       const engine::RopeConfig& config) {
  const std::int64_t slow_pair = head_dim / 2 - 1;
  const double slow_theta =
      std::pow(config.base, -2.0 * as_double(slow_pair) / as_double(head_dim));
  const double angle = turned_angle(head_dim, slow_pair, last, config);
  constexpr double kTurn = 2.0 * std::numbers::pi;
  const double turns = std::round((expected * slow_theta - angle) / kTurn);
  return (angle + turns * kTurn) / slow_theta;
}

// Pair `pair`'s speed under `changed` relative to `trained` (1: as trained, 1/s: s times
// slower), each read as the angle the engine turns it by at position 1; 0 when the trained
// rotation turns it by nothing (a rotation that is not applied).
double relative_speed(std::int64_t head_dim, std::int64_t pair, const engine::RopeConfig& trained,
                      const engine::RopeConfig& changed) {
  const double before = turned_angle(head_dim, pair, 1, trained);
  return before == 0.0 ? 0.0 : turned_angle(head_dim, pair, 1, changed) / before;
}

DemoResult run_rope_scaling(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "rope-scaling";
  const std::int64_t trained = params.integer("trained");
  const double factor = params.number("factor");
  const std::int64_t head_dim = params.integer("head_dim");
  const double base = params.number("base");
  require_even(demo, "head_dim", head_dim);
  const auto extended = static_cast<std::int64_t>(std::floor(as_double(trained) * factor));
  const std::int64_t last = extended - 1;
  const double scaled = as_double(last) / factor;
  // θ₀ = base⁰ = 1 radian per position: the fastest-turning pair sets the widest angle range.
  const double max_trained = as_double(trained - 1);

  // q·k at one offset, at positions across the extended range, with interpolation on.
  engine::Rng rng(seed);
  const Mat q = random_matrix(1, head_dim, rng, 0.0, 1.0);
  const Mat k = random_matrix(1, head_dim, rng, 0.0, 1.0);
  const engine::RopeConfig config{engine::RopeConvention::half, base, factor};
  constexpr std::int64_t offset = 3;
  std::vector<std::int64_t> starts = {0, trained / 2, std::max<std::int64_t>(0, last - offset)};
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  std::vector<double> scores;
  for (const std::int64_t p : starts) {
    Mat rq, rk;
    engine::rope_forward(rq, q, {p}, config);
    engine::rope_forward(rk, k, {p + offset}, config);
    scores.push_back(rq.row(0).dot(rk.row(0)));
  }
  const double spread = *std::max_element(scores.begin(), scores.end()) -
                        *std::min_element(scores.begin(), scores.end());

  // Where the last token lands, with interpolation and without, read off the rotation.
  const double landed = landed_position(head_dim, last, scaled, config);
  const engine::RopeConfig unscaled{engine::RopeConvention::half, base, 1.0};
  const double unscaled_landed = landed_position(head_dim, last, as_double(last), unscaled);
  // NTK-aware scaling keeps the positions and raises the base to b·s^(d/(d−2)): the fastest
  // pair keeps its speed, the slowest slows by exactly s. Linear interpolation slows every pair.
  const double ntk_base = base * std::pow(factor, as_double(head_dim) / as_double(head_dim - 2));
  const engine::RopeConfig ntk{engine::RopeConvention::half, ntk_base, 1.0};
  const std::int64_t slowest = head_dim / 2 - 1;
  const double ntk_fast = relative_speed(head_dim, 0, unscaled, ntk);
  const double ntk_slow = relative_speed(head_dim, slowest, unscaled, ntk);
  const double pi_fast = relative_speed(head_dim, 0, unscaled, config);
  const double pi_slow = relative_speed(head_dim, slowest, unscaled, config);

  DemoResult result;
  result.set("extended_length", "Tokens in the extended context", as_double(extended),
             Provenance::derived);
  result.set("last_position", "Last position of the extended context", as_double(last),
             Provenance::derived);
  result.set("scaled_position", "Where the last position lands after interpolation", landed,
             Provenance::measured);
  const std::string angle_words = "Fastest pair's largest angle in radians, ";
  result.set("max_angle_trained", angle_words + "trained context", max_trained,
             Provenance::derived);
  result.set("max_angle_extended", angle_words + "extended context, no scaling", unscaled_landed,
             Provenance::measured);
  result.set("max_angle_interpolated", angle_words + "extended context, interpolated", landed,
             Provenance::measured);
  result.set("interpolated_within_trained",
             "Interpolated last position stays inside the trained range",
             landed < as_double(trained), Provenance::measured);
  result.set("extended_beyond_trained", "Unscaled last position lies beyond the trained range",
             unscaled_landed > as_double(trained - 1), Provenance::measured);
  result.set("ntk_base", "RoPE base after NTK-aware scaling", ntk_base, Provenance::derived);
  const std::string speed_words = "speed against the trained rotation, ";
  result.set("ntk_speed_fastest", "Fastest pair's " + speed_words + "NTK-aware base", ntk_fast,
             Provenance::measured);
  result.set("ntk_speed_slowest", "Slowest pair's " + speed_words + "NTK-aware base", ntk_slow,
             Provenance::measured);
  result.set("pi_speed_fastest", "Fastest pair's " + speed_words + "interpolated", pi_fast,
             Provenance::measured);
  result.set("pi_speed_slowest", "Slowest pair's " + speed_words + "interpolated", pi_slow,
             Provenance::measured);
  result.set("offset_spread_scaled",
             "Score spread over pairs at the same offset, interpolated RoPE", spread,
             Provenance::measured);
  result.set("depends_only_on_offset", "Interpolated RoPE scores depend only on the offset",
             spread <= 1e-12, Provenance::measured);

  Series angles{"angle_by_position",
                "the fastest pair's rotation angle by position",
                "position",
                "angle (rad)",
                {},
                {{"no scaling", {}},
                 {fmt::format("÷ {}", text::format_short(factor)), {}},
                 {"trained range [0, L) ends", {}}},
                false};
  constexpr int kPoints = 9;
  for (int i = 0; i < kPoints; ++i) {
    const double p = std::round(as_double(last) * i / (kPoints - 1));
    if (!angles.x.empty() && p == angles.x.back()) continue;
    angles.x.push_back(p);
    angles.lines[0].second.push_back(p);
    angles.lines[1].second.push_back(p / factor);
    angles.lines[2].second.push_back(as_double(trained));
  }
  result.series.push_back(std::move(angles));

  result.text = {
      fmt::format("RoPE turns pair i of q and k by position·θᵢ, θᵢ = {}^(−2i/{}); the fastest "
                  "pair turns 1 radian per position, so a model trained on {} positions has "
                  "seen its angles only up to {}. Run {} tokens unchanged and the last position, "
                  "{}, turns it to {} rad — angles it never saw in training: RoPE does not "
                  "extrapolate for free.",
                  text::format_short(base), head_dim, grouped(as_double(trained)),
                  grouped(max_trained), grouped(as_double(extended)), grouped(as_double(last)),
                  grouped(as_double(last))),
      fmt::format("Position interpolation (Chen et al. 2023; rope_scaling {{\"rope_type\": "
                  "\"linear\", \"factor\": {}}}) divides every position by {} first: position {} "
                  "becomes {}, inside the trained range [0, {}), at the cost of finer steps "
                  "between neighbours (a short fine-tune adapts to them).",
                  text::format_short(factor), text::format_short(factor), grouped(as_double(last)),
                  text::format_readable(landed, 6), grouped(as_double(trained))),
      fmt::format("The rotation is still a rotation by scaled positions, so q·k depends only on "
                  "the (scaled) offset: pairs {} apart at {} score alike "
                  "(spread {}).",
                  offset,
                  starts.size() == 1 ? fmt::format("position {}", starts.front())
                                     : fmt::format("positions {}", fmt::join(starts, ", ")),
                  text::format_short(spread)),
      fmt::format("NTK-aware scaling (the basis of rope_type \"dynamic\" and of YaRN) keeps the "
                  "positions and raises the base to {}·{}^({}/{}) = {}: read off the rotation at "
                  "position 1, the fastest pair turns at {}× its trained speed and the slowest "
                  "at {}×, where interpolation slows both to {}×.",
                  text::format_short(base), text::format_short(factor), head_dim, head_dim - 2,
                  text::format_readable(ntk_base, 6), text::format_short(ntk_fast),
                  text::format_short(ntk_slow), text::format_short(pi_slow))};
  return result;
}

}  // namespace

DemoInfo rope_scaling_demo() {
  return DemoInfo{
      "rope-scaling",
      "RoPE position interpolation",
      "Dividing positions by s keeps the rotation angles of an s-times longer context inside the "
      "trained range, and scores still depend only on the (scaled) offset.",
      "Beyond the lesson: Chen et al. 2023 (position interpolation)",
      {integer_param("trained", 2048, 2, 1000000, "context length L trained on"),
       number_param("factor", 2.0, 1.0, 64.0, "scaling factor s"),
       integer_param("head_dim", 128, 2, 1024, "dimensions per head (even)"),
       number_param("base", 10000.0, 2.0, 1e9, "RoPE base (rope_theta)")},
      run_rope_scaling,
      {engine::Op::rope}};
}

}  // namespace proofdeck::demo
