// Selecting questions by the filters (see selection.hpp).
#include "bank/selection.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bank/instance.hpp"
#include "core/errors.hpp"
#include "text/suggest.hpp"

namespace proofdeck::bank {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

std::vector<const Question*> select_questions(const std::vector<Bank>& banks,
                                              const Filters& filters) {
  std::vector<std::string> problems;
  const auto known = [&](const std::vector<std::string>& wanted, const std::string& what,
                         const std::vector<std::string>& existing) {
    for (const std::string& value : wanted) {
      if (!contains(existing, value)) {
        const std::string listing =
            fmt::format("the {}s: {}", what, existing.empty() ? "none" : joined(existing));
        problems.push_back(fmt::format("no {} '{}'{}", what, value,
                                       text::unknown_name_hint(value, existing, listing)));
      }
    }
  };
  std::vector<std::string> topics, traps, bank_ids, ids;
  for (const Bank& b : banks) {
    bank_ids.push_back(b.id);
    for (const Topic& t : b.topics)
      if (!contains(topics, t.id)) topics.push_back(t.id);
    for (const Trap& t : b.traps)
      if (!contains(traps, t.id)) traps.push_back(t.id);
    for (const Question& q : b.questions)
      ids.push_back(q.id);
  }
  known(filters.topics, "topic", topics);
  known(filters.traps, "trap", traps);
  known(filters.banks, "bank", bank_ids);
  known(filters.types, "question type", question_type_names());
  for (const std::string& id : filters.questions) {
    if (!contains(ids, id))
      problems.push_back(
          fmt::format("no question '{}' in the loaded banks{}", id, text::did_you_mean(id, ids)));
  }
  if (!problems.empty()) {
    std::string message;
    for (const std::string& p : problems)
      message += (message.empty() ? "" : "; ") + p;
    throw InputError("filter.unknown", message);
  }
  std::vector<const Question*> selected;
  for (const Bank& b : banks) {
    if (!filters.banks.empty() && !contains(filters.banks, b.id)) continue;
    for (const Question& q : b.questions) {
      if (!filters.topics.empty() && !contains(filters.topics, q.topic)) continue;
      if (!filters.types.empty() &&
          !contains(filters.types, std::string(question_type_name(q.type))))
        continue;
      if (!filters.questions.empty() && !contains(filters.questions, q.id)) continue;
      if (!filters.traps.empty()) {
        const std::vector<std::string> caught = question_traps(q);
        if (std::none_of(caught.begin(), caught.end(),
                         [&](const std::string& t) { return contains(filters.traps, t); }))
          continue;
      }
      selected.push_back(&q);
    }
  }
  if (selected.empty()) {
    throw InputError("filter.empty",
                     "no question matches those filters together; `proofdeck list` shows the "
                     "banks, topics, traps and questions");
  }
  return selected;
}

}  // namespace proofdeck::bank
