// Sliding-window attention (Mistral's sliding_window, Jiang et al. 2023 §2): which keys a query
// sees, that a window as wide as the sequence changes nothing, the rolling KV cache of W rows
// against the full windowed pass, gradients, the two faults and the refusals. PyTorch's numbers
// are in the gqa_window_* and mha_window fixtures (scripts/torch_reference_window.py).
#include <catch2/catch.hpp>
#include <string>

#include "engine/decoder.hpp"
#include "engine/fault.hpp"
#include "gradcheck_support.hpp"
#include "test_support.hpp"

namespace test_sliding_window {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

// The keys query `row` gives weight in head 0, as a set of columns.
std::vector<Index> keys_seen(const GqaCache<double>& cache, Index row) {
  std::vector<Index> seen;
  const Matrix<double>& probs = cache.probs.front();
  for (Index col = 0; col < probs.cols(); ++col)
    if (probs(row, col) != 0.0) seen.push_back(col);
  return seen;
}

std::vector<Index> range(Index first, Index last) {  // first … last, inclusive
  std::vector<Index> out;
  for (Index i = first; i <= last; ++i)
    out.push_back(i);
  return out;
}

}  // namespace

TEST_CASE("a sliding window of W lets the query at i see keys i − W + 1 … i, W at most",
          "[engine][decoder][window]") {
  Rng rng(41);
  const GqaParams<double> params = random_gqa(GqaConfig::of(8, 4, 2).with_sliding_window(3), rng);
  const Matrix<double> x = random_matrix(7, 8, rng);
  Matrix<double> out;
  GqaCache<double> cache;
  gqa_forward(out, cache, x, params);
  CHECK(keys_seen(cache, 0) == range(0, 0));
  CHECK(keys_seen(cache, 1) == range(0, 1));
  CHECK(keys_seen(cache, 2) == range(0, 2));
  CHECK(keys_seen(cache, 3) == range(1, 3));
  CHECK(keys_seen(cache, 6) == range(4, 6));
  for (const Matrix<double>& probs : cache.probs)
    CHECK((probs.rowwise().sum().array() - 1.0).abs().maxCoeff() <= 1e-12);
}

TEST_CASE("a window of one key is each token attending to itself alone",
          "[engine][decoder][window]") {
  Rng rng(42);
  const GqaParams<double> params =
      random_gqa(GqaConfig::of(8, 2, 2).with_sliding_window(1).without_rope(), rng);
  const Matrix<double> x = random_matrix(5, 8, rng);
  Matrix<double> out;
  GqaCache<double> cache;
  gqa_forward(out, cache, x, params);
  for (const Matrix<double>& probs : cache.probs)
    CHECK((probs - Matrix<double>::Identity(5, 5)).cwiseAbs().maxCoeff() == 0.0);
  // Each output is the token's own value through o_proj.
  const Matrix<double> own = (x * params.v_proj.transpose()) * params.o_proj.transpose();
  CHECK((out - own).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("a window as wide as the sequence, or wider, is plain causal attention",
          "[engine][decoder][window]") {
  for (const Index window : {Index{6}, Index{7}, Index{64}}) {
    INFO("window " << window);
    Rng rng(43);
    const GqaConfig config = GqaConfig::of(8, 4, 1);
    const GqaParams<double> plain = random_gqa(config, rng);
    GqaParams<double> windowed = plain;
    windowed.config.sliding_window = window;
    const Matrix<double> x = random_matrix(6, 8, rng);
    Matrix<double> a, b;
    GqaCache<double> ca, cb;
    gqa_forward(a, ca, x, plain);
    gqa_forward(b, cb, x, windowed);
    CHECK((a - b).cwiseAbs().maxCoeff() == 0.0);
  }
}

TEST_CASE("windowed gqa gradients match central differences", "[engine][decoder][gradcheck]") {
  for (const Index window : {Index{1}, Index{2}, Index{4}}) {
    INFO("window " << window);
    Rng rng(44);
    GqaParams<double> params = random_gqa(GqaConfig::of(8, 4, 2).with_sliding_window(window), rng);
    Matrix<double> x = random_matrix(5, 8, rng);
    const Matrix<double> dout = random_matrix(5, 8, rng);
    check_gqa_gradients(params, x, dout, {});
  }
}

TEST_CASE("a rolling cache of W rows, token i at row i mod W, decodes as the full windowed pass",
          "[engine][decoder][window][kvcache]") {
  for (const Index window : {Index{1}, Index{3}, Index{8}}) {
    INFO("window " << window);
    Rng rng(45);
    const GqaParams<double> params =
        random_gqa(GqaConfig::of(8, 4, 2).with_sliding_window(window), rng);
    const Matrix<double> x = random_matrix(8, 8, rng);
    Matrix<double> full;
    GqaCache<double> cache;
    gqa_forward(full, cache, x, params);
    KvCache<double> rolling;
    Matrix<double> row;
    for (Index t = 0; t < 8; ++t) {
      gqa_decode_step(row, rolling, Matrix<double>(x.row(t)), t, params);
      CHECK(rolling.length() == std::min(t + 1, window));  // bounded by W, whatever the length
      CHECK((row - full.row(t)).cwiseAbs().maxCoeff() <= 1e-12);
      // Row t mod W holds token t's (rotated) key.
      CHECK((rolling.keys.row(t % window) - cache.k.row(t)).cwiseAbs().maxCoeff() <= 1e-12);
    }
  }
}

TEST_CASE("window-off-by-one shows each query W + 1 keys", "[engine][decoder][window][fault]") {
  Rng rng(46);
  const GqaParams<double> params = random_gqa(GqaConfig::of(8, 4, 2).with_sliding_window(3), rng);
  const Matrix<double> x = random_matrix(7, 8, rng);
  Matrix<double> out;
  GqaCache<double> cache;
  const FaultScope scope(Fault::window_off_by_one);
  gqa_forward(out, cache, x, params);
  CHECK(keys_seen(cache, 6) == range(3, 6));
  CHECK(keys_seen(cache, 2) == range(0, 2));  // still causal
}

TEST_CASE("rolling-cache-wrong-slot drops the newest key and keeps one that left the window",
          "[engine][decoder][window][kvcache][fault]") {
  Rng rng(47);
  const GqaParams<double> params = random_gqa(GqaConfig::of(8, 4, 2).with_sliding_window(3), rng);
  const Matrix<double> x = random_matrix(6, 8, rng);
  Matrix<double> full;
  GqaCache<double> cache;
  gqa_forward(full, cache, x, params);
  const FaultScope scope(Fault::rolling_cache_wrong_slot);
  KvCache<double> rolling;
  Matrix<double> row;
  double worst = 0;
  for (Index t = 0; t < 6; ++t) {
    gqa_decode_step(row, rolling, Matrix<double>(x.row(t)), t, params);
    const double gap = (row - full.row(t)).cwiseAbs().maxCoeff();
    if (t < 3) CHECK(gap <= 1e-12);  // until the buffer is full nothing is overwritten
    worst = std::max(worst, gap);
  }
  CHECK(worst > 1e-3);
  CHECK(rolling.length() == 3);
}

TEST_CASE(
    "a sliding window is refused when negative, without the causal mask, or with ALiBi "
    "in a rolling cache",
    "[engine][decoder][window]") {
  CHECK_THROWS_WITH(check_gqa_config(GqaConfig::of(8, 4, 2).with_sliding_window(-1)),
                    "sliding_window must be a positive number of keys (or 0 for none), got -1");
  CHECK_THROWS_WITH(
      check_gqa_config(GqaConfig::of(8, 4, 2).with_sliding_window(4).without_causal_mask()),
      "sliding_window 4 needs the causal mask: a window counts back from each query (causal: "
      "true)");
  Rng rng(48);
  const GqaParams<double> params =
      random_gqa(GqaConfig::of(8, 4, 2).with_sliding_window(2).with_alibi(), rng);
  KvCache<double> rolling;
  Matrix<double> row;
  CHECK_THROWS_WITH(gqa_decode_step(row, rolling, random_matrix(1, 8, rng), 0, params),
                    Catch::Contains("set alibi or sliding_window, not both"));
}

}  // namespace test_sliding_window
