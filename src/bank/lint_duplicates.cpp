// The lint rules on questions that ask one thing twice (questions/README.md § Lint): near-duplicate
// prompts or numeric keys within the loaded banks, and questions of different banks that load
// together sharing a keyed option, a proven key or an objective. near_duplicate_pairs (lint.hpp)
// gives forms the same pairs.
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/lint.hpp"
#include "bank/lint_parts.hpp"
#include "text/number.hpp"

namespace proofdeck::bank {

namespace {

constexpr double kNearDuplicateJaccard = 0.6;  // word-trigram overlap of two prompts

std::set<std::string> trigrams(const std::string& prompt) {
  const std::vector<std::string> w = words(prompt);
  std::set<std::string> out;
  for (std::size_t i = 0; i + 2 < w.size(); ++i)
    out.insert(w[i] + " " + w[i + 1] + " " + w[i + 2]);
  return out;
}

// A pair near_duplicate_pairs finds, with where its later question stands.
struct NearPair {
  const Bank* bank;       // the later question's
  const Question* q;      // the later question
  const Question* first;  // the earlier one
  std::string reason;     // "its prompt shares 74% of its word trigrams with q's"
  bool same_run = false;  // one numeric key proven by one run
};

std::vector<NearPair> near_pairs(const std::vector<Bank>& banks) {
  struct Entry {
    const Bank* bank;
    const Question* q;
    std::set<std::string> grams;
  };
  std::vector<NearPair> pairs;
  std::vector<Entry> entries;
  std::map<std::string, std::vector<std::size_t>> index;  // trigram → entries holding it
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      entries.push_back(Entry{&bank, &q, trigrams(q.prompt)});
      for (const std::string& gram : entries.back().grams)
        index[gram].push_back(entries.size() - 1);
    }
  }
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> shared;
  for (const auto& [gram, holders] : index) {
    if (holders.size() > 64) continue;  // a stock phrase ("which of the"), not a duplicate cue
    for (std::size_t a = 0; a < holders.size(); ++a) {
      for (std::size_t b = a + 1; b < holders.size(); ++b)
        ++shared[{holders[a], holders[b]}];
    }
  }
  std::set<std::pair<std::size_t, std::size_t>> reported;
  for (const auto& [pair, common] : shared) {
    const Entry& first = entries[pair.first];
    const Entry& second = entries[pair.second];
    const double jaccard = static_cast<double>(common) /
                           static_cast<double>(first.grams.size() + second.grams.size() - common);
    if (jaccard < kNearDuplicateJaccard) continue;
    reported.insert(pair);
    pairs.push_back(NearPair{second.bank, second.q, first.q,
                             fmt::format("its prompt shares {} of its word trigrams with {}'s",
                                         text::percent(jaccard), first.q->id)});
  }
  // Numeric questions with the same key proven by the same run ask the same thing.
  std::map<std::string, std::size_t> first_with;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Question& q = *entries[i].q;
    if (q.type != QuestionType::numeric || q.templ || !q.key.value || !q.proof) continue;
    const std::string signature =
        fmt::format("{}\n{}\n{}", format_number(*q.key.value), q.proof->demo, q.proof->args.dump());
    const auto [it, inserted] = first_with.emplace(signature, i);
    if (inserted || reported.contains({it->second, i})) continue;
    pairs.push_back(
        NearPair{entries[i].bank, &q, entries[it->second].q,
                 fmt::format("same key ({}) proven by the same {} run as {}",
                             format_number(*q.key.value), q.proof->demo, entries[it->second].q->id),
                 true});
  }
  return pairs;
}

}  // namespace

void near_duplicates(Linter& linter, const std::vector<Bank>& banks) {
  for (const NearPair& pair : near_pairs(banks)) {
    linter.add(*pair.bank, pair.q, "near-duplicate",
               pair.same_run ? pair.reason + ": merge them"
                             : pair.reason +
                                   "; one idea asked twice counts twice in a score: "
                                   "merge them or make it a template variant");
  }
}

// Questions of different banks that load together and ask the same thing: the same keyed option
// word for word, the same numeric key proven by the same run, or the same objective.
void cross_bank_duplicates(Linter& linter, const std::vector<Bank>& banks) {
  struct Asker {
    const Bank* bank;
    const Question* q;
  };
  std::map<std::string, std::vector<Asker>> by_signature;  // what they share → who shares it
  std::vector<std::string> order;                          // signatures as first met
  const auto note = [&](std::string signature, const Bank& bank, const Question& q) {
    auto [it, inserted] = by_signature.try_emplace(std::move(signature));
    if (inserted) order.push_back(it->first);
    it->second.push_back(Asker{&bank, &q});
  };
  for (const Bank& bank : banks) {
    for (const Question& q : bank.questions) {
      for (const Option& option : q.options) {
        if (option.correct && !normalized(option.text).empty())
          note("the keyed option \"" + option.text + "\"\n" + normalized(option.text), bank, q);
      }
      if (q.type == QuestionType::numeric && !q.templ && q.key.value && q.proof) {
        note(fmt::format("the key {} proven by the same {} run\n{}", format_number(*q.key.value),
                         q.proof->demo, q.proof->args.dump()),
             bank, q);
      }
      note("the objective '" + q.objective_id() + "'\n", bank, q);
    }
  }
  // One finding per question of the bank that asks it less often (the later bank on a tie),
  // naming what the other bank asks it with.
  std::set<std::pair<const Question*, const Bank*>> reported;
  for (const std::string& signature : order) {
    const std::string what = signature.substr(0, signature.find('\n'));
    std::vector<std::pair<const Bank*, std::vector<const Question*>>> per_bank;
    for (const Asker& asker : by_signature.at(signature)) {
      if (per_bank.empty() || per_bank.back().first != asker.bank)
        per_bank.emplace_back(asker.bank, std::vector<const Question*>{});
      per_bank.back().second.push_back(asker.q);
    }
    for (std::size_t b = 1; b < per_bank.size(); ++b) {
      for (std::size_t a = 0; a < b; ++a) {
        const bool later_smaller = per_bank[b].second.size() <= per_bank[a].second.size();
        const auto& [home, askers] = later_smaller ? per_bank[b] : per_bank[a];
        const auto& [other, others] = later_smaller ? per_bank[a] : per_bank[b];
        std::vector<std::string> ids;
        for (const Question* q : others)
          ids.push_back(q->id);
        if (ids.size() > 5) {
          ids.resize(4);
          ids.push_back(fmt::format("and {} more", others.size() - 4));
        }
        for (const Question* q : askers) {
          if (!reported.insert({q, other}).second) continue;
          linter.add(*home, q, "cross-bank-duplicate",
                     fmt::format("shares {} with {} of {} ({}): banks that load together ask "
                                 "it twice, so keep one, or make them test different objectives",
                                 what, others.size() == 1 ? "a question" : "questions", other->id,
                                 fmt::join(ids, ", ")));
        }
      }
    }
  }
}

std::vector<NearDuplicate> near_duplicate_pairs(const std::vector<Bank>& banks) {
  std::vector<NearDuplicate> result;
  for (const NearPair& pair : near_pairs(banks))
    result.push_back(NearDuplicate{pair.first->id, pair.q->id, pair.reason});
  return result;
}

}  // namespace proofdeck::bank
