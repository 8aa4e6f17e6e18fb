// A demo result as Markdown (GitHub Flavored): its tables as tables, its series as tables of
// points, its values as a list, every string escaped.
#pragma once

#include <string>

#include "demo/demo.hpp"

namespace proofdeck::render {

using demo::DemoInfo;
using demo::DemoResult;

std::string render_markdown(const DemoResult& result, const DemoInfo& info);

}  // namespace proofdeck::render
