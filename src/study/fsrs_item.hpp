// What FSRS fits and evaluates weights on: a card's reviews up to one it predicts, as fsrs-rs's
// FSRSItem holds them.
#pragma once

#include <vector>

namespace proofdeck::study {

// One review of a card: its rating (1–4) and the whole days since the card's previous review
// (0 for the first review and for a review the same day).
struct FsrsReview {
  int rating = 3;
  int delta_t = 0;
};

// A card's reviews up to and including the one predicted (the last). Items end on a review a day
// or more after the previous one; same-day reviews appear only inside histories.
using FsrsItem = std::vector<FsrsReview>;

}  // namespace proofdeck::study
