// The multiply-add tally: what it counts at each product site, that it counts only while open,
// that tallies nest, a whole multi-head forward against its closed form, and the
// mac-count-one-head fault.
#include <catch2/catch.hpp>
#include <cstdint>

#include "engine/attention.hpp"
#include "engine/fault.hpp"
#include "engine/linear.hpp"
#include "engine/macs.hpp"
#include "test_support.hpp"

namespace test_macs {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

// One multi-head self-attention forward of `steps` tokens, counted.
MacCount count_mha_forward(Index embed, Index heads, Index steps) {
  Rng rng(5);
  MhaParams<double> params(embed, heads, true);
  // the module's own shapes: a fault may build it wider
  for (Matrix<double>* weight : {&params.in_proj.weight, &params.out_proj.weight})
    *weight = random_matrix(weight->rows(), weight->cols(), rng);
  const Matrix<double> x = random_matrix(steps, embed, rng);
  Matrix<double> out;
  MhaCache<double> cache;
  const MacTally tally;
  mha_forward(out, cache, x, params, {});
  return tally.count();
}

}  // namespace

TEST_CASE("a linear layer counts one multiply-add per weight per row", "[engine][macs]") {
  Rng rng(1);
  LinearParams<double> layer(6, 4, true);
  layer.weight = random_matrix(4, 6, rng);
  Matrix<double> out;
  const MacTally tally;
  linear_forward(out, random_matrix(3, 6, rng), layer);
  CHECK(tally.count().linear == 3 * 6 * 4);
  CHECK(tally.count().scores == 0);
  CHECK(tally.count().weighted_values == 0);
  CHECK(tally.count().total() == 72);
}

TEST_CASE(
    "attention counts queries x d_k x keys for the scores and queries x keys x d_v for the "
    "weighted sum",
    "[engine][macs]") {
  Rng rng(2);
  const Matrix<double> q = random_matrix(5, 3, rng);
  const Matrix<double> k = random_matrix(5, 3, rng);
  const Matrix<double> v = random_matrix(5, 7, rng);
  Matrix<double> out(5, 7), probs;
  const MacTally tally;
  attention_forward<double>(out, probs, q, k, v, {});
  CHECK(tally.count().scores == 5 * 3 * 5);
  CHECK(tally.count().weighted_values == 5 * 5 * 7);
  CHECK(tally.count().linear == 0);
}

TEST_CASE("nothing is counted, and the op is not reached, without an open tally",
          "[engine][macs]") {
  Rng rng(3);
  LinearParams<double> layer(2, 2, false);
  Matrix<double> out;
  const FaultScope scope(Fault::none);
  linear_forward(out, random_matrix(4, 2, rng), layer);
  CHECK_FALSE(scope.reached().test(static_cast<std::size_t>(Op::mac_count)));
  {
    const MacTally tally;
    linear_forward(out, random_matrix(4, 2, rng), layer);
    CHECK(tally.count().linear == 16);
  }
  CHECK(scope.reached().test(static_cast<std::size_t>(Op::mac_count)));
}

TEST_CASE("an inner tally counts its own products and hands them to the outer one when it ends",
          "[engine][macs]") {
  Rng rng(4);
  LinearParams<double> layer(3, 2, false);
  const Matrix<double> x = random_matrix(2, 3, rng);
  Matrix<double> out;
  const MacTally outer;
  linear_forward(out, x, layer);
  {
    const MacTally inner;
    linear_forward(out, x, layer);
    linear_forward(out, x, layer);
    CHECK(inner.count().linear == 24);
    CHECK(outer.count().linear == 12);
  }
  CHECK(outer.count().linear == 36);
}

TEST_CASE("a multi-head forward costs 4·T·E² + 2·T²·E multiply-adds whatever the head count",
          "[engine][macs]") {
  const Index embed = 16;
  const Index steps = 6;
  const std::int64_t projections = 4 * steps * embed * embed;  // W_q, W_k, W_v, then W_o
  const std::int64_t per_product = steps * steps * embed;      // all heads together
  for (const Index heads : {1, 2, 4, 8, 16}) {
    INFO("heads = " << heads);
    const MacCount count = count_mha_forward(embed, heads, steps);
    CHECK(count.linear == projections);
    CHECK(count.scores == per_product);
    CHECK(count.weighted_values == per_product);
  }
}

TEST_CASE("mac-count-one-head: the tally keeps one head's share of the scores and weighted sums",
          "[engine][macs][faults]") {
  const Index embed = 16;
  const Index steps = 6;
  const FaultScope scope(Fault::mac_count_one_head);
  const MacCount count = count_mha_forward(embed, 4, steps);
  CHECK(count.scores == steps * steps * embed / 4);
  CHECK(count.weighted_values == steps * steps * embed / 4);
  CHECK(count.linear == 4 * steps * embed * embed);  // projections are counted in full
  CHECK(count_mha_forward(embed, 1, steps).scores == steps * steps * embed);
  CHECK(scope.reached().test(static_cast<std::size_t>(Op::mac_count)));
}

TEST_CASE(
    "a module built otherwise is counted as built: full-width heads do h times the score "
    "work, one shared projection a fraction of the projection work",
    "[engine][macs][faults]") {
  SECTION("heads-full-width") {
    const FaultScope scope(Fault::heads_full_width);
    const MacCount count = count_mha_forward(8, 4, 5);
    CHECK(count.scores == 4 * 5 * 5 * 8);
    CHECK(count.linear == 5 * 8 * 3 * 4 * 8 + 5 * 4 * 8 * 8);  // in-projection to 3·H·E, W_o back
  }
  SECTION("heads-share-projection") {
    const FaultScope scope(Fault::heads_share_projection);
    const MacCount count = count_mha_forward(8, 4, 5);
    CHECK(count.scores == 5 * 5 * 8);                  // four heads of width 2 read one block
    CHECK(count.linear == 5 * 8 * 3 * 2 + 5 * 8 * 8);  // W_q, W_k, W_v of 2 rows; W_o in full
  }
}

}  // namespace test_macs
