// Choosing the next token (engine/decoding.hpp): generate()'s logits warpers — temperature, then
// top-k, then top-p — and beam search, at their edges (ties, a nucleus that one token fills, a
// beam of one), under each of their engine faults, and refusing what they cannot take. PyTorch's
// numbers are in tests/fixtures/sampling*.json and beam_search.json (test_torch_fixtures.cpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "engine/decoding.hpp"
#include "engine/fault.hpp"

namespace test_decoding {

using namespace proofdeck::engine;
using Mat = Matrix<double>;

namespace {

Mat row(std::vector<double> values) {
  Mat m(1, static_cast<Index>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    m(0, static_cast<Index>(i)) = values[i];
  return m;
}

Mat warp(const Mat& logits, double temperature, Index top_k, double top_p, Mat* kept = nullptr) {
  SamplingConfig config;
  config.temperature = temperature;
  config.top_k = top_k;
  config.top_p = top_p;
  Mat probs;
  sampling_distribution(probs, logits, config, kept);
  return probs;
}

// Bigram probabilities as logits: row t is what follows token t.
Mat table(const std::vector<std::vector<double>>& probs) {
  Mat t(static_cast<Index>(probs.size()), static_cast<Index>(probs.size()));
  for (std::size_t r = 0; r < probs.size(); ++r)
    for (std::size_t c = 0; c < probs.size(); ++c)
      t(static_cast<Index>(r), static_cast<Index>(c)) = std::log(probs[r][c]);
  return t;
}

const Mat kLogits = row({2.0, 1.5, 1.0, 0.5, 0.0, -1.0});
const std::vector<std::vector<double>> kBigram = {{0.01, 0.50, 0.39, 0.10},
                                                  {0.20, 0.30, 0.10, 0.40},
                                                  {0.03, 0.02, 0.05, 0.90},
                                                  {0.25, 0.25, 0.25, 0.25}};

}  // namespace

TEST_CASE("with no warper the distribution is the softmax of the logits", "[engine][decoding]") {
  const Mat probs = warp(kLogits, 1.0, 0, 1.0);
  double total = 0.0;
  for (Index v = 0; v < kLogits.cols(); ++v)
    total += std::exp(kLogits(0, v));
  for (Index v = 0; v < kLogits.cols(); ++v)
    CHECK(probs(0, v) == Approx(std::exp(kLogits(0, v)) / total).epsilon(1e-14));
}

TEST_CASE("temperature divides the logits: below 1 sharpens, above 1 flattens, order stays",
          "[engine][decoding]") {
  const Mat sharp = warp(kLogits, 0.5, 0, 1.0);
  const Mat flat = warp(kLogits, 2.0, 0, 1.0);
  const Mat plain = warp(kLogits, 1.0, 0, 1.0);
  CHECK(sharp(0, 0) > plain(0, 0));
  CHECK(flat(0, 0) < plain(0, 0));
  // softmax(z / 2) is softmax(z · 0.5): the same as halving the logits
  CHECK(flat.isApprox(warp(row({1.0, 0.75, 0.5, 0.25, 0.0, -0.5}), 1.0, 0, 1.0), 1e-14));
  for (Index v = 1; v < kLogits.cols(); ++v) {
    CHECK(sharp(0, v) < sharp(0, v - 1));
    CHECK(flat(0, v) < flat(0, v - 1));
  }
}

TEST_CASE("top-k keeps the k largest, and every token tied with the k-th", "[engine][decoding]") {
  Mat kept;
  const Mat probs = warp(kLogits, 1.0, 2, 1.0, &kept);
  CHECK(kept == row({1, 1, 0, 0, 0, 0}));
  CHECK(probs(0, 0) + probs(0, 1) == Approx(1.0).epsilon(1e-14));
  CHECK(probs(0, 0) / probs(0, 1) == Approx(std::exp(0.5)).epsilon(1e-12));
  // HF removes only what is below the k-th value: a tie with it stays
  warp(row({3.0, 1.0, 1.0, 0.0}), 1.0, 2, 1.0, &kept);
  CHECK(kept == row({1, 1, 1, 0}));
  // k at or past the vocabulary keeps everything
  warp(kLogits, 1.0, 6, 1.0, &kept);
  CHECK(kept.sum() == 6);
}

TEST_CASE("top-p keeps the smallest set of likeliest tokens whose probability reaches p",
          "[engine][decoding]") {
  // softmax: 0.420, 0.255, 0.154, 0.094, 0.057, 0.021; running 0.420, 0.674, 0.829, 0.922
  Mat kept;
  warp(kLogits, 1.0, 0, 0.9, &kept);
  CHECK(kept == row({1, 1, 1, 1, 0, 0}));
  warp(kLogits, 1.0, 0, 0.8, &kept);
  CHECK(kept == row({1, 1, 1, 0, 0, 0}));
  // a p the likeliest token alone reaches keeps it alone; p = 1 keeps all
  const Mat one = warp(kLogits, 1.0, 0, 0.3, &kept);
  CHECK(kept == row({1, 0, 0, 0, 0, 0}));
  CHECK(one(0, 0) == 1.0);
  warp(kLogits, 1.0, 0, 1.0, &kept);
  CHECK(kept.sum() == 6);
  // top-p acts on what temperature and top-k left: with top-k 2 the pair holds all the mass
  warp(kLogits, 1.0, 2, 0.9, &kept);
  CHECK(kept == row({1, 1, 0, 0, 0, 0}));
}

TEST_CASE("beam search: a beam of one is greedy, a wider beam finds the likelier sequence",
          "[engine][decoding]") {
  const Mat next = table(kBigram);
  const auto greedy = beam_search(next, 0, 2, 1);
  REQUIRE(greedy.size() == 1);
  CHECK(greedy[0].tokens == std::vector<Index>{1, 3});
  CHECK(std::exp(greedy[0].log_prob) == Approx(0.20).epsilon(1e-12));
  const auto beam = beam_search(next, 0, 2, 2);
  REQUIRE(beam.size() == 2);
  CHECK(beam[0].tokens == std::vector<Index>{2, 3});
  CHECK(std::exp(beam[0].log_prob) == Approx(0.351).epsilon(1e-12));
  CHECK(beam[1].log_prob <= beam[0].log_prob);
  // every sequence of two: the beam of 16 lists them all, best first
  const auto all = beam_search(next, 0, 2, 16);
  REQUIRE(all.size() == 16);
  CHECK(all.front().tokens == beam[0].tokens);
  for (std::size_t i = 1; i < all.size(); ++i)
    CHECK(all[i].log_prob <= all[i - 1].log_prob);
}

TEST_CASE("each decoding fault breaks the claim it names", "[engine][decoding][fault]") {
  SECTION("temperature-inverted: a high temperature sharpens") {
    const FaultScope scope(Fault::temperature_inverted);
    CHECK(warp(kLogits, 2.0, 0, 1.0)(0, 0) > warp(kLogits, 1.0, 0, 1.0)(0, 0));
  }
  SECTION("top-p-drops-crossing-token: the nucleus falls short of p") {
    const FaultScope scope(Fault::top_p_drops_crossing_token);
    Mat kept;
    warp(kLogits, 1.0, 0, 0.9, &kept);
    CHECK(kept == row({1, 1, 1, 0, 0, 0}));
    warp(kLogits, 1.0, 0, 0.3, &kept);  // the likeliest token always stays
    CHECK(kept.sum() == 1);
  }
  SECTION("top-p-share-of-vocabulary: ⌈p·V⌉ tokens stay at every temperature") {
    const FaultScope scope(Fault::top_p_share_of_vocabulary);
    Mat kept;
    warp(kLogits, 1.0, 0, 0.5, &kept);  // ⌈0.5 · 6⌉ = 3, though two reach 0.5
    CHECK(kept == row({1, 1, 1, 0, 0, 0}));
    warp(kLogits, 2.0, 0, 0.5, &kept);  // flatter, and still 3
    CHECK(kept == row({1, 1, 1, 0, 0, 0}));
  }
  SECTION("beam-keeps-one: a beam of two is greedy") {
    const FaultScope scope(Fault::beam_keeps_one);
    const auto beam = beam_search(table(kBigram), 0, 2, 2);
    REQUIRE(beam.size() == 1);
    CHECK(beam[0].tokens == std::vector<Index>{1, 3});
  }
}

TEST_CASE("the warpers and the search refuse what they cannot take, saying why",
          "[engine][decoding]") {
  Mat probs;
  SamplingConfig config;
  config.temperature = 0.0;
  CHECK_THROWS_WITH(sampling_distribution(probs, kLogits, config),
                    Catch::Contains("temperature must be a positive number, got 0"));
  config = SamplingConfig{};
  config.top_p = 0.0;
  CHECK_THROWS_WITH(sampling_distribution(probs, kLogits, config),
                    Catch::Contains("top_p must be in (0, 1], got 0"));
  config = SamplingConfig{};
  config.top_k = -1;
  CHECK_THROWS_WITH(sampling_distribution(probs, kLogits, config),
                    Catch::Contains("top_k must be 0 (off) or a positive count, got -1"));
  CHECK_THROWS_WITH(sampling_distribution(probs, row({1.0, INFINITY}), SamplingConfig{}),
                    Catch::Contains("logit 1 of row 0 is not finite"));
  const Mat next = table(kBigram);
  CHECK_THROWS_WITH(beam_search(Mat(Mat::Zero(2, 3)), 0, 1, 1),
                    Catch::Contains("next_logits has shape (2, 3), expected (vocab, vocab)"));
  CHECK_THROWS_WITH(beam_search(next, 4, 1, 1),
                    Catch::Contains("start token 4 is not in the vocabulary of 4"));
  CHECK_THROWS_WITH(beam_search(next, 0, 0, 1), Catch::Contains("steps must be at least 1"));
  CHECK_THROWS_WITH(beam_search(next, 0, 1, 5),
                    Catch::Contains("beams must be between 1 and vocab^steps (4^1), got 5"));
}

}  // namespace test_decoding
