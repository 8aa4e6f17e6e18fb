// `proofdeck list`: what the loaded banks hold — banks, topics, traps, objectives, questions.
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <fmt/color.h>
#include <fmt/format.h>

#include "bank/prerequisites.hpp"
#include "bank/selection.hpp"
#include "cli/study_cmds.hpp"
#include "cli/study_run.hpp"
#include "cli/validators.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::cli {

namespace {

struct ListOptions {
  std::string what = "banks";
  std::string format = "text";
  bank::Filters filters;
};

// Every list in the study order (bank::StudyOrder): topics as a learner meets them, banks by
// their first topic, traps by bank, questions by topic and then as their bank has them.
// With a filter, banks, topics, traps and objectives are those the selected questions touch, each
// counting its selected questions; without one, every one the banks hold.
nlohmann::ordered_json list_json(const std::vector<bank::Bank>& banks, const ListOptions& o) {
  const bank::StudyOrder order(banks);
  const bank::Filters& f = o.filters;
  const bool filtered = !f.topics.empty() || !f.traps.empty() || !f.banks.empty() ||
                        !f.types.empty() || !f.questions.empty();
  std::set<const bank::Question*> selection;
  if (filtered && o.what != "questions") {
    for (const bank::Question* q : bank::select_questions(banks, f))
      selection.insert(q);
  }
  const auto counts = [&](const bank::Question& q) { return !filtered || selection.contains(&q); };
  // An item no selected question touches is left out of a filtered list.
  const auto keep = [&](std::size_t count) { return !filtered || count > 0; };
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  if (o.what == "banks") {
    for (const bank::Bank* b : order.banks()) {
      std::size_t count = 0;
      for (const bank::Question& q : b->questions)
        count += counts(q);
      if (!keep(count)) continue;
      items.push_back({{"id", b->id},
                       {"title", b->title},
                       {"lesson", b->lesson},
                       {"builtin", b->builtin},
                       {"file", b->file},
                       {"topics", b->topics.size()},
                       {"traps", b->traps.size()},
                       {"questions", count}});
    }
  } else if (o.what == "topics") {
    for (const auto& [b, t] : order.topics()) {
      std::size_t count = 0;
      for (const bank::Question& q : b->questions)
        count += q.topic == t->id && counts(q);
      if (!keep(count)) continue;
      items.push_back({{"id", t->id}, {"bank", b->id}, {"name", t->name}, {"questions", count}});
    }
  } else if (o.what == "traps") {
    for (const bank::Bank* b : order.banks()) {
      for (const bank::Trap& t : b->traps) {
        std::size_t count = 0;
        for (const bank::Question& q : b->questions) {
          const auto traps = bank::question_traps(q);
          count += std::find(traps.begin(), traps.end(), t.id) != traps.end() && counts(q);
        }
        if (!keep(count)) continue;
        items.push_back({{"id", t.id},
                         {"bank", b->id},
                         {"name", t.name},
                         {"misconception", t.misconception},
                         {"correction", t.correction},
                         {"questions", count}});
      }
    }
  } else if (o.what == "objectives") {
    // Each bank's objectives as it lists them, then any objective a question counts under that no
    // bank defines (a concept, in a bank written before objectives); questions counted in every
    // loaded bank, as forms and lint count them.
    std::map<std::string, std::size_t> asked;
    for (const bank::Bank& b : banks)
      for (const bank::Question& q : b.questions)
        if (counts(q)) ++asked[q.objective_id()];
    std::set<std::string> listed;
    for (const bank::Bank* b : order.banks()) {
      for (const bank::Objective& objective : b->objectives) {
        listed.insert(objective.id);
        if (!keep(asked[objective.id])) continue;
        items.push_back({{"id", objective.id},
                         {"bank", b->id},
                         {"statement", objective.statement},
                         {"questions", asked[objective.id]}});
      }
    }
    for (const bank::Bank* b : order.banks()) {
      for (const bank::Question& q : b->questions) {
        if (!listed.insert(q.objective_id()).second || !keep(asked[q.objective_id()])) continue;
        items.push_back({{"id", q.objective_id()},
                         {"bank", b->id},
                         {"statement", nullptr},
                         {"questions", asked[q.objective_id()]}});
      }
    }
  } else {
    std::vector<const bank::Question*> selected = bank::select_questions(banks, o.filters);
    std::stable_sort(selected.begin(), selected.end(),
                     [&](const bank::Question* a, const bank::Question* b) {
                       return order.position(a->bank, a->topic) < order.position(b->bank, b->topic);
                     });
    for (const bank::Question* q : selected) {
      items.push_back({{"id", q->id},
                       {"bank", q->bank},
                       {"topic", q->topic},
                       {"type", std::string(bank::question_type_name(q->type))},
                       {"objective", q->objective_id()},
                       {"traps", bank::question_traps(*q)},
                       {"demo", q->proof ? nlohmann::ordered_json(q->proof->demo)
                                         : nlohmann::ordered_json(nullptr)},
                       {"template", q->templ.has_value()},
                       {"prompt", q->prompt}});
    }
  }
  return items;
}

// "  1 question · ", " 26 questions · ".
std::string questions_text(std::size_t count) {
  return fmt::format("{:>3} question{} · ", count, count == 1 ? "" : "s");
}

// Each item as a definition: its id (what the filters take, never cut), then its counts and
// name wrapped beside it; a question's prompt is cut to one line. When ids are too long for the
// column they sit on their own line with the rest beneath.
std::string list_text(const nlohmann::ordered_json& items, const ListOptions& o, const Theme& theme,
                      int width) {
  int id_width = 0;
  for (const auto& item : items)
    id_width =
        std::max(id_width, text::display_width(text::terminal_safe(item["id"].get<std::string>())));
  const int column = std::min(id_width + 2, width / 2);
  std::string out;
  for (const auto& item : items) {
    const std::string id = text::terminal_safe(item["id"].get<std::string>());
    std::string rest;
    if (o.what == "banks") {
      rest = questions_text(item["questions"].get<std::size_t>()) +
             text::terminal_safe(item["title"].get<std::string>(), text::Newlines::as_spaces);
      if (!item["builtin"].get<bool>())
        rest += " (" + text::terminal_safe(item["file"].get<std::string>()) + ")";
    } else if (o.what == "objectives") {
      rest = questions_text(item["questions"].get<std::size_t>()) +
             (item["statement"].is_null()
                  ? std::string(
                        "(no objective named: counted by its concept, or by the question itself)")
                  : text::terminal_safe(item["statement"].get<std::string>(),
                                        text::Newlines::as_spaces));
    } else if (o.what != "questions") {
      rest = questions_text(item["questions"].get<std::size_t>()) +
             text::terminal_safe(item["name"].get<std::string>(), text::Newlines::as_spaces);
    } else {
      rest = text::truncate(fmt::format("{} · {} · {}", item["type"].get<std::string>(),
                                        text::terminal_safe(item["topic"].get<std::string>()),
                                        text::terminal_safe(item["prompt"].get<std::string>(),
                                                            text::Newlines::as_spaces)),
                            std::max(width - column, 10));
    }
    std::string entry = text::definition(id, rest, width, column, "");
    if (entry.compare(0, id.size(), id) == 0)
      entry.replace(0, id.size(), fmt::format(theme.emphasis, "{}", id));
    out += entry;
  }
  // "1 trap", "22 topics": `what` is the plural.
  out += fmt::format(theme.dim, "{}",
                     text::count(items.size(), o.what.substr(0, o.what.size() - 1), o.what)) +
         "\n";
  return out;
}

}  // namespace

void setup_list(CLI::App& app, const std::function<Context()>& context) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* list =
      app.add_subcommand("list", "List the loaded banks, topics, traps, objectives or questions");
  list->add_option("what", options->what, "banks, topics, traps, objectives or questions")
      ->check(one_of({"banks", "topics", "traps", "objectives", "questions"}))
      ->capture_default_str();
  list->add_option("--format", options->format, "text or json")
      ->check(one_of({"text", "json"}))
      ->capture_default_str();
  add_filter_options(list, options->filters);
  list->footer(
      "The ids are what the filters of quiz, exam and drill take, e.g.\n"
      "  proofdeck list traps   then   proofdeck quiz --trap mha-cuts-params\n"
      "The filters apply to `list questions`.");
  list->callback([options, context] {
    Context ctx = context();
    const LoadedBanks loaded = load_banks(ctx);
    ListOptions list_options = *options;
    add_selected_banks(loaded, list_options.filters);
    const nlohmann::ordered_json items = list_json(loaded.banks, list_options);
    if (options->format == "json") {
      ctx.io.out << items.dump(2) << "\n";
    } else {
      ctx.io.out << list_text(items, list_options, ctx.theme, text_width(ctx));
    }
  });
}

}  // namespace proofdeck::cli
