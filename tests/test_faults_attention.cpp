// Engine faults in the attention family (scores, heads, caches, tiles, RoPE, ALiBi): each fault
// changes its op's output on a seeded input and leaves the fault-free path as it was.
#include <catch2/catch.hpp>

#include "engine/fault.hpp"
