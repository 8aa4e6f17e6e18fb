// The colour ramp (see color.hpp).
#include "render/color.hpp"

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

namespace proofdeck::render {

Rgb ramp_colour(double shade) {
  shade = std::isnan(shade) ? 0.0 : std::clamp(shade, 0.0, 1.0);
  const double position = shade * static_cast<double>(kRamp.size() - 1);
  const std::size_t low = std::min(static_cast<std::size_t>(position), kRamp.size() - 2);
  const double fraction = position - static_cast<double>(low);
  const auto mix = [&](int a, int b) {
    return static_cast<int>(std::lround(a + (b - a) * fraction));
  };
  const Rgb& a = kRamp[low];
  const Rgb& b = kRamp[low + 1];
  return {mix(a.red, b.red), mix(a.green, b.green), mix(a.blue, b.blue)};
}

bool needs_light_text(double shade) {
  return shade > 0.55;
}

std::string hex(Rgb colour) {
  return fmt::format("#{:02x}{:02x}{:02x}", colour.red, colour.green, colour.blue);
}

int xterm_shade(double shade) {
  shade = std::isnan(shade) ? 0.0 : std::clamp(shade, 0.0, 1.0);
  return kXtermRamp[static_cast<std::size_t>(
      std::lround(shade * static_cast<double>(kXtermRamp.size() - 1)))];
}

}  // namespace proofdeck::render
