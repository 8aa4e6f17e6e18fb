// Demo parameters (--set parsing and validation), DemoResult lookup and its JSON form.
#include "demo/demo.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "engine/blocking.hpp"
#include "engine/rng.hpp"
#include "engine/run_context.hpp"

namespace proofdeck::demo {

using nlohmann::ordered_json;

std::string_view provenance_name(Provenance provenance) {
  switch (provenance) {
    case Provenance::measured:
      return "measured";
    case Provenance::counted:
      return "counted";
    case Provenance::derived:
      return "derived";
    case Provenance::param:
      return "param";
  }
  return "derived";
}

std::optional<Provenance> parse_provenance(std::string_view name) {
  for (const Provenance p :
       {Provenance::measured, Provenance::counted, Provenance::derived, Provenance::param}) {
    if (provenance_name(p) == name) return p;
  }
  return std::nullopt;
}

const Value* DemoResult::find(const std::string& name) const {
  for (const auto& [key, value] : values) {
    if (key == name) return &value;
  }
  return nullptr;
}

const std::string& DemoResult::claim_of(const DemoInfo& info) const {
  return claim.empty() ? info.claim : claim;
}

const std::string& DemoResult::section_of(const DemoInfo& info) const {
  return section.empty() ? info.section : section;
}

std::int64_t Params::integer(const std::string& name) const {
  return values_.at(name).get<std::int64_t>();
}
double Params::number(const std::string& name) const {
  return values_.at(name).get<double>();
}
const std::string& Params::text(const std::string& name) const {
  return values_.at(name).get_ref<const std::string&>();
}
std::vector<std::int64_t> Params::integers(const std::string& name) const {
  return values_.at(name).get<std::vector<std::int64_t>>();
}
bool Params::flag(const std::string& name) const {
  return values_.at(name).get<bool>();
}

namespace {

std::string trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

std::string range_text(const ParamSpec& spec) {
  if (spec.type == ParamSpec::Type::integer || spec.type == ParamSpec::Type::integer_list) {
    return fmt::format("{} to {}", static_cast<std::int64_t>(spec.min),
                       static_cast<std::int64_t>(spec.max));
  }
  return fmt::format("{} to {}", spec.min, spec.max);
}

std::string expectation(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamSpec::Type::integer:
      return "an integer from " + range_text(spec);
    case ParamSpec::Type::number:
      return "a number from " + range_text(spec);
    case ParamSpec::Type::text:
      return fmt::format("text of 1 to {} words", spec.max_items);
    case ParamSpec::Type::integer_list:
      return fmt::format("1 to {} integers from {}, separated by commas", spec.max_items,
                         range_text(spec));
    case ParamSpec::Type::boolean:
      return "true or false";
    case ParamSpec::Type::choice:
      return fmt::format("one of {}", fmt::join(spec.choices, ", "));
  }
  return "a value";
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<double> parse_number(std::string_view text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() ||
      !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// The value of one --set, checked against its spec; nullopt when it does not fit.
std::optional<ordered_json> parse_value(const ParamSpec& spec, const std::string& text) {
  switch (spec.type) {
    case ParamSpec::Type::integer: {
      const auto value = parse_integer(text);
      if (!value || static_cast<double>(*value) < spec.min ||
          static_cast<double>(*value) > spec.max) {
        return std::nullopt;
      }
      return ordered_json(*value);
    }
    case ParamSpec::Type::number: {
      const auto value = parse_number(text);
      if (!value || *value < spec.min || *value > spec.max) return std::nullopt;
      return ordered_json(*value);
    }
    case ParamSpec::Type::text: {
      std::size_t words = 0;
      bool in_word = false;
      for (const char c : text) {
        if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;  // no control characters
        const bool space = c == ' ' || c == '\t';
        if (!space && !in_word) ++words;
        in_word = !space;
      }
      if (words == 0 || words > spec.max_items) return std::nullopt;
      return ordered_json(text);
    }
    case ParamSpec::Type::integer_list: {
      std::vector<std::int64_t> values;
      std::size_t start = 0;
      while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const auto value = parse_integer(trim(std::string_view(text).substr(start, comma - start)));
        if (!value || static_cast<double>(*value) < spec.min ||
            static_cast<double>(*value) > spec.max) {
          return std::nullopt;
        }
        values.push_back(*value);
        start = comma + 1;
      }
      if (values.empty() || values.size() > spec.max_items) return std::nullopt;
      return ordered_json(values);
    }
    case ParamSpec::Type::boolean:
      if (text == "true" || text == "yes" || text == "1") return ordered_json(true);
      if (text == "false" || text == "no" || text == "0") return ordered_json(false);
      return std::nullopt;
    case ParamSpec::Type::choice:
      if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end()) {
        return std::nullopt;
      }
      return ordered_json(text);
  }
  return std::nullopt;
}

}  // namespace

Params resolve_params(const DemoInfo& info, const std::vector<std::string>& assignments) {
  ordered_json values = ordered_json::object();
  for (const ParamSpec& spec : info.params)
    values[spec.name] = spec.default_value;
  for (const std::string& assignment : assignments) {
    const std::size_t equals = assignment.find('=');
    if (equals == std::string::npos) {
      throw InputError("demo.param",
                       fmt::format("demo {}: --set {}: expected KEY=VALUE", info.name, assignment));
    }
    const std::string key = trim(std::string_view(assignment).substr(0, equals));
    const std::string text = trim(std::string_view(assignment).substr(equals + 1));
    const auto spec = std::find_if(info.params.begin(), info.params.end(),
                                   [&](const ParamSpec& p) { return p.name == key; });
    if (spec == info.params.end()) {
      std::vector<std::string> names;
      for (const ParamSpec& p : info.params)
        names.push_back(p.name);
      throw InputError(
          "demo.param",
          fmt::format("demo {} has no parameter '{}'; its parameters: {}", info.name, key,
                      names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
    }
    const auto value = parse_value(*spec, text);
    if (!value) {
      throw InputError("demo.param", fmt::format("demo {}: {}={}: expected {}", info.name, key,
                                                 text, expectation(*spec)));
    }
    values[key] = *value;
  }
  return Params(std::move(values));
}

DemoResult run_demo(const DemoInfo& info, const Params& params, std::uint64_t seed,
                    engine::Fault fault, RunCaches* caches) {
  engine::fix_product_blocking();  // the same values on every machine
  // A run lent no caches keeps its own for its length, and draws its normals itself (or reads the
  // cache a caller's scope lends: a cache computes whole blocks, which one run rarely repays).
  std::optional<RunCaches> own;
  RunCaches& shared = caches != nullptr ? *caches : own.emplace();
  const engine::NormalsScope normals(caches != nullptr ? &caches->normals
                                                       : engine::run_context().normals);
  const engine::FaultScope scope(fault);
  DemoResult result = info.run(params, seed, shared);
  result.reached |= scope.reached();
  result.demo = info.name;
  result.params = params.json();
  result.params["seed"] = seed;
  return result;
}

const DemoInfo* find_demo(const std::string& name) {
  for (const DemoInfo& info : catalog()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

ordered_json to_json(const DemoResult& result) {
  ordered_json json;
  json["demo"] = result.demo;
  json["params"] = result.params;
  ordered_json values = ordered_json::object();
  ordered_json provenance = ordered_json::object();
  for (const auto& [name, value] : result.values) {
    if (value.kind == Value::Kind::boolean) {
      values[name] = value.boolean;
    } else {
      values[name] = value.number;
    }
    provenance[name] = std::string(provenance_name(value.provenance));
  }
  json["values"] = std::move(values);
  // Beside the values, not inside them: a script reading "values" sees the numbers as before.
  json["provenance"] = std::move(provenance);
  ordered_json tables = ordered_json::array();
  for (const Table& table : result.tables) {
    ordered_json cells = ordered_json::array();
    for (Eigen::Index r = 0; r < table.cells.rows(); ++r) {
      ordered_json row = ordered_json::array();
      for (Eigen::Index c = 0; c < table.cells.cols(); ++c)
        row.push_back(table.cells(r, c));
      cells.push_back(std::move(row));
    }
    tables.push_back({{"name", table.name},
                      {"title", table.title},
                      {"rows", table.row_labels},
                      {"columns", table.column_labels},
                      {"cells", std::move(cells)},
                      {"heatmap", table.heatmap}});
  }
  json["tables"] = std::move(tables);
  ordered_json series = ordered_json::array();
  for (const Series& s : result.series) {
    ordered_json lines = ordered_json::object();
    for (const auto& [label, ys] : s.lines)
      lines[label] = ys;
    series.push_back({{"name", s.name},
                      {"title", s.title},
                      {"x_label", s.x_label},
                      {"y_label", s.y_label},
                      {"x", s.x},
                      {"lines", std::move(lines)},
                      {"log_scale", s.log_scale}});
  }
  json["series"] = std::move(series);
  json["text"] = result.text;
  return json;
}

}  // namespace proofdeck::demo
