// Arranging the chosen questions for print and collecting what each format says about them.
#include "print/printable.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "bank/form.hpp"
#include "bank/formula.hpp"
#include "bank/precision.hpp"
#include "engine/rng.hpp"

namespace proofdeck::print {

std::vector<TopicGroup> arrange(const std::vector<bank::Bank>& banks,
                                const std::vector<const bank::Question*>& selected,
                                std::uint64_t seed) {
  const auto chosen = [&](const bank::Question& q) {
    return std::find(selected.begin(), selected.end(), &q) != selected.end();
  };
  std::vector<TopicGroup> groups;
  engine::Rng rng(seed);
  int number = 0;
  for (const bank::Bank& b : banks) {
    for (const bank::Topic& topic : b.topics) {
      TopicGroup group{&b, &topic, {}};
      for (const bank::Question& q : b.questions) {
        if (q.topic != topic.id || !chosen(q)) continue;
        group.questions.push_back(Printed{++number, &b, bank::instantiate(q, rng)});
      }
      if (!group.questions.empty()) groups.push_back(std::move(group));
    }
  }
  return groups;
}

std::vector<TopicGroup> draw_sheet(const std::vector<bank::Bank>& banks,
                                   std::vector<const bank::Question*> selected, std::size_t count,
                                   std::uint64_t seed, bool keep_named, bool repeats,
                                   std::vector<std::string>& notes) {
  std::map<std::string, std::vector<const bank::Question*>> spares;
  if (count > 0) {
    engine::Rng rng(seed);
    const std::size_t facts = bank::count_objectives(selected);
    selected = bank::draw_spread(selected, count, rng, spares, repeats);
    if (!repeats && facts < count) notes.push_back(bank::short_form_note(selected.size(), facts));
  }
  const bank::Enemies enemies = bank::form_enemies(banks);
  // Each removal redraws the sheet (the same seed over fewer or other questions), so conflicts are
  // looked for again until none is left; every pass removes one question, so this ends.
  while (true) {
    const std::vector<TopicGroup> groups = arrange(banks, selected, seed);
    std::vector<const bank::Instance*> form;
    for (const TopicGroup& group : groups)
      for (const Printed& printed : group.questions)
        form.push_back(&printed.instance);
    std::optional<std::string> conflict;
    std::size_t later = 0;
    for (std::size_t j = 1; j < form.size() && !conflict; ++j) {
      for (std::size_t i = 0; i < j && !conflict; ++i) {
        conflict = bank::form_conflict(*form[i], *form[j], enemies);
        later = j;
        if (conflict && keep_named) {
          notes.push_back(
              fmt::format("warning: --question {} and {}: {}; both are printed as named",
                          form[i]->question->id, form[j]->question->id,
                          bank::named_conflict(*form[i], *form[j], enemies).value_or(*conflict)));
          conflict.reset();
        }
      }
    }
    if (!conflict) return groups;
    const bank::Question* dropped = form[later]->question;
    std::erase(selected, dropped);
    std::string replacement;
    // A spare of an objective the sheet does not hold, of the dropped one's topic where there
    // is one; with `repeats`, the topic's first when none is new.
    std::optional<const bank::Question*> spare =
        bank::take_new(spares, dropped->topic, bank::objectives_asked(selected));
    std::vector<const bank::Question*>& own = spares[dropped->topic];
    if (!spare && repeats && !own.empty()) {
      spare = own.front();
      own.erase(own.begin());
    }
    if (spare) {
      selected.push_back(*spare);
      replacement = fmt::format("; {} takes its place", (*spare)->id);
    }
    notes.push_back(fmt::format("note: {} is left out: {}{}", dropped->id, *conflict, replacement));
  }
}

namespace {

std::string type_label(const bank::Question& q) {
  switch (q.type) {
    case bank::QuestionType::single:
      return "Single answer";
    case bank::QuestionType::multi:
      return "Select all that apply";
    case bank::QuestionType::truefalse:
      return "True or false";
    case bank::QuestionType::numeric:
      return "Numeric answer";
    case bank::QuestionType::order:
      return "Put in order";
  }
  return "";
}

}  // namespace

Facts facts_of(const Printed& printed, const bank::Bank& bank) {
  const bank::Instance& instance = printed.instance;
  const bank::Question& q = printed.question();
  Facts facts;
  facts.kind = type_label(q);
  const auto trap_of = [&](const std::string& id) {
    return id.empty() ? nullptr : bank.find_trap(id);
  };
  switch (q.type) {
    case bank::QuestionType::single:
    case bank::QuestionType::multi: {
      std::vector<std::string> letters, words;
      for (std::size_t position = 0; position < instance.order.size(); ++position) {
        const bank::Option& option = q.options[instance.order[position]];
        facts.labels.push_back(option.text);
        facts.correct.push_back(option.correct);
        const std::string letter = bank::letter(position);
        if (option.correct) {
          letters.push_back(letter);
          words.push_back(letter + ") " + option.text);
        } else if (const bank::Trap* trap = trap_of(option.trap)) {
          facts.traps.push_back({letter, trap, option.text});
        }
      }
      facts.answer_letters = fmt::format("{}", fmt::join(letters, ", "));
      facts.answer_words = fmt::format("{}", fmt::join(words, "; "));
      break;
    }
    case bank::QuestionType::truefalse:
      facts.answer_letters = facts.answer_words = q.answer ? "True" : "False";
      if (const bank::Trap* trap = trap_of(q.trap)) {
        facts.traps.push_back({q.answer ? "False" : "True", trap});
      }
      break;
    case bank::QuestionType::numeric: {
      const std::string key = bank::with_unit(
          bank::key_text(instance.key, instance.prompt, q.key.allowed(instance.key)), instance.key,
          q.key.unit);
      facts.answer_letters = key;
      facts.answer_words = key + bank::tolerance_text(instance.key, instance.prompt,
                                                      q.key.tolerance, q.key.relative);
      for (const bank::Distractor& d : q.distractors) {
        const bank::Trap* trap = trap_of(d.trap);
        if (trap == nullptr) continue;
        try {
          const double value = d.value(instance.bindings);
          facts.traps.push_back(
              {bank::with_unit(bank::format_measured(value), value, q.key.unit), trap});
        } catch (const std::exception&) {
          // A distractor formula undefined for these parameters is no wrong answer to print.
        }
      }
      if (q.templ && q.templ->answer) facts.worked = q.templ->answer->worked(instance.bindings);
      break;
    }
    case bank::QuestionType::order: {
      std::vector<std::string> letters, words;
      for (std::size_t position = 0; position < instance.order.size(); ++position)
        facts.labels.push_back(q.steps[instance.order[position]].text);
      for (std::size_t index = 0; index < q.steps.size(); ++index) {
        const std::size_t position = instance.position_of(index);
        letters.push_back(bank::letter(position));
        words.push_back(bank::letter(position) + ") " + q.steps[index].text);
      }
      facts.answer_letters = fmt::format("{}", fmt::join(letters, " → "));
      facts.answer_words = fmt::format("{}", fmt::join(words, " → "));
      break;
    }
  }
  facts.source = bank::source_line(q.source, "“", "”");
  return facts;
}

std::optional<ProofRun> run_proof(const Printed& printed, bank::DemoRunner& runner) {
  const bank::Question& q = printed.question();
  if (!q.proof) return std::nullopt;
  ProofRun run;
  run.info = demo::find_demo(q.proof->demo);
  try {
    run.result = &runner.run(*q.proof, printed.instance.bindings, q.file + ": " + q.proof->pointer);
  } catch (const std::exception& e) {
    run.error = e.what();
    return run;
  }
  run.heading = bank::proof_heading(q, *run.result, printed.instance.bindings);
  // What `show` names, and the value a numeric key is proven against.
  std::vector<std::string> names = q.proof->show;
  if (!q.key.computed.empty() &&
      std::find(names.begin(), names.end(), q.key.computed) == names.end())
    names.push_back(q.key.computed);
  for (const std::string& shown : names) {
    const std::string name = bank::substitute(shown, printed.instance.bindings);
    if (const demo::Value* v = run.result->find(name)) {
      run.key_numbers.emplace_back(v->label, bank::measured_text(*v));
    }
  }
  return run;
}

}  // namespace proofdeck::print
