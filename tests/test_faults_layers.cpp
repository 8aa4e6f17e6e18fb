// Engine faults in the layer family (positions, norms, residuals, feed-forwards, Linear): each
// fault changes its op's output on a seeded input and leaves the fault-free path as it was.
#include <catch2/catch.hpp>

#include "engine/fault.hpp"
