// The limits a bank file is loaded within (bank/loader.hpp), in a header of their own so the
// readers the loader walks a file with (bank_reader.hpp, question_reader.hpp) share them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace proofdeck::bank {

// Guards against hostile files (people share banks).
struct LoadLimits {
  std::size_t max_bytes = 8u << 20;       // a bank file larger than this is refused
  std::size_t max_depth = 32;             // JSON nesting
  std::size_t max_text = 4000;            // bytes (UTF-8) in one string
  std::size_t max_questions = 20000;      // per bank
  std::int64_t max_combinations = 4096;   // admitted by one template's constraints
  std::int64_t max_enumerated = 1000000;  // parameter combinations tried per template
};

}  // namespace proofdeck::bank
