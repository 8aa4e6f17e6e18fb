// `check --lint --cues`: what each test-wise strategy earns over each bank (bank/lint.hpp's
// CueAudit), as a table for people and as the report's "cues" array for scripts.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bank/lint.hpp"
#include "render/theme.hpp"

namespace proofdeck::cli {

// [{"bank", "type", "items", "strategies": [{"name", "credit", "chance", "p", "p_holm"}]}].
nlohmann::ordered_json cues_json(const std::vector<bank::CueAudit>& cues);

// A table per bank and kind of question: each strategy's credit and chance, as counts and
// shares, its p and its Holm-corrected p, a strategy that beats chance marked in the bad style.
// Banks with fewer than 10 questions of a kind have no table for it, and the text says so.
std::string cues_text(const std::vector<bank::CueAudit>& cues, const Theme& theme, int width);

}  // namespace proofdeck::cli
