// `check --list-faults`: the engine faults from their one catalog (engine/fault.cpp), as a list
// for a terminal or as JSON.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "render/theme.hpp"

namespace proofdeck::cli {

// {"faults": [{"name", "op", "change", "trap", "claim", "subtle", "reshapes"}]} in catalog order;
// "trap" is null for a fault that models no trap.
nlohmann::ordered_json fault_list_json();

// Each fault's name, then what it changes and, beneath, its op, trap and whether it is subtle,
// all within `width` columns; at the end the count, what "subtle" means and the commands that
// go further (named as `program`, the name the tool was run by).
std::string fault_list_text(const Theme& theme, int width, std::string_view program);

}  // namespace proofdeck::cli
