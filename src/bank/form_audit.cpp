// check --forms: many forms drawn as quiz and exam draw them, and the ones that ask a fact twice.
#include "bank/form_audit.hpp"

#include <algorithm>
#include <thread>

#include "bank/form.hpp"
#include "bank/selection.hpp"
#include "engine/rng.hpp"

namespace proofdeck::bank {

namespace {

bool marks_same_fact(const Question& q, const std::string& id) {
  return std::any_of(q.same_fact_as.begin(), q.same_fact_as.end(),
                     [&](const Requirement& named) { return named.id == id; });
}

// One form's length and the first fact it asks twice.
struct Drawn {
  std::size_t length = 0;
  std::optional<RepeatedFact> repeat;
};

Drawn drawn_of(const std::vector<Instance>& form) {
  std::vector<const Question*> questions;
  for (const Instance& instance : form)
    questions.push_back(instance.question);
  return {form.size(), repeated_fact(questions)};
}

}  // namespace

std::optional<RepeatedFact> repeated_fact(const std::vector<const Question*>& form) {
  for (std::size_t j = 1; j < form.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const Question& a = *form[i];
      const Question& b = *form[j];
      if (a.objective_id() == b.objective_id())
        return RepeatedFact{a.id, b.id, "objective " + a.objective_id()};
      if (marks_same_fact(a, b.id) || marks_same_fact(b, a.id))
        return RepeatedFact{a.id, b.id, "same_fact_as"};
    }
  }
  return std::nullopt;
}

std::vector<FormAudit> audit_forms(const std::vector<Bank>& banks, int forms, int count,
                                   int threads) {
  std::vector<Filters> scopes(1);
  std::vector<std::string> scope_names{"all"};
  for (const Bank& bank : banks) {
    Filters only;
    only.banks = {bank.id};
    scopes.push_back(std::move(only));
    scope_names.push_back(bank.id);
  }
  const Enemies enemies = form_enemies(banks);
  const auto n = static_cast<std::size_t>(std::max(forms, 0));
  const auto limit = static_cast<std::size_t>(std::max(count, 0));
  std::vector<FormAudit> audits;
  for (std::size_t s = 0; s < scopes.size(); ++s) {
    const std::vector<const Question*> pool = select_questions(banks, scopes[s]);
    for (const std::string draw : {"quiz", "exam"}) {
      // Each seed's form on its own, so the threads share nothing they write.
      std::vector<Drawn> drawn(n);
      const auto work = [&](std::size_t first, std::size_t step) {
        for (std::size_t seed = first; seed < n; seed += step) {
          if (draw == "quiz") {
            engine::Rng rng(seed);
            drawn[seed] = drawn_of(draw_quiz_form(pool, limit, true, rng, enemies).form);
          } else {
            drawn[seed] = drawn_of(draw_exam_form(banks, scopes[s], count, seed, &enemies).form);
          }
        }
      };
      const auto step = static_cast<std::size_t>(std::max(threads, 1));
      std::vector<std::thread> pool_threads;
      for (std::size_t t = 1; t < step; ++t)
        pool_threads.emplace_back(work, t, step);
      work(0, step);
      for (std::thread& thread : pool_threads)
        thread.join();
      FormAudit audit;
      audit.scope = scope_names[s];
      audit.draw = draw;
      audit.forms = n;
      for (std::size_t seed = 0; seed < n; ++seed) {
        const Drawn& d = drawn[seed];
        audit.shortest = seed == 0 ? d.length : std::min(audit.shortest, d.length);
        audit.longest = std::max(audit.longest, d.length);
        if (!d.repeat) continue;
        if (audit.repeating++ == 0) {
          audit.first_seed = seed;
          audit.first_repeat = *d.repeat;
        }
      }
      audits.push_back(std::move(audit));
    }
  }
  return audits;
}

}  // namespace proofdeck::bank
