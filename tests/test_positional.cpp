// Positional encodings: the sinusoidal table's formula, the learned table's limit, and RoPE's
// relative-position property in both conventions.
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/positional.hpp"
#include "test_support.hpp"

namespace test_positional {

using namespace proofdeck::engine;
using namespace proofdeck::testing;

TEST_CASE("sinusoidal encoding puts sin on even and cos on odd dimensions at 10000^(2i/d)",
          "[engine][positional]") {
  const Matrix<double> table = sinusoidal_encoding<double>({0, 3}, 6);
  CHECK(table.row(0) == (Matrix<double>(1, 6) << 0, 1, 0, 1, 0, 1).finished());
  for (Index i = 0; i < 3; ++i) {
    const double angle = 3.0 / std::pow(10000.0, 2.0 * static_cast<double>(i) / 6.0);
    CHECK(table(1, 2 * i) == std::sin(angle));
    CHECK(table(1, 2 * i + 1) == std::cos(angle));
  }
}

TEST_CASE("sinusoidal encoding is defined far past any training length", "[engine][positional]") {
  const Matrix<double> table = sinusoidal_encoding<double>({100000}, 8);
  CHECK(table.allFinite());
  CHECK(table.cwiseAbs().maxCoeff() <= 1.0);
}

TEST_CASE("sinusoidal encodings of distinct positions differ", "[engine][positional]") {
  const Matrix<double> table = sinusoidal_encoding<double>(sequential_positions(64), 16);
  for (Index a = 0; a < 64; ++a) {
    for (Index b = a + 1; b < 64; ++b) {
      REQUIRE((table.row(a) - table.row(b)).norm() > 1e-3);
    }
  }
}

TEST_CASE("a learned table looks rows up by position", "[engine][positional]") {
  Rng rng(1);
  const Matrix<double> table = random_matrix(4, 3, rng);
  Matrix<double> out;
  learned_positions_forward(out, {2, 0, 2}, table);
  CHECK(out.row(0) == table.row(2));
  CHECK(out.row(1) == table.row(0));
  CHECK(out.row(2) == table.row(2));
}

TEST_CASE("a learned position table has no row past max_len", "[engine][positional]") {
  const Matrix<double> table = Matrix<double>::Zero(10, 4);
  Matrix<double> out;
  REQUIRE_THROWS_WITH(learned_positions_forward(out, {0, 1, 12}, table),
                      "position 12 is past the learned position table (max_len 10: rows 0..9); a "
                      "learned table has no row for positions it was not trained on");
  REQUIRE_THROWS_AS(learned_positions_forward(out, {-1}, table), EngineError);
}

TEST_CASE("the learned table's gradient accumulates over repeated positions",
          "[engine][positional][gradcheck]") {
  Rng rng(2);
  Matrix<double> table = random_matrix(5, 3, rng);
  const Positions positions = {1, 4, 1};
  const Matrix<double> dout = random_matrix(3, 3, rng);
  Matrix<double> out, dtable;
  learned_positions_backward(dtable, dout, positions, 5);
  const auto loss = [&] {
    learned_positions_forward(out, positions, table);
    return weighted_sum(out, dout);
  };
  CHECK_CLOSE(dtable, numeric_gradient(table, loss), kGradTolerance);
  CHECK(dtable.row(1) == dout.row(0) + dout.row(2));
}

TEST_CASE("RoPE makes q·k depend only on the distance between positions",
          "[engine][positional][rope]") {
  for (const RopeConvention convention : {RopeConvention::interleaved, RopeConvention::half}) {
    INFO(rope_convention_name(convention));
    Rng rng(3);
    const Matrix<double> q = random_matrix(1, 8, rng), k = random_matrix(1, 8, rng);
    const RopeConfig config{convention, 10000.0};
    const auto score = [&](std::int64_t query_position, std::int64_t key_position) {
      Matrix<double> rq, rk;
      rope_forward(rq, q, {query_position}, config);
      rope_forward(rk, k, {key_position}, config);
      return rq.row(0).dot(rk.row(0));
    };
    CHECK(score(5, 2) == Approx(score(103, 100)).epsilon(1e-12));
    CHECK(score(0, 0) == Approx(q.row(0).dot(k.row(0))).epsilon(1e-12));
    CHECK(std::abs(score(5, 2) - score(2, 5)) > 1e-6);  // direction matters
  }
}

TEST_CASE("RoPE rotates, so it keeps each row's norm, and position 0 is the identity",
          "[engine][positional][rope]") {
  Rng rng(4);
  const Matrix<double> x = random_matrix(3, 6, rng);
  Matrix<double> y;
  rope_forward(y, x, {0, 7, 300}, RopeConfig{RopeConvention::half, 500.0});
  CHECK(y.row(0) == x.row(0));
  for (Index t = 0; t < 3; ++t)
    CHECK(y.row(t).norm() == Approx(x.row(t).norm()).epsilon(1e-13));
}

TEST_CASE("the two RoPE conventions pair different dimensions", "[engine][positional][rope]") {
  Matrix<double> x = Matrix<double>::Zero(1, 4);
  x(0, 0) = 1.0;
  Matrix<double> interleaved, half;
  rope_forward(interleaved, x, {1}, RopeConfig{RopeConvention::interleaved, 10000.0});
  rope_forward(half, x, {1}, RopeConfig{RopeConvention::half, 10000.0});
  CHECK(interleaved(0, 1) == Approx(std::sin(1.0)));  // x0 pairs with x1
  CHECK(interleaved(0, 2) == 0.0);
  CHECK(half(0, 2) == Approx(std::sin(1.0)));  // x0 pairs with x2 = x[0 + d/2]
  CHECK(half(0, 1) == 0.0);
}

TEST_CASE("RoPE's backward is the inverse rotation", "[engine][positional][rope][gradcheck]") {
  for (const RopeConvention convention : {RopeConvention::interleaved, RopeConvention::half}) {
    Rng rng(5);
    Matrix<double> x = random_matrix(4, 6, rng);
    const Matrix<double> dout = random_matrix(4, 6, rng);
    const Positions positions = {0, 2, 5, 11};
    const RopeConfig config{convention, 10000.0};
    Matrix<double> y, dx;
    rope_backward(dx, dout, positions, config);
    const auto loss = [&] {
      rope_forward(y, x, positions, config);
      return weighted_sum(y, dout);
    };
    CHECK_CLOSE(dx, numeric_gradient(x, loss), kGradTolerance);
  }
}

TEST_CASE("RoPE refuses an odd width", "[engine][positional][rope]") {
  Matrix<double> x(2, 5), y;
  REQUIRE_THROWS_WITH(rope_forward(y, x, {0, 1}, RopeConfig{}),
                      "rope input needs an even feature size, got 5 (RoPE rotates pairs of "
                      "dimensions)");
}

}  // namespace test_positional
