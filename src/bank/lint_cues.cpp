// The testwise-cue rule (questions/README.md § Lint): every strategy a test-wise candidate could
// play on the options' surface — the longest, the second-longest, the shortest, the middle
// length, the most words of the stem, the most words of the other options, an absolute or none,
// the most hedges, the most digits — and on true/false statements — longer is true, an absolute
// is false, a hedge is true — scored against chance over a bank's questions, exactly, with Holm's
// correction over the bank's strategies; for banks of 30 single questions or more also a
// conditional logit on all those features at once, fitted without each question in turn. A rule
// about one surface feature moves the cue to the next; this rule looks at all of them.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/cue_stats.hpp"
#include "bank/lint.hpp"
#include "bank/lint_parts.hpp"
#include "core/statistics.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::bank {

namespace {

constexpr std::size_t kCueMinimum = 10;    // single (or true/false) questions before it applies
constexpr std::size_t kLogitMinimum = 30;  // single questions before the logit is fitted
constexpr double kLogitLambda = 1.0;       // the logit's L2 penalty
constexpr double kCueAlpha = 0.05;         // after Holm's correction

// Words too common to say an option echoes the stem or the other options.
const std::set<std::string>& stop_words() {
  static const std::set<std::string> words = {
      "a",    "an",   "and", "are",  "as",   "at",    "be",   "by",  "each", "for",
      "from", "in",   "is",  "it",   "its",  "of",    "on",   "one", "or",   "that",
      "the",  "this", "to",  "what", "when", "which", "with", "not", "no",   "their"};
  return words;
}

// Words that qualify a claim: a test-wise candidate reads them as the careful, true option.
const std::set<std::string>& hedge_words() {
  static const std::set<std::string> words = {
      "may",    "might",   "could",  "can",    "often",     "usually",       "typically",
      "mostly", "largely", "partly", "some",   "tend",      "tends",         "likely",
      "nearly", "roughly", "about",  "around", "generally", "approximately", "sometimes"};
  return words;
}

std::set<std::string> content_words(std::string_view text) {
  std::set<std::string> out;
  for (std::string& word : words(text)) {
    if (!stop_words().contains(word)) out.insert(std::move(word));
  }
  return out;
}

int hedges(std::string_view text) {
  int count = 0;
  for (const std::string& word : words(text))
    count += hedge_words().contains(word) ? 1 : 0;
  return count;
}

int digits(std::string_view text) {
  return static_cast<int>(
      std::count_if(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }));
}

// What a test-wise candidate reads off one option.
struct Surface {
  double length = 0;   // columns
  int stem_words = 0;  // content words it shares with the stem
  int shared = 0;      // content words it shares with the other options, summed over them
  bool absolute = false;
  int hedges = 0;
  int digits = 0;
};

std::vector<Surface> surfaces(const Question& q) {
  const std::set<std::string> stem = content_words(q.prompt);
  std::vector<std::set<std::string>> option_words;
  for (const Option& option : q.options)
    option_words.push_back(content_words(option.text));
  std::vector<Surface> out;
  for (std::size_t i = 0; i < q.options.size(); ++i) {
    Surface s;
    s.length = static_cast<double>(text::display_width(q.options[i].text));
    for (const std::string& word : option_words[i]) {
      s.stem_words += stem.contains(word) ? 1 : 0;
      for (std::size_t j = 0; j < option_words.size(); ++j)
        s.shared += j != i && option_words[j].contains(word) ? 1 : 0;
    }
    s.absolute = has_absolute(q.options[i].text);
    s.hedges = hedges(q.options[i].text);
    s.digits = digits(q.options[i].text);
    out.push_back(s);
  }
  return out;
}

// The options a strategy picks: those where `pick` is true; all of them when it picks none (the
// candidate guesses).
using Pick = std::vector<bool>;

Pick of_best(const std::vector<double>& score) {
  const double best = *std::max_element(score.begin(), score.end());
  Pick pick;
  for (const double s : score)
    pick.push_back(s == best);
  return pick;
}

template <typename Get>
std::vector<double> each(const std::vector<Surface>& options, Get get) {
  std::vector<double> out;
  for (const Surface& s : options)
    out.push_back(static_cast<double>(get(s)));
  return out;
}

// The distinct lengths, longest first.
std::vector<double> lengths_down(const std::vector<Surface>& options) {
  std::vector<double> out = each(options, [](const Surface& s) { return s.length; });
  std::sort(out.begin(), out.end(), std::greater<>());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Pick of_length(const std::vector<Surface>& options, std::function<bool(double)> keep) {
  Pick pick;
  for (const Surface& s : options)
    pick.push_back(keep(s.length));
  return pick;
}

struct OptionStrategy {
  const char* name;
  Pick (*pick)(const std::vector<Surface>&);
};

const std::vector<OptionStrategy>& option_strategies() {
  static const std::vector<OptionStrategy> strategies = {
      {"longest",
       [](const std::vector<Surface>& o) {
         return of_best(each(o, [](const Surface& s) { return s.length; }));
       }},
      {"second-longest",
       [](const std::vector<Surface>& o) {
         const std::vector<double> down = lengths_down(o);
         if (down.size() < 2) return Pick(o.size(), true);
         return of_length(o, [&](double length) { return length == down[1]; });
       }},
      {"shortest",
       [](const std::vector<Surface>& o) {
         return of_best(each(o, [](const Surface& s) { return -s.length; }));
       }},
      {"middle-length",
       [](const std::vector<Surface>& o) {
         const std::vector<double> down = lengths_down(o);
         return of_length(o, [&](double l) { return l < down.front() && l > down.back(); });
       }},
      {"stem-words",
       [](const std::vector<Surface>& o) {
         return of_best(each(o, [](const Surface& s) { return s.stem_words; }));
       }},
      {"convergence",
       [](const std::vector<Surface>& o) {
         return of_best(each(o, [](const Surface& s) { return s.shared; }));
       }},
      {"has-absolute",
       [](const std::vector<Surface>& o) {
         return of_best(each(o, [](const Surface& s) { return s.absolute ? 1 : 0; }));
       }},
      {"avoids-absolute",
       [](const std::vector<Surface>& o) {
         return of_best(each(o, [](const Surface& s) { return s.absolute ? 0 : 1; }));
       }},
      {"most-hedged",
       [](const std::vector<Surface>& o) {
         return of_best(each(o, [](const Surface& s) { return s.hedges; }));
       }},
      {"most-digits",
       [](const std::vector<Surface>& o) {
         return of_best(each(o, [](const Surface& s) { return s.digits; }));
       }},
  };
  return strategies;
}

CueDraw play(const Pick& pick, std::size_t key) {
  CueDraw draw{0, static_cast<int>(pick.size()), false};
  for (std::size_t i = 0; i < pick.size(); ++i)
    draw.tied += pick[i] ? 1 : 0;
  if (draw.tied == 0) return CueDraw{draw.options, draw.options, true};
  draw.earned = pick[key];
  return draw;
}

// The logit's features of each option, standardised over every option of the bank's items so
// that one penalty weighs them alike.
std::vector<LogitItem> logit_items(const std::vector<std::vector<Surface>>& items,
                                   const std::vector<std::size_t>& keys) {
  constexpr Eigen::Index kFeatures = 9;
  std::vector<LogitItem> out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::vector<Surface>& o = items[i];
    const std::vector<double> down = lengths_down(o);
    double mean = 0;
    for (const Surface& s : o)
      mean += s.length / static_cast<double>(o.size());
    LogitItem item{Eigen::MatrixXd(static_cast<Eigen::Index>(o.size()), kFeatures),
                   static_cast<Eigen::Index>(keys[i])};
    for (std::size_t j = 0; j < o.size(); ++j) {
      const Surface& s = o[j];
      item.features.row(static_cast<Eigen::Index>(j)) << s.length / std::max(mean, 1.0) - 1.0,
          s.length == down.front() ? 1.0 : 0.0, down.size() > 1 && s.length == down[1] ? 1.0 : 0.0,
          s.length == down.back() ? 1.0 : 0.0, static_cast<double>(s.stem_words),
          static_cast<double>(s.shared) /
              static_cast<double>(std::max<std::size_t>(o.size(), 2) - 1),
          s.absolute ? 1.0 : 0.0, static_cast<double>(s.hedges), std::log1p(s.digits);
    }
    out.push_back(std::move(item));
  }
  Eigen::Index rows = 0;
  for (const LogitItem& item : out)
    rows += item.features.rows();
  Eigen::MatrixXd all(rows, kFeatures);
  rows = 0;
  for (const LogitItem& item : out) {
    all.middleRows(rows, item.features.rows()) = item.features;
    rows += item.features.rows();
  }
  const Eigen::RowVectorXd centre = all.colwise().mean();
  Eigen::RowVectorXd spread = ((all.rowwise() - centre).array().square().colwise().sum() /
                               std::max(1.0, static_cast<double>(rows)))
                                  .sqrt();
  for (Eigen::Index f = 0; f < kFeatures; ++f)
    spread[f] = spread[f] > 0 ? spread[f] : 1.0;
  for (LogitItem& item : out)
    item.features = (item.features.rowwise() - centre).array().rowwise() / spread.array();
  return out;
}

CueStrategy score(const std::string& name, const std::vector<CueDraw>& draws,
                  const std::vector<std::string>& ids) {
  CueStrategy strategy{name, credit(draws), chance(draws), credit_p_value(draws), 1.0, {}};
  for (std::size_t i = 0; i < draws.size(); ++i) {
    if (draws[i].earned && draws[i].tied < draws[i].options) strategy.wins.push_back(ids[i]);
  }
  return strategy;
}

void single_strategies(const Bank& bank, std::vector<CueAudit>& cues) {
  std::vector<std::vector<Surface>> items;
  std::vector<std::size_t> keys;
  std::vector<std::string> ids;
  for (const Question& q : bank.questions) {
    if (q.type != QuestionType::single || q.options.size() < 2) continue;
    const auto key = std::find_if(q.options.begin(), q.options.end(),
                                  [](const Option& option) { return option.correct; });
    if (key == q.options.end()) continue;
    items.push_back(surfaces(q));
    keys.push_back(static_cast<std::size_t>(key - q.options.begin()));
    ids.push_back(q.id);
  }
  if (items.size() < kCueMinimum) return;
  CueAudit audit{bank.id, "single", items.size(), {}};
  for (const OptionStrategy& strategy : option_strategies()) {
    std::vector<CueDraw> draws;
    for (std::size_t i = 0; i < items.size(); ++i)
      draws.push_back(play(strategy.pick(items[i]), keys[i]));
    audit.strategies.push_back(score(strategy.name, draws, ids));
  }
  if (items.size() >= kLogitMinimum) {
    audit.strategies.push_back(
        score("logit", logit_leave_one_out(logit_items(items, keys), kLogitLambda), ids));
  }
  cues.push_back(std::move(audit));
}

void truefalse_strategies(const Bank& bank, std::vector<CueAudit>& cues) {
  std::vector<const Question*> statements;
  std::vector<std::string> ids;
  std::vector<double> lengths;
  for (const Question& q : bank.questions) {
    if (q.type != QuestionType::truefalse) continue;
    statements.push_back(&q);
    ids.push_back(q.id);
    lengths.push_back(static_cast<double>(text::display_width(q.prompt)));
  }
  if (statements.size() < kCueMinimum) return;
  const double median_length = median(lengths);
  // A statement it has no opinion on is a coin toss: both answers tied.
  const auto call = [](std::optional<bool> says, bool answer) {
    return says ? CueDraw{1, 2, *says == answer} : CueDraw{2, 2, true};
  };
  std::vector<CueDraw> longer, absolute, hedged;
  for (std::size_t i = 0; i < statements.size(); ++i) {
    const Question& q = *statements[i];
    longer.push_back(
        call(lengths[i] == median_length ? std::nullopt : std::optional(lengths[i] > median_length),
             q.answer));
    absolute.push_back(
        call(has_absolute(q.prompt) ? std::optional(false) : std::nullopt, q.answer));
    hedged.push_back(call(hedges(q.prompt) > 0 ? std::optional(true) : std::nullopt, q.answer));
  }
  cues.push_back(
      CueAudit{bank.id,
               "truefalse",
               statements.size(),
               {score("longer-is-true", longer, ids), score("absolute-is-false", absolute, ids),
                score("hedged-is-true", hedged, ids)}});
}

std::string strategy_words(const std::string& name) {
  if (name == "longest") return "picks the longest option";
  if (name == "second-longest") return "picks the second-longest option";
  if (name == "shortest") return "picks the shortest option";
  if (name == "middle-length") return "drops the longest and the shortest option";
  if (name == "stem-words") return "picks the option sharing most words with the stem";
  if (name == "convergence") return "picks the option sharing most words with the other options";
  if (name == "has-absolute") return "picks an option with an absolute (always, never, only…)";
  if (name == "avoids-absolute") return "rules out the options with an absolute";
  if (name == "most-hedged") return "picks the most hedged option (may, can, often, some…)";
  if (name == "most-digits") return "picks the option with the most digits";
  if (name == "logit") {
    return "weighs every one of these surface features at once (a conditional logit fitted "
           "without the question it answers)";
  }
  if (name == "longer-is-true") return "answers true to the longer statements";
  if (name == "absolute-is-false") return "answers false to a statement with an absolute";
  return "answers true to a hedged statement";
}

}  // namespace

void testwise_cue(Linter& linter, const Bank& bank, std::vector<CueAudit>& cues) {
  const std::size_t first = cues.size();
  single_strategies(bank, cues);
  truefalse_strategies(bank, cues);
  std::vector<double> p;
  for (std::size_t a = first; a < cues.size(); ++a) {
    for (const CueStrategy& strategy : cues[a].strategies)
      p.push_back(strategy.p);
  }
  const std::vector<double> corrected = holm(p);
  std::size_t next = 0;
  for (std::size_t a = first; a < cues.size(); ++a) {
    for (CueStrategy& strategy : cues[a].strategies)
      strategy.p_holm = corrected[next++];
  }
  for (std::size_t a = first; a < cues.size(); ++a) {
    const CueAudit& audit = cues[a];
    const bool single = audit.type == "single";
    for (const CueStrategy& strategy : audit.strategies) {
      if (strategy.p_holm >= kCueAlpha) continue;
      const auto items = static_cast<double>(audit.items);
      linter.add(
          bank, nullptr, "testwise-cue",
          fmt::format("a test-wise candidate who {} earns {:.1f} of {} {} ({}), where guessing "
                      "earns {:.1f} ({}): p = {:.2g} one-sided, {:.2g} after Holm's correction "
                      "over the bank's {} strategies. It wins on {}: rewrite them so the cue "
                      "points at distractors as often as at keys",
                      strategy_words(strategy.name), strategy.credit, audit.items,
                      single ? "single questions" : "true/false statements",
                      text::percent(strategy.credit / items), strategy.chance,
                      text::percent(strategy.chance / items), strategy.p, strategy.p_holm, p.size(),
                      fmt::join(strategy.wins, ", ")));
    }
  }
}

}  // namespace proofdeck::bank
