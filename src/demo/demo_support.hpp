// Small pieces the demo files share: parameter specs, parameter checks and errors, sentences
// that stay true at every setting, seeded matrices, and the few tables and numbers more than one
// demo builds. A helper only one demo uses stays in that demo's file.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/statistics.hpp"
#include "demo/demo.hpp"
#include "engine/rng.hpp"
#include "text/number.hpp"

namespace proofdeck::demo {

inline ParamSpec integer_param(std::string name, std::int64_t fallback, std::int64_t min,
                               std::int64_t max, std::string description) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.type = ParamSpec::Type::integer;
  spec.default_value = fallback;
  spec.min = static_cast<double>(min);
  spec.max = static_cast<double>(max);
  spec.description = std::move(description);
  return spec;
}

inline ParamSpec number_param(std::string name, double fallback, double min, double max,
                              std::string description) {
  ParamSpec spec = integer_param(std::move(name), 0, 0, 0, std::move(description));
  spec.type = ParamSpec::Type::number;
  spec.default_value = fallback;
  spec.min = min;
  spec.max = max;
  return spec;
}

inline ParamSpec list_param(std::string name, std::vector<std::int64_t> fallback, std::int64_t min,
                            std::int64_t max, std::string description) {
  ParamSpec spec = integer_param(std::move(name), 0, min, max, std::move(description));
  spec.type = ParamSpec::Type::integer_list;
  spec.default_value = fallback;
  return spec;
}

inline ParamSpec text_param(std::string name, std::string fallback, std::size_t max_words,
                            std::string description) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.type = ParamSpec::Type::text;
  spec.default_value = std::move(fallback);
  spec.max_items = max_words;
  spec.description = std::move(description);
  return spec;
}

inline ParamSpec flag_param(std::string name, bool fallback, std::string description) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.type = ParamSpec::Type::boolean;
  spec.default_value = fallback;
  spec.description = std::move(description);
  return spec;
}

inline ParamSpec choice_param(std::string name, std::string fallback,
                              std::vector<std::string> choices, std::string description) {
  ParamSpec spec;
  spec.name = std::move(name);
  spec.type = ParamSpec::Type::choice;
  spec.default_value = std::move(fallback);
  spec.choices = std::move(choices);
  spec.description = std::move(description);
  return spec;
}

// --- sentences that stay true at every setting -------------------------------------------------
// A demo's prose is written for the defaults, which compare several widths, depths or draws; a
// run at one of them must not read "from 0.483 to 0.483" or "(1 draws)" (text::count writes
// "1 draw"). These take numbers already written for people, so two values that print the same
// count as one.

// "0.999 to 1.0", or "1.0" when both read the same.
inline std::string span_to(const std::string& low, const std::string& high) {
  return low == high ? low : low + " to " + high;
}

// "between 0.043 and 0.051", or "at 0.043" when both read the same.
inline std::string span_between(const std::string& low, const std::string& high) {
  return low == high ? "at " + low : "between " + low + " and " + high;
}

// "0.5 → 0.03", or "0.5" when both read the same.
inline std::string span_arrow(const std::string& from, const std::string& to) {
  return from == to ? from : from + " → " + to;
}

// InputError (exit 2): "demo NAME: message".
[[noreturn]] inline void param_error(const std::string& demo, const std::string& message) {
  throw InputError("demo.param", fmt::format("demo {}: {}", demo, message));
}

inline double as_double(std::int64_t n) {
  return static_cast<double>(n);
}

// 1, 2, 4, 8 for 8: the head counts (or key/value head counts) a width (or head count) allows.
inline std::vector<std::int64_t> divisors_of(std::int64_t n) {
  std::vector<std::int64_t> divisors;
  for (std::int64_t d = 1; d <= n; ++d) {
    if (n % d == 0) divisors.push_back(d);
  }
  return divisors;
}

// "heads=7: d_model 512 is not divisible by 7; ... heads must be one of 1, 2, 4, ..." unless
// `heads` divides `d_model`.
inline void require_divides(const std::string& demo, std::int64_t d_model, std::int64_t heads,
                            const char* heads_key) {
  if (d_model % heads == 0) return;
  param_error(demo,
              fmt::format("{}={}: d_model {} is not divisible by {}; each head gets "
                          "d_model / heads dimensions, so heads must be one of {}",
                          heads_key, heads, d_model, heads, fmt::join(divisors_of(d_model), ", ")));
}

// The list sorted, each entry once; a repeated entry is a parameter error.
inline std::vector<std::int64_t> distinct_sorted(const std::string& demo, const std::string& name,
                                                 std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  const auto repeated = std::adjacent_find(values.begin(), values.end());
  if (repeated != values.end()) {
    param_error(demo, fmt::format("{}: {} appears twice; give each value once", name, *repeated));
  }
  return values;
}

// "kv_heads=3: the 8 query heads must share the key/value heads evenly, ..." unless `kv_heads`
// divides `heads`.
inline void require_kv_divides(const std::string& demo, std::int64_t heads, std::int64_t kv_heads) {
  if (heads % kv_heads == 0) return;
  param_error(demo, fmt::format("kv_heads={}: the {} query heads must share the key/value heads "
                                "evenly, so kv_heads must be one of {}",
                                kv_heads, heads, fmt::join(divisors_of(heads), ", ")));
}

// "head_dim=15: RoPE rotates pairs of dimensions, ..." unless `value` is even.
inline void require_even(const std::string& demo, const char* name, std::int64_t value) {
  if (value % 2 == 0) return;
  param_error(demo, fmt::format("{}={}: RoPE rotates pairs of dimensions, so {} must be even", name,
                                value, name));
}

// The most multiply-adds one run may cost (a second or two on one core); larger sizes are refused.
inline constexpr double work_limit = 4e9;

// "layers=…, d_model=… and seq_len=… need about … multiply-adds, more than …" when `work` is
// above the limit; `sizes` names the settings that cost it.
inline void check_work(const std::string& demo, double work, const std::string& sizes) {
  if (work > work_limit) {
    param_error(demo, fmt::format("{} need about {} multiply-adds, more than the {} one run may "
                                  "take; choose smaller values",
                                  sizes, text::format_readable(work, 2),
                                  text::format_readable(work_limit, 1)));
  }
}

// --- numbers, tables and words more than one demo uses -------------------------------------------

inline engine::Matrix<double> random_matrix(engine::Index rows, engine::Index cols,
                                            engine::Rng& rng, double mean, double stddev) {
  engine::Matrix<double> m(rows, cols);
  engine::fill_normal(m, mean, stddev, rng);
  return m;
}

// from, from + 1, …, to: a series' x axis of layers or steps.
inline std::vector<double> count_up(std::int64_t from, std::int64_t to) {
  std::vector<double> xs;
  for (std::int64_t i = from; i <= to; ++i)
    xs.push_back(as_double(i));
  return xs;
}

// Largest over smallest of the positive values (a gradient that died is exactly 0; 1 if all are).
inline double max_over_min(const std::vector<double>& values) {
  double low = 0.0, high = 0.0;
  for (const double value : values) {
    if (value <= 0.0) continue;
    low = low == 0.0 ? value : std::min(low, value);
    high = std::max(high, value);
  }
  return low > 0.0 ? high / low : 1.0;
}

// Per-row mean and biased variance.
inline std::pair<engine::Vector<double>, engine::Vector<double>> row_stats(
    const engine::Matrix<double>& m) {
  const engine::Vector<double> mean = m.rowwise().mean();
  const engine::Vector<double> variance =
      (m.colwise() - mean).rowwise().squaredNorm() / static_cast<double>(m.cols());
  return {mean, variance};
}

// Row or column labels "t0", "t1", … (prefix "t", first 0), or "layer 1", "layer 2", ….
inline std::vector<std::string> numbered(std::string_view prefix, std::int64_t count,
                                         std::int64_t first = 0) {
  std::vector<std::string> labels;
  for (std::int64_t i = first; i < first + count; ++i)
    labels.push_back(fmt::format("{}{}", prefix, i));
  return labels;
}

// A table of weights in [0, 1], drawn shaded.
inline Table heatmap(std::string name, std::string title, std::vector<std::string> rows,
                     std::vector<std::string> columns, engine::Matrix<double> cells) {
  return Table{std::move(name),    std::move(title),       std::move(rows),
               std::move(columns), Eigen::MatrixXd(cells), true};
}

// "1,048,576": an exact count in prose.
inline std::string grouped(double count) {
  return text::format_readable(count, 15);
}

// "256 MiB", "4 KiB", "512 bytes": a byte count people read at a glance.
inline std::string bytes_text(double bytes) {
  constexpr const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t unit = 0;
  double value = bytes;
  while (value >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  return text::format_readable(value, 3) + " " + units[unit];
}

}  // namespace proofdeck::demo
