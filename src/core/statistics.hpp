// Small statistics every layer takes the same way: the median of a sample.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace proofdeck {

// The median: the middle value, or the mean of the two middle ones when there is an even number
// of them; NaN for no values.
inline double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace proofdeck
