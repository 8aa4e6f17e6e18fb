// Numbers for people, with one grouping rule everywhere: an integer part of four or more digits is
// grouped in threes with commas ("1,024", "1,048,576"), as the lesson writes them; the fraction is
// never grouped. Numbers for machines (JSON, GIFT, what a learner types) are never grouped and
// never come from here.
#pragma once

#include <string>
#include <string_view>

namespace proofdeck::text {

// "1048576" → "1,048,576", "-1234.5" → "-1,234.5"; "512", "1.5e-07", "nan" unchanged.
std::string group_digits(std::string_view number);

// Exactly, for keys, prompts and messages: integers below 2^53 in full, other values to 10
// significant digits ("0.3333333333", "1.5e-05", "9.007199255e+15"); -0 as 0.
std::string format_number(double value);

// Compactly, for figures and tables: integers in full, exact zero as 0, other values to three
// significant digits (0.0834, 32.1); very small or very large ones in scientific notation with
// three significant digits (1.05e6, 3.4e-17); nan and ±inf as such.
std::string format_short(double value);

// Trailing zeros of a fraction removed ("2.50" → "2.5", "3.000" → "3").
void strip_trailing_zeros(std::string& number);

}  // namespace proofdeck::text
