// Demos about attention and position: order-blindness, rope-relative, pe-extrapolation,
// causal-mask, head-params and head-width.
#pragma once

#include "demo/demo.hpp"

namespace proofdeck::demo {

DemoInfo order_blindness_demo();   // "order-blindness"
DemoInfo rope_relative_demo();     // "rope-relative"
DemoInfo pe_extrapolation_demo();  // "pe-extrapolation"
DemoInfo causal_mask_demo();       // "causal-mask"
DemoInfo head_params_demo();       // "head-params"
DemoInfo head_width_demo();        // "head-width"

}  // namespace proofdeck::demo
