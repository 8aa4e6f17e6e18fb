// Reading one question of a bank file: its common keys, then what its type holds (options, a
// true/false answer, a numeric key with its template and distractors, or steps), every problem
// collected by the Reader with its JSON pointer.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "bank/bank_reader.hpp"
#include "bank/load_limits.hpp"
#include "bank/model.hpp"

namespace proofdeck::bank {

// The question at `pointer` ("/questions/3"), as far as it reads; its bank and file are the
// caller's to fill, its references to topics and traps the caller's to check.
Question read_question(Reader& reader, const nlohmann::json& node, const std::string& pointer,
                       const LoadLimits& limits);

}  // namespace proofdeck::bank
