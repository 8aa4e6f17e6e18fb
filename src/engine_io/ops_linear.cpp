// `engine run`'s layers that are a product, a lookup or a function of each entry: linear (weight
// norm and an SGD step on request), relu and gelu, embedding, and Llama's SwiGLU feed-forward.
#include "engine_io/ops.hpp"

#include <optional>
#include <string>

#include "engine/activation.hpp"
#include "engine/decoder.hpp"
#include "engine/linear.hpp"
#include "engine/macs.hpp"
#include "engine/optim.hpp"
#include "engine/positional.hpp"
#include "engine/weight_norm.hpp"
#include "engine_io/op_run.hpp"
#include "engine_io/tensor_json.hpp"

namespace proofdeck::engine_io::detail {

template <typename T>
void run_linear(OpRun<T>& run) {
  const auto in = run.config.dimension("in_features");
  const auto out = run.config.dimension("out_features");
  const bool bias = run.config.flag("bias", true);
  // torch.nn.utils.weight_norm(linear): weight_g (out, 1) and weight_v (out, in) instead of weight
  const bool normalized = run.config.flag("weight_norm", false);
  const std::optional<T> lr = sgd_learning_rate(run);
  engine::LinearParams<T> params;
  Matrix<T> weight_v, weight_g_column;
  if (normalized) {
    run.params.matrix("weight_g", weight_g_column, out, 1);
    run.params.matrix("weight_v", weight_v, out, in);
  } else {
    run.params.matrix("weight", params.weight, out, in);
  }
  if (bias) run.params.vector("bias", params.bias, out);
  run.finish_reading();
  Vector<T> weight_g = normalized ? Vector<T>(weight_g_column.col(0)) : Vector<T>();
  const Matrix<T> x = run.input_matrix(kAnySize, in);
  const auto dout = run.grad_output_matrix(x.rows(), out);

  if (normalized) engine::weight_norm_forward(params.weight, weight_v, weight_g);
  Matrix<T> y;
  const engine::MacTally tally;
  engine::linear_forward(y, x, params);
  run.result["output"] = to_json(y);
  run.result["multiply_adds"] = multiply_adds_json(tally.count());
  if (!dout) return;
  Matrix<T> dx;
  engine::LinearParams<T> grads;
  engine::linear_backward(dx, grads, *dout, x, params);
  run.result["grads"] = {{"input", to_json(dx)}};
  Matrix<T> dweight_v;
  Vector<T> dweight_g;
  if (normalized) {
    engine::weight_norm_backward(dweight_v, dweight_g, grads.weight, weight_v, weight_g);
    run.result["grads"]["weight_g"] = to_json(Matrix<T>(dweight_g));
    run.result["grads"]["weight_v"] = to_json(dweight_v);
  } else {
    run.result["grads"]["weight"] = to_json(grads.weight);
  }
  if (bias) run.result["grads"]["bias"] = to_json(grads.bias);
  if (!lr) return;
  if (normalized) {
    engine::sgd_step(weight_g, dweight_g, *lr);
    engine::sgd_step(weight_v, dweight_v, *lr);
    engine::sgd_step(params.bias, grads.bias, *lr);
    run.result["after_step"] = {{"weight_g", to_json(Matrix<T>(weight_g))},
                                {"weight_v", to_json(weight_v)}};
  } else {
    engine::sgd_step(params, grads, *lr);
    run.result["after_step"] = {{"weight", to_json(params.weight)}};
  }
  if (bias) run.result["after_step"]["bias"] = to_json(params.bias);
}

template <typename T>
void run_activation(OpRun<T>& run, bool gelu) {
  engine::Activation activation = engine::Activation::relu;
  if (gelu) {
    activation = run.config.choice("approximate", "none", {"none", "tanh"}) == "tanh"
                     ? engine::Activation::gelu_tanh
                     : engine::Activation::gelu;
  }
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, kAnySize);
  const auto dout = run.grad_output_matrix(x.rows(), x.cols());
  Matrix<T> y;
  engine::activation_forward(y, x, activation);
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dx;
  engine::activation_backward(dx, *dout, x, activation);
  run.result["grads"] = {{"input", to_json(dx)}};
}

template <typename T>
void run_embedding(OpRun<T>& run) {
  const auto rows = run.config.dimension("num_embeddings");
  const auto dim = run.config.dimension("embedding_dim");
  Matrix<T> table;
  run.params.matrix("weight", table, rows, dim);
  run.finish_reading();
  const engine::Positions positions =
      positions_from_json(*run.input, run.source + ": input", false);
  const auto dout = run.grad_output_matrix(static_cast<std::int64_t>(positions.size()), dim);
  Matrix<T> y;
  engine::learned_positions_forward(y, positions, table);
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dtable;
  engine::learned_positions_backward(dtable, *dout, positions, rows);
  run.result["grads"] = {{"weight", to_json(dtable)}};
}

template <typename T>
void run_swiglu_mlp(OpRun<T>& run) {
  const auto hidden = run.config.dimension("hidden_size");
  const auto intermediate = run.config.dimension("intermediate_size");
  // LlamaConfig's name for the gate's activation; SwiGLU's is silu
  run.config.choice("hidden_act", "silu", {"silu"});
  if (run.config.flag("mlp_bias", false)) {
    spec_error(run.source, "config", "config.mlp_bias: Llama's MLP has no biases; expected false");
  }
  engine::SwigluParams<T> params;
  run.params.matrix("gate_proj.weight", params.gate_proj, intermediate, hidden);
  run.params.matrix("up_proj.weight", params.up_proj, intermediate, hidden);
  run.params.matrix("down_proj.weight", params.down_proj, hidden, intermediate);
  run.finish_reading();
  const Matrix<T> x = run.input_matrix(kAnySize, hidden);
  run.check_elements(x.rows() * intermediate, "the SwiGLU hidden layer");
  const auto dout = run.grad_output_matrix(x.rows(), hidden);

  Matrix<T> y;
  engine::SwigluCache<T> cache;
  engine::swiglu_forward(y, cache, x, params);
  run.result["output"] = to_json(y);
  if (!dout) return;
  Matrix<T> dx;
  engine::SwigluParams<T> grads;
  engine::swiglu_backward(dx, grads, *dout, x, params, cache);
  run.result["grads"] = {{"input", to_json(dx)}};
  visit_params(grads, "", [&](const std::string& name, const auto& tensor) {
    run.result["grads"][name] = to_json(tensor);
  });
}

template void run_linear<float>(OpRun<float>& run);
template void run_linear<double>(OpRun<double>& run);
template void run_activation<float>(OpRun<float>& run, bool gelu);
template void run_activation<double>(OpRun<double>& run, bool gelu);
template void run_embedding<float>(OpRun<float>& run);
template void run_embedding<double>(OpRun<double>& run);
template void run_swiglu_mlp<float>(OpRun<float>& run);
template void run_swiglu_mlp<double>(OpRun<double>& run);

}  // namespace proofdeck::engine_io::detail
