// tiled-attention: attention computed tile by tile with an online softmax equals the full
// softmax, while the score buffer shrinks to one tile.
#include "demo/demos.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/attention.hpp"
#include "engine/decoder.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

DemoResult run_tiled_attention(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::string demo = "tiled-attention";
  const std::int64_t tokens = params.integer("tokens");
  const std::int64_t d_k = params.integer("d_k");
  const std::int64_t tile = params.integer("tile");
  const bool causal = params.flag("causal");
  // Beside the tile asked for, smaller and larger ones, while the runs stay cheap (a template
  // over long sequences runs only the tile it asks about).
  std::vector<std::int64_t> tiles = {tile};
  if (as_double(tokens) * as_double(tokens) * as_double(d_k) <= 4194304.0) {
    tiles = {std::max<std::int64_t>(1, tile / 4), std::max<std::int64_t>(1, tile / 2), tile,
             std::min<std::int64_t>(tokens, 2 * tile), tokens};
  }
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  const double work = as_double(tokens) * as_double(tokens) * as_double(d_k) *
                      as_double(static_cast<std::int64_t>(tiles.size()) + 1);
  if (work > 2e9) {
    param_error(demo, fmt::format("tokens={} and d_k={} need about {} multiply-adds over {} tile "
                                  "sizes, more than one run may take; choose smaller values",
                                  tokens, d_k, text::format_readable(work, 2), tiles.size()));
  }
  engine::Rng rng(seed);
  const Mat q = random_matrix(tokens, d_k, rng, 0.0, 1.0);
  const Mat k = random_matrix(tokens, d_k, rng, 0.0, 1.0);
  const Mat v = random_matrix(tokens, d_k, rng, 0.0, 1.0);
  engine::AttentionOptions options;
  options.causal = causal;
  Mat full(tokens, d_k), probs;
  engine::attention_forward<double>(full, probs, q, k, v, options);

  DemoResult result;
  Mat table(static_cast<Index>(tiles.size()), 3);
  std::vector<std::string> rows;
  Series buffers{"score_buffer_by_tile",
                 "entries of the score buffer held at once",
                 "tile",
                 "entries",
                 {},
                 {{"tiled", {}}, {"full T × T", {}}},
                 true};
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    Mat out(tokens, d_k);
    const engine::TiledAttentionStats stats =
        engine::attention_tiled_forward<double>(out, q, k, v, tiles[i], causal);
    const double diff = (out - full).cwiseAbs().maxCoeff();
    const auto row = static_cast<Index>(i);
    table.row(row) << as_double(stats.score_buffer), as_double(stats.tiles), diff;
    rows.push_back(fmt::format("tile {}", tiles[i]));
    buffers.x.push_back(as_double(tiles[i]));
    buffers.lines[0].second.push_back(as_double(stats.score_buffer));
    buffers.lines[1].second.push_back(as_double(tokens * tokens));
    if (tiles[i] == tile) {
      const std::string at_tile = fmt::format(", tile size {}", tile);
      result.set("max_diff", "Largest output difference between tiled and full attention" + at_tile,
                 diff, Provenance::measured);
      result.set("exact", "Tiled attention matches full attention" + at_tile, diff <= 1e-12,
                 Provenance::measured);
      result.set("full_score_buffer", "Scores held at once by full attention",
                 as_double(tokens * tokens), Provenance::derived);
      result.set("tiled_score_buffer", "Scores held at once by tiled attention" + at_tile,
                 as_double(stats.score_buffer), Provenance::counted);
      result.set("buffer_ratio", "Score buffer of full over tiled attention" + at_tile,
                 as_double(tokens * tokens) / as_double(stats.score_buffer), Provenance::counted);
      result.set("tiles", "Blocks tiled attention computes" + at_tile, as_double(stats.tiles),
                 Provenance::counted);
    }
  }
  result.tables.push_back(Table{"by_tile",
                                fmt::format("{} queries and keys of {} dims, {}", tokens, d_k,
                                            causal ? "causal" : "bidirectional"),
                                rows,
                                {"score buffer", "blocks", "largest difference"},
                                table,
                                false});
  result.series.push_back(std::move(buffers));

  const double diff = result.find("max_diff")->number;
  result.text = {
      fmt::format("Tiled attention (Dao et al. 2022's online softmax) walks the keys tile by "
                  "tile, keeping for each query a running maximum, a running sum of exponentials "
                  "and an output rescaled whenever the maximum grows. At tile {} its output "
                  "equals softmax(QKᵀ/√d_k)·V over the full {} × {} scores to {} (largest "
                  "difference): exact, not an approximation.",
                  tile, tokens, tokens, text::format_short(diff)),
      result.find("buffer_ratio")->number > 1.0
          ? fmt::format("What changes is memory: it never holds more than {} scores at once "
                        "instead of {}, {} times fewer, in {}{}. FlashAttention's speed comes "
                        "from that smaller working set staying in fast on-chip memory, not from "
                        "computing less.",
                        grouped(result.find("tiled_score_buffer")->number),
                        grouped(as_double(tokens * tokens)),
                        text::format_short(result.find("buffer_ratio")->number),
                        text::count(static_cast<std::int64_t>(result.find("tiles")->number),
                                    "block", "blocks"),
                        causal ? " (causal: blocks wholly in the future are skipped)" : "")
          : fmt::format("With a tile as large as the sequence ({} ≥ {}), one block holds all {} "
                        "scores, as the full softmax does: the memory saving needs a smaller "
                        "tile{}.",
                        tile, tokens, text::count(tokens * tokens, "score", "scores"),
                        tokens > 1
                            ? fmt::format(" (--set tile={})", std::max<std::int64_t>(1, tokens / 8))
                            : std::string(" and a longer sequence"))};
  return result;
}

}  // namespace

DemoInfo tiled_attention_demo() {
  return DemoInfo{"tiled-attention",
                  "Tiled attention is exact",
                  "Computing attention in tiles with an online softmax gives the same output as "
                  "the full T×T softmax while the score buffer shrinks to one tile.",
                  "Beyond the lesson: Dao et al. 2022 (FlashAttention)",
                  {integer_param("tokens", 256, 1, 4096, "queries and keys"),
                   integer_param("d_k", 64, 1, 512, "dimensions per head"),
                   integer_param("tile", 32, 1, 4096, "tile size (queries and keys)"),
                   flag_param("causal", false, "causal mask")},
                  run_tiled_attention,
                  {engine::Op::tiled_attention, engine::Op::attention}};
}

}  // namespace proofdeck::demo
