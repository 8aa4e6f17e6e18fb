// Value axes (see scale.hpp).
#include "render/scale.hpp"

#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/number.hpp"

namespace proofdeck::render {

double nice_step(double span, int target_ticks) {
  const double raw = span / std::max(target_ticks, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double normalized = raw / magnitude;
  const double nice = normalized < 1.5   ? 1.0
                      : normalized < 3.0 ? 2.0
                      : normalized < 7.0 ? 5.0
                                         : 10.0;
  return nice * magnitude;
}

Scale make_scale(const std::vector<double>& values, bool log, int target_ticks, bool round_out) {
  Scale scale;
  double min = 0.0, max = 0.0;
  bool any = false;
  for (const double v : values) {
    if (!std::isfinite(v) || (log && v <= 0.0)) continue;
    min = any ? std::min(min, v) : v;
    max = any ? std::max(max, v) : v;
    any = true;
  }
  if (log && any) {
    scale.log = true;
    scale.low = std::floor(std::log10(min));
    scale.high = std::ceil(std::log10(max));
    if (scale.high <= scale.low) scale.high = scale.low + 1.0;
    const int decades = static_cast<int>(scale.high - scale.low);
    const int stride = std::max(1, (decades + target_ticks - 1) / std::max(target_ticks, 1));
    for (int k = static_cast<int>(scale.low); k <= static_cast<int>(scale.high); k += stride) {
      scale.ticks.push_back(std::pow(10.0, k));
    }
    return scale;
  }
  scale.low = std::min(0.0, min);
  scale.high = std::max(0.0, max);
  if (scale.high <= scale.low) scale.high = scale.low + 1.0;
  const double step = nice_step(scale.high - scale.low, target_ticks);
  if (round_out) {
    scale.low = std::floor(scale.low / step) * step;
    scale.high = std::ceil(scale.high / step) * step;
  }
  const double first = std::ceil(scale.low / step - 1e-9);
  for (int i = 0;; ++i) {
    const double tick = (first + i) * step;
    if (tick > scale.high + step * 1e-9) break;
    scale.ticks.push_back(std::fabs(tick) < step * 1e-9 ? 0.0 : tick);
  }
  return scale;
}

std::string decade_label(int exponent) {
  if (exponent >= -2 && exponent <= 2) return text::format_short(std::pow(10.0, exponent));
  return "10" + text::superscript(exponent);  // as format_short writes a power of ten
}

}  // namespace proofdeck::render
