// QLoRA's NF4 (bitsandbytes' quantize_4bit, quant_type "nf4"): the 16 levels are a standard
// normal's quantiles, a value takes the nearest level of its block's scale (a tie the lower),
// the storage cost per parameter with and without double quantization, what NF4 buys on normal
// weights over evenly spaced levels (the fault), and the refusals. The numbers of plain-torch
// bitsandbytes are in the nf4_* fixtures (scripts/torch_reference_nf4.py).
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "engine/fault.hpp"
#include "engine/nf4.hpp"
#include "test_support.hpp"

namespace test_nf4 {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

namespace {

// Φ⁻¹(p) by bisection on the normal CDF, ½·erfc(−z/√2).
double normal_quantile(double p) {
  double low = -10, high = 10;
  for (int i = 0; i < 200; ++i) {
    const double mid = (low + high) / 2;
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? low : high) = mid;
  }
  return (low + high) / 2;
}

Nf4Result<double> quantize(const Matrix<double>& x, Index block_size, bool double_quant = false) {
  Nf4Config config;
  config.block_size = block_size;
  config.double_quant = double_quant;
  Nf4Result<double> result;
  nf4_quantize(result, x, config);
  return result;
}

double rms_error(const Matrix<double>& x, const Matrix<double>& q) {
  return std::sqrt((x - q).squaredNorm() / static_cast<double>(x.size()));
}

}  // namespace

TEST_CASE("NF4's 16 levels are a standard normal's quantiles scaled to [−1, 1], with an exact 0",
          "[engine][nf4]") {
  const auto& book = nf4_code_book();
  // create_normal_map(offset = 0.9677083): 8 probabilities from the offset down to ½ (½ left out)
  // for the positive half and 7 for the negative, each level Φ⁻¹(p) / Φ⁻¹(offset)
  const double offset = 0.9677083;
  const double top = normal_quantile(offset);
  for (int i = 0; i < 8; ++i) {
    const double p = offset + (0.5 - offset) * i / 8;
    CHECK(book[static_cast<std::size_t>(15 - i)] == Approx(normal_quantile(p) / top).margin(1e-6));
  }
  for (int i = 0; i < 7; ++i) {
    const double p = offset + (0.5 - offset) * i / 7;
    CHECK(book[static_cast<std::size_t>(i)] == Approx(-normal_quantile(p) / top).margin(1e-6));
  }
  CHECK(book[7] == 0.0f);
  CHECK(book.front() == -1.0f);
  CHECK(book.back() == 1.0f);
  CHECK(std::is_sorted(book.begin(), book.end()));
}

TEST_CASE("the dynamic map has 256 sorted levels, 2^i of each sign in decade i, 0 and 1",
          "[engine][nf4]") {
  const std::vector<float>& map = dynamic_map_8bit();
  REQUIRE(map.size() == 256);
  CHECK(std::set<float>(map.begin(), map.end()).size() == 256);
  CHECK(std::is_sorted(map.begin(), map.end()));
  CHECK(map[127] == 0.0f);
  CHECK(map.back() == 1.0f);
  CHECK(map.front() == Approx(-0.99296875).epsilon(1e-7));  // no −1: the mean's block loses 0.7%
  for (int i = 0; i < 7; ++i) {
    const double low = std::pow(10.0, i - 7), high = std::pow(10.0, i - 6);
    const auto in_decade =
        std::count_if(map.begin(), map.end(), [&](float v) { return v >= low && v < high; });
    CHECK(in_decade == (1 << i));
  }
}

TEST_CASE("a value takes the nearest level of its block's absmax, a tie the lower one",
          "[engine][nf4]") {
  const auto& book = nf4_code_book();
  Matrix<double> x(1, 4);
  const double midpoint = (static_cast<double>(book[8]) + static_cast<double>(book[9])) / 2;
  x << 2.0, static_cast<double>(static_cast<float>(midpoint)) * 2.0, 0.1, -2.0;
  const Nf4Result<double> q = quantize(x, 4);
  CHECK(q.absmax == std::vector<double>{2.0});
  CHECK(q.codes == std::vector<std::uint8_t>{15, 8, 8, 0});
  CHECK(q.output(0, 0) == 2.0);
  CHECK(q.output(0, 3) == -2.0);
  CHECK(q.output(0, 2) == Approx(2.0 * static_cast<double>(book[8])));
}

TEST_CASE("blocks run along the flattened rows, a partial last block and a zero block included",
          "[engine][nf4]") {
  Matrix<double> x(3, 3);
  x << 1, 2, 4, 0, 0, 0, 0, 0, 0.5;
  const Nf4Result<double> q = quantize(x, 4);
  // 1 2 4 0 | 0 0 0 0 | 0.5: the second block is all zeros, the last holds one value
  CHECK(q.absmax == std::vector<double>{4.0, 0.0, 0.5});
  CHECK(q.codes[5] == 7);  // the zero level
  CHECK(q.output(1, 1) == 0.0);
  CHECK(q.output(2, 2) == 0.5);
}

TEST_CASE("block constants cost 32/64 bits a parameter, 8/64 + 32/(64·256) double-quantized",
          "[engine][nf4]") {
  Rng rng(71);
  const Matrix<double> x = random_matrix(256, 128, rng, 0.02);  // 512 blocks of 64
  const Nf4Result<double> plain = quantize(x, 64);
  CHECK(plain.bits_per_parameter == 4.5);
  const Nf4Result<double> compressed = quantize(x, 64, true);
  CHECK(compressed.absmax_scales.size() == 2);
  CHECK(compressed.bits_per_parameter ==
        Approx(4.0 + 8.0 / 64 + 32.0 / (64 * 256) + 32.0 / (256 * 128)).epsilon(1e-12));
  CHECK(compressed.codes == plain.codes);  // the values' codes come from the exact absmax
  // restoring the absmax from 8 bits costs little: within 1% of each block's own
  for (std::size_t b = 0; b < plain.absmax.size(); ++b)
    CHECK(compressed.absmax[b] == Approx(plain.absmax[b]).epsilon(0.01));
  CHECK(rms_error(x, compressed.output) == Approx(rms_error(x, plain.output)).epsilon(0.01));
}

TEST_CASE("nf4-uniform-levels: evenly spaced levels lose precision on normal weights",
          "[engine][nf4][faults]") {
  Rng rng(72);
  const Matrix<double> x = random_matrix(64, 64, rng, 0.02);
  const double nf4_error = rms_error(x, quantize(x, 64).output);
  const FaultScope scope(Fault::nf4_uniform_levels);
  const double uniform_error = rms_error(x, quantize(x, 64).output);
  CHECK(uniform_error > 1.1 * nf4_error);
}

TEST_CASE("double-quant-scales-free: the second level's constants cost nothing",
          "[engine][nf4][faults]") {
  Rng rng(73);
  const Matrix<double> x = random_matrix(256, 128, rng, 0.02);
  const FaultScope scope(Fault::double_quant_scales_free);
  CHECK(quantize(x, 64, true).bits_per_parameter == 4.125);
}

TEST_CASE("NF4 refuses a block size below 1", "[engine][nf4]") {
  Nf4Config config;
  config.block_size = 0;
  CHECK_THROWS_WITH(check_nf4_config(config), "block_size must be at least 1, got 0");
}

}  // namespace test_nf4
