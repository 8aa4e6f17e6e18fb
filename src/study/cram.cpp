// drill --cram: practice on the drilled cards least likely recalled now, leaving the schedule
// alone (modes.hpp).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bank/instance.hpp"
#include "bank/selection.hpp"
#include "study/modes.hpp"
#include "study/session_parts.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

struct Crammed {
  const bank::Question* question;
  double recall;  // retrievability now
};

// The selected cards drill has seen, least likely recalled now first (ties by id).
std::vector<Crammed> cram_order(const Session& s, ProgressStore& store,
                                const std::vector<const bank::Question*>& selected) {
  SchedulerOptions options;
  options.weights = store.fsrs_weights();
  const Scheduler scheduler(options);
  const std::map<std::string, Card> cards = store.cards();
  std::vector<Crammed> order;
  for (const bank::Question* q : selected) {
    const auto it = cards.find(q->id);
    if (it == cards.end() || it->second.state == CardState::fresh) continue;
    if (std::any_of(order.begin(), order.end(),
                    [&](const Crammed& c) { return c.question->id == q->id; }))
      continue;
    order.push_back({q, scheduler.retrievability(it->second, s.now())});
  }
  std::sort(order.begin(), order.end(), [](const Crammed& a, const Crammed& b) {
    return a.recall != b.recall ? a.recall < b.recall : a.question->id < b.question->id;
  });
  return order;
}

}  // namespace

Outcome run_cram(Session& s, ProgressStore& store, const CramOptions& options) {
  std::vector<Crammed> order =
      cram_order(s, store, bank::select_questions(s.banks, options.filters));
  if (order.empty()) {
    s.out << text::wrap_block(
        fmt::format("Nothing to cram: drill has not shown you any card these filters select "
                    "yet. Cram goes over cards you have drilled, least remembered first; start "
                    "with {} drill.",
                    s.program),
        s.width, "  ", "    ");
    return {};
  }
  if (order.size() > static_cast<std::size_t>(options.limit))
    order.resize(static_cast<std::size_t>(options.limit));
  const std::string low = text::percent(order.front().recall);
  const std::string high = text::percent(order.back().recall);
  const std::string recall_range = low == high ? low : low + " to " + high;
  const std::int64_t id = store.begin_session(
      "cram", s.now(), settings_json(options.filters, s.seed, {{"limit", options.limit}}));
  s.out << wrap_labelled(
               "proofdeck drill --cram", s.theme.emphasis,
               fmt::format("· {}, least remembered first (recall now {}) · the schedule is "
                           "left alone · ? for help, :q to stop",
                           text::count(order.size(), "card", "cards"), recall_range),
               s.width)
        << seed_line(s);
  engine::Rng rng(s.seed);
  std::vector<Instance> form;
  for (const Crammed& c : order)
    form.push_back(instantiate(*c.question, rng));
  std::vector<Answered> answers;
  Outcome outcome;
  outcome.interrupted =
      ask_each(s, store, form, "cram", id, options.show_demo, "  Skipped.\n", answers);
  s.fit_to_terminal();
  s.out << render_summary(s, answers, outcome.interrupted ? "Cram interrupted" : "Cram finished");
  s.out << text::wrap_block(
      "No card's schedule changed: cram answers count in stats and readiness, never as drill "
      "reviews.",
      s.width, "  ", "    ");
  s.out << seed_line(s);
  return outcome;
}

}  // namespace proofdeck::study
