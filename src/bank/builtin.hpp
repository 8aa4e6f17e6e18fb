// The built-in banks, embedded in the binary at build time (cmake/embed_banks.cmake), so
// proofdeck works from any folder.
#pragma once

#include <string_view>
#include <vector>

namespace proofdeck::bank {

struct EmbeddedBank {
  std::string_view name;  // "questions/core.json", for messages
  std::string_view text;  // the file's bytes
};

const std::vector<EmbeddedBank>& builtin_banks();

}  // namespace proofdeck::bank
