// `engine run`'s position codes: the sinusoidal table and rotary embeddings (RoPE), the
// positions sequential unless the config gives them.
#include "engine_io/ops.hpp"

#include <cstdint>

#include "engine/positional.hpp"
#include "engine_io/op_run.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io::detail {

template <typename T>
void run_sinusoidal(OpRun<T>& run) {
  const auto d_model = run.config.dimension("d_model");
  const double base = run.config.positive_number("base", 10000.0);
  run.finish_reading();
  run.refuse_gradient(
      "sinusoidal encodings have no parameters and integer inputs, so there is no gradient to "
      "compute");
  const engine::Positions positions =
      positions_from_json(*run.input, run.source + ": input", false);
  run.check_elements(static_cast<std::int64_t>(positions.size()) * d_model, "the encoding table");
  run.result["output"] = to_json(engine::sinusoidal_encoding<T>(positions, d_model, base));
}

template <typename T>
void run_rope(OpRun<T>& run) {
  engine::RopeConfig rope;
  rope.convention = *engine::parse_rope_convention(
      run.config.choice("convention", "half", {"interleaved", "half"}));
  rope.base = run.config.positive_number("base", 10000.0);
  const json* positions_json = run.config.raw("positions");
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, kAnySize);
  if (x.cols() % 2 != 0) {
    spec_error(run.source, "shape",
               fmt::format("input: RoPE rotates pairs of dimensions, so rows need an even width; "
                           "got shape ({}, {})",
                           x.rows(), x.cols()));
  }
  engine::Positions positions = engine::sequential_positions(x.rows());
  if (positions_json != nullptr) {
    positions = positions_from_json(*positions_json, run.source + ": config.positions", true);
    if (static_cast<std::int64_t>(positions.size()) != x.rows()) {
      spec_error(run.source, "shape",
                 fmt::format("config.positions: expected one position per input row ({}), got {}",
                             x.rows(), positions.size()));
    }
  }
  const auto dout = run.grad_output_matrix(x.rows(), x.cols());
  Matrix<T> y;
  engine::rope_forward(y, x, positions, rope);
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dx;
  engine::rope_backward(dx, *dout, positions, rope);
  run.result["grads"] = {{"input", to_json(dx)}};
}

template void run_sinusoidal<float>(OpRun<float>& run);
template void run_sinusoidal<double>(OpRun<double>& run);
template void run_rope<float>(OpRun<float>& run);
template void run_rope<double>(OpRun<double>& run);

}  // namespace proofdeck::engine_io::detail
