// Engine faults in the attention family (scores, heads, caches, tiles, RoPE, ALiBi): each fault
// changes its op's output on a seeded input and leaves the fault-free path as it was.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "engine/attention.hpp"
#include "engine/decoder.hpp"
#include "engine/fault.hpp"
#include "engine/param_count.hpp"
#include "gradcheck_support.hpp"
#include "test_support.hpp"

namespace test_faults_attention {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

OpSet op_set(std::initializer_list<Op> ops) {
  OpSet set;
  for (const Op op : ops)
    set.set(static_cast<std::size_t>(op));
  return set;
}

// The mechanisms of this family. A record of reached ops is compared on these alone: the layers
// an attention module is built from (its Linear projections) are the layer family's to check.
const OpSet kAttentionOps = op_set({Op::attention, Op::heads, Op::kv_heads, Op::kv_cache,
                                    Op::tiled_attention, Op::rope, Op::alibi});

bool in_family(const FaultInfo& info) {
  return kAttentionOps.test(static_cast<std::size_t>(info.op));
}

// Bit for bit: the same shape and the same bytes.
bool same_bits(const Matrix<double>& a, const Matrix<double>& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0;
}

// ‖faulty − clean‖ / ‖clean‖ (Frobenius).
double relative_change(const Matrix<double>& faulty, const Matrix<double>& clean) {
  REQUIRE(faulty.rows() == clean.rows());
  REQUIRE(faulty.cols() == clean.cols());
  return (faulty - clean).norm() / clean.norm();
}

template <typename Run>
auto under(Fault fault, Run&& run) {
  FaultScope scope(fault);
  return run();
}

// --- seeded inputs and modules: the data has its own seed, the weights theirs, so a module that
// a fault builds with other shapes leaves the inputs as they were -------------------------------

struct Qkv {
  Matrix<double> query, key, value;
};

Qkv seeded_qkv(Index steps, Index width, double scale = 1.0) {
  Rng rng(101);
  Qkv qkv;
  qkv.query = random_matrix(steps, width, rng, scale);
  qkv.key = random_matrix(steps, width, rng, scale);
  qkv.value = random_matrix(steps, 3, rng);
  return qkv;
}

Matrix<double> run_attention(bool causal) {
  const Qkv qkv = seeded_qkv(6, 8);
  AttentionOptions options;
  options.causal = causal;
  Matrix<double> out(6, 3), probs;
  attention_forward<double>(out, probs, qkv.query, qkv.key, qkv.value, options);
  return out;
}

// A module built under the active fault, its weights drawn in the shapes it holds.
MhaParams<double> seeded_mha(Index embed, Index heads, bool bias) {
  MhaParams<double> params(embed, heads, bias);
  Rng rng(202);
  for (LinearParams<double>* linear : {&params.in_proj, &params.out_proj}) {
    linear->weight = random_matrix(linear->weight.rows(), linear->weight.cols(), rng, 0.5);
    if (bias) linear->bias = random_vector(linear->bias.size(), rng, 0.1);
  }
  return params;
}

Matrix<double> seeded_tokens(Index steps, Index embed) {
  Rng rng(303);
  return random_matrix(steps, embed, rng);
}

AttentionOptions rope_options(bool causal) {
  AttentionOptions options;
  options.causal = causal;
  options.rope = RopeConfig{RopeConvention::half, 10000.0, 2.0};
  options.positions = {3, 1, 4, 1, 5, 9};
  return options;
}

Matrix<double> run_mha(const AttentionOptions& options, MhaCache<double>* kept = nullptr) {
  const MhaParams<double> params = seeded_mha(8, 4, true);
  const Matrix<double> x = seeded_tokens(6, 8);
  Matrix<double> out;
  MhaCache<double> cache;
  mha_forward(out, cache, x, params, options);
  if (kept) *kept = cache;
  return out;
}

GqaConfig gqa_config(Index heads, Index kv_heads, bool rope, bool alibi) {
  GqaConfig config = GqaConfig::of(8, heads, kv_heads);
  config.rope = rope;
  config.alibi = alibi;
  config.rope_scaling = rope ? 2.0 : 1.0;
  return config;
}

GqaParams<double> seeded_gqa(const GqaConfig& config) {
  GqaParams<double> params(config);
  Rng rng(404);
  for (Matrix<double>* weight : {&params.q_proj, &params.k_proj, &params.v_proj, &params.o_proj})
    *weight = random_matrix(weight->rows(), weight->cols(), rng, 0.5);
  return params;
}

Matrix<double> run_gqa(const GqaConfig& config, GqaCache<double>* kept = nullptr) {
  const GqaParams<double> params = seeded_gqa(config);
  Matrix<double> out;
  GqaCache<double> cache;
  gqa_forward(out, cache, seeded_tokens(6, 8), params);
  if (kept) *kept = cache;
  return out;
}

// Every decode step's output row, stacked: (T, E).
Matrix<double> run_decode(const GqaConfig& config, KvCache<double>* kept = nullptr) {
  const GqaParams<double> params = seeded_gqa(config);
  const Matrix<double> x = seeded_tokens(6, 8);
  Matrix<double> rows(6, 8), row;
  KvCache<double> cache;
  for (Index t = 0; t < 6; ++t) {
    gqa_decode_step(row, cache, Matrix<double>(x.row(t)), t, params);
    rows.row(t) = row;
  }
  if (kept) *kept = cache;
  return rows;
}

// Scores spread wide enough that a later key tile raises most rows' running maximum.
Matrix<double> run_tiled(bool causal, Index tile) {
  const Qkv qkv = seeded_qkv(10, 4, 2.0);
  Matrix<double> out(10, 3);
  attention_tiled_forward<double>(out, qkv.query, qkv.key, qkv.value, tile, causal);
  return out;
}

Matrix<double> run_full(bool causal) {
  const Qkv qkv = seeded_qkv(10, 4, 2.0);
  AttentionOptions options;
  options.causal = causal;
  Matrix<double> out(10, 3), probs;
  attention_forward<double>(out, probs, qkv.query, qkv.key, qkv.value, options);
  return out;
}

// Far positions, where the base and the interpolation factor move the angles most.
Matrix<double> run_rope(const RopeConfig& config) {
  Rng rng(505);
  const Matrix<double> x = random_matrix(5, 8, rng);
  Matrix<double> out;
  rope_forward(out, x, Positions{0, 7, 20, 50, 100}, config);
  return out;
}

struct FaultCase {
  Fault fault;
  const char* op;  // what the case runs
  std::function<Matrix<double>()> run;
};

std::vector<FaultCase> fault_cases() {
  const RopeConfig rope{RopeConvention::half, 10000.0, 4.0};
  return {
      {Fault::unscaled_scores, "attention_forward", [] { return run_attention(false); }},
      {Fault::scores_averaged, "attention_forward", [] { return run_attention(false); }},
      {Fault::causal_mask_ignored, "attention_forward causal", [] { return run_attention(true); }},
      {Fault::causal_mask_off_by_one, "attention_forward causal",
       [] { return run_attention(true); }},
      {Fault::causal_mask_always, "attention_forward", [] { return run_attention(false); }},
      {Fault::softmax_wrong_axis, "attention_forward", [] { return run_attention(false); }},
      {Fault::heads_share_projection, "mha_forward 4 heads", [] { return run_mha({}); }},
      {Fault::heads_full_width, "mha_forward 4 heads", [] { return run_mha({}); }},
      {Fault::gqa_all_kv_head_0, "gqa_forward 4/2 RoPE",
       [] { return run_gqa(gqa_config(4, 2, true, false)); }},
      {Fault::kv_cache_drops_oldest, "gqa_decode_step x 6",
       [] { return run_decode(gqa_config(4, 2, true, false)); }},
      {Fault::online_softmax_no_rescale, "attention_tiled_forward tile 3",
       [] { return run_tiled(false, 3); }},
      {Fault::rope_not_applied, "rope_forward", [rope] { return run_rope(rope); }},
      {Fault::rope_on_values, "gqa_forward 4/2 RoPE",
       [] { return run_gqa(gqa_config(4, 2, true, false)); }},
      {Fault::rope_additive, "rope_forward", [rope] { return run_rope(rope); }},
      {Fault::rope_base_1000, "rope_forward", [rope] { return run_rope(rope); }},
      {Fault::rope_scaling_ignored, "rope_forward", [rope] { return run_rope(rope); }},
      {Fault::alibi_equal_slopes, "gqa_forward 4/4 ALiBi",
       [] { return run_gqa(gqa_config(4, 4, false, true)); }},
      {Fault::alibi_halved_slopes, "gqa_forward 4/4 ALiBi",
       [] { return run_gqa(gqa_config(4, 4, false, true)); }},
  };
}

}  // namespace

// --- every fault, one shared contract -----------------------------------------------------------

TEST_CASE("every attention-family fault has a seeded case here", "[fault][attention]") {
  std::vector<Fault> covered;
  for (const FaultCase& c : fault_cases())
    covered.push_back(c.fault);
  covered.push_back(Fault::kv_cache_keeps_queries);  // changes what the cache holds: see below
  covered.push_back(Fault::tiled_attention_materializes);  // changes the buffer, not the output
  for (const FaultInfo& info : fault_catalog()) {
    CAPTURE(info.name);
    const bool has_case = std::find(covered.begin(), covered.end(), info.fault) != covered.end();
    CHECK(has_case == in_family(info));
  }
}

TEST_CASE("each attention fault changes its op's output — without one the output is bit for bit",
          "[fault][attention]") {
  for (const FaultCase& c : fault_cases()) {
    const FaultInfo& info = fault_info(c.fault);
    CAPTURE(info.name, c.op);
    const Matrix<double> clean = c.run();
    CHECK(same_bits(under(Fault::none, c.run), clean));
    Matrix<double> faulty;
    OpSet reached;
    {
      FaultScope scope(c.fault);
      faulty = c.run();
      reached = scope.reached();
    }
    CHECK(reached.test(static_cast<std::size_t>(info.op)));  // the case reaches the fault's op
    CHECK(faulty.allFinite());
    const double change = relative_change(faulty, clean);
    std::printf("  %-26s %-32s ||faulty - clean|| / ||clean|| = %.4f\n",
                std::string(info.name).c_str(), c.op, change);
    CHECK(change > 0.01);
  }
}

// --- scores -------------------------------------------------------------------------------------

TEST_CASE("unscaled-scores computes what scaled = false computes", "[fault][attention]") {
  const Qkv qkv = seeded_qkv(6, 8);
  AttentionOptions unscaled;
  unscaled.scaled = false;
  Matrix<double> expected(6, 3), faulty(6, 3), probs;
  attention_forward<double>(expected, probs, qkv.query, qkv.key, qkv.value, unscaled);
  {
    FaultScope scope(Fault::unscaled_scores);
    attention_forward<double>(faulty, probs, qkv.query, qkv.key, qkv.value, AttentionOptions{});
  }
  CHECK(same_bits(faulty, expected));
}

TEST_CASE("scores-averaged divides each score by d_k, unscaled or after the 1/√d_k",
          "[fault][attention]") {
  const Qkv qkv = seeded_qkv(6, 8);
  for (const bool scaled : {true, false}) {
    CAPTURE(scaled);
    AttentionOptions options;
    options.scaled = scaled;
    Matrix<double> expected, faulty;
    attention_scores<double>(expected, qkv.query, qkv.key, options);
    {
      FaultScope scope(Fault::scores_averaged);
      attention_scores<double>(faulty, qkv.query, qkv.key, options);
    }
    CHECK((faulty * 8.0 - expected).cwiseAbs().maxCoeff() <= 1e-12);
  }
}

TEST_CASE("causal-mask-ignored gives a causal request the future's weights", "[fault][attention]") {
  Matrix<double> scores = Matrix<double>::Ones(4, 4);
  {
    FaultScope scope(Fault::causal_mask_ignored);
    softmax_rows(scores, 0, true);
  }
  CHECK((scores.array() == 0.25).all());
  CHECK(same_bits(under(Fault::causal_mask_ignored, [] { return run_attention(true); }),
                  run_attention(false)));
}

TEST_CASE("causal-mask-off-by-one lets query t see t + 1 and no further — the last sees the rest",
          "[fault][attention]") {
  Matrix<double> scores = Matrix<double>::Zero(4, 4);
  {
    FaultScope scope(Fault::causal_mask_off_by_one);
    softmax_rows(scores, 0, true);
  }
  for (Index t = 0; t < 4; ++t) {
    CAPTURE(t);
    const Index seen = std::min<Index>(t + 2, 4);
    CHECK(std::abs(scores.row(t).sum() - 1.0) <= 1e-15);
    CHECK((scores.row(t).head(seen).array() == 1.0 / static_cast<double>(seen)).all());
    CHECK((scores.row(t).tail(4 - seen).array() == 0.0).all());
  }
}

TEST_CASE("causal-mask-always masks a bidirectional request and leaves a causal one as it was",
          "[fault][attention]") {
  const Matrix<double> causal = run_attention(true);
  FaultScope scope(Fault::causal_mask_always);
  CHECK(run_attention(false) == causal);
  CHECK(run_attention(true) == causal);
  // The first query sees only itself: its output is its own value row.
  const Qkv qkv = seeded_qkv(6, 8);
  CHECK((run_attention(false).row(0) - qkv.value.row(0)).cwiseAbs().maxCoeff() <= 1e-15);
}

TEST_CASE("softmax-wrong-axis makes each key's column sum to one, also under a causal mask",
          "[fault][attention]") {
  Rng rng(606);
  for (const bool causal : {false, true}) {
    CAPTURE(causal);
    Matrix<double> scores = random_matrix(5, 5, rng, 2.0);
    {
      FaultScope scope(Fault::softmax_wrong_axis);
      softmax_rows(scores, 0, causal);
    }
    CHECK(scores.allFinite());
    CHECK((scores.colwise().sum().array() - 1.0).abs().maxCoeff() <= 1e-14);
    CHECK((scores.rowwise().sum().array() - 1.0).abs().maxCoeff() > 1e-3);
    if (causal) CHECK(scores(0, 4) == 0.0);  // the mask still holds
  }
  // A query block past the start (decoding) whose later keys no query sees: those get 0, not NaN.
  Matrix<double> block = Matrix<double>::Ones(2, 6);
  {
    FaultScope scope(Fault::softmax_wrong_axis);
    softmax_rows(block, 2, true);  // rows at places 2 and 3 see keys 0..2 and 0..3
  }
  CHECK(block.allFinite());
  CHECK(block.col(0).sum() == 1.0);
  CHECK(block(1, 3) == 1.0);
  CHECK((block.rightCols(2).array() == 0.0).all());
}

TEST_CASE("the score faults break plain, multi-head, grouped and tiled attention alike",
          "[fault][attention]") {
  // Both sides of each comparison are broken the same way, so they still agree.
  for (const Fault fault :
       {Fault::unscaled_scores, Fault::scores_averaged, Fault::causal_mask_ignored,
        Fault::causal_mask_off_by_one, Fault::causal_mask_always, Fault::softmax_wrong_axis}) {
    FaultScope scope(fault);
    CAPTURE(fault_info(fault).name);
    for (const bool causal : {false, true}) {
      CAPTURE(causal);
      const Matrix<double> full = run_full(causal);
      for (const Index tile : {Index{1}, Index{3}, Index{4}, Index{16}}) {
        CAPTURE(tile);
        CHECK((run_tiled(causal, tile) - full).cwiseAbs().maxCoeff() <= 1e-12);
      }
      // GQA with G = H and no positions is nn.MultiheadAttention without biases.
      GqaConfig config = gqa_config(2, 2, false, false);
      config.causal = causal;
      const GqaParams<double> gqa = seeded_gqa(config);
      MhaParams<double> mha(8, 2, false);
      mha.in_proj.weight << gqa.q_proj, gqa.k_proj, gqa.v_proj;
      mha.out_proj.weight = gqa.o_proj;
      AttentionOptions options;
      options.causal = causal;
      const Matrix<double> x = seeded_tokens(5, 8);
      Matrix<double> y_gqa, y_mha;
      GqaCache<double> gqa_cache;
      MhaCache<double> mha_cache;
      gqa_forward(y_gqa, gqa_cache, x, gqa);
      mha_forward(y_mha, mha_cache, x, mha, options);
      CHECK((y_gqa - y_mha).cwiseAbs().maxCoeff() <= 1e-12);
    }
  }
}

TEST_CASE(
    "decoding under unscaled-scores matches the unscaled full pass — a mask fault cannot "
    "reach it, since the cache holds no future",
    "[fault][attention][kvcache]") {
  const GqaConfig config = gqa_config(4, 2, true, false);
  const auto full_pass = [&] { return run_gqa(config); };
  const auto decoded = [&] { return run_decode(config); };
  CHECK((under(Fault::unscaled_scores, decoded) - under(Fault::unscaled_scores, full_pass))
            .cwiseAbs()
            .maxCoeff() <= 1e-12);
  for (const Fault fault : {Fault::causal_mask_ignored, Fault::causal_mask_off_by_one}) {
    CAPTURE(fault_info(fault).name);
    CHECK(same_bits(under(fault, decoded), decoded()));
    CHECK(relative_change(under(fault, full_pass), full_pass()) > 0.01);
  }
  // A column softmax over the one query of a step puts weight 1 on every cached key: finite.
  CHECK(under(Fault::softmax_wrong_axis, decoded).allFinite());
}

// --- heads --------------------------------------------------------------------------------------

TEST_CASE("heads-full-width builds heads as wide as d_model, and the counts say so",
          "[fault][attention][params]") {
  const MhaParams<double> mha =
      under(Fault::heads_full_width, [] { return MhaParams<double>(8, 4, true); });
  CHECK(mha.head_dim() == 8);
  CHECK(mha.in_proj.weight.rows() == 3 * 4 * 8);
  CHECK(mha.in_proj.weight.cols() == 8);
  CHECK(mha.out_proj.weight.rows() == 8);
  CHECK(mha.out_proj.weight.cols() == 4 * 8);
  CHECK(mha.in_proj.weight.isZero());  // a module's weights are its caller's to draw
  const AttentionParamBreakdown counted = count_attention_params(mha);
  CHECK(counted.head_dim == 8);
  CHECK(counted.per_head_projection == 64);
  CHECK(counted.qkv_weights == 3 * 4 * 64);
  CHECK(counted.output_weights == 4 * 64);
  CHECK(counted.total() == count_params(mha).total());
  CHECK(counted != attention_params_closed_form(8, 4, true));

  const GqaParams<double> gqa = under(
      Fault::heads_full_width, [] { return GqaParams<double>(gqa_config(4, 2, true, false)); });
  CHECK(gqa.config.resolved_head_dim() == 8);
  CHECK(count_params(gqa) ==
        ParamCount{.weights = 32 * 8 + 2 * (16 * 8) + 8 * 32, .biases = 0, .tensors = 4});
  // Its forward and its decoding read that structure.
  Matrix<double> y, row;
  GqaCache<double> cache;
  gqa_forward(y, cache, seeded_tokens(3, 8), gqa);
  CHECK(cache.q.cols() == 4 * 8);
  CHECK(cache.k.cols() == 2 * 8);
  KvCache<double> kv;
  gqa_decode_step(row, kv, Matrix<double>(seeded_tokens(1, 8)), 0, gqa);
  CHECK(kv.keys.cols() == 2 * 8);
}

TEST_CASE("heads-share-projection builds one head-width W_q, W_k, W_v that every head reads",
          "[fault][attention][params]") {
  const MhaParams<double> mha =
      under(Fault::heads_share_projection, [] { return seeded_mha(8, 4, true); });
  CHECK(mha.in_proj.weight.rows() == 3 * 2);
  CHECK(mha.out_proj.weight.cols() == 8);
  for (Index h = 1; h < 4; ++h) {
    CHECK(mha.query_weight(h).data() == mha.query_weight(0).data());
    CHECK(mha.value_weight(h).data() == mha.value_weight(0).data());
  }
  const AttentionParamBreakdown counted = count_attention_params(mha);
  CHECK(counted.per_head_qkv == 3 * 2 * 8);
  CHECK(counted.qkv_weights == 3 * 2 * 8);  // held once, not once per head
  CHECK(counted.total() == count_params(mha).total());

  // Every head computes the same thing: identical copies.
  Matrix<double> y;
  MhaCache<double> cache;
  mha_forward(y, cache, seeded_tokens(5, 8), mha, AttentionOptions{});
  for (std::size_t h = 1; h < 4; ++h)
    CHECK(same_bits(cache.probs[h], cache.probs[0]));

  const GqaParams<double> gqa = under(Fault::heads_share_projection,
                                      [] { return seeded_gqa(gqa_config(4, 2, true, false)); });
  CHECK(count_params(gqa) == ParamCount{.weights = 3 * (2 * 8) + 8 * 8, .biases = 0, .tensors = 4});
  GqaCache<double> gqa_cache;
  gqa_forward(y, gqa_cache, seeded_tokens(5, 8), gqa);
  for (std::size_t h = 1; h < 4; ++h)
    CHECK(same_bits(gqa_cache.probs[h], gqa_cache.probs[0]));
}

TEST_CASE("gqa-all-kv-head-0 computes what a module whose K/V heads all equal head 0 computes",
          "[fault][attention]") {
  const GqaConfig config = gqa_config(4, 2, true, false);
  GqaParams<double> copied = seeded_gqa(config);
  copied.k_proj.middleRows(2, 2) = copied.k_proj.middleRows(0, 2);
  copied.v_proj.middleRows(2, 2) = copied.v_proj.middleRows(0, 2);
  Matrix<double> expected;
  GqaCache<double> cache;
  gqa_forward(expected, cache, seeded_tokens(6, 8), copied);
  CHECK((under(Fault::gqa_all_kv_head_0, [&] { return run_gqa(config); }) - expected)
            .cwiseAbs()
            .maxCoeff() <= 1e-12);
  // Decoding maps the heads the same way, so it still matches its full pass.
  CHECK((under(Fault::gqa_all_kv_head_0, [&] { return run_decode(config); }) - expected)
            .cwiseAbs()
            .maxCoeff() <= 1e-12);
}

// --- the KV cache and the tiles -----------------------------------------------------------------

TEST_CASE("kv-cache-keeps-queries adds every token's query to the cache and changes no output",
          "[fault][attention][kvcache]") {
  const GqaConfig config = gqa_config(4, 4, true, false);  // MHA: a query is a key's width
  GqaCache<double> pass;
  run_gqa(config, &pass);
  KvCache<double> clean, faulty;
  const Matrix<double> clean_rows = run_decode(config, &clean);
  const Matrix<double> faulty_rows =
      under(Fault::kv_cache_keeps_queries, [&] { return run_decode(config, &faulty); });
  CHECK(same_bits(faulty_rows, clean_rows));
  CHECK(clean.queries.size() == 0);
  std::vector<std::string> names;
  visit_tensors(faulty,
                [&](const std::string& name, const Matrix<double>&) { names.push_back(name); });
  CHECK(names == std::vector<std::string>{"keys", "values", "queries"});
  CHECK((faulty.queries - pass.q.topRows(6)).cwiseAbs().maxCoeff() <= 1e-12);  // rotated
  std::printf("  %-26s %-32s decode output unchanged; the cache holds %d tensors, not 2\n",
              "kv-cache-keeps-queries", "gqa_decode_step x 6", static_cast<int>(names.size()));
}

TEST_CASE("kv-cache-drops-oldest loses token 0 once a second arrives, and decoding drifts",
          "[fault][attention][kvcache]") {
  const GqaConfig config = gqa_config(4, 2, true, false);
  const Matrix<double> full = run_gqa(config);
  KvCache<double> cache;
  const Matrix<double> rows =
      under(Fault::kv_cache_drops_oldest, [&] { return run_decode(config, &cache); });
  CHECK(cache.length() == 5);  // six tokens seen
  CHECK(cache.values.rows() == 5);
  CHECK((rows.row(0) - full.row(0)).cwiseAbs().maxCoeff() <= 1e-12);  // nothing dropped yet
  for (Index t = 1; t < 6; ++t)
    CHECK((rows.row(t) - full.row(t)).cwiseAbs().maxCoeff() > 1e-6);
}

TEST_CASE("online-softmax-no-rescale is exact in one tile and wrong across tiles",
          "[fault][attention][tiled]") {
  for (const bool causal : {false, true}) {
    CAPTURE(causal);
    const Matrix<double> full = run_full(causal);
    FaultScope scope(Fault::online_softmax_no_rescale);
    CHECK((run_tiled(causal, 16) - full).cwiseAbs().maxCoeff() <= 1e-12);
    const Matrix<double> tiled = run_tiled(causal, 3);
    CHECK(tiled.allFinite());
    CHECK(relative_change(tiled, full) > 0.01);
  }
}

TEST_CASE("tiled-attention-materializes gives the same output from one T × T score block",
          "[fault][attention][tiled]") {
  for (const bool causal : {false, true}) {
    CAPTURE(causal);
    const Qkv qkv = seeded_qkv(10, 4, 2.0);
    Matrix<double> clean(10, 3), faulty(10, 3);
    const TiledAttentionStats tiled =
        attention_tiled_forward<double>(clean, qkv.query, qkv.key, qkv.value, 3, causal);
    CHECK(tiled.score_buffer == 9);  // one 3 × 3 block at a time
    FaultScope scope(Fault::tiled_attention_materializes);
    const TiledAttentionStats whole =
        attention_tiled_forward<double>(faulty, qkv.query, qkv.key, qkv.value, 3, causal);
    CHECK(whole.score_buffer == 100);  // the whole 10 × 10 matrix
    CHECK(whole.tiles == 1);
    CHECK((faulty - run_full(causal)).cwiseAbs().maxCoeff() <= 1e-12);  // still exact
  }
}

// --- RoPE and ALiBi -----------------------------------------------------------------------------

TEST_CASE("the RoPE faults rotate as a differently configured rotation would",
          "[fault][attention][rope]") {
  const RopeConfig configured{RopeConvention::half, 10000.0, 4.0};
  Rng rng(505);
  const Matrix<double> x = random_matrix(5, 8, rng);
  CHECK(same_bits(under(Fault::rope_not_applied, [&] { return run_rope(configured); }), x));
  CHECK(same_bits(under(Fault::rope_base_1000, [&] { return run_rope(configured); }),
                  run_rope(RopeConfig{RopeConvention::half, 1000.0, 4.0})));
  CHECK(same_bits(under(Fault::rope_scaling_ignored, [&] { return run_rope(configured); }),
                  run_rope(RopeConfig{RopeConvention::half, 10000.0, 1.0})));
  // rope_forward rotates what it is given: which tensors are rotated is the attention's choice.
  CHECK(same_bits(under(Fault::rope_on_values, [&] { return run_rope(configured); }),
                  run_rope(configured)));

  // In the attention modules: not rotating is RoPE off.
  const GqaConfig with_rope = gqa_config(4, 2, true, false);
  GqaConfig without_rope = with_rope;
  without_rope.rope = false;
  CHECK(same_bits(under(Fault::rope_not_applied, [&] { return run_gqa(with_rope); }),
                  run_gqa(without_rope)));
  CHECK(same_bits(under(Fault::rope_not_applied, [] { return run_mha(rope_options(false)); }),
                  run_mha({})));
}

TEST_CASE("rope-additive adds each pair's (cos, sin), so scores lose their offset-only form",
          "[fault][attention][rope]") {
  const RopeConfig config{RopeConvention::half, 10000.0, 1.0};
  Rng rng(606);
  const Matrix<double> q = random_matrix(1, 8, rng);
  const Matrix<double> k = random_matrix(1, 8, rng);
  // q at position p and k at p − 3, for two p: a rotation gives both the same score.
  const auto score = [&](std::int64_t p) {
    Matrix<double> rq, rk;
    rope_forward(rq, q, Positions{p}, config);
    rope_forward(rk, k, Positions{p - 3}, config);
    return (rq * rk.transpose())(0, 0);
  };
  CHECK(score(5) == Approx(score(40)).epsilon(1e-12));
  FaultScope scope(Fault::rope_additive);
  CHECK(std::abs(score(5) - score(40)) > 0.1);
  // What is added is the rotation's own table: cos in the first half, sin in the second.
  const RopeAngles<double> angles = rope_angles<double>(Positions{7}, 8, config);
  Matrix<double> out;
  rope_forward(out, q, Positions{7}, config);
  CHECK((out.leftCols(4) - q.leftCols(4) - angles.cos).cwiseAbs().maxCoeff() <= 1e-15);
  CHECK((out.rightCols(4) - q.rightCols(4) - angles.sin).cwiseAbs().maxCoeff() <= 1e-15);
}

TEST_CASE("rope-on-values rotates V in every attention module, decoding included",
          "[fault][attention][rope]") {
  MhaCache<double> clean_mha, faulty_mha;
  const Matrix<double> clean = run_mha(rope_options(false), &clean_mha);
  const Matrix<double> faulty =
      under(Fault::rope_on_values, [&] { return run_mha(rope_options(false), &faulty_mha); });
  CHECK(relative_change(faulty, clean) > 0.01);
  CHECK(same_bits(faulty_mha.qkv.leftCols(16), clean_mha.qkv.leftCols(16)));  // Q and K as before
  CHECK(relative_change(faulty_mha.qkv.rightCols(8), clean_mha.qkv.rightCols(8)) > 0.01);

  const GqaConfig config = gqa_config(4, 2, true, false);
  GqaCache<double> pass;
  const Matrix<double> full = under(Fault::rope_on_values, [&] { return run_gqa(config, &pass); });
  KvCache<double> kv;
  const Matrix<double> decoded =
      under(Fault::rope_on_values, [&] { return run_decode(config, &kv); });
  CHECK((decoded - full).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK((kv.values - pass.v).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("the ALiBi faults change each head's slope where the bias is added",
          "[fault][attention][alibi]") {
  // Zero queries and keys: the scores are the bias alone, softmax(−m_h·|i − j|).
  GqaConfig config = gqa_config(2, 2, false, true);
  config.causal = false;
  const auto probs_of = [&](Fault fault) {
    FaultScope scope(fault);
    GqaParams<double> params(config);
    Rng rng(23);
    params.v_proj = random_matrix(8, 8, rng);
    params.o_proj = random_matrix(8, 8, rng);
    Matrix<double> y;
    GqaCache<double> cache;
    gqa_forward(y, cache, seeded_tokens(3, 8), params);
    return cache.probs;
  };
  const double m0 = 1.0 / 16, m1 = 1.0 / 256;  // 2 heads: 2^(−8/2), 2^(−8)
  const std::vector<Matrix<double>> clean = probs_of(Fault::none);
  CHECK(std::abs(clean[1](0, 2) / clean[1](0, 0) - std::exp(-2 * m1)) <= 1e-15);
  const std::vector<Matrix<double>> equal = probs_of(Fault::alibi_equal_slopes);
  CHECK(same_bits(equal[1], clean[0]));
  const std::vector<Matrix<double>> halved = probs_of(Fault::alibi_halved_slopes);
  CHECK(std::abs(halved[0](0, 2) / halved[0](0, 0) - std::exp(-m0)) <= 1e-15);
  CHECK(std::abs(halved[1](0, 2) / halved[1](0, 0) - std::exp(-m1)) <= 1e-15);
}

TEST_CASE("decoding under a RoPE, ALiBi or head-mapping fault still matches its full pass",
          "[fault][attention][kvcache]") {
  for (const Fault fault :
       {Fault::rope_not_applied, Fault::rope_on_values, Fault::rope_additive, Fault::rope_base_1000,
        Fault::rope_scaling_ignored, Fault::alibi_equal_slopes, Fault::alibi_halved_slopes,
        Fault::gqa_all_kv_head_0, Fault::heads_full_width, Fault::heads_share_projection}) {
    CAPTURE(fault_info(fault).name);
    const GqaConfig config = gqa_config(4, 2, true, true);
    FaultScope scope(fault);
    const Matrix<double> decoded = run_decode(config);
    CHECK((decoded - run_gqa(config)).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK(decoded.allFinite());
  }
}

// --- gradients under every fault that reaches a backward ---------------------------------------

namespace {

// The shared checks (gradcheck_support.hpp) on this file's seeded inputs.
void check_seeded_attention_gradients(bool causal) {
  Qkv qkv = seeded_qkv(5, 4);
  AttentionOptions options;
  options.causal = causal;
  check_attention_gradients(qkv.query, qkv.key, qkv.value, seeded_tokens(5, 3), options);
}

void check_seeded_mha_gradients(const AttentionOptions& options) {
  MhaParams<double> params = seeded_mha(8, 4, true);
  Matrix<double> x = seeded_tokens(6, 8);
  check_mha_gradients(params, x, seeded_tokens(6, 8) * 0.5, options);
}

void check_seeded_gqa_gradients(const GqaConfig& config) {
  GqaParams<double> params = seeded_gqa(config);
  Matrix<double> x = seeded_tokens(5, 8);
  check_gqa_gradients(params, x, seeded_tokens(5, 8) * 0.5, {3, 1, 4, 1, 5});
}

const Fault kScoreFaults[] = {Fault::unscaled_scores,     Fault::scores_averaged,
                              Fault::causal_mask_ignored, Fault::causal_mask_off_by_one,
                              Fault::causal_mask_always,  Fault::softmax_wrong_axis};
const Fault kRopeFaults[] = {Fault::rope_not_applied, Fault::rope_on_values, Fault::rope_additive,
                             Fault::rope_base_1000, Fault::rope_scaling_ignored};

}  // namespace

TEST_CASE("attention gradients match central differences under the score faults",
          "[fault][attention][gradcheck]") {
  for (const Fault fault : kScoreFaults) {
    for (const bool causal : {false, true}) {
      CAPTURE(fault_info(fault).name, causal);
      FaultScope scope(fault);
      check_seeded_attention_gradients(causal);
    }
  }
}

TEST_CASE("multi-head attention gradients match central differences under every fault it reaches",
          "[fault][attention][gradcheck]") {
  std::vector<Fault> faults(std::begin(kScoreFaults), std::end(kScoreFaults));
  faults.insert(faults.end(), std::begin(kRopeFaults), std::end(kRopeFaults));
  faults.push_back(Fault::heads_share_projection);
  faults.push_back(Fault::heads_full_width);
  for (const Fault fault : faults) {
    for (const bool rope : {false, true}) {
      CAPTURE(fault_info(fault).name, rope);
      FaultScope scope(fault);
      AttentionOptions options = rope ? rope_options(true) : AttentionOptions{};
      options.causal = true;
      check_seeded_mha_gradients(options);
    }
  }
}

TEST_CASE(
    "grouped-query attention gradients match central differences under every fault it "
    "reaches",
    "[fault][attention][gradcheck]") {
  std::vector<Fault> faults(std::begin(kScoreFaults), std::end(kScoreFaults));
  faults.insert(faults.end(), std::begin(kRopeFaults), std::end(kRopeFaults));
  for (const Fault fault :
       {Fault::heads_share_projection, Fault::heads_full_width, Fault::gqa_all_kv_head_0,
        Fault::alibi_equal_slopes, Fault::alibi_halved_slopes})
    faults.push_back(fault);
  for (const Fault fault : faults) {
    for (const bool causal : {false, true}) {
      CAPTURE(fault_info(fault).name, causal);
      FaultScope scope(fault);
      GqaConfig config = gqa_config(4, 2, true, true);
      config.causal = causal;
      check_seeded_gqa_gradients(config);
    }
  }
}

TEST_CASE("rope_backward undoes the rotation the faulty rope_forward applied",
          "[fault][attention][rope][gradcheck]") {
  const RopeConfig config{RopeConvention::interleaved, 10000.0, 4.0};
  const Positions positions{0, 7, 20, 50, 100};
  for (const Fault fault : kRopeFaults) {
    CAPTURE(fault_info(fault).name);
    FaultScope scope(fault);
    Rng rng(707);
    Matrix<double> x = random_matrix(5, 8, rng);
    const Matrix<double> dout = random_matrix(5, 8, rng);
    Matrix<double> y, dx;
    const auto loss = [&] {
      rope_forward(y, x, positions, config);
      return weighted_sum(y, dout);
    };
    rope_backward(dx, dout, positions, config);
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  }
}

// --- threads and the record of reached ops -----------------------------------------------------

TEST_CASE("two threads running two attention faults compute what running them in turn does",
          "[fault][attention]") {
  const auto first = [] {
    return under(Fault::heads_full_width, [] { return run_mha(rope_options(true)); });
  };
  const auto second = [] {
    return under(Fault::alibi_halved_slopes,
                 [] { return run_decode(gqa_config(4, 2, true, true)); });
  };
  const Matrix<double> first_alone = first();
  const Matrix<double> second_alone = second();
  for (int round = 0; round < 4; ++round) {
    Matrix<double> first_threaded, second_threaded;
    std::thread a([&] { first_threaded = first(); });
    std::thread b([&] { second_threaded = second(); });
    a.join();
    b.join();
    CHECK(same_bits(first_threaded, first_alone));
    CHECK(same_bits(second_threaded, second_alone));
  }
  CHECK(same_bits(run_mha(rope_options(true)),
                  under(Fault::none, [] { return run_mha(rope_options(true)); })));
}

TEST_CASE("each attention op records the mechanisms it reaches", "[fault][attention]") {
  const auto reached_by = [](const std::function<void()>& run) {
    FaultScope scope(Fault::none);
    run();
    return scope.reached() & kAttentionOps;
  };
  const GqaParams<double> rope_layer = seeded_gqa(gqa_config(4, 2, true, false));
  const GqaParams<double> alibi_layer = seeded_gqa(gqa_config(4, 4, false, true));
  const MhaParams<double> mha = seeded_mha(8, 4, true);
  const Matrix<double> x = seeded_tokens(4, 8);
  Matrix<double> out, dx;

  CHECK(reached_by([] { MhaParams<double>(8, 2, false); }) == op_set({Op::heads}));
  CHECK(reached_by([] { GqaParams<double>(gqa_config(4, 2, true, false)); }) ==
        op_set({Op::heads}));
  CHECK(reached_by([] { run_attention(true); }) == op_set({Op::attention}));
  CHECK(reached_by([] { run_tiled(true, 3); }) == op_set({Op::attention, Op::tiled_attention}));
  CHECK(reached_by([&] {
          MhaCache<double> cache;
          mha_forward(out, cache, x, mha, AttentionOptions{});
        }) == op_set({Op::attention, Op::heads}));
  CHECK(reached_by([&] {
          AttentionOptions options = rope_options(false);
          options.positions.clear();
          MhaCache<double> cache;
          mha_forward(out, cache, x, mha, options);
          MhaParams<double> grads;
          mha_backward(dx, grads, out, x, mha, cache, options);
        }) == op_set({Op::attention, Op::heads, Op::rope}));
  CHECK(reached_by([&] {
          GqaCache<double> cache;
          gqa_forward(out, cache, x, alibi_layer);
        }) == op_set({Op::attention, Op::kv_heads, Op::alibi}));
  CHECK(reached_by([&] {
          GqaCache<double> cache;
          gqa_forward(out, cache, x, rope_layer);
          GqaParams<double> grads;
          gqa_backward(dx, grads, out, x, rope_layer, cache);
        }) == op_set({Op::attention, Op::kv_heads, Op::rope}));
  CHECK(reached_by([&] {
          KvCache<double> cache;
          gqa_decode_step(out, cache, Matrix<double>(x.row(0)), 0, rope_layer);
        }) == op_set({Op::kv_cache, Op::attention, Op::kv_heads, Op::rope}));
  CHECK(reached_by([] { run_rope(RopeConfig{}); }) == op_set({Op::rope}));
}

}  // namespace test_faults_attention
