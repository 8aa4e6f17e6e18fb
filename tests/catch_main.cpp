// Catch2's main, alone in its file so editing a test never recompiles it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
