// The testwise-cue measures as a table and as JSON (cli/check_cues.hpp).
#include "cli/check_cues.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::cli {

namespace {

constexpr double kCueAlpha = 0.05;
constexpr int kWideTable = 64;  // columns the full table needs

std::string p_text(double p) {
  return p < 0.0001 ? "<0.0001" : fmt::format("{:.4f}", p);
}

}  // namespace

nlohmann::ordered_json cues_json(const std::vector<bank::CueAudit>& cues) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const bank::CueAudit& audit : cues) {
    nlohmann::ordered_json strategies = nlohmann::ordered_json::array();
    for (const bank::CueStrategy& s : audit.strategies) {
      strategies.push_back({{"name", s.name},
                            {"credit", s.credit},
                            {"chance", s.chance},
                            {"p", s.p},
                            {"p_holm", s.p_holm}});
    }
    out.push_back({{"bank", audit.bank},
                   {"type", audit.type},
                   {"items", audit.items},
                   {"strategies", std::move(strategies)}});
  }
  return out;
}

std::string cues_text(const std::vector<bank::CueAudit>& cues, const Theme& theme, int width) {
  std::string text = wrap_styled(
      {},
      "cues: what a test-wise candidate earns with each strategy, against guessing (a tie of k "
      "options counts 1/k; p one-sided and exact, then Holm-corrected over the bank's strategies; "
      "a bank needs 10 single or 10 true/false questions to be measured, 30 single ones for the "
      "logit)",
      width, "", "  ");
  if (cues.empty()) {
    text += wrap_styled(theme.dim, "no bank has enough questions of one kind to measure", width,
                        "  ", "  ");
  }
  for (const bank::CueAudit& audit : cues) {
    text +=
        fmt::format("  {} · {} {}\n", fmt::format(theme.emphasis, "{}", audit.bank), audit.items,
                    audit.type == "single" ? "single questions" : "true/false statements");
    std::size_t name_width = 8;
    for (const bank::CueStrategy& s : audit.strategies)
      name_width = std::max(name_width, s.name.size());
    // Below 64 columns the shares and the uncorrected p give way, so no row wraps at 50.
    const bool narrow = width < kWideTable;
    text += narrow ? fmt::format("    {:<{}}  {:>5}  {:>5}  {:>7}\n", "strategy", name_width,
                                 "earns", "guess", "p Holm")
                   : fmt::format("    {:<{}}  {:>11}  {:>11}  {:>7}  {:>7}\n", "strategy",
                                 name_width, "earns", "guessing", "p", "p Holm");
    const auto items = static_cast<double>(audit.items);
    for (const bank::CueStrategy& s : audit.strategies) {
      const std::string earns =
          fmt::format("{:.1f} {:>4}", s.credit, text::percent(s.credit / items));
      const std::string guess =
          fmt::format("{:.1f} {:>4}", s.chance, text::percent(s.chance / items));
      const std::string row =
          narrow ? fmt::format("{:<{}}  {:>5.1f}  {:>5.1f}  {:>7}", s.name, name_width, s.credit,
                               s.chance, p_text(s.p_holm))
                 : fmt::format("{:<{}}  {:>11}  {:>11}  {:>7}  {:>7}", s.name, name_width, earns,
                               guess, p_text(s.p), p_text(s.p_holm));
      text += "    " + (s.p_holm < kCueAlpha ? fmt::format(theme.bad, "{}", row) : row) + "\n";
    }
  }
  return text;
}

}  // namespace proofdeck::cli
