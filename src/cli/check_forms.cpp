// check --forms: how quiz's and exam's forms come out, over many seeds.
#include "cli/check_forms.hpp"

#include <algorithm>
#include <string_view>
#include <thread>

#include <fmt/color.h>
#include <fmt/format.h>

#include "bank/sources.hpp"
#include "core/errors.hpp"
#include "render/theme.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::cli {

nlohmann::ordered_json forms_json(const std::vector<bank::FormAudit>& audits, int forms) {
  nlohmann::ordered_json scopes = nlohmann::ordered_json::array();
  for (const bank::FormAudit& audit : audits) {
    scopes.push_back({{"scope", audit.scope},
                      {"draw", audit.draw},
                      {"repeat_share", audit.repeat_share()},
                      {"length", {{"min", audit.shortest}, {"max", audit.longest}}}});
  }
  return {{"forms", forms}, {"count", kAuditedFormLength}, {"scopes", scopes}};
}

std::string forms_text(const std::vector<bank::FormAudit>& audits, int forms, const Theme& theme,
                       int width, const std::string& program) {
  int scope_width = 5;
  for (const bank::FormAudit& audit : audits)
    scope_width = std::max(scope_width, text::display_width(audit.scope));
  std::string out = text::wrap_block(
      fmt::format("Forms: {} quiz and {} exam forms of {} questions for each bank and for all "
                  "together (seeds 0 to {}), drawn as quiz and exam draw them; none may ask one "
                  "fact twice.",
                  forms, forms, kAuditedFormLength, forms - 1),
      width, "", "");
  const auto length_of = [](const bank::FormAudit& audit) {
    return audit.shortest == audit.longest ? fmt::format("{}", audit.shortest)
                                           : fmt::format("{}–{}", audit.shortest, audit.longest);
  };
  int length_width = text::display_width("length");
  for (const bank::FormAudit& audit : audits)
    length_width = std::max(length_width, text::display_width(length_of(audit)));
  // One row per scope and draw under a header; the count beside its scope where the line has
  // room, else beneath it.
  const auto row = [&](std::string_view scope, std::string_view draw, std::string_view length,
                       std::string_view share, const std::string& shown) {
    const std::string head =
        fmt::format("  {}  {}  {}", text::pad_right(scope, scope_width), text::pad_right(draw, 4),
                    text::pad_right(length, length_width));
    return text::display_width(head) + 2 + text::display_width(share) <= width
               ? head + "  " + shown + "\n"
               : fmt::format("  {}  {}  {}\n      {}\n", text::pad_right(scope, scope_width), draw,
                             length, shown);
  };
  const std::string heading = "repeat a fact";
  out += style_lines(theme.dim, row("scope", "draw", "length", heading, heading));
  std::size_t failing = 0;
  for (const bank::FormAudit& audit : audits) {
    const std::string share = fmt::format("{} of {}", audit.repeating, audit.forms);
    out += row(audit.scope, audit.draw, length_of(audit), share,
               audit.repeating == 0 ? share : fmt::format("{}", fmt::styled(share, theme.bad)));
    if (audit.repeating == 0) continue;
    ++failing;
    const bank::RepeatedFact& pair = audit.first_repeat;
    const std::string from_bank =
        audit.scope == "all" ? "" : " --from-bank " + text::shell_word(audit.scope);
    out +=
        text::wrap_block(fmt::format("first at seed {}: {} and {} ({}); to see that form:",
                                     *audit.first_seed, pair.first, pair.second, pair.why),
                         width, "      ", "      ") +
        text::command_block(fmt::format("{} --seed {} {}{} --count {}", program, *audit.first_seed,
                                        audit.draw, from_bank, kAuditedFormLength),
                            width, "        ");
  }
  out += failing == 0 ? style_lines(theme.good, "No form asks a fact twice.")
                      : style_lines(theme.bad,
                                    fmt::format("{} of {} ask a fact twice on some form.", failing,
                                                text::count(audits.size(), "draw", "draws")));
  return out;
}

void run_check_forms(int forms, const std::string& format, const std::string& output_path,
                     Context& context) {
  const std::vector<bank::Bank> banks =
      bank::load_banks(bank::BankSources{context.global.banks, !context.global.no_builtin});
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<bank::FormAudit> audits =
      bank::audit_forms(banks, forms, kAuditedFormLength, threads);
  if (format == "json") {
    write_output(output_path, forms_json(audits, forms).dump(2) + "\n", context.io);
  } else {
    const Theme& theme = output_path.empty() ? context.theme : Theme::plain();
    write_output(output_path,
                 forms_text(audits, forms, theme, text_width(context), context.program),
                 context.io);
  }
  const bool repeats = std::any_of(audits.begin(), audits.end(),
                                   [](const bank::FormAudit& a) { return a.repeating > 0; });
  if (repeats) {
    throw Error("check.failed", "check failed: a form asks one fact twice (check --forms)",
                ExitCode::check_failed);
  }
}

}  // namespace proofdeck::cli
