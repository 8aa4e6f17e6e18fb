// The population behind sqrt-dk-scaling's samples: what a query's largest attention weight, the
// entropy of its weights and the size of the softmax's Jacobian average over all random
// unit-variance q and k (16 keys). The scaled-dot-product-attention bank's explanations quote
// these averages; each quoted figure is held here to a reference of at least 10,000 draws at two
// seeds: within ±0.01, every digit shown supported by the reference's standard error, and seeds 0
// and 1 rounding to the figure as written. The demo's own sample must land within a few standard
// errors of the same reference.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/builtin.hpp"
#include "demo_test_support.hpp"
#include "engine/rng.hpp"

namespace test_sdpa_population {

using proofdeck::engine::Rng;

namespace {

constexpr int kKeys = 16;  // sqrt-dk-scaling's seq_len: the keys each query weighs

enum class Quantity { max_weight, entropy, jacobian };

// One way of drawing: the head width and whether the scores are divided by √d_k.
struct Setting {
  int d_k = 64;
  bool scaled = true;
  auto operator<=>(const Setting&) const = default;
};

struct Mean {
  double value = 0.0;
  double standard_error = 0.0;
};

struct Population {
  Mean max_weight, entropy, jacobian;
  const Mean& operator[](Quantity q) const {
    return q == Quantity::max_weight ? max_weight : q == Quantity::entropy ? entropy : jacobian;
  }
};

// Gamma(shape ≥ 1, scale 1) by Marsaglia & Tsang (2000), from the engine's own generator so the
// reference is the same on every standard library.
double gamma_draw(double shape, Rng& rng) {
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0.0, v = 0.0;
    do {
      x = rng.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = rng.uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

// `draws` query rows. For k_j ~ N(0, I) the scores q·k_j are independent N(0, |q|²) given q, so a
// row is |q|·z_j with z_j ~ N(0, 1) and |q|² ~ χ²(d_k) = 2·Gamma(d_k / 2): the scores' exact
// distribution without drawing d_k-wide vectors. Scaled, |q| is divided by √d_k.
Population population(Setting setting, std::int64_t draws, std::uint64_t seed) {
  Rng rng(seed);
  const double half_width = setting.d_k / 2.0;
  double sums[3] = {0.0, 0.0, 0.0}, squares[3] = {0.0, 0.0, 0.0};
  double score[kKeys], weight[kKeys];
  for (std::int64_t row = 0; row < draws; ++row) {
    double length = std::sqrt(2.0 * gamma_draw(half_width, rng));
    if (setting.scaled) length /= std::sqrt(static_cast<double>(setting.d_k));
    double top_score = -INFINITY;
    for (double& s : score) {
      s = length * rng.normal();
      top_score = std::max(top_score, s);
    }
    double total = 0.0;
    for (int j = 0; j < kKeys; ++j) {
      weight[j] = std::exp(score[j] - top_score);
      total += weight[j];
    }
    double top = 0.0, weighted_score = 0.0, sum_squares = 0.0, fourth = 0.0, diagonal = 0.0;
    for (int j = 0; j < kKeys; ++j) {
      const double p = weight[j] / total;
      top = std::max(top, p);
      weighted_score += p * score[j];
      sum_squares += p * p;
      fourth += p * p * p * p;
      diagonal += p * p * (1.0 - p) * (1.0 - p);
    }
    // −Σ p·ln p with ln p = s − max − ln Σ: one logarithm per row.
    const double entropy = top_score + std::log(total) - weighted_score;
    // ‖diag(p) − p·pᵀ‖_F, as the demo computes it.
    const double jacobian = std::sqrt(std::max(diagonal + sum_squares * sum_squares - fourth, 0.0));
    const double values[3] = {top, entropy, jacobian};
    for (int k = 0; k < 3; ++k) {
      sums[k] += values[k];
      squares[k] += values[k] * values[k];
    }
  }
  const double n = static_cast<double>(draws);
  Mean means[3];
  for (int k = 0; k < 3; ++k) {
    const double mean = sums[k] / n;
    means[k] = {mean, std::sqrt(std::max(squares[k] / n - mean * mean, 0.0) / (n - 1.0))};
  }
  return {means[0], means[1], means[2]};
}

// How many draws each setting takes: enough that every figure quoted from it clears its rounding
// boundary by 3 standard errors (the test checks that it does). The tightest: 0.072 for the
// unscaled Jacobian at d_k = 512 (reference 0.0720, 0.0005 from 0.0725).
std::int64_t draws_for(Setting setting) {
  return (setting.d_k == 4 || setting.d_k == 512) && !(setting.scaled && setting.d_k == 512)
             ? 1'500'000
             : 300'000;
}

// The references at seeds 0 and 1, each computed once for the whole file.
const Population& reference(Setting setting, std::uint64_t seed) {
  static std::map<std::tuple<int, bool, std::uint64_t>, Population> cache;
  const auto key = std::tuple{setting.d_k, setting.scaled, seed};
  auto it = cache.find(key);
  if (it == cache.end()) {
    const std::uint64_t stream =
        seed * 1'000'003 + static_cast<std::uint64_t>(setting.d_k) * 2 + (setting.scaled ? 1 : 0);
    it = cache.emplace(key, population(setting, draws_for(setting), stream)).first;
  }
  return it->second;
}

// A figure an explanation quotes: the question, a passage of its explanation that holds the
// figure, the figure as written, and the average it states.
struct Quote {
  const char* question;
  const char* passage;
  const char* figure;
  Quantity quantity;
  Setting setting;
};

const std::vector<Quote>& quotes() {
  using enum Quantity;
  static const std::vector<Quote> all = {
      {"sdpa-why-scale",
       "a query's largest weight is about 0.95",
       "0.95",
       max_weight,
       {512, false}},
      {"sdpa-why-scale", "Jacobian about 0.072", "0.072", jacobian, {512, false}},
      {"sdpa-why-scale", "against 0.305 with the factor", "0.305", jacobian, {512, true}},
      {"sdpa-why-scale", "its top key about 0.25 on average", "0.25", max_weight, {512, true}},
      {"sdpa-stalled-training",
       "largest weight is then about 0.95",
       "0.95",
       max_weight,
       {512, false}},
      {"sdpa-stalled-training", "Jacobian about 0.072", "0.072", jacobian, {512, false}},
      {"sdpa-stalled-training", "(0.305 with the factor)", "0.305", jacobian, {512, true}},
      {"sdpa-which-head-saturates", "top weight is about 0.92", "0.92", max_weight, {256, false}},
      {"sdpa-which-head-saturates", "(entropy 0.19 nats)", "0.19", entropy, {256, false}},
      {"sdpa-which-head-saturates", "against A's 0.78", "0.78", max_weight, {32, false}},
      {"sdpa-which-head-saturates", "(0.61 nats)", "0.61", entropy, {32, false}},
      {"trap:sdpa-sharper-is-better", "about 0.305 scaled", "0.305", jacobian, {512, true}},
      {"trap:sdpa-sharper-is-better", "about 0.072 unscaled", "0.072", jacobian, {512, false}},
      {"trap:sdpa-scale-irrelevant", "about 0.84 unscaled", "0.84", max_weight, {64, false}},
      {"trap:sdpa-scale-irrelevant", "and 0.25 scaled", "0.25", max_weight, {64, true}},
      {"trap:sdpa-divide-by-dk", "between 0.23 and 0.25", "0.23", max_weight, {4, true}},
      {"trap:sdpa-divide-by-dk", "between 0.23 and 0.25", "0.25", max_weight, {512, true}},
      {"trap:sdpa-scaling-makes-uniform", "between 0.23 and 0.25", "0.23", max_weight, {4, true}},
      {"trap:sdpa-scaling-makes-uniform", "between 0.23 and 0.25", "0.25", max_weight, {512, true}},
  };
  return all;
}

// Digits after the decimal point in a figure as written ("0.072" → 3).
int decimals(const std::string& figure) {
  const auto point = figure.find('.');
  return point == std::string::npos ? 0 : static_cast<int>(figure.size() - point - 1);
}

// Significant digits of a figure as written ("0.072" → 2, "2.36" → 3).
int significant_digits(const std::string& figure) {
  const auto first = figure.find_first_of("123456789");
  int count = 0;
  for (auto i = first; i < figure.size(); ++i)
    count += figure[i] >= '0' && figure[i] <= '9';
  return count;
}

double rounded(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

// A question's explanation, or with "trap:" before the id a trap's correction: the texts a learner
// reads as fact.
std::string explanation(const std::string& where) {
  const bool trap = where.starts_with("trap:");
  const std::string id = trap ? where.substr(5) : where;
  for (const auto& bank : proofdeck::bank::builtin_banks()) {
    const nlohmann::json parsed = nlohmann::json::parse(bank.text);
    for (const auto& item : parsed.at(trap ? "traps" : "questions"))
      if (item.at("id") == id) return item.at(trap ? "correction" : "explanation");
  }
  FAIL("no built-in " << (trap ? "trap " : "question ") << id);
  return {};
}

const char* name(Quantity q) {
  return q == Quantity::max_weight ? "largest weight"
         : q == Quantity::entropy  ? "entropy"
                                   : "Jacobian";
}

}  // namespace

TEST_CASE("the sdpa explanations quote population averages, every digit held at two seeds",
          "[demo][population]") {
  for (const Quote& quote : quotes()) {
    const std::string figure = quote.figure;
    INFO(quote.question << ": " << figure << " (" << name(quote.quantity)
                        << " at d_k = " << quote.setting.d_k
                        << (quote.setting.scaled ? ", scaled" : ", unscaled") << ")");
    const std::string text = explanation(quote.question);
    CHECK(text.find(quote.passage) != std::string::npos);
    CHECK(std::string(quote.passage).find(figure) != std::string::npos);
    CHECK(significant_digits(figure) >= 2);

    const double stated = std::stod(figure);
    const int digits = decimals(figure);
    const Mean& first = reference(quote.setting, 0)[quote.quantity];
    const Mean& second = reference(quote.setting, 1)[quote.quantity];
    INFO("references " << first.value << " ± " << first.standard_error << " and " << second.value
                       << " ± " << second.standard_error);
    CHECK(draws_for(quote.setting) >= 10'000);
    CHECK(std::abs(first.value - stated) <= 0.01);
    // Seeds 0 and 1 agree to the digits shown, and those digits are the figure as written...
    CHECK(rounded(first.value, digits) == rounded(stated, digits));
    CHECK(rounded(second.value, digits) == rounded(stated, digits));
    // ...not by luck: the reference sits at least 3 standard errors inside the rounding interval.
    const double half_unit = 0.5 * std::pow(10.0, -digits);
    CHECK(half_unit - std::abs(first.value - stated) >= 3.0 * first.standard_error);
  }
}

TEST_CASE("'under one half' at d_k = 4 unscaled is a bound the population clears",
          "[demo][population]") {
  CHECK(explanation("sdpa-which-head-saturates").find("under one half") != std::string::npos);
  for (const std::uint64_t seed : {0u, 1u}) {
    const Mean& top = reference({4, false}, seed).max_weight;
    CHECK(top.value + 3.0 * top.standard_error < 0.5);
  }
}

TEST_CASE("the demo's text quotes the population as the explanations do", "[demo][population]") {
  const auto result = proofdeck::testing::run("sqrt-dk-scaling");
  const std::string& text = result.text.back();
  CHECK(text.find("about 0.25 scaled at every width from 64 up, and 0.84 unscaled at d_k = 64") !=
        std::string::npos);
  for (const std::uint64_t seed : {0u, 1u}) {
    INFO("seed " << seed);
    for (const int d_k : {64, 128, 256, 512}) {
      INFO("d_k = " << d_k);
      CHECK(rounded(reference({d_k, true}, seed).max_weight.value, 2) == 0.25);
    }
    CHECK(rounded(reference({64, false}, seed).max_weight.value, 2) == 0.84);
  }
}

TEST_CASE("every figure the saturation explanations and traps quote is in the table above",
          "[demo][population]") {
  // A figure added to one of these explanations without a row here would go unchecked: each
  // decimal in them is either a quoted average, a {value:…} the demo computes, or exact
  // arithmetic named here.
  const std::vector<std::string> arithmetic = {"22.6", "0.0625", "2.77", "11.3", "5.7", "0.4"};
  std::map<std::string, std::vector<std::string>> quoted;
  for (const Quote& quote : quotes())
    quoted[quote.question].push_back(quote.figure);
  quoted["trap:sdpa-no-growth"];  // √512 alone
  for (const auto& [question, figures] : quoted) {
    INFO(question);
    const std::string text = explanation(question);
    for (std::size_t at = 0; (at = text.find_first_of("0123456789", at)) != std::string::npos;) {
      const std::size_t end = text.find_first_not_of("0123456789.", at);
      std::string number = text.substr(at, end - at);
      while (!number.empty() && number.back() == '.')
        number.pop_back();
      at = end == std::string::npos ? text.size() : end;
      if (number.find('.') == std::string::npos) continue;  // whole numbers: widths, counts
      const bool known =
          std::find(figures.begin(), figures.end(), number) != figures.end() ||
          std::find(arithmetic.begin(), arithmetic.end(), number) != arithmetic.end();
      INFO("the figure " << number);
      CHECK(known);
    }
  }
}

TEST_CASE("the demo's own sample lands within a few standard errors of the population",
          "[demo][population]") {
  // 64 draws of 16 queries: 1,024 rows, against the reference at seed 0.
  const auto result = proofdeck::testing::run("sqrt-dk-scaling", {"d_k=4,64,512", "trials=64"}, 3);
  for (const int d_k : {4, 64, 512}) {
    for (const bool scaled : {true, false}) {
      INFO("d_k = " << d_k << (scaled ? ", scaled" : ", unscaled"));
      const std::string suffix =
          std::string(scaled ? "scaled" : "unscaled") + "_dk" + std::to_string(d_k);
      const Population& truth = reference({d_k, scaled}, 0);
      // Rows of one draw share their keys, so the sample's error is larger than 1,024 rows'
      // would be: 6 of the reference's per-row standard deviations over √64 draws bound it.
      const auto bound = [&](const Mean& mean) {
        const double per_row =
            mean.standard_error * std::sqrt(static_cast<double>(draws_for({d_k, scaled})) - 1.0);
        return 6.0 * per_row / std::sqrt(64.0);
      };
      CHECK(std::abs(proofdeck::testing::number(result, "max_weight_" + suffix) -
                     truth.max_weight.value) <= bound(truth.max_weight));
      CHECK(std::abs(proofdeck::testing::number(result, "entropy_" + suffix) -
                     truth.entropy.value) <= bound(truth.entropy));
      CHECK(std::abs(proofdeck::testing::number(result, "softmax_grad_" + suffix) -
                     truth.jacobian.value) <= bound(truth.jacobian));
    }
  }
}

}  // namespace test_sdpa_population
