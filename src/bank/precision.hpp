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
// "4,095.500"), grouped by the number rule; a whole number in full; else with the digits its
// tolerance needs (`allowed`, the absolute tolerance: the shown key lies within a tenth of it), at
// least four, in text::format_readable's plain decimals ("15.05", "0.00001526").
std::string key_text(double key, const std::string& prompt, double allowed);

// A number as key_text (or format_measured) wrote it, then the question's unit once: "4,095.500
// positions", "33,554,432 bytes"; a unit written in the plural reads in the singular after
// exactly 1 ("1 query head", "1 byte"). The number alone when the unit is empty.
std::string with_unit(const std::string& number, double value, const std::string& unit);

// A tolerance in plain words for a key as key_text shows it: " (±0.0001)", " (±0.5%)"; empty when
// the tolerance is finer than the shown key's last digit (the key is exact as written).
std::string tolerance_text(double key, const std::string& prompt, double tolerance, bool relative);

}  // namespace proofdeck::bank
