// Demos about normalisation: layernorm-vs-batchnorm and what-layernorm-normalizes.
#pragma once

#include "demo/demo.hpp"

namespace proofdeck::demo {

DemoInfo layernorm_vs_batchnorm_demo();     // "layernorm-vs-batchnorm"
DemoInfo what_layernorm_normalizes_demo();  // "what-layernorm-normalizes"

}  // namespace proofdeck::demo
