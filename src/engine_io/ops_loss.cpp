// `engine run`'s training objective: cross_entropy (torch.nn.functional.cross_entropy, with the
// perplexity of its mean) and tied_lm_head (one matrix as the token embedding and the LM head).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "engine/loss.hpp"
#include "engine_io/op_run.hpp"
#include "engine_io/ops.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io::detail {

namespace {

// A list of `rows` integers: cross_entropy's class index a row (ignore_index where a row is not
// counted), or tied_lm_head's token ids.
std::vector<std::int64_t> integers_from_json(const std::string& source, const json* value,
                                             const std::string& field, std::int64_t rows,
                                             const std::string& what) {
  if (value == nullptr) {
    spec_error(source, field, fmt::format("{}: missing; expected {}", field, what));
  }
  if (!value->is_array() || (rows >= 0 && static_cast<std::int64_t>(value->size()) != rows) ||
      value->empty()) {
    spec_error(source, field,
               fmt::format("{}: expected {}, got {}", field, what,
                           value->is_array()
                               ? fmt::format("a list of {}", value->size())
                               : fmt::format("{} {}", json_kind(*value), json_preview(*value))));
  }
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < value->size(); ++i) {
    const json& entry = (*value)[i];
    if (!entry.is_number_integer() ||
        (entry.is_number_unsigned() &&
         entry.get<std::uint64_t>() >
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
      spec_error(source, field,
                 fmt::format("{}[{}]: expected an integer, got {} {}", field, i, json_kind(entry),
                             json_preview(entry)));
    }
    out.push_back(entry.get<std::int64_t>());
  }
  return out;
}

}  // namespace

template <typename T>
void run_cross_entropy(OpRun<T>& run) {
  const std::int64_t ignore_index = run.config.integer("ignore_index", engine::kIgnoreIndex);
  const std::string reduction_text =
      run.config.choice("reduction", "mean", {"mean", "sum", "none"});
  const engine::Reduction reduction = *engine::parse_reduction(reduction_text);
  run.finish_reading();
  const Matrix<T> logits = run.input_matrix(kAnySize, kAnySize);
  const std::vector<std::int64_t> targets = integers_from_json(
      run.source, run.target, "target", logits.rows(),
      fmt::format("a list of {} class indices, one a row of the input", logits.rows()));
  // The loss's upstream gradient as the output is shaped: a number, or a list of one a row.
  std::optional<Matrix<T>> dloss;
  if (run.grad_output != nullptr) {
    json column = json::array();
    if (reduction == engine::Reduction::none) {
      if (!run.grad_output->is_array() ||
          static_cast<Index>(run.grad_output->size()) != logits.rows()) {
        spec_error(run.source, "grad_output",
                   fmt::format("grad_output: expected a list of {} numbers, one a row's loss "
                               "(reduction none), got {}",
                               logits.rows(), json_preview(*run.grad_output)));
      }
      for (std::size_t i = 0; i < run.grad_output->size(); ++i) {
        const json& g = (*run.grad_output)[i];
        if (!g.is_number()) {
          spec_error(run.source, "grad_output",
                     fmt::format("grad_output[{}]: expected a number, row {}'s upstream gradient, "
                                 "got {} {}",
                                 i, i, json_kind(g), json_preview(g)));
        }
        column.push_back(json::array({g}));
      }
    } else {
      if (!run.grad_output->is_number()) {
        spec_error(run.source, "grad_output",
                   fmt::format("grad_output: expected a number, the loss's upstream gradient "
                               "(reduction {}), got {}",
                               reduction_text, json_preview(*run.grad_output)));
      }
      column = json::array({json::array({*run.grad_output})});
    }
    dloss = matrix_from_json<T>(column, run.source + ": grad_output",
                                static_cast<std::int64_t>(column.size()), 1);
  }
  Matrix<T> losses;
  engine::CrossEntropyCache<T> cache;
  engine::cross_entropy_forward(losses, cache, logits, targets, ignore_index, reduction);
  if (reduction == engine::Reduction::none) {
    ordered_json each = ordered_json::array();
    for (Index n = 0; n < losses.rows(); ++n)
      each.push_back(losses(n, 0));
    run.result["output"] = each;
  } else {
    run.result["output"] = losses(0, 0);
  }
  // exp of the mean over the counted rows, whatever the reduction asked for (an ignored row's loss
  // is 0 under none)
  const double total = static_cast<double>(losses.sum());
  const double mean_nll = reduction == engine::Reduction::mean
                              ? total
                              : total / static_cast<double>(std::max<Index>(cache.count, 1));
  run.result["tokens_counted"] = cache.count;
  run.result["perplexity"] =
      cache.count > 0 ? ordered_json(engine::perplexity(mean_nll)) : ordered_json(nullptr);
  if (!dloss) return;
  Matrix<T> dlogits;
  engine::cross_entropy_backward(dlogits, *dloss, cache, targets, reduction);
  run.result["grads"] = {{"input", to_json(dlogits)}};
}

template <typename T>
void run_tied_lm_head(OpRun<T>& run) {
  const auto vocab = run.config.dimension("num_embeddings");
  const auto dim = run.config.dimension("embedding_dim");
  Matrix<T> weight;
  run.params.matrix("weight", weight, vocab, dim);
  run.finish_reading();
  const std::vector<std::int64_t> tokens =
      integers_from_json(run.source, run.input, "input", -1, "a list of token ids");
  run.check_elements(static_cast<std::int64_t>(tokens.size()) * vocab, "the logits");
  const auto dlogits = run.grad_output_matrix(static_cast<std::int64_t>(tokens.size()), vocab);
  Matrix<T> logits;
  engine::TiedHeadCache<T> cache;
  engine::tied_lm_head_forward(logits, cache, tokens, weight);
  run.result["output"] = to_json(logits);
  run.result["parameters"] = {{"tied", engine::lm_head_parameters(vocab, dim, true)},
                              {"untied", engine::lm_head_parameters(vocab, dim, false)}};
  if (!dlogits) return;
  Matrix<T> dweight, head_use, embedding_use;
  engine::tied_lm_head_backward(dweight, *dlogits, tokens, weight, cache, &head_use,
                                &embedding_use);
  run.result["grads"] = {{"weight", to_json(dweight)}};
  run.result["weight_uses"] = {{"head", to_json(head_use)}, {"embedding", to_json(embedding_use)}};
}

template void run_cross_entropy<float>(OpRun<float>& run);
template void run_cross_entropy<double>(OpRun<double>& run);
template void run_tied_lm_head<float>(OpRun<float>& run);
template void run_tied_lm_head<double>(OpRun<double>& run);

}  // namespace proofdeck::engine_io::detail
