// The `engine run` op runners, one file an op family. Each reads its op's config and params through
// OpRun, runs the engine's forward (and backward, given grad_output) and writes the answer;
// spec.cpp's table names them. A new op is a runner declared here, defined in its family's file
// (or a file of its own) with its float and double instantiations, and a line of that table.
#pragma once

#include "engine_io/op_run.hpp"

namespace proofdeck::engine_io::detail {

// ops_linear.cpp
template <typename T>
void run_linear(OpRun<T>& run);
template <typename T>
void run_activation(OpRun<T>& run, bool gelu);  // relu, or gelu
template <typename T>
void run_embedding(OpRun<T>& run);
template <typename T>
void run_swiglu_mlp(OpRun<T>& run);

// ops_moe.cpp
template <typename T>
void run_moe(OpRun<T>& run);

// ops_quantize.cpp
template <typename T>
void run_fake_quantize(OpRun<T>& run);
template <typename T>
void run_round_to_format(OpRun<T>& run);
template <typename T>
void run_nf4_quantize(OpRun<T>& run);

// ops_norm.cpp
template <typename T>
void run_row_norm(OpRun<T>& run, bool rms);  // layer_norm, or rms_norm
template <typename T>
void run_batch_norm(OpRun<T>& run);

// ops_attention.cpp
template <typename T>
void run_mha(OpRun<T>& run);
template <typename T>
void run_encoder_layer(OpRun<T>& run);
template <typename T>
void run_gqa(OpRun<T>& run);

// ops_position.cpp
template <typename T>
void run_sinusoidal(OpRun<T>& run);
template <typename T>
void run_rope(OpRun<T>& run);

// ops_decoding.cpp
template <typename T>
void run_sampling(OpRun<T>& run);
template <typename T>
void run_beam_search(OpRun<T>& run);

// ops_loss.cpp
template <typename T>
void run_cross_entropy(OpRun<T>& run);
template <typename T>
void run_tied_lm_head(OpRun<T>& run);

}  // namespace proofdeck::engine_io::detail
