// rope-relative: RoPE rotates q and k after the projection, so that their score depends on
// the offset between two positions and not on where the pair sits.
#include "demo/demos.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/decoder.hpp"
#include "engine/positional.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

DemoResult run_rope_relative(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t offset = params.integer("offset");
  const std::vector<std::int64_t> starts = params.integers("positions");
  const std::int64_t dim = params.integer("d_model");
  const double base = params.number("base");
  if (dim % 2 != 0) {
    param_error("rope-relative", fmt::format("d_model={}: RoPE rotates pairs of dimensions, so "
                                             "d_model must be even",
                                             dim));
  }
  engine::Rng rng(seed);
  // Two token embeddings and the projections W_q, W_k (E → E).
  const Mat query_token = random_matrix(1, dim, rng, 0.0, 1.0);
  const Mat key_token = random_matrix(1, dim, rng, 0.0, 1.0);
  Mat wq(dim, dim), wk(dim, dim);
  engine::fill_xavier_uniform(wq, rng);
  engine::fill_xavier_uniform(wk, rng);
  const Mat q = query_token * wq.transpose();
  const Mat k = key_token * wk.transpose();

  const auto rope_score = [&](engine::RopeConvention convention, std::int64_t p, std::int64_t s) {
    Mat rq, rk;
    engine::rope_forward(rq, q, {p}, engine::RopeConfig{convention, base});
    engine::rope_forward(rk, k, {s}, engine::RopeConfig{convention, base});
    return rq.row(0).dot(rk.row(0));
  };
  // Sinusoidal: added to the embeddings, before the projections.
  const auto sinusoidal_score = [&](std::int64_t p, std::int64_t s) {
    const Mat qp =
        (query_token + engine::sinusoidal_encoding<double>({p}, dim, base)) * wq.transpose();
    const Mat ks =
        (key_token + engine::sinusoidal_encoding<double>({s}, dim, base)) * wk.transpose();
    return qp.row(0).dot(ks.row(0));
  };
  // An added code in RoPE's place: sinusoids added to q and k after W_q, W_k.
  const auto sinusoidal_after_projection_score = [&](std::int64_t p, std::int64_t s) {
    Mat qp = q, ks = k;
    engine::add_positions_to_heads(qp, {p}, dim, base);
    engine::add_positions_to_heads(ks, {s}, dim, base);
    return qp.row(0).dot(ks.row(0));
  };
  // RoPE in the wrong place: rotating the embeddings before W_q, W_k loses the property.
  const auto rope_before_projection_score = [&](std::int64_t p, std::int64_t s) {
    Mat rq, rk;
    const engine::RopeConfig config{engine::RopeConvention::half, base};
    engine::rope_forward(rq, query_token, {p}, config);
    engine::rope_forward(rk, key_token, {s}, config);
    return (rq * wq.transpose()).row(0).dot((rk * wk.transpose()).row(0));
  };

  Mat scores(static_cast<Index>(starts.size()), 5);
  std::vector<std::string> rows;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::int64_t p = starts[i];
    const auto row = static_cast<Index>(i);
    scores(row, 0) = rope_score(engine::RopeConvention::interleaved, p, p + offset);
    scores(row, 1) = rope_score(engine::RopeConvention::half, p, p + offset);
    scores(row, 2) = sinusoidal_score(p, p + offset);
    scores(row, 3) = rope_before_projection_score(p, p + offset);
    scores(row, 4) = sinusoidal_after_projection_score(p, p + offset);
    rows.push_back(fmt::format("({}, {})", p, p + offset));
  }
  const auto spread = [&](Index column) {
    return scores.col(column).maxCoeff() - scores.col(column).minCoeff();
  };
  // Inside an attention module RoPE turns Q and K only: the values of tokens at the query
  // positions are what they are with RoPE switched off.
  const engine::GqaConfig config = engine::GqaConfig::of(dim, 1, 1).with_rope_theta(base);
  engine::GqaParams<double> with_rope(config);
  engine::fill_xavier_uniform(with_rope.q_proj, rng);
  engine::fill_xavier_uniform(with_rope.k_proj, rng);
  engine::fill_xavier_uniform(with_rope.v_proj, rng);
  engine::fill_xavier_uniform(with_rope.o_proj, rng);
  engine::GqaParams<double> without_rope = with_rope;
  without_rope.config.rope = false;
  const Mat tokens = random_matrix(static_cast<Index>(starts.size()), dim, rng, 0.0, 1.0);
  const engine::Positions positions(starts.begin(), starts.end());
  Mat out_rope, out_plain;
  engine::GqaCache<double> cache_rope, cache_plain;
  engine::gqa_forward(out_rope, cache_rope, tokens, with_rope, positions);
  engine::gqa_forward(out_plain, cache_plain, tokens, without_rope, positions);
  const double value_change = (cache_rope.v - cache_plain.v).cwiseAbs().maxCoeff();

  DemoResult result;
  result.set("rope_value_change", "Largest change in the values when RoPE is switched on",
             value_change, Provenance::measured);
  const std::string spread_words = "Score spread over pairs at the same offset, ";
  result.set("max_offset_diff_rope_interleaved", spread_words + "interleaved RoPE", spread(0),
             Provenance::measured);
  result.set("max_offset_diff_rope_half", spread_words + "rotate-half RoPE", spread(1),
             Provenance::measured);
  result.set("max_offset_diff_sinusoidal", spread_words + "sinusoids added to the embeddings",
             spread(2), Provenance::measured);
  result.set("max_offset_diff_rope_before_projection", spread_words + "RoPE before the projections",
             spread(3), Provenance::measured);
  result.set("max_offset_diff_sinusoidal_after_projection",
             spread_words + "sinusoids after the projections", spread(4), Provenance::measured);
  result.set("rope_depends_only_on_offset",
             "RoPE scores depend only on the offset, in both pair layouts",
             spread(0) <= 1e-12 && spread(1) <= 1e-12, Provenance::measured);
  result.tables.push_back(
      Table{"scores",
            fmt::format("q·k for query/key positions {} apart", offset),
            rows,
            {"RoPE interleaved", "RoPE half", "sinusoidal added", "RoPE on x", "sinusoids on q/k"},
            scores,
            false});
  const std::set<std::int64_t> distinct(starts.begin(), starts.end());
  if (distinct.size() < 2) {
    result.text = {
        fmt::format("RoPE rotates the query and the key after their projections, by angles "
                    "proportional to their positions, so q·k depends only on the distance "
                    "between them. Here every pair {} apart starts at query position {}, so "
                    "there is no second pair to compare it with: --set positions=2,10,100 scores "
                    "the same offset at three places, where RoPE's scores agree and sinusoidal "
                    "ones do not.",
                    offset, *distinct.begin()),
        "The pipeline is x → W_q, W_k → rotate q and k → q·kᵀ."};
    return result;
  }
  result.text = {
      fmt::format("RoPE rotates the query and the key after their projections, by angles "
                  "proportional to their positions, so q·k depends only on the distance: every "
                  "pair {} apart scores the same (spread {} interleaved, {} rotate-half).",
                  offset, text::format_short(spread(0)), text::format_short(spread(1))),
      fmt::format("Added sinusoidal vectors ride inside the embeddings through W_q and W_k, and "
                  "the score changes with the absolute positions (spread {}). Added to q and k "
                  "after the projections instead, in RoPE's place, they still leave terms in the "
                  "absolute positions (spread {}): it is the rotation, not the place, that makes "
                  "the score relative.",
                  text::format_short(spread(2)), text::format_short(spread(4))),
      fmt::format("Where RoPE acts matters: rotating the embeddings before the projections "
                  "instead of Q and K after them loses the property (spread {}). The "
                  "pipeline is x → W_q, W_k → rotate q and k → q·kᵀ; V is not rotated (in an "
                  "attention module with RoPE on, the values change by {}).",
                  text::format_short(spread(3)), text::format_short(value_change))};
  return result;
}

}  // namespace

DemoInfo rope_relative_demo() {
  return DemoInfo{
      "rope-relative",
      "RoPE scores depend on relative position",
      "RoPE rotates Q and K after projection so that q·k depends on the distance i − j.",
      "L2 — Mechanism",
      {integer_param("offset", 3, -1000, 1000, "distance between key and query positions"),
       list_param("positions", {2, 10, 100}, 0, 100000, "query positions"),
       integer_param("d_model", 16, 2, 512, "width of q and k (even)"),
       number_param("base", 10000.0, 2.0, 1e9, "RoPE and sinusoidal frequency base")},
      run_rope_relative,
      {engine::Op::attention, engine::Op::heads, engine::Op::kv_heads, engine::Op::rope,
       engine::Op::sinusoidal, engine::Op::positions_added}};
}

}  // namespace proofdeck::demo
