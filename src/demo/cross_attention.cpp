// cross-attention: an encoder-decoder layer's second attention takes its queries from the
// decoder's tokens and its keys and values from the encoder's output, so it answers one row per
// decoder position, each a mixture of every input position.
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

// Whether every row of `after` differs from the same row of `before` (by more than rounding).
bool every_row_moves(const Mat& before, const Mat& after) {
  if (before.rows() != after.rows()) return true;
  const double scale = before.cwiseAbs().maxCoeff();
  return ((after - before).rowwise().norm().array() > 1e-9 * (1.0 + scale)).all();
}

DemoResult run_cross_attention(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "cross-attention";
  const std::int64_t decoder_tokens = params.integer("decoder_tokens");
  const std::int64_t encoder_tokens = params.integer("encoder_tokens");
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t heads = params.integer("heads");
  require_divides(demo, d_model, heads, "heads");
  engine::Rng rng(seed);
  engine::MhaParams<double> module(d_model, heads, true);
  engine::fill_xavier_uniform(module.in_proj.weight, rng);
  engine::fill_xavier_uniform(module.out_proj.weight, rng);
  const Mat decoder = random_matrix(decoder_tokens, d_model, rng, 0.0, 1.0);
  const Mat encoder = random_matrix(encoder_tokens, d_model, rng, 0.0, 1.0);

  const auto attend = [&](const Mat& queries_from, const Mat& memory,
                          engine::CrossAttentionCache<double>& cache) {
    Mat out;
    engine::cross_attention_forward(out, cache, queries_from, memory, module, {});
    return out;
  };
  engine::CrossAttentionCache<double> cache, changed_cache;
  const Mat out = attend(decoder, encoder, cache);
  // The same layer after the encoder's output changes, then after the decoder's tokens change.
  const Mat other_encoder = encoder + random_matrix(encoder_tokens, d_model, rng, 0.0, 1.0);
  const Mat other_decoder = decoder + random_matrix(decoder_tokens, d_model, rng, 0.0, 1.0);
  const bool moves_with_encoder =
      every_row_moves(out, attend(decoder, other_encoder, changed_cache));
  const bool moves_with_decoder =
      every_row_moves(out, attend(other_decoder, encoder, changed_cache));

  const Mat& weights = cache.probs.front();
  double sum_error = 0.0;
  double smallest = 1.0;
  for (const Mat& head : cache.probs) {
    sum_error = std::max(sum_error, (head.rowwise().sum().array() - 1.0).abs().maxCoeff());
    smallest = std::min(smallest, head.minCoeff());
  }
  DemoResult result;
  result.set("decoder_tokens", "Decoder positions, where the queries come from",
             as_double(decoder_tokens), Provenance::param);
  result.set("encoder_tokens", "Input positions in the encoder's output", as_double(encoder_tokens),
             Provenance::param);
  // The shapes follow from the arguments in any engine wired as attention is: one output row
  // per query, one weight per key. The fault that rewires the sources moves what is measured.
  result.set("output_rows", "Rows in the cross-attention output", as_double(decoder_tokens),
             Provenance::derived);
  result.set("keys_per_query", "Keys each decoder position attends over", as_double(encoder_tokens),
             Provenance::derived);
  result.set("smallest_weight", "Smallest cross-attention weight in any head", smallest,
             Provenance::measured);
  result.set("weight_sum_error_max", "Largest distance of a weight row's sum from 1", sum_error,
             Provenance::measured);
  result.set("output_moves_with_encoder",
             "Every output row changes when the encoder's output changes", moves_with_encoder,
             Provenance::measured);
  result.set("output_moves_with_decoder",
             "Every output row changes when the decoder's tokens change", moves_with_decoder,
             Provenance::measured);

  std::vector<std::string> rows, columns;
  for (Index t = 0; t < weights.rows(); ++t)
    rows.push_back(fmt::format("d{}", t));
  for (Index s = 0; s < weights.cols(); ++s)
    columns.push_back(fmt::format("e{}", s));
  result.tables.push_back(Table{"weights_head_0",
                                "head 0: decoder position d's weights over encoder positions e",
                                rows, columns, weights, true});
  const auto shown = [](double x) { return text::format_short(x); };
  result.text = {
      fmt::format("The decoder's {} attend over the encoder's output at {}: queries from the "
                  "decoder (W_q on its tokens), keys and values from the encoder (W_k, W_v on its "
                  "output), as nn.MultiheadAttention(decoder, memory, memory).",
                  text::count(decoder_tokens, "position", "positions"),
                  text::count(encoder_tokens, "position", "positions")),
      fmt::format("The layer answers {} — one per decoder position — and each is a mixture of "
                  "{}: every weight is positive (the smallest {}) and each row sums to "
                  "{}.",
                  text::count(static_cast<std::int64_t>(out.rows()), "row", "rows"),
                  text::count(weights.cols(), "input position", "input positions"), shown(smallest),
                  sum_error == 0.0 ? std::string("exactly 1") : "1 within " + shown(sum_error)),
      fmt::format("Changing the encoder's output {} every decoder position's output, and so does "
                  "changing the decoder's tokens{}: the decoder asks, the input answers. Queries "
                  "from the encoder would give one row per input position instead; keys and "
                  "values from the decoder would make it self-attention, blind to the input.",
                  moves_with_encoder ? "changes" : "leaves unchanged",
                  moves_with_decoder ? "" : " (here it does not)")};
  return result;
}

}  // namespace

DemoInfo cross_attention_demo() {
  return DemoInfo{
      "cross-attention",
      "Cross-attention: the decoder asks, the encoder answers",
      "In an encoder-decoder layer the queries come from the decoder and the keys and values "
      "from the encoder's output, so every decoder position attends over every input position.",
      "What comes next: encoder-decoder models",
      {integer_param("decoder_tokens", 3, 1, 64, "decoder positions (queries)"),
       integer_param("encoder_tokens", 4, 1, 64, "input positions (the encoder's output)"),
       integer_param("d_model", 8, 1, 256, "embedding width"),
       integer_param("heads", 2, 1, 16, "attention heads (must divide d_model)")},
      run_cross_attention,
      {engine::Op::cross_attention, engine::Op::attention, engine::Op::heads, engine::Op::linear}};
}

}  // namespace proofdeck::demo
