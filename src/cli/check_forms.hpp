// `check --forms N`: N quiz forms and N exam forms of 20 per bank and over all, and whether any
// asks one fact twice (bank/form_audit.hpp), as text or JSON; exit 1 when one does.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/form_audit.hpp"
#include "cli/context.hpp"

namespace proofdeck::cli {

// The length of the forms `check --forms` draws: quiz's and exam's default.
inline constexpr int kAuditedFormLength = 20;

// {"forms": N, "count": 20, "scopes": [{"scope", "draw", "repeat_share", "length": {"min",
// "max"}}]}.
nlohmann::ordered_json forms_json(const std::vector<bank::FormAudit>& audits, int forms);

// A line per scope and draw (its lengths and the share of forms that repeat a fact, with the
// first one's seed, its pair and the command that draws it), then the verdict.
std::string forms_text(const std::vector<bank::FormAudit>& audits, int forms, const Theme& theme,
                       int width, const std::string& program);

// Loads the banks, draws, writes the report (to `output_path`, or standard output) in `format`
// ("text" or "json"); Error check.failed (exit 1) when a form asks a fact twice.
void run_check_forms(int forms, const std::string& format, const std::string& output_path,
                     Context& context);

}  // namespace proofdeck::cli
