// Parameter counting: the lesson's 1,048,576 for one head or eight, counted from real modules.
#include <catch2/catch.hpp>

#include "engine/decoder.hpp"
#include "engine/feedforward.hpp"
#include "engine/param_count.hpp"
#include "engine/positional.hpp"

namespace test_param_count {

using namespace proofdeck::engine;

TEST_CASE("an attention block over d_model 512 has 1,048,576 weights with 1 head or 8",
          "[engine][params]") {
  const AttentionParamBreakdown one = count_attention_params(MhaParams<float>(512, 1, false));
  const AttentionParamBreakdown eight = count_attention_params(MhaParams<float>(512, 8, false));
  CHECK(one.qkv_weights == 786'432);  // 3 × 512 × 512
  CHECK(one.output_weights == 262'144);
  CHECK(one.total() == 1'048'576);
  CHECK(eight.head_dim == 64);
  CHECK(eight.per_head_projection == 512 * 64);
  CHECK(eight.per_head_qkv == 98'304);  // 3 × 512 × 64
  CHECK(eight.qkv_weights == 786'432);  // 8 × 98,304
  CHECK(eight.total() == one.total());
}

TEST_CASE("with biases the block has 1,050,624 parameters", "[engine][params]") {
  const AttentionParamBreakdown counted = count_attention_params(MhaParams<float>(512, 8, true));
  CHECK(counted.biases == 2048);
  CHECK(counted.total() == 1'050'624);
  CHECK(count_params(MhaParams<float>(512, 8, true)).total() == 1'050'624);
}

TEST_CASE("the closed form equals the count for every head count that divides 512",
          "[engine][params]") {
  for (std::int64_t heads = 1; heads <= 512; ++heads) {
    if (512 % heads != 0) continue;
    for (const bool bias : {false, true}) {
      INFO(heads << " heads, bias " << bias);
      CHECK(attention_params_closed_form(512, heads, bias) ==
            count_attention_params(MhaParams<float>(512, heads, bias)));
      CHECK(attention_params_closed_form(512, heads, bias).total() ==
            attention_params_closed_form(512, 1, bias).total());
    }
  }
}

TEST_CASE("head width shrinks as heads grow: 32 at 16 heads, 4 at 128", "[engine][params]") {
  CHECK(attention_params_closed_form(512, 16, false).head_dim == 32);
  CHECK(attention_params_closed_form(512, 128, false).head_dim == 4);
  REQUIRE_THROWS_AS(attention_params_closed_form(512, 3, false), EngineError);
}

TEST_CASE("an encoder layer counts like nn.TransformerEncoderLayer(512, 8, 2048)",
          "[engine][params]") {
  EncoderLayerConfig config;  // d_model 512, 8 heads, F 2048
  const EncoderLayerParams<float> params(config);
  const EncoderLayerParamBreakdown counted = count_encoder_layer_params(params);
  CHECK(counted.attention.total() == 1'050'624);
  CHECK(counted.feedforward.total() == 2 * 512 * 2048 + 2048 + 512);
  CHECK(counted.norms.total() == 4 * 512);
  CHECK(counted.total().total() == 3'152'384);  // sum(p.numel()) in PyTorch
  CHECK(count_params(params) == counted.total());
}

TEST_CASE("the feed-forward kinds count their matrices: SwiGLU three, the original FFN two",
          "[engine][params]") {
  CHECK(count_params(SwigluParams<double>(512, 1365)).tensors == 3);
  const ParamCount original = count_params(FeedForwardParams<double>(512, 2048, false));
  CHECK(original.tensors == 2);
  CHECK(original.total() == 2 * 512 * 2048);
  const ParamCount with_biases = count_params(FeedForwardParams<double>(512, 2048, true));
  CHECK(with_biases.tensors == 4);  // linear1.bias and linear2.bias are tensors too
  CHECK(with_biases.biases == 2048 + 512);
  // The count of tensors does not depend on the sizes.
  CHECK(count_params(SwigluParams<double>(1, 1)).tensors == 3);
  CHECK(count_params(FeedForwardParams<double>(1, 4, false)).tensors == 2);
}

TEST_CASE("an encoder layer's tensors are PyTorch's state_dict entries, 12 of them",
          "[engine][params]") {
  EncoderLayerConfig config;
  const EncoderLayerParams<float> params(config);
  // in_proj_weight/bias, out_proj.weight/bias, linear1 and linear2's weight and bias, norm1 and
  // norm2's weight and bias.
  CHECK(count_params(params).tensors == 12);
  const EncoderLayerParamBreakdown counted = count_encoder_layer_params(params);
  CHECK(counted.attention.tensors == 4);
  CHECK(counted.feedforward.tensors == 4);
  CHECK(counted.norms.tensors == 4);
}

TEST_CASE("a learned position table holds max_len × d_model weights — sinusoids and RoPE none",
          "[engine][params]") {
  using namespace proofdeck::engine;
  CHECK(count_params(make_positional_params<double>(PositionalKind::learned, 512, 64)).total() ==
        32'768);
  for (const PositionalKind kind :
       {PositionalKind::sinusoidal, PositionalKind::rope, PositionalKind::none}) {
    CHECK(count_params(make_positional_params<double>(kind, 512, 64)).total() == 0);
  }
}

}  // namespace test_param_count
