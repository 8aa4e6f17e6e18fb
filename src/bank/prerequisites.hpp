// The order a learner meets the loaded banks' topics in, one rule for every command that has an
// order to choose (drill's new cards, `list`): a stable topological sort of the topics by what
// each `requires` (questions/README.md) — the lesson's bank first, then the other banks in load
// order, each bank's topics in file order, a topic moved only as far as to come after what it
// requires. Resolving `requires` needs every bank, so this is also where unknown ids and cycles
// are reported, once the banks are combined (load_banks).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bank/model.hpp"

namespace proofdeck::bank {

struct OrderedTopic {
  const Bank* bank = nullptr;
  const Topic* topic = nullptr;
};

class StudyOrder {
 public:
  // Resolves every `requires` of `banks` (which must outlive the order). A topic's id names a
  // topic of its own bank first, then a loaded bank, then every topic of that id in the other
  // banks; a bank's id names a loaded bank, which stands for all its topics. Throws BankErrors
  // naming each unknown id (file, pointer, what was expected, the nearest known id) and each
  // cycle (every requirement in it, with where it is declared).
  explicit StudyOrder(const std::vector<Bank>& banks);

  // Every topic, in the order a learner meets them.
  const std::vector<OrderedTopic>& topics() const { return topics_; }
  // The banks in the order of their first topic (a bank without topics last, in load order).
  const std::vector<const Bank*>& banks() const { return banks_; }
  // Where a bank's topic stands in topics(); topics().size() when no loaded bank has it.
  std::size_t position(std::string_view bank_id, std::string_view topic_id) const;
  // Whether every topic that topics()[position] requires directly (a required bank: all its
  // topics) is done, by done[p] for the topic at p.
  bool requirements_met(std::size_t position, const std::vector<bool>& done) const;

 private:
  std::vector<OrderedTopic> topics_;
  std::vector<const Bank*> banks_;
  std::vector<std::vector<std::size_t>> required_topics_;  // by position: positions it requires
  std::vector<std::vector<std::size_t>> required_banks_;   // by position: banks_ indices
  std::vector<std::vector<std::size_t>> bank_topics_;      // by banks_ index: its positions
  std::map<std::string, std::map<std::string, std::size_t, std::less<>>, std::less<>>
      positions_;  // bank id → topic id → position
};

// The check load_banks makes where banks combine: every `requires` names something loaded and
// none is part of a cycle. BankErrors otherwise.
void check_prerequisites(const std::vector<Bank>& banks);

}  // namespace proofdeck::bank
