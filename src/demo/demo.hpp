// The demo model: a demo is a named, deterministic experiment on the engine that makes one claim
// of the lesson measurable. It returns a DemoResult — named scalar values (what predicates and
// users' scripts read), each with a label in words and its provenance (measured, counted, derived
// or param), tables (e.g. attention weights with token labels), series (e.g. variance per layer)
// and short explanatory text — which the renderers draw as text, md, html or json.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "demo/run_caches.hpp"
#include "engine/fault.hpp"

namespace proofdeck::demo {

// Where a value comes from, strongest first: a proof that reads it is worth what this is worth.
// A value computed from several takes the strongest of them (a counted total over a closed-form
// one is counted); where the kind depends on the run, the run says which it was.
enum class Provenance {
  measured,  // an engine computation on tensors: outputs, gradients, their statistics and
             // differences, or a number or boolean computed from at least one of those
  counted,   // read from engine objects' structure: the tensors a module or cache holds, their
             // sizes and shapes, or computed from such counts (and parameters)
  derived,   // arithmetic on parameters alone: a closed form, a FLOP formula, 1/T, 2·E, a literal
  param,     // a parameter echoed as given, or its default
};

// "measured", "counted", "derived", "param": the names the JSON form writes.
std::string_view provenance_name(Provenance provenance);
// The provenance of that name; nullopt for any other string.
std::optional<Provenance> parse_provenance(std::string_view name);

// A named scalar. Predicates compare numbers with numbers and booleans with booleans.
struct Value {
  enum class Kind { number, boolean };
  Kind kind = Kind::number;
  double number = 0.0;
  bool boolean = false;
  Provenance provenance = Provenance::derived;  // claims no more than arithmetic on parameters
  // What the value is, in words a learner reads without the demo beside it: "Tokens in the
  // document the sentence is padded beside". Sentence case, no final period, at most 80 columns.
  // The JSON form leaves it out: scripts read the names.
  std::string label;

  static Value of(double x, Provenance p, std::string label) {
    return Value{Kind::number, x, false, p, std::move(label)};
  }
  static Value of(bool b, Provenance p, std::string label) {
    return Value{Kind::boolean, 0.0, b, p, std::move(label)};
  }
};

// A labelled matrix, e.g. attention weights (rows: queries, columns: keys).
struct Table {
  std::string name;                        // stable id: "weights_none_a"
  std::string title;                       // for people: "no positional encoding: cat bit dog"
  std::vector<std::string> row_labels;     // one per row
  std::vector<std::string> column_labels;  // one per column
  Eigen::MatrixXd cells;                   // (rows, columns)
  bool heatmap = false;                    // shade cells (values in [0, 1], e.g. weights)
};

// One or more lines over a shared x axis, e.g. variance per layer with and without LayerNorm.
struct Series {
  std::string name;     // stable id: "variance_per_layer"
  std::string title;    // for people
  std::string x_label;  // "layer"
  std::string y_label;  // "activation variance"
  std::vector<double> x;
  std::vector<std::pair<std::string, std::vector<double>>> lines;  // label → y, one per x
  bool log_scale = false;  // the values span decades: draw the y axis (or bars) in log10
};

struct DemoInfo;

struct DemoResult {
  std::string demo;               // the demo's name
  nlohmann::ordered_json params;  // every parameter as used, defaults filled in, plus "seed"
  std::vector<std::pair<std::string, Value>> values;  // in the order they were computed
  std::vector<Table> tables;
  std::vector<Series> series;
  std::vector<std::string> text;  // short paragraphs: what the numbers show
  // The claim in this run's own terms where its parameters are part of it ("Without positional
  // encoding, \"the dog bit the man\" and …"); empty: the demo's claim as DemoInfo states it.
  std::string claim;
  std::string section;  // likewise the headline's section ("Constructed scenario: the dog bit …")
  engine::OpSet reached;  // the engine ops the run entered (run_demo adds them)

  // Every value says what it is, in words beside its name, and where it comes from: there is no
  // form without the label or the provenance.
  void set(const std::string& name, std::string label, double number, Provenance provenance) {
    values.emplace_back(name, Value::of(number, provenance, std::move(label)));
  }
  void set(const std::string& name, std::string label, bool boolean, Provenance provenance) {
    values.emplace_back(name, Value::of(boolean, provenance, std::move(label)));
  }
  // The value of that name (its number or boolean, provenance and label), or nullptr.
  const Value* find(const std::string& name) const;
  // `claim` when the run set one, else the demo's.
  const std::string& claim_of(const DemoInfo& info) const;
  const std::string& section_of(const DemoInfo& info) const;
};

// --- parameters ----------------------------------------------------------------------------
struct ParamSpec {
  enum class Type { integer, number, text, integer_list, boolean, choice };
  std::string name;  // --set name=value
  Type type = Type::integer;
  nlohmann::json default_value;  // used when --set does not give it
  std::string description;       // one line for `demo list` and --help
  double min = 0.0;              // integer, number and integer_list entries: allowed range
  double max = 0.0;
  std::vector<std::string> choices;  // choice: the allowed strings
  std::size_t max_items = 16;        // integer_list, text (words): most entries accepted
};

// The parameters of one run, validated and with defaults filled in.
class Params {
 public:
  explicit Params(nlohmann::ordered_json values) : values_(std::move(values)) {}
  std::int64_t integer(const std::string& name) const;
  double number(const std::string& name) const;
  const std::string& text(const std::string& name) const;
  std::vector<std::int64_t> integers(const std::string& name) const;
  bool flag(const std::string& name) const;
  const nlohmann::ordered_json& json() const { return values_; }

 private:
  nlohmann::ordered_json values_;
};

struct DemoInfo {
  std::string name;     // the contract name: "order-blindness"
  std::string title;    // "Attention is blind to word order"
  std::string claim;    // the lesson's claim the demo makes measurable, one sentence
  std::string section;  // where in the lesson: "L1 — Intuition"
  std::vector<ParamSpec> params;
  // What runs share comes as `caches` (run_caches.hpp): a demo keeps nothing between runs itself.
  std::function<DemoResult(const Params&, std::uint64_t seed, RunCaches& caches)> run;
  // The engine ops the demo may reach, at any setting: `check --engine-faults` runs it under the
  // faults of these ops only. A test holds every run's reached ops to it.
  std::vector<engine::Op> ops;
};

// Parses `--set key=value` assignments against the demo's specs; InputError (exit 2) naming the
// demo, the key, the value and the allowed range for anything unknown or out of range.
Params resolve_params(const DemoInfo& info, const std::vector<std::string>& assignments);

// Every demo, in catalog order, and lookup by name.
const std::vector<DemoInfo>& catalog();
const DemoInfo* find_demo(const std::string& name);

// Runs a demo with parameters already resolved, on the engine as it is or under `fault` (set for
// this thread for the run's length: engine/fault.hpp), reading what `caches` holds; the result's
// params include the seed, and `reached` records the engine ops the run entered.
DemoResult run_demo(const DemoInfo& info, const Params& params, std::uint64_t seed,
                    engine::Fault fault = engine::Fault::none, RunCaches* caches = nullptr);

// The DemoResult as JSON: {"demo", "params", "values", "provenance", "tables", "series", "text"},
// "provenance" naming each value's kind under the same names, in the same order, as "values".
nlohmann::ordered_json to_json(const DemoResult& result);

}  // namespace proofdeck::demo
