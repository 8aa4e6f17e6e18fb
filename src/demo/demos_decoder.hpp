// Demos of the decoder layer as today's LLMs build it (engine/decoder.hpp): grouped-query
// attention and its KV cache, RMSNorm, SwiGLU, ALiBi, RoPE position interpolation, tiled
// attention and the FLOPs of a layer.
#pragma once

#include "demo/demo.hpp"

namespace proofdeck::demo {

DemoInfo gqa_params_demo();
DemoInfo kv_cache_demo();
DemoInfo rmsnorm_vs_layernorm_demo();
DemoInfo swiglu_params_demo();
DemoInfo alibi_distance_demo();
DemoInfo rope_scaling_demo();
DemoInfo tiled_attention_demo();
DemoInfo attention_flops_demo();

}  // namespace proofdeck::demo
