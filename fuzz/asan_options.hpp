// Sanitizer defaults compiled into every fuzz target, so a finding reproduces the same way
// whether the target runs from scripts/fuzz or by hand.
#pragma once

// Redzones of 64 bytes rather than 16: a read a little past a small object (a std::map's end()
// dereferenced reads 24 bytes past the map) lands in a redzone, not in the next allocation.
extern "C" const char* __asan_default_options() {
  return "redzone=64";
}
