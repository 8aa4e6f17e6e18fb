// One transformer block with nn.TransformerEncoderLayer's semantics (batch_first, dropout 0):
//   Post-LN (the original):  x = LN1(x + SA(x));   x = LN2(x + FF(x))
//   Pre-LN  (norm_first):    x = x + SA(LN1(x));   x = x + FF(LN2(x))
// plus two settings PyTorch lacks, for the demos: no normalisation at all, and residual
// connections switched off.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/attention.hpp"
#include "engine/feedforward.hpp"
#include "engine/norm.hpp"
#include "engine/rng.hpp"

namespace proofdeck::engine {

enum class NormPlacement {
  post,  // LayerNorm after each residual addition: it sits on the residual path
  pre,   // LayerNorm on the sublayer's input only: the residual path stays an identity
  none,  // no normalisation
};
std::string_view norm_placement_name(NormPlacement placement);

struct EncoderLayerConfig {
  Index d_model = 512;                       // embedding width E
  Index nhead = 8;                           // attention heads; must divide d_model
  Index dim_feedforward = 2048;              // hidden width F of the feed-forward sublayer
  NormPlacement norm = NormPlacement::post;  // PyTorch's norm_first=true is pre
  Activation activation = Activation::relu;  // relu | gelu | gelu_tanh
  double layer_norm_eps = 1e-5;              // LayerNorm's eps
  bool bias = true;                          // biases in every Linear and LayerNorm
  bool residual = true;                      // add each sublayer's input back onto its output
  AttentionOptions attention;                // causal mask, √d_k scaling, RoPE
};

// Throws EngineError for sizes that cannot form a layer.
void check_config(const EncoderLayerConfig& config);

template <typename T>
struct EncoderLayerParams {
  using Scalar = T;
  MhaParams<T> self_attn;
  FeedForwardParams<T> feedforward;  // PyTorch names: linear1.*, linear2.*
  NormParams<T> norm1;               // empty when norm is none
  NormParams<T> norm2;

  EncoderLayerParams() = default;
  explicit EncoderLayerParams(const EncoderLayerConfig& config);
};

// Xavier-uniform weights (Xiong et al. 2020's setup), zero biases, LayerNorm γ = 1, β = 0.
template <typename T>
void init_xavier(EncoderLayerParams<T>& params, Rng& rng);

template <typename T>
struct EncoderLayerCache {
  Matrix<T> attn_input;  // (T, E) what self-attention saw: x (post/none) or LN1(x) (pre)
  MhaCache<T> attn;
  Matrix<T> attn_output;  // (T, E) SA(·) before the residual addition
  Matrix<T> first_sum;    // (T, E) x + SA(·), input of LN1 (post) or of the FF branch (pre)
  Vector<T> norm1_mean, norm1_rstd;
  Matrix<T> ff_input;  // (T, E) what the feed-forward sublayer saw
  FeedForwardCache<T> feedforward;
  Matrix<T> ff_output;   // (T, E) FF(·) before the residual addition
  Matrix<T> second_sum;  // (T, E) input of LN2 (post)
  Vector<T> norm2_mean, norm2_rstd;
};

template <typename T>
void encoder_layer_forward(Matrix<T>& out,  // (T, E)
                           EncoderLayerCache<T>& cache,
                           const Matrix<T>& inp,  // (T, E)
                           const EncoderLayerParams<T>& params, const EncoderLayerConfig& config);

template <typename T>
void encoder_layer_backward(Matrix<T>& dinp,               // (T, E)
                            EncoderLayerParams<T>& grads,  // same shapes as params
                            const Matrix<T>& dout,         // (T, E)
                            const Matrix<T>& inp,          // (T, E)
                            const EncoderLayerParams<T>& params, const EncoderLayerCache<T>& cache,
                            const EncoderLayerConfig& config);

template <typename P>
concept EncoderLayerParamsType =
    std::same_as<std::remove_const_t<P>,
                 EncoderLayerParams<typename std::remove_const_t<P>::Scalar>>;

// Visits every parameter under its nn.TransformerEncoderLayer state_dict name.
template <EncoderLayerParamsType P, typename Visitor>
void visit_params(P& params, const std::string& prefix, Visitor&& visit) {
  visit_params(params.self_attn, prefix + "self_attn.", visit);
  visit_params(params.feedforward, prefix, visit);
  for (auto [name, norm] : {std::pair{"norm1", &params.norm1}, std::pair{"norm2", &params.norm2}}) {
    if (norm->weight.size() != 0) visit(prefix + name + ".weight", norm->weight);
    if (norm->bias.size() != 0) visit(prefix + name + ".bias", norm->bias);
  }
}

}  // namespace proofdeck::engine
