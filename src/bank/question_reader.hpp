// Reading one question of a bank file: its common keys, then what its type holds (options, a
// true/false answer, a numeric key with its template and distractors, or steps), every problem
// collected by the Reader with its JSON pointer.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "bank/bank_reader.hpp"
#include "bank/load_limits.hpp"
#include "bank/model.hpp"

namespace proofdeck::bank {

// The question at `pointer` ("/questions/3"), as far as it reads; its bank and file are the
// caller's to fill, its references to topics and traps the caller's to check.
Question read_question(Reader& reader, const nlohmann::json& node, const std::string& pointer,
                       const LoadLimits& limits);

// Whether a problem under the question's `key` ("difficulty", "template") leaves its proof
// checkable against the demo catalog, because no such check reads that key: a proof checked
// despite it reports nothing that follows from the problem.
bool leaves_proof_checkable(std::string_view key);

}  // namespace proofdeck::bank
