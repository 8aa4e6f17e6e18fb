// The training objective (engine/loss.hpp): cross-entropy's value, its reductions and
// ignore_index, perplexity as a uniform choice among k, the tied LM head's gradient as the sum of
// both uses, gradients against central differences, and the refusals. PyTorch's own numbers are
// in the cross_entropy_* and tied_lm_head fixtures (scripts/torch_reference_loss.py).
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/fault.hpp"
#include "engine/loss.hpp"
#include "test_support.hpp"

namespace test_loss {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

double scalar_loss(const Matrix<double>& logits, const std::vector<std::int64_t>& targets,
                   Reduction reduction, std::int64_t ignore_index = kIgnoreIndex) {
  Matrix<double> losses;
  CrossEntropyCache<double> cache;
  cross_entropy_forward(losses, cache, logits, targets, ignore_index, reduction);
  return losses.sum();
}

}  // namespace

TEST_CASE("a uniform guess over k tokens has a loss of log k and a perplexity of k",
          "[engine][loss]") {
  for (const Index k : {2, 7, 50}) {
    const Matrix<double> flat = Matrix<double>::Constant(3, k, 0.25);  // any constant row
    const double loss = scalar_loss(flat, {0, 1, 1}, Reduction::mean);
    CHECK(loss == Approx(std::log(static_cast<double>(k))));
    CHECK(perplexity(loss) == Approx(static_cast<double>(k)));
  }
  // Sure and right: no loss, a perplexity of 1.
  Matrix<double> sure = Matrix<double>::Zero(1, 4);
  sure(0, 2) = 60.0;
  CHECK(perplexity(scalar_loss(sure, {2}, Reduction::mean)) == Approx(1.0));
}

TEST_CASE("ignored targets add no loss and leave the mean's count", "[engine][loss]") {
  Rng rng(1);
  const Matrix<double> logits = random_matrix(5, 6, rng, 2.0);
  const std::vector<std::int64_t> padded = {3, 1, kIgnoreIndex, 0, kIgnoreIndex};
  Matrix<double> each;
  CrossEntropyCache<double> cache;
  cross_entropy_forward(each, cache, logits, padded, kIgnoreIndex, Reduction::none);
  CHECK(each(2, 0) == 0.0);
  CHECK(each(4, 0) == 0.0);
  CHECK(cache.count == 3);
  const double sum = scalar_loss(logits, padded, Reduction::sum);
  CHECK(sum == Approx(each.sum()));
  // The mean divides by the 3 counted tokens: dividing by all 5 would dilute it.
  CHECK(scalar_loss(logits, padded, Reduction::mean) == Approx(sum / 3.0));
  // A padding id as ignore_index works the same way.
  CHECK(scalar_loss(logits, {3, 1, 5, 0, 5}, Reduction::mean, 5) == Approx(sum / 3.0));
}

TEST_CASE("cross-entropy gradients match central differences under every reduction",
          "[engine][loss][gradcheck]") {
  for (const Reduction reduction : {Reduction::mean, Reduction::sum, Reduction::none}) {
    INFO(reduction_name(reduction));
    Rng rng(2);
    Matrix<double> logits = random_matrix(4, 5, rng, 1.5);
    const std::vector<std::int64_t> targets = {4, kIgnoreIndex, 0, 2};
    const Matrix<double> upstream =
        reduction == Reduction::none ? random_matrix(4, 1, rng) : random_matrix(1, 1, rng);
    CrossEntropyCache<double> cache;
    const auto loss = [&] {
      Matrix<double> losses;
      cross_entropy_forward(losses, cache, logits, targets, kIgnoreIndex, reduction);
      return weighted_sum(losses, upstream);
    };
    loss();
    Matrix<double> dlogits;
    cross_entropy_backward(dlogits, upstream, cache, targets, reduction);
    CHECK(dlogits.row(1).isZero());  // an ignored row gets no gradient
    CHECK_CLOSE(dlogits, numeric_gradient(logits, loss), kGradTolerance);
  }
}

TEST_CASE("cross-entropy refuses a target past the classes and a mean over no token",
          "[engine][loss]") {
  const Matrix<double> logits = Matrix<double>::Zero(2, 3);
  CHECK_THROWS_WITH(scalar_loss(logits, {0, 3}, Reduction::mean),
                    "target 3 of row 1 is not a class (0..2) nor ignore_index (-100)");
  CHECK_THROWS_WITH(scalar_loss(logits, {0}, Reduction::mean),
                    Catch::Contains("1 targets for 2 rows"));
  CHECK_THROWS_WITH(scalar_loss(logits, {kIgnoreIndex, kIgnoreIndex}, Reduction::mean),
                    Catch::Contains("the mean is over no token (0/0; PyTorch gives nan)"));
  CHECK(scalar_loss(logits, {kIgnoreIndex, kIgnoreIndex}, Reduction::sum) == 0.0);
}

TEST_CASE("a tied head's gradient is the sum of its uses as embedding and as projection",
          "[engine][loss][gradcheck]") {
  Rng rng(3);
  Matrix<double> weight = random_matrix(6, 4, rng);
  const std::vector<std::int64_t> tokens = {2, 5, 2, 0};  // 2 repeats: its rows add up
  const Matrix<double> dlogits = random_matrix(4, 6, rng);
  TiedHeadCache<double> cache;
  const auto loss = [&] {
    Matrix<double> logits;
    tied_lm_head_forward(logits, cache, tokens, weight);
    return weighted_sum(logits, dlogits);
  };
  loss();
  Matrix<double> dweight, head, embedding;
  tied_lm_head_backward(dweight, dlogits, tokens, weight, cache, &head, &embedding);
  CHECK_CLOSE(dweight, numeric_gradient(weight, loss), kGradTolerance);
  CHECK_CLOSE(dweight, Matrix<double>(head + embedding), 1e-14);
  // A token never read gets the head's gradient alone: its embedding row was not used.
  CHECK(embedding.row(1).isZero());
  CHECK_FALSE(head.row(1).isZero());
}

TEST_CASE("a tied embedding and head hold one vocab x d matrix, an untied pair two",
          "[engine][loss]") {
  using Shape = std::array<std::int64_t, 2>;
  CHECK(lm_head_matrices(50257, 768, true) == std::vector<Shape>{{50257, 768}});
  CHECK(lm_head_matrices(50257, 768, false) == std::vector<Shape>{{50257, 768}, {50257, 768}});
  CHECK(lm_head_parameters(50257, 768, true) == 38597376);  // GPT-2 small's wte
  CHECK(lm_head_parameters(50257, 768, false) == 2 * 38597376);
}

TEST_CASE("perplexity is e to a loss in nats, and perplexity-base-2 takes 2 to it",
          "[engine][loss][fault]") {
  // A uniform guess over k tokens loses ln k nats a token and scores k.
  CHECK(perplexity(std::log(50257.0)) == Approx(50257.0).epsilon(1e-12));
  CHECK(perplexity(2.0) == Approx(7.38905609893065).epsilon(1e-12));
  const FaultScope scope(Fault::perplexity_base_2);
  CHECK(perplexity(2.0) == Approx(4.0).epsilon(1e-12));
  CHECK(perplexity(std::log(8.0)) == Approx(std::pow(2.0, std::log(8.0))).epsilon(1e-12));
}

TEST_CASE("padding-counted-in-mean divides the mean by every row, so padding dilutes the loss",
          "[engine][loss][fault]") {
  Rng rng(4);
  Matrix<double> logits = random_matrix(4, 5, rng, 1.5);
  const std::vector<std::int64_t> targets = {1, kIgnoreIndex, kIgnoreIndex, 3};
  const double clean = scalar_loss(logits, targets, Reduction::mean);
  const FaultScope scope(Fault::padding_counted_in_mean);
  CHECK(scalar_loss(logits, targets, Reduction::mean) == Approx(clean * 2.0 / 4.0));
  CHECK(scalar_loss(logits, targets, Reduction::sum) == Approx(clean * 2.0));  // sum unmoved
  // Its gradient is still the gradient of what it computes.
  const Matrix<double> upstream = Matrix<double>::Constant(1, 1, 1.0);
  CrossEntropyCache<double> cache;
  const auto loss = [&] {
    Matrix<double> losses;
    cross_entropy_forward(losses, cache, logits, targets, kIgnoreIndex, Reduction::mean);
    return losses(0, 0);
  };
  loss();
  Matrix<double> dlogits;
  cross_entropy_backward(dlogits, upstream, cache, targets, Reduction::mean);
  CHECK_CLOSE(dlogits, numeric_gradient(logits, loss), kGradTolerance);
}

TEST_CASE("head-own-copy leaves the tied weight the head's gradient alone",
          "[engine][loss][fault]") {
  Rng rng(5);
  const Matrix<double> weight = random_matrix(5, 3, rng);
  const std::vector<std::int64_t> tokens = {4, 1};
  const Matrix<double> dlogits = random_matrix(2, 5, rng);
  TiedHeadCache<double> cache;
  Matrix<double> logits, clean, head, embedding;
  tied_lm_head_forward(logits, cache, tokens, weight);
  tied_lm_head_backward(clean, dlogits, tokens, weight, cache, &head, &embedding);
  const FaultScope scope(Fault::head_own_copy);
  Matrix<double> faulty;
  tied_lm_head_backward(faulty, dlogits, tokens, weight, cache);
  CHECK_CLOSE(faulty, head, 1e-15);
  CHECK((faulty - clean).norm() > 0.1 * clean.norm());
  // The copy is held: the tied pair counts as many parameters as an untied one.
  CHECK(lm_head_matrices(5, 3, true).size() == 2);
  CHECK(lm_head_parameters(5, 3, true) == lm_head_parameters(5, 3, false));
}

TEST_CASE("the tied head refuses a token past the vocabulary", "[engine][loss]") {
  Matrix<double> logits;
  TiedHeadCache<double> cache;
  CHECK_THROWS_WITH(
      tied_lm_head_forward(logits, cache, {0, 6}, Matrix<double>(Matrix<double>::Zero(6, 2))),
      "token 6 at position 1 is past the vocabulary (0..5)");
}

}  // namespace test_loss
