// The study order (see prerequisites.hpp): `requires` resolved into a graph whose nodes are the
// topics and the banks (a bank node stands for "all of this bank's topics", so a bank-level
// requirement costs one edge per topic, not one per pair of topics), sorted by Kahn's algorithm
// taking the earliest ready topic each time, so nothing moves that need not.
#include "bank/prerequisites.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bank/loader.hpp"
#include "text/suggest.hpp"

namespace proofdeck::bank {

namespace {

struct Edge {
  std::size_t to = 0;
  std::string where;  // "file: pointer" of the requirement; empty for a bank's own topics
};

// The graph before sorting: topics in load order (the lesson's bank first) at 0..topic_count-1,
// then one node per bank.
struct Graph {
  std::vector<const Bank*> banks;  // the lesson's first, then load order
  std::vector<OrderedTopic> topics;
  std::vector<std::size_t> topic_bank;           // by topic node: its index in banks
  std::vector<std::vector<Edge>> needs;          // by node: what it requires
  std::vector<std::vector<std::size_t>> needed;  // by node: what requires it
  std::vector<std::string> problems;

  std::size_t bank_node(std::size_t bank) const { return topics.size() + bank; }
  bool is_bank(std::size_t node) const { return node >= topics.size(); }
  const std::string& id(std::size_t node) const {
    return is_bank(node) ? banks[node - topics.size()]->id : topics[node].topic->id;
  }

  void require(std::size_t from, std::size_t to, std::string where) {
    for (const Edge& edge : needs[from])
      if (edge.to == to) return;
    needs[from].push_back(Edge{to, std::move(where)});
    needed[to].push_back(from);
  }
};

Graph build_graph(const std::vector<Bank>& loaded) {
  Graph g;
  for (const Bank& b : loaded)
    if (b.lesson == kLessonId) g.banks.push_back(&b);
  for (const Bank& b : loaded)
    if (b.lesson != kLessonId) g.banks.push_back(&b);
  std::map<std::string, std::size_t, std::less<>> bank_index;
  std::map<std::string, std::vector<std::size_t>, std::less<>> topics_by_id;
  std::vector<std::string> bank_ids;
  for (std::size_t b = 0; b < g.banks.size(); ++b) {
    bank_index.emplace(g.banks[b]->id, b);
    bank_ids.push_back(g.banks[b]->id);
    for (const Topic& topic : g.banks[b]->topics) {
      topics_by_id[topic.id].push_back(g.topics.size());
      g.topics.push_back(OrderedTopic{g.banks[b], &topic});
      g.topic_bank.push_back(b);
    }
  }
  g.needs.resize(g.topics.size() + g.banks.size());
  g.needed.resize(g.needs.size());
  for (std::size_t t = 0; t < g.topics.size(); ++t) {  // a bank needs its topics (each once)
    g.needs[g.bank_node(g.topic_bank[t])].push_back(Edge{t, ""});
    g.needed[t].push_back(g.bank_node(g.topic_bank[t]));
  }

  const auto nearest = [](std::string_view id, const std::vector<std::string>& known) {
    const auto match = text::closest(id, known);
    return match ? fmt::format("; did you mean '{}'?", *match) : std::string();
  };
  for (std::size_t first = 0, b = 0; b < g.banks.size(); first += g.banks[b]->topics.size(), ++b) {
    const Bank& bank = *g.banks[b];
    const auto place = [&](const Requirement& r) {
      return fmt::format("{}: {}", bank.file, r.pointer);
    };
    for (const Requirement& r : bank.prerequisites) {
      const auto it = bank_index.find(r.id);
      if (it == bank_index.end()) {
        std::vector<std::string> others;
        for (const std::string& other : bank_ids)
          if (other != bank.id) others.push_back(other);
        g.problems.push_back(
            fmt::format("{}: unknown bank '{}'{} ({})", place(r), r.id, nearest(r.id, others),
                        others.empty() ? "no other bank is loaded"
                                       : fmt::format("expected the id of another loaded bank: {}",
                                                     fmt::join(others, ", "))));
        continue;
      }
      if (it->second == b) continue;  // the loader reports a bank requiring itself
      for (std::size_t t = first; t < first + bank.topics.size(); ++t)
        g.require(t, g.bank_node(it->second), place(r));
    }
    for (std::size_t i = 0; i < bank.topics.size(); ++i) {
      const Topic& topic = bank.topics[i];
      const std::size_t t = first + i;
      for (const Requirement& r : topic.prerequisites) {
        if (const Topic* own = bank.find_topic(r.id)) {
          // The loader reports a topic requiring itself.
          if (own != &topic)
            g.require(t, first + static_cast<std::size_t>(own - bank.topics.data()), place(r));
          continue;
        }
        if (const auto it = bank_index.find(r.id); it != bank_index.end()) {
          if (it->second != b) g.require(t, g.bank_node(it->second), place(r));
          continue;
        }
        if (const auto it = topics_by_id.find(r.id); it != topics_by_id.end()) {
          for (const std::size_t other : it->second)
            g.require(t, other, place(r));
          continue;
        }
        std::vector<std::string> own_ids;
        for (const Topic& candidate : bank.topics)
          if (candidate.id != topic.id) own_ids.push_back(candidate.id);
        std::vector<std::string> known = own_ids;
        known.insert(known.end(), bank_ids.begin(), bank_ids.end());
        for (const auto& [id, nodes] : topics_by_id)
          if (g.topic_bank[nodes.front()] != b) known.push_back(id);
        g.problems.push_back(fmt::format(
            "{}: unknown topic or bank '{}'{} (expected a topic of this bank or of another "
            "loaded bank, or a loaded bank's id; this bank's other topics: {}; the banks: {})",
            place(r), r.id, nearest(r.id, known),
            own_ids.empty() ? "none" : fmt::format("{}", fmt::join(own_ids, ", ")),
            fmt::join(bank_ids, ", ")));
      }
    }
  }
  return g;
}

// One cycle through `start`'s requirements among the nodes left unsorted (each of which requires
// at least one other left unsorted), told requirement by requirement with where each is declared.
// Nodes on the walk are marked in `seen`; empty when the walk reaches a cycle told before.
std::string tell_cycle(const Graph& g, std::size_t start, const std::vector<bool>& sorted,
                       std::vector<bool>& seen) {
  std::vector<std::size_t> walk;
  std::vector<std::size_t> at(g.needs.size(), g.needs.size());
  std::size_t node = start;
  while (at[node] == g.needs.size()) {
    if (seen[node]) return {};
    seen[node] = true;
    at[node] = walk.size();
    walk.push_back(node);
    const auto next = std::find_if(g.needs[node].begin(), g.needs[node].end(),
                                   [&](const Edge& edge) { return !sorted[edge.to]; });
    node = next->to;
  }
  std::vector<std::size_t> cycle(walk.begin() + static_cast<std::ptrdiff_t>(at[node]), walk.end());
  // Told from its earliest topic, so the same cycle reads the same whichever node found it.
  std::size_t first = 0;
  for (std::size_t i = 0; i < cycle.size(); ++i)
    if (!g.is_bank(cycle[i]) && (g.is_bank(cycle[first]) || cycle[i] < cycle[first])) first = i;
  std::rotate(cycle.begin(), cycle.begin() + static_cast<std::ptrdiff_t>(first), cycle.end());

  const auto edge = [&](std::size_t from, std::size_t to) -> const Edge& {
    return *std::find_if(g.needs[from].begin(), g.needs[from].end(),
                         [&](const Edge& e) { return e.to == to; });
  };
  std::string told = g.id(cycle[0]);
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const std::size_t from = cycle[i], to = cycle[(i + 1) % cycle.size()];
    if (g.is_bank(from)) {
      told += fmt::format(", whose topic {}", g.id(to));
      continue;
    }
    if (i > 0 && !g.is_bank(cycle[i - 1])) told += ", which";
    told += fmt::format(" requires {}{}", g.is_bank(to) ? "bank " : "", g.id(to));
    if (i > 0) told += fmt::format(" ({})", edge(from, to).where);
  }
  return fmt::format("{}: the requirements form a cycle, so none of them can come first: {}",
                     edge(cycle[0], cycle[1 % cycle.size()]).where, told);
}

}  // namespace

StudyOrder::StudyOrder(const std::vector<Bank>& banks) {
  Graph g = build_graph(banks);
  if (!g.problems.empty()) throw BankErrors(std::move(g.problems));

  // Kahn's algorithm, the earliest ready topic first; a bank node is passed as soon as all its
  // topics are (it is not listed).
  const std::size_t nodes = g.needs.size();
  std::vector<std::size_t> waiting(nodes);
  std::vector<bool> sorted(nodes, false);
  std::set<std::size_t> ready;
  std::vector<std::size_t> order;  // topic nodes
  std::vector<std::size_t> passed;
  const auto pass = [&](std::size_t node) {
    passed.push_back(node);
    while (!passed.empty()) {
      const std::size_t done = passed.back();
      passed.pop_back();
      sorted[done] = true;
      for (const std::size_t dependent : g.needed[done]) {
        if (--waiting[dependent] != 0) continue;
        if (g.is_bank(dependent)) {
          passed.push_back(dependent);
        } else {
          ready.insert(dependent);
        }
      }
    }
  };
  for (std::size_t node = 0; node < nodes; ++node) {
    waiting[node] = g.needs[node].size();
    if (waiting[node] == 0 && !g.is_bank(node)) ready.insert(node);
  }
  for (std::size_t node = g.topics.size(); node < nodes; ++node)
    if (waiting[node] == 0) pass(node);  // a bank without topics
  while (!ready.empty()) {
    const std::size_t topic = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(topic);
    pass(topic);
  }
  if (order.size() < g.topics.size()) {
    std::vector<std::string> problems;
    std::vector<bool> seen(nodes, false);
    for (std::size_t topic = 0; topic < g.topics.size(); ++topic) {
      if (sorted[topic] || seen[topic]) continue;
      if (std::string cycle = tell_cycle(g, topic, sorted, seen); !cycle.empty())
        problems.push_back(std::move(cycle));
    }
    throw BankErrors(std::move(problems));
  }

  std::vector<std::size_t> position(g.topics.size());
  for (std::size_t p = 0; p < order.size(); ++p) {
    position[order[p]] = p;
    topics_.push_back(g.topics[order[p]]);
    positions_[topics_.back().bank->id].emplace(topics_.back().topic->id, p);
  }
  std::vector<std::size_t> bank_at(g.banks.size(), g.banks.size());  // graph bank → banks_
  const auto place_bank = [&](std::size_t bank) {
    if (bank_at[bank] != g.banks.size()) return;
    bank_at[bank] = banks_.size();
    banks_.push_back(g.banks[bank]);
  };
  for (const std::size_t topic : order)
    place_bank(g.topic_bank[topic]);
  for (std::size_t bank = 0; bank < g.banks.size(); ++bank)
    place_bank(bank);
  bank_topics_.resize(banks_.size());
  for (std::size_t p = 0; p < order.size(); ++p)
    bank_topics_[bank_at[g.topic_bank[order[p]]]].push_back(p);
  required_topics_.resize(order.size());
  required_banks_.resize(order.size());
  for (std::size_t p = 0; p < order.size(); ++p) {
    for (const Edge& edge : g.needs[order[p]]) {
      if (g.is_bank(edge.to)) {
        required_banks_[p].push_back(bank_at[edge.to - g.topics.size()]);
      } else {
        required_topics_[p].push_back(position[edge.to]);
      }
    }
  }
}

std::size_t StudyOrder::position(std::string_view bank_id, std::string_view topic_id) const {
  const auto bank = positions_.find(bank_id);
  if (bank == positions_.end()) return topics_.size();
  const auto topic = bank->second.find(topic_id);
  return topic == bank->second.end() ? topics_.size() : topic->second;
}

bool StudyOrder::requirements_met(std::size_t position, const std::vector<bool>& done) const {
  const auto is_done = [&](std::size_t p) { return done[p]; };
  if (!std::all_of(required_topics_[position].begin(), required_topics_[position].end(), is_done))
    return false;
  return std::all_of(
      required_banks_[position].begin(), required_banks_[position].end(), [&](std::size_t bank) {
        return std::all_of(bank_topics_[bank].begin(), bank_topics_[bank].end(), is_done);
      });
}

void check_prerequisites(const std::vector<Bank>& banks) {
  (void)StudyOrder(banks);
}

}  // namespace proofdeck::bank
