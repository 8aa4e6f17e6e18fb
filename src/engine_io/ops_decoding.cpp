// `engine run`'s decoding: the sampling distribution generate() draws from, and beam search over
// a next-token table. Neither has a gradient.
#include "engine_io/ops.hpp"

#include <utility>

#include "engine/decoding.hpp"
#include "engine_io/op_run.hpp"

namespace proofdeck::engine_io::detail {

// The logits warpers as generate() chains them: temperature, top_k, top_p (Hugging Face's names).
template <typename T>
void run_sampling(OpRun<T>& run) {
  engine::SamplingConfig config;
  config.temperature = run.config.positive_number("temperature", 1.0);
  config.top_k = run.config.count("top_k", 0);
  config.top_p = run.config.fraction("top_p", 1.0);
  if (config.top_p == 0.0) {
    spec_error(run.source, "config",
               "config.top_p: expected a number in (0, 1]; 0 would keep no token (1 keeps all)");
  }
  run.finish_reading();
  run.refuse_gradient(
      "sampling has no parameters and cuts tokens out, so there is no gradient to compute");
  const Matrix<T> logits = run.input_matrix(kAnySize, kAnySize);
  Matrix<T> probs, kept;
  engine::sampling_distribution(probs, logits, config, &kept);
  run.result["output"] = to_json(probs);
  run.result["kept"] = to_json(kept);
}

// Beam search over a next-token table (row t: the logits of the token after t), as
// generate(num_beams=B) runs with no end token and no length penalty.
template <typename T>
void run_beam_search(OpRun<T>& run) {
  const auto start = run.config.count("start", 0);
  const auto steps = run.config.dimension("steps");
  const auto beams = run.config.dimension("num_beams", 1);
  run.finish_reading();
  run.refuse_gradient("a search picks tokens, so there is no gradient to compute");
  const Matrix<T> table = run.input_matrix(kAnySize, kAnySize);
  const auto found = engine::beam_search(table, start, steps, beams);
  ordered_json sequences = ordered_json::array();
  ordered_json scores = ordered_json::array();
  for (const auto& c : found) {
    sequences.push_back(c.tokens);
    scores.push_back(c.log_prob);
  }
  run.result["sequences"] = std::move(sequences);
  run.result["sequence_scores"] = std::move(scores);
}

template void run_sampling<float>(OpRun<float>& run);
template void run_sampling<double>(OpRun<double>& run);
template void run_beam_search<float>(OpRun<float>& run);
template void run_beam_search<double>(OpRun<double>& run);

}  // namespace proofdeck::engine_io::detail
