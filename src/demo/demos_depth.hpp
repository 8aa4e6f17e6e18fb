// Demos about depth and scale: variance-drift, residual-gradient, pre-vs-post-ln and
// sqrt-dk-scaling — what keeps activations and gradients in range through a deep stack (and
// inside one softmax).
#pragma once

#include "demo/demo.hpp"

namespace proofdeck::demo {

DemoInfo variance_drift_demo();     // "variance-drift"
DemoInfo residual_gradient_demo();  // "residual-gradient"
DemoInfo pre_vs_post_ln_demo();     // "pre-vs-post-ln"
DemoInfo sqrt_dk_scaling_demo();    // "sqrt-dk-scaling"

}  // namespace proofdeck::demo
