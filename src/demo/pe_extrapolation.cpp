// pe-extrapolation: a learned position table has a row for each position up to max_len and
// none beyond; the sinusoidal encoding is defined at every position.
#include "demo/demos.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "demo/demo_support.hpp"
#include "engine/param_count.hpp"
#include "engine/positional.hpp"
#include "engine/rng.hpp"
#include "engine/tensor.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

using engine::Index;
using Mat = engine::Matrix<double>;

namespace {

DemoResult run_pe_extrapolation(const Params& params, std::uint64_t seed, RunCaches&) {
  const std::int64_t max_len = params.integer("max_len");
  const std::int64_t d_model = params.integer("d_model");
  const std::int64_t position = params.integer("position");
  if (max_len * d_model > (std::int64_t{1} << 22)) {
    param_error("pe-extrapolation",
                fmt::format("max_len={} × d_model={} = {} table entries; the limit is {}", max_len,
                            d_model, max_len * d_model, std::int64_t{1} << 22));
  }
  // A learned table of the real shape (max_len rows of d_model). Only the rows this demo reads
  // are drawn: filling a 4-million-entry table with normals would dominate `check` on templates.
  engine::Rng rng(seed);
  auto learned =
      engine::make_positional_params<double>(engine::PositionalKind::learned, max_len, d_model);
  Mat& table = *learned.table;
  for (const std::int64_t row : {std::int64_t{0}, std::int64_t{1}, max_len - 1}) {
    if (row < table.rows()) table.row(row) = random_matrix(1, d_model, rng, 0.0, 1.0);
  }
  // A lookup's refusal, or "" when the table has the row.
  const auto refusal_of = [&](std::int64_t at) {
    try {
      Mat looked_up;
      engine::learned_positions_forward(looked_up, {at}, table);
      return looked_up.allFinite() ? std::string() : std::string("a row that is not finite");
    } catch (const engine::EngineError& e) {
      return std::string(e.what());
    }
  };
  DemoResult result;
  result.set(fmt::format("learned_answers_{}", max_len - 1),
             fmt::format("Learned position table answers position {}", max_len - 1),
             refusal_of(max_len - 1).empty(), Provenance::measured);
  const std::string refusal = refusal_of(position);
  result.set(fmt::format("learned_refuses_{}", position),
             fmt::format("Learned position table refuses position {}", position), !refusal.empty(),
             Provenance::measured);
  const Mat far = engine::sinusoidal_encoding<double>({position, 10 * position}, d_model);
  result.set(fmt::format("sinusoidal_defined_{}", position),
             position == 0 ? std::string("Sinusoidal encoding defined at position 0")
                           : fmt::format("Sinusoidal encoding defined at positions {} and {}",
                                         position, 10 * position),
             far.allFinite() && far.cwiseAbs().maxCoeff() <= 1.0, Provenance::measured);
  // Pair i of position 1's vector is (sin θᵢ, cos θᵢ): the angle it turns per position, read off
  // the table. Frequencies within a part in 10⁹ of each other count as one.
  const Mat step = engine::sinusoidal_encoding<double>({1}, d_model);
  std::vector<double> frequencies;
  for (Index even = 0; even + 1 < d_model; even += 2)
    frequencies.push_back(std::atan2(step(0, even), step(0, even + 1)));
  std::sort(frequencies.begin(), frequencies.end());
  double distinct = frequencies.empty() ? 0.0 : 1.0;
  for (std::size_t i = 1; i < frequencies.size(); ++i)
    distinct += frequencies[i] - frequencies[i - 1] > 1e-9 * frequencies[i] ? 1.0 : 0.0;
  result.set("sinusoidal_frequencies", "Distinct frequencies in the sinusoidal encoding", distinct,
             Provenance::measured);
  // The sinusoidal scheme's trainable tensors, counted as for any module (a fault may add one).
  const auto sinusoidal_scheme =
      engine::make_positional_params<double>(engine::PositionalKind::sinusoidal, max_len, d_model);
  // max_len × d_model: the table's shape is its arguments, so its size is their arithmetic.
  result.set("learned_params", "Trainable parameters, learned position table",
             as_double(max_len) * as_double(d_model), Provenance::derived);
  result.set("sinusoidal_params", "Trainable parameters, sinusoidal encoding",
             static_cast<double>(engine::count_params(sinusoidal_scheme).total()),
             Provenance::counted);

  const std::vector<std::int64_t> shown = {0, 1, max_len - 1, position, 10 * position};
  const Index columns = std::min<Index>(d_model, 8);
  const Mat sinusoidal = engine::sinusoidal_encoding<double>(shown, d_model);
  std::vector<std::string> rows, column_labels;
  for (const auto p : shown)
    rows.push_back(fmt::format("position {}", p));
  for (Index c = 0; c < columns; ++c)
    column_labels.push_back(fmt::format("dim {}", c));
  result.tables.push_back(Table{"sinusoidal", "sinusoidal encoding, first dimensions", rows,
                                column_labels, sinusoidal.leftCols(columns), false});
  result.text = {
      refusal.empty()
          ? fmt::format("A learned table has one trained row per position below max_len = {}: "
                        "position {} is one of them, so the table answers it. Past the table it "
                        "has nothing to give: --set position={} asks for one it refuses.",
                        max_len, position, std::max<std::int64_t>(600, max_len + 1))
          : fmt::format("A learned table has one trained row per position up to max_len = {}: "
                        "position {} has a row, position {} has none. The engine says: {}",
                        max_len, max_len - 1, position, refusal),
      fmt::format(
          "Sinusoidal encoding is a formula, sin and cos of position at {} (one per "
          "pair of dimensions): {}, with 0 trainable parameters against {} for the "
          "table ({} × {}).",
          text::count(static_cast<std::int64_t>(distinct), "fixed frequency", "fixed frequencies"),
          position == 0 ? std::string("defined at every position alike")
                        : fmt::format("defined at {} and at {} alike", position, 10 * position),
          text::group_digits(std::to_string(max_len * d_model)), max_len, d_model),
      "That is why the lesson says sinusoidal needs no training and in principle extends past "
      "the lengths seen in training, while a learned table can only represent positions it has "
      "rows for."};
  return result;
}

}  // namespace

DemoInfo pe_extrapolation_demo() {
  return DemoInfo{
      "pe-extrapolation",
      "Learned tables stop at max_len; sinusoids go on",
      "A learned position table can only represent positions it has rows for; sinusoidal "
      "encoding is defined for any position and needs no training.",
      "L2 — Mechanism",
      {integer_param("max_len", 512, 1, 65536, "rows of the learned table"),
       integer_param("d_model", 512, 2, 4096, "embedding width"),
       integer_param("position", 600, 0, 1000000, "the position asked for")},
      run_pe_extrapolation,
      {engine::Op::sinusoidal, engine::Op::learned_positions}};
}

}  // namespace proofdeck::demo
