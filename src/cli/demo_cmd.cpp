// The demo subcommand: list the catalog, run one demo and render it.
#include "cli/demo_cmd.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/validators.hpp"
#include "core/errors.hpp"
#include "demo/demo.hpp"
#include "render/figure.hpp"
#include "text/suggest.hpp"
#include "text/width.hpp"

namespace proofdeck::cli {

namespace {

struct DemoListOptions {
  std::string format = "text";  // text | json
};

struct DemoRunOptions {
  std::string name;                      // the demo
  std::vector<std::string> assignments;  // --set KEY=VALUE
  std::string format = "text";           // text | md | html | json
  std::string output_path;               // --output FILE
  bool compact = false;                  // --compact: the quiz-feedback form
};

std::string default_text(const demo::ParamSpec& spec) {
  if (spec.default_value.is_string()) return spec.default_value.get<std::string>();
  if (spec.default_value.is_array()) {
    std::vector<std::string> items;
    for (const auto& item : spec.default_value)
      items.push_back(item.dump());
    return fmt::format("{}", fmt::join(items, ","));
  }
  return spec.default_value.dump();
}

void run_demo_list(const DemoListOptions& options, Context& context) {
  if (options.format == "json") {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const demo::DemoInfo& info : demo::catalog()) {
      nlohmann::ordered_json params = nlohmann::ordered_json::array();
      for (const demo::ParamSpec& spec : info.params) {
        params.push_back({{"name", spec.name},
                          {"default", spec.default_value},
                          {"description", spec.description}});
      }
      list.push_back({{"name", info.name},
                      {"title", info.title},
                      {"claim", info.claim},
                      {"section", info.section},
                      {"params", params}});
    }
    write_output("", list.dump(2) + "\n", context.io);
    return;
  }
  // Name, then its title and default parameters wrapped beside it (under it when narrow).
  const int width = text_width(context);
  std::string text;
  for (const demo::DemoInfo& info : demo::catalog()) {
    std::vector<std::string> params;
    for (const demo::ParamSpec& spec : info.params) {
      params.push_back(fmt::format("{}={}", spec.name, default_text(spec)));
    }
    std::string entry = text::definition(
        info.name, fmt::format("{}\n{}", info.title, fmt::join(params, " ")), width, 28, "");
    if (entry.compare(0, info.name.size(), info.name) == 0)
      entry.replace(0, info.name.size(), fmt::format(context.theme.emphasis, "{}", info.name));
    text += entry;
  }
  text += "\n" + text::wrap_block(fmt::format("Run one: {} demo run NAME [--set KEY=VALUE ...] "
                                              "[--format text|md|html|json]",
                                              context.program),
                                  width, "", "    ");
  write_output("", text, context.io);
}

void run_demo_run(const DemoRunOptions& options, Context& context) {
  const demo::DemoInfo* info = demo::find_demo(options.name);
  if (info == nullptr) {
    std::vector<std::string> names;
    for (const demo::DemoInfo& d : demo::catalog())
      names.push_back(d.name);
    throw InputError(
        "demo.name",
        fmt::format("no demo named '{}'{}", options.name,
                    text::unknown_name_hint(options.name, names,
                                            fmt::format("the demos: {}", fmt::join(names, ", ")))));
  }
  const demo::Params params = demo::resolve_params(*info, options.assignments);
  const demo::DemoResult result = demo::run_demo(*info, params, context.global.seed);
  std::string rendered;
  if (options.format == "json") {
    rendered = demo::to_json(result).dump(2) + "\n";
  } else if (options.format == "md") {
    rendered = render::render_markdown(result, *info);
  } else if (options.format == "html") {
    rendered = render::render_html(result, *info);
  } else {
    render::TextOptions text;
    text.form = options.compact ? render::TextForm::compact : render::TextForm::full;
    // The figures need 40 columns today; narrower widths draw them at 40.
    text.width = std::max(40, text_width(context));
    // A file keeps the installed name, as printouts do.
    if (options.output_path.empty()) text.program = context.program;
    // A file gets plain text: escape codes belong to terminals.
    const Theme theme = options.output_path.empty() ? context.theme : Theme::plain();
    rendered = render::render_text(result, *info, theme, text);
  }
  write_output(options.output_path, rendered, context.io);
}

}  // namespace

void setup_demo(CLI::App& app, const std::function<Context()>& context) {
  CLI::App* demo_cmd = app.add_subcommand(
      "demo", "The micro-demos: live experiments that prove the lesson's claims");
  demo_cmd->require_subcommand(1);
  demo_cmd->footer(
      "Each demo is a deterministic experiment on the engine (the same --seed gives the same "
      "numbers, bit for bit). Its named values are what answer keys are proven against.");

  auto list_options = std::make_shared<DemoListOptions>();
  CLI::App* list_cmd = demo_cmd->add_subcommand("list", "List the demos and their parameters");
  list_cmd->add_option("--format", list_options->format, "text or json")
      ->check(one_of({"text", "json"}))
      ->capture_default_str();
  list_cmd->callback([list_options, context] {
    Context ctx = context();
    run_demo_list(*list_options, ctx);
  });

  auto run_options = std::make_shared<DemoRunOptions>();
  CLI::App* run_cmd = demo_cmd->add_subcommand("run", "Run one demo and draw its result");
  run_cmd->add_option("name", run_options->name, "The demo (see 'proofdeck demo list')")
      ->required();
  run_cmd->add_option("--set", run_options->assignments,
                      "KEY=VALUE: a demo parameter (repeatable), e.g. --set heads=1,8,16");
  run_cmd
      ->add_option("--format", run_options->format,
                   "text (terminal pictures), md, html (one self-contained file) or json")
      ->check(one_of({"text", "md", "html", "json"}))
      ->capture_default_str();
  run_cmd->add_option("-o,--output", run_options->output_path,
                      "Write to FILE instead of standard output");
  run_cmd->add_flag("--compact", run_options->compact,
                    "The short form quiz feedback shows (text only)");
  run_cmd->footer(
      "Examples:\n"
      "  proofdeck demo run order-blindness\n"
      "  proofdeck demo run order-blindness --set a=\"the dog bit the man\" "
      "--set b=\"the man bit the dog\" --set focus=bit\n"
      "  proofdeck demo run head-params --set heads=1,8,16 --format json\n"
      "  proofdeck demo run variance-drift --format html --output variance.html");
  run_cmd->callback([run_options, context] {
    Context ctx = context();
    run_demo_run(*run_options, ctx);
  });
}

}  // namespace proofdeck::cli
