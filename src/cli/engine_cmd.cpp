// The engine subcommand: run one op on explicit weights, or time the engine.
#include "cli/engine_cmd.hpp"

#include <memory>

#include <fmt/format.h>

#include "cli/engine_bench.hpp"
#include "cli/validators.hpp"
#include "core/json_input.hpp"
#include "engine_io/spec.hpp"

namespace proofdeck::cli {

namespace {

struct EngineRunOptions {
  std::string spec_path;    // SPEC.json, or - for standard input
  std::string output_path;  // --output FILE; standard output when empty
  int indent = -1;          // --indent N; one line when negative
};

void run_engine_run(const EngineRunOptions& options, Context& context) {
  const std::string text = read_text_file(options.spec_path, JsonLimits{}.max_bytes, context.io.in);
  const nlohmann::json spec = parse_json(text, options.spec_path);
  const std::string source = options.spec_path == "-" ? "<stdin>" : options.spec_path;
  const nlohmann::ordered_json result = engine_io::run_engine_spec(spec, source);
  write_output(options.output_path, result.dump(options.indent) + "\n", context.io);
}

void run_engine_bench(BenchOptions options, Context& context) {
  options.seed = context.global.seed;
  write_output("", run_engine_bench(options).dump(2) + "\n", context.io);
}

// engine run --help's footer: the spec's fields, op by op, and what each op prints.
std::string engine_run_footer() {
  std::string ops;
  for (const auto op : engine_io::engine_op_names())
    ops += (ops.empty() ? "" : ", ") + std::string(op);
  return fmt::format(
      "SPEC is {{\"op\", \"dtype\", \"config\", \"params\", \"input\", \"grad_output\", "
      "\"memory\", \"key_padding_mask\", \"padding_mask\", \"target\"}}:\n"
      "  op           one of {}\n"
      "  dtype        float64 (default) or float32\n"
      "  config       the PyTorch constructor's arguments (embed_dim, num_heads,\n"
      "               bias, d_model, nhead, dim_feedforward, norm_first,\n"
      "               activation, eps, ...); causal: true masks future positions\n"
      "               in mha and encoder_layer; in mha, sinusoidal_qk: true adds a\n"
      "               sinusoidal code to each head's q and k after the projection\n"
      "               (what RoPE is mistaken for; no standard model). swiglu_mlp\n"
      "               and gqa take LlamaConfig's names: hidden_size,\n"
      "               intermediate_size, num_attention_heads,\n"
      "               num_key_value_heads, head_dim, rope_theta, rope_scaling\n"
      "               {{\"rope_type\": \"linear\", \"factor\": s}}; gqa also causal\n"
      "               (default true), rope (default true), alibi (default false),\n"
      "               sliding_window (Mistral's W; null: none); moe takes\n"
      "               MixtralConfig's hidden_size, intermediate_size,\n"
      "               num_local_experts (8), num_experts_per_tok (2),\n"
      "               norm_topk_prob (true), router_aux_loss_coef (0.01) and\n"
      "               capacity_factor (null: no capacity; Switch's c); fake_quantize\n"
      "               takes granularity (tensor, channel or group), axis (0: a scale\n"
      "               per row, 1: per column), group_size (128), bits (8) and\n"
      "               symmetric (true), or scale and zero_point (one, or one per\n"
      "               channel or group) with quant_min and quant_max;\n"
      "               round_to_format takes format (float16, bfloat16,\n"
      "               float8_e4m3fn or float8_e5m2) and saturate (false: past the\n"
      "               largest value a cast gives infinity, NaN in E4M3FN; true: ±max);\n"
      "               nf4_quantize takes block_size (64) and double_quant (false);\n"
      "               linear with weight_norm: true is\n"
      "               torch.nn.utils.weight_norm(linear): params weight_g (out, 1)\n"
      "               and weight_v (out, in) instead of weight; sampling takes\n"
      "               generate()'s temperature, top_k (0: off) and top_p;\n"
      "               beam_search takes start, steps and num_beams; cross_entropy\n"
      "               takes F.cross_entropy's ignore_index (default -100) and\n"
      "               reduction (mean, sum or none); tied_lm_head takes\n"
      "               num_embeddings and embedding_dim\n"
      "  params       the module's state_dict: name -> nested lists, PyTorch layouts\n"
      "  input        (T, E) for one sequence; a list of positions for embedding\n"
      "               and sinusoidal; (B, V) logits for sampling; the (V, V)\n"
      "               next-token table for beam_search (row t: the logits of the\n"
      "               token after t); (N, C) logits for cross_entropy; a list of\n"
      "               token ids for tied_lm_head; any (R, C) matrix for\n"
      "               fake_quantize (a weight: one row an output channel),\n"
      "               round_to_format and nf4_quantize (flattened row by row)\n"
      "  memory       mha only, optional: (S, E) keys' and values' sequence, for\n"
      "               cross-attention of the input's T queries over S positions\n"
      "               (nn.MultiheadAttention(input, memory, memory)); grads gain\n"
      "               \"memory\"\n"
      "  key_padding_mask\n"
      "               mha only, optional: one true/false per key (input row, or\n"
      "               memory row), true at padding: PyTorch's key_padding_mask for\n"
      "               one sequence of a padded batch; a query left with no real key\n"
      "               is refused (PyTorch returns NaN for it)\n"
      "  padding_mask layer_norm and batch_norm (training) only, optional: one\n"
      "               true/false per input row, true at padding; padding rows'\n"
      "               outputs and gradients are 0, and batch_norm's statistics use\n"
      "               the real rows only\n"
      "  target       cross_entropy only: a class index a row (ignore_index where a\n"
      "               row, padding, is left out of the loss and of the mean's count)\n"
      "  grad_output  optional; when given, gradients for the input and every parameter\n"
      "               (linear, layer_norm and rms_norm also take config sgd_lr: r, then\n"
      "               one torch.optim.SGD(lr=r) step, answered as \"after_step\")\n"
      "Prints {{\"output\", \"grads\": {{\"input\", <param>: ...}}}} (mha, encoder_layer and gqa "
      "add \"attn_weights\", per head; batch_norm adds its running statistics as \"state\"; "
      "linear and mha add \"multiply_adds\", counted from the products the forward ran; "
      "sampling prints the distribution as \"output\" and \"kept\", 1 for a token a warper "
      "left; beam_search prints \"sequences\", best first, and their \"sequence_scores\"; "
      "cross_entropy's output is the loss (a list of one a row under none; grad_output shaped "
      "alike) with \"tokens_counted\" and \"perplexity\", exp of the mean over the counted "
      "rows; tied_lm_head's is W[tokens] Wᵀ, one weight as embedding and head, with "
      "\"parameters\" tied and untied and, with grad_output, \"weight_uses\": the head's "
      "and the embedding's parts of the weight's gradient; moe adds \"router_logits\", "
      "\"selected_experts\" and \"routing_weights\" a token, \"capacity\", the "
      "\"dropped\" slots as [token, rank], the load-balancing \"aux_loss\" (its gradient "
      "as \"aux_loss_grads\") and \"parameters\": total and active per token; fake_quantize "
      "adds the \"scale\" and \"zero_point\" it used, \"quant_min\" and \"quant_max\", and "
      "its gradient is the straight-through estimator's; round_to_format adds the \"format\"'s "
      "range, and rounds the gradient to it as autograd does; nf4_quantize adds the 4-bit "
      "\"codes\", each block's \"absmax\" as stored, \"bits_per_parameter\" and, double-quantized, "
      "the absmax's own \"double_quant\" codes, scales and offset; it has no gradient).\n"
      "Example:\n"
      "  proofdeck engine run spec.json --indent 2\n"
      "  echo '{{\"op\":\"sinusoidal\",\"config\":{{\"d_model\":4}},\"input\":[0,1]}}' | proofdeck "
      "engine run -",
      ops);
}

}  // namespace

void setup_engine(CLI::App& app, const std::function<Context()>& context) {
  CLI::App* engine = app.add_subcommand(
      "engine", "Run the transformer-layer engine on explicit weights, or time it");
  engine->require_subcommand(1);
  engine->footer(
      "The engine is the same code that proves every answer key. Feed it a PyTorch state_dict "
      "and an input to cross-check a result, or time it beside PyTorch with scripts/bench.");

  auto run_options = std::make_shared<EngineRunOptions>();
  CLI::App* run_cmd = engine->add_subcommand(
      "run", "Run one op from a JSON spec and print its output and gradients as JSON");
  run_cmd->add_option("spec", run_options->spec_path, "The spec file, or - for standard input")
      ->required();
  run_cmd->add_option("-o,--output", run_options->output_path,
                      "Write the result to FILE instead of standard output");
  run_cmd
      ->add_option("--indent", run_options->indent,
                   "Pretty-print with N spaces (default: one line)")
      ->check(whole_number(0, 8));
  run_cmd->footer(engine_run_footer());
  run_cmd->callback([run_options, context] {
    Context ctx = context();
    run_engine_run(*run_options, ctx);
  });

  auto bench_options = std::make_shared<BenchOptions>();
  CLI::App* bench_cmd =
      engine->add_subcommand("bench", "Time forward and forward+backward; prints medians as JSON");
  bench_cmd->add_option("--op", bench_options->op, "encoder_layer, mha or gqa")
      ->check(one_of({"encoder_layer", "mha", "gqa"}))
      ->capture_default_str();
  // Each size checked against the limits run_engine_bench enforces.
  const auto size = [](const BenchLimit& limit) {
    return whole_number(limit.lowest, limit.highest);
  };
  bench_cmd->add_option("--seq", bench_options->seq, "Tokens T")
      ->check(size(kBenchSeq))
      ->capture_default_str();
  bench_cmd->add_option("--d-model", bench_options->d_model, "Width E")
      ->check(size(kBenchDModel))
      ->capture_default_str();
  bench_cmd->add_option("--heads", bench_options->heads, "Attention heads H (must divide E)")
      ->check(size(kBenchHeads))
      ->capture_default_str();
  bench_cmd
      ->add_option("--kv-heads", bench_options->kv_heads,
                   "Key/value heads G for --op gqa (must divide --heads; default: --heads)")
      ->check(size(kBenchKvHeads));
  bench_cmd->add_option("--d-ff", bench_options->d_ff, "Feed-forward width F")
      ->check(size(kBenchDFf))
      ->capture_default_str();
  bench_cmd->add_option("--norm", bench_options->norm, "post (original) or pre (norm_first)")
      ->check(one_of({"post", "pre"}))
      ->capture_default_str();
  bench_cmd->add_option("--dtype", bench_options->dtype, "float32 or float64")
      ->check(one_of({"float32", "float64"}))
      ->capture_default_str();
  bench_cmd->add_option("--threads", bench_options->threads, "Threads for matrix products")
      ->check(size(kBenchThreads))
      ->capture_default_str();
  bench_cmd->add_option("--iters", bench_options->iters, "Timed iterations (medians reported)")
      ->check(size(kBenchIters))
      ->capture_default_str();
  bench_cmd->add_option("--warmup", bench_options->warmup, "Untimed iterations first")
      ->check(size(kBenchWarmup))
      ->capture_default_str();
  bench_cmd->footer(
      "For a fair comparison build Release tuned for this CPU and run PyTorch beside it:\n"
      "  ./scripts/bench");
  bench_cmd->callback([bench_options, context] {
    Context ctx = context();
    run_engine_bench(*bench_options, ctx);
  });
}

}  // namespace proofdeck::cli
