// Numbers for people, with one grouping rule everywhere: an integer part of four or more digits is
// grouped in threes with commas ("1,024", "1,048,576"), as the lesson writes them; the fraction is
// never grouped. Numbers for machines (JSON, GIFT, what a learner types) are never grouped and
// never come from here.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <vector>

namespace proofdeck::text {

// "1048576" → "1,048,576", "-1234.5" → "-1,234.5"; "512", "1.5e-07", "nan" unchanged.
std::string group_digits(std::string_view number);

// Exactly, for keys, prompts and messages: an integer below 2^53 in full (each is exact in a
// double, so what a learner typed reads back as typed: "9,007,199,254,640,993"), anything else
// format_readable to 10 significant digits ("0.3333333333", "0.000015", "9.007199255×10¹⁵" for
// 2^53); -0 as 0.
std::string format_number(double value);

// Compactly, for figures and tables: format_readable to three significant digits (0.0834, 32.1,
// 1,024, "3.4×10⁻¹⁷"), so a figure and the prose beside it write a number the same way.
std::string format_short(double value);

// For people reading a computed number in prose — printouts, feedback, key numbers, answer keys:
// one rule on paper and on screen. Integers below 10^15 in full ("1,048,576"); other values
// rounded to `significant` digits but never inside their integer part ("1,365.3", not "1,370"),
// and never to an integer: a non-integer keeps its first decimal that differs ("2,047.9" for
// 2047.875, "0.99996" rather than "1"; an integer to 15 digits counts as one),
// trailing zeros dropped, as plain decimals from 0.00001 up to 10^15 ("0.4011", "0.00001526",
// "15.05"); only smaller or larger ones need an exponent, written as a person would and without
// spaces, so it never breaks across lines ("3.367×10⁻⁹"). nan and ±inf as such; -0 as 0.
std::string format_readable(double value, int significant = 4);

// Numbers that stand in one column of a table (one quantity), for people: each as format_readable
// writes it to `significant` digits, then every plain one with as many decimals as the one that
// needs the most ("0.350" beside "0.414", "1.000" beside "0.625"), and the mantissas of those
// that need an exponent likewise ("1.50×10⁻¹⁶" beside "1.33×10⁻¹⁵"). More decimals are the value's
// own digits, never padding; a column of integers stays in integers; nan and ±inf as such.
std::vector<std::string> format_column(const std::vector<double>& values, int significant = 3);

// An exponent in superscript digits: "⁻⁹", "¹⁶" (for 10⁻⁹ on an axis or in prose).
std::string superscript(int exponent);

// The fewest significant digits (from `at_least` up to 17) at which `value` rounds to within
// `allowed` of itself — how many digits a key with a tolerance needs. With `allowed` 0, the
// shortest form that reads back as the same double.
int digits_within(double value, double allowed, int at_least = 4);

// A count and what it counts, singular for exactly one: "1 question", "3 questions", "1,024
// questions", "2.5 minutes".
std::string count(double n, std::string_view one, std::string_view many);

// The same for any integer, so that a size() needs no cast at the call: count(3u, ...).
template <std::integral Integer>
std::string count(Integer n, std::string_view one, std::string_view many) {
  return count(static_cast<double>(n), one, many);
}

// A share (0 to 1) as a whole percent: 0.716 → "72%". An exact half rounds to even (0.125 →
// "12%"); a negative share keeps its hyphen-minus, -0 included ("-0%").
std::string percent(double share);

// `part` of `whole` as a whole percent, computed as 100·part/whole so that a half is exactly a
// half and rounds as percent's do: 23 of 40 → "58%", 1 of 8 → "12%" (0.575, the share, is not
// exact in a double and would print "57%").
std::string percent_of(double part, double whole);

// An interval of shares in whole percents, written after the percent it surrounds, without a
// percent sign of its own: (0.654, 0.8) → "65–80", as in "72% (65–80)".
std::string percent_range(double low, double high);

// A chance as a whole percent that never rounds to a certainty it is not: "under 1%", "over 99%".
std::string chance_percent(double chance);

// Trailing zeros of a fraction removed ("2.50" → "2.5", "3.000" → "3").
void strip_trailing_zeros(std::string& number);

}  // namespace proofdeck::text
