// `check --list-faults`: the engine's fault catalog as a definition list or as JSON (see
// fault_list.hpp). Laid out as `proofdeck list` lays out its items.
#include "cli/fault_list.hpp"

#include <algorithm>
#include <span>

#include <fmt/color.h>
#include <fmt/format.h>

#include "engine/fault.hpp"
#include "text/width.hpp"

namespace proofdeck::cli {

nlohmann::ordered_json fault_list_json() {
  nlohmann::ordered_json faults = nlohmann::ordered_json::array();
  for (const engine::FaultInfo& info : engine::fault_catalog()) {
    faults.push_back({{"name", info.name},
                      {"op", engine::op_name(info.op)},
                      {"change", info.change},
                      {"trap", info.trap.empty() ? nlohmann::ordered_json(nullptr)
                                                 : nlohmann::ordered_json(info.trap)},
                      {"claim", info.claim},
                      {"subtle", info.subtle},
                      {"reshapes", info.reshapes}});
  }
  return {{"faults", std::move(faults)}};
}

std::string fault_list_text(const Theme& theme, int width, std::string_view program) {
  const std::span<const engine::FaultInfo> catalog = engine::fault_catalog();
  int name_width = 0, trap_width = 0;
  for (const engine::FaultInfo& info : catalog) {
    name_width = std::max(name_width, text::display_width(info.name));
    trap_width = std::max(trap_width, text::display_width(info.trap));
  }
  // A trap id is what `quiz --trap` takes, so it is never broken: when the column beside the
  // names is narrower than the longest, every description goes under its name.
  int column = std::min(name_width + 2, width / 2);
  if (width - column < trap_width) column = width;
  std::string out;
  std::size_t subtle = 0;
  for (const engine::FaultInfo& info : catalog) {
    subtle += info.subtle;
    std::string details = fmt::format("op {}", engine::op_name(info.op));
    if (!info.trap.empty()) details += fmt::format(" · trap {}", info.trap);
    if (info.subtle) details += " · subtle";
    std::string entry =
        text::definition(info.name, fmt::format("{}\n{}", info.change, details), width, column, "");
    if (entry.compare(0, info.name.size(), info.name) == 0)
      entry.replace(0, info.name.size(), fmt::format(theme.emphasis, "{}", info.name));
    out += entry;
  }
  // The commands on lines of their own, so each copies whole at any width.
  out += "\n" +
         wrap_styled(theme.dim,
                     fmt::format("{} faults, {} of them subtle (they move no demo's measured "
                                 "default outputs by 10%: only a proof that reads the right value "
                                 "notices them). Every proof under every fault:",
                                 catalog.size(), subtle),
                     width) +
         style_lines(theme.dim, text::command_block(std::string(program) + " check --engine-faults",
                                                    width, "    ")) +
         wrap_styled(theme.dim, "What each trap is:", width) +
         style_lines(theme.dim,
                     text::command_block(std::string(program) + " list traps", width, "    "));
  return out;
}

}  // namespace proofdeck::cli
