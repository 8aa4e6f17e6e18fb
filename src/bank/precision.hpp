// The precision a numeric question's prompt asks for ("to two decimal places", "to 3 significant
// figures", "to the nearest 0.01"), so the key is shown as asked and lint can check that the
// tolerance accepts an answer given that way.
#pragma once

#include <optional>
#include <string>

namespace proofdeck::bank {

struct Precision {
  enum class Kind { decimals, significant } kind = Kind::decimals;
  int digits = 0;
};

// The precision `prompt` asks for, or none.
std::optional<Precision> asked_precision(const std::string& prompt);

// `value` rounded to `precision`.
double rounded(double value, const Precision& precision);

// A numeric key as a learner should read it: at the precision the prompt asks for ("0.33",
// "5.66"), else (and when it is a whole number) as format_number writes it.
std::string key_text(double key, const std::string& prompt);

}  // namespace proofdeck::bank
