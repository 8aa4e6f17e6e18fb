// Multiply-adds counted where the matrix products run: a MacTally open on a thread adds up the
// products that thread's forward takes, each from the shapes of the operands it multiplied — so a
// module built with other widths is counted as built, not as a closed form says it should be.
//
// Counted: nn.Linear's forward (one multiply-add per weight per row), SwiGLU's three projections
// and a mixture of experts' router (each expert is a SwiGLU), and scaled dot-product
// attention's two products (q·kᵀ and P·v). Grouped-query attention's fused ops, the KV cache, the
// tiled pass and every backward are not counted; a tally open over them stays at what the counted
// ops added.
#pragma once

#include <cstdint>

#include "engine/tensor.hpp"

namespace proofdeck::engine {

struct MacCount {
  std::int64_t linear = 0;           // nn.Linear: rows × in_features × out_features
  std::int64_t scores = 0;           // q·kᵀ: queries × d_k × keys
  std::int64_t weighted_values = 0;  // P·v: queries × keys × d_v
  std::int64_t total() const noexcept { return linear + scores + weighted_values; }
  MacCount& operator+=(const MacCount& other) noexcept {
    linear += other.linear;
    scores += other.scores;
    weighted_values += other.weighted_values;
    return *this;
  }
};

enum class MacSite : std::uint8_t { linear, scores, weighted_values };

// Adds rows × inner × cols multiply-adds at `site` to the thread's open tally, if there is one.
// mac-count-one-head (fault): a tally keeps only the first score product and the first weighted
// sum it sees — one head's share read as the layer's cost.
void count_macs(MacSite site, Index rows, Index inner, Index cols) noexcept;

// Counts this thread's products for as long as it lives (the tally of its run context,
// run_context.hpp). Tallies nest: when one ends, the tally
// open before it gains what it counted.
class MacTally {
 public:
  MacTally() noexcept;
  ~MacTally();
  MacTally(const MacTally&) = delete;
  MacTally& operator=(const MacTally&) = delete;
  const MacCount& count() const noexcept { return count_; }

 private:
  friend void count_macs(MacSite, Index, Index, Index) noexcept;
  MacCount count_;
  MacTally* previous_;
};

}  // namespace proofdeck::engine
