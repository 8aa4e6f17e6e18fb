// `proofdeck list`: what the loaded banks hold — banks, topics, traps, questions.
#include <map>
#include <memory>

#include <fmt/color.h>
#include <fmt/format.h>

#include "cli/study_cmds.hpp"
#include "cli/study_support.hpp"

namespace proofdeck::cli {

namespace {

struct ListOptions {
  std::string what = "banks";
  std::string format = "text";
  study::Filters filters;
};

nlohmann::ordered_json list_json(const std::vector<bank::Bank>& banks, const ListOptions& o) {
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  if (o.what == "banks") {
    for (const bank::Bank& b : banks) {
      items.push_back({{"id", b.id},
                       {"title", b.title},
                       {"lesson", b.lesson},
                       {"builtin", b.builtin},
                       {"file", b.file},
                       {"topics", b.topics.size()},
                       {"traps", b.traps.size()},
                       {"questions", b.questions.size()}});
    }
  } else if (o.what == "topics") {
    for (const bank::Bank& b : banks) {
      for (const bank::Topic& t : b.topics) {
        std::size_t count = 0;
        for (const bank::Question& q : b.questions)
          count += q.topic == t.id;
        items.push_back({{"id", t.id}, {"bank", b.id}, {"name", t.name}, {"questions", count}});
      }
    }
  } else if (o.what == "traps") {
    for (const bank::Bank& b : banks) {
      for (const bank::Trap& t : b.traps) {
        std::size_t count = 0;
        for (const bank::Question& q : b.questions) {
          const auto traps = study::question_traps(q);
          count += std::find(traps.begin(), traps.end(), t.id) != traps.end();
        }
        items.push_back({{"id", t.id},
                         {"bank", b.id},
                         {"name", t.name},
                         {"misconception", t.misconception},
                         {"correction", t.correction},
                         {"questions", count}});
      }
    }
  } else {
    for (const bank::Question* q : study::select_questions(banks, o.filters)) {
      items.push_back({{"id", q->id},
                       {"bank", q->bank},
                       {"topic", q->topic},
                       {"type", std::string(bank::question_type_name(q->type))},
                       {"traps", study::question_traps(*q)},
                       {"demo", q->proof ? nlohmann::ordered_json(q->proof->demo)
                                         : nlohmann::ordered_json(nullptr)},
                       {"template", q->templ.has_value()},
                       {"prompt", q->prompt}});
    }
  }
  return items;
}

std::string list_text(const nlohmann::ordered_json& items, const ListOptions& o,
                      const Theme& theme) {
  std::string text;
  for (const auto& item : items) {
    const std::string id = sanitize_for_terminal(item["id"].get<std::string>());
    if (o.what == "banks") {
      text +=
          fmt::format("{:<32} {:>4} questions  {}{}\n", fmt::format(theme.emphasis, "{}", id),
                      item["questions"].get<std::size_t>(),
                      sanitize_for_terminal(item["title"].get<std::string>()),
                      item["builtin"].get<bool>()
                          ? ""
                          : "  (" + sanitize_for_terminal(item["file"].get<std::string>()) + ")");
    } else if (o.what == "topics" || o.what == "traps") {
      text += fmt::format("{:<30} {:>3} questions  {}\n", id, item["questions"].get<std::size_t>(),
                          sanitize_for_terminal(item["name"].get<std::string>()));
    } else {
      const std::string prompt =
          truncate_characters(sanitize_for_terminal(item["prompt"].get<std::string>()), 60);
      text += fmt::format("{:<34} {:<9} {:<14} {}\n", id, item["type"].get<std::string>(),
                          truncate_characters(item["topic"].get<std::string>(), 14), prompt);
    }
  }
  text += fmt::format(theme.dim, "{} {}", items.size(), o.what) + "\n";
  return text;
}

}  // namespace

void setup_list(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* list = app.add_subcommand("list", "List the loaded banks, topics, traps or questions");
  list->add_option("what", options->what, "banks, topics, traps or questions")
      ->check(CLI::IsMember({"banks", "topics", "traps", "questions"}))
      ->capture_default_str();
  list->add_option("--format", options->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_filter_options(list, options->filters);
  list->footer(
      "The ids are what the filters of quiz, exam and drill take, e.g.\n"
      "  proofdeck list traps   then   proofdeck quiz --trap mha-cuts-params\n"
      "The filters apply to `list questions`.");
  list->callback([options, context] {
    Context ctx = context();
    const StudyBanks loaded = load_study_banks(ctx);
    ListOptions list_options = *options;
    list_options.filters.banks.insert(list_options.filters.banks.end(), loaded.selected.begin(),
                                      loaded.selected.end());
    const nlohmann::ordered_json items = list_json(loaded.banks, list_options);
    if (options->format == "json") {
      ctx.io.out << items.dump(2) << "\n";
    } else {
      ctx.io.out << list_text(items, list_options, ctx.theme);
    }
  });
}

}  // namespace proofdeck::cli
