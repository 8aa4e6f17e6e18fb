// Writing a bank model back as normalized bank JSON.
#include "print/bank_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace proofdeck::print {

namespace {

using json = nlohmann::ordered_json;

// Whole numbers as integers (512, not 512.0), others as they are.
json number(double value) {
  if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0)
    return static_cast<std::int64_t>(value);
  return value;
}

void put_text(json& node, const char* key, const std::string& text) {
  if (!text.empty()) node[key] = text;  // the format refuses empty text: absent means none
}

json waivers_json(const std::vector<bank::LintWaiver>& waivers) {
  json list = json::array();
  for (const bank::LintWaiver& waiver : waivers)
    list.push_back(json{{"rule", waiver.rule}, {"reason", waiver.reason}});
  return list;
}

json requirements_json(const std::vector<bank::Requirement>& requirements) {
  json list = json::array();
  for (const bank::Requirement& requirement : requirements)
    list.push_back(requirement.id);
  return list;
}

json source_json(const bank::Source& source) {
  json node = json::object();
  put_text(node, "section", source.section);
  put_text(node, "quote", source.quote);
  put_text(node, "reference", source.reference);
  return node;
}

const char* comparator_name(bank::Comparator comparator) {
  switch (comparator) {
    case bank::Comparator::eq:
      return "eq";
    case bank::Comparator::ne:
      return "ne";
    case bank::Comparator::lt:
      return "lt";
    case bank::Comparator::le:
      return "le";
    case bank::Comparator::gt:
      return "gt";
    case bank::Comparator::ge:
      return "ge";
    case bank::Comparator::is:
      return "is";
  }
  return "eq";
}

json predicate_json(const bank::Predicate& predicate) {
  const auto children = [&] {
    json list = json::array();
    for (const bank::Predicate& child : predicate.children)
      list.push_back(predicate_json(child));
    return list;
  };
  switch (predicate.kind) {
    case bank::Predicate::Kind::all:
      return json{{"all", children()}};
    case bank::Predicate::Kind::any:
      return json{{"any", children()}};
    case bank::Predicate::Kind::negate:
      return json{{"not", predicate.children.empty() ? json::object()
                                                     : predicate_json(predicate.children.front())}};
    case bank::Predicate::Kind::compare:
      break;
  }
  json node = json::object();
  node["value"] = predicate.value;
  const char* name = comparator_name(predicate.comparator);
  if (predicate.comparator == bank::Comparator::is) {
    node[name] = predicate.boolean;
  } else if (!predicate.other_value.empty()) {
    node[name] = json{{"value", predicate.other_value}};
  } else {
    node[name] = number(predicate.number.value_or(0.0));
  }
  if (predicate.comparator == bank::Comparator::eq || predicate.comparator == bank::Comparator::ne)
    node["tolerance"] = number(predicate.tolerance);
  return node;
}

json proof_json(const bank::Proof& proof) {
  json predicates = json::array();
  for (const bank::Predicate& p : proof.predicates)
    predicates.push_back(predicate_json(p));
  return json{{"demo", proof.demo},
              {"args", proof.args.is_object() ? proof.args : json::object()},
              {"show", proof.show},
              {"predicates", predicates}};
}

json question_json(const bank::Question& q) {
  json node = json::object();
  node["id"] = q.id;
  node["type"] = std::string(bank::question_type_name(q.type));
  node["topic"] = q.topic;
  put_text(node, "concept", q.concept_id);
  if (q.difficulty > 0) node["difficulty"] = q.difficulty;
  node["prompt"] = q.prompt;
  switch (q.type) {
    case bank::QuestionType::single:
    case bank::QuestionType::multi: {
      json options = json::array();
      for (const bank::Option& option : q.options) {
        json item = json::object();
        item["id"] = option.id;
        item["text"] = option.text;
        item["correct"] = option.correct;
        put_text(item, "trap", option.trap);
        if (option.claim) item["claim"] = predicate_json(*option.claim);
        put_text(item, "feedback", option.feedback);
        options.push_back(std::move(item));
      }
      node["options"] = std::move(options);
      break;
    }
    case bank::QuestionType::truefalse:
      node["answer"] = q.answer;
      put_text(node, "trap", q.trap);
      if (q.claim) node["claim"] = predicate_json(*q.claim);
      break;
    case bank::QuestionType::numeric: {
      if (q.templ) {
        json params = json::object();
        for (const auto& [name, values] : q.templ->params) {
          json list = json::array();
          for (const double v : values)
            list.push_back(number(v));
          params[name] = std::move(list);
        }
        json constraints = json::array();
        for (const bank::Formula& f : q.templ->constraints)
          constraints.push_back(f.text());
        node["template"] = json{{"params", std::move(params)},
                                {"constraints", std::move(constraints)},
                                {"answer", q.templ->answer ? q.templ->answer->text() : ""}};
      }
      json answer = json::object();
      if (q.key.value) answer["value"] = number(*q.key.value);
      answer["tolerance"] = number(q.key.tolerance);
      answer["relative"] = q.key.relative;
      put_text(answer, "unit", q.key.unit);
      put_text(answer, "computed", q.key.computed);
      node["answer"] = std::move(answer);
      json distractors = json::array();
      for (const bank::Distractor& d : q.distractors) {
        json item = json::object();
        if (d.formula) {
          item["formula"] = d.formula->text();
        } else {
          item["value"] = number(d.number.value_or(0.0));
        }
        item["trap"] = d.trap;
        distractors.push_back(std::move(item));
      }
      node["distractors"] = std::move(distractors);
      break;
    }
    case bank::QuestionType::order: {
      json steps = json::array();
      for (const bank::Step& step : q.steps)
        steps.push_back(json{{"id", step.id}, {"text", step.text}});
      node["steps"] = std::move(steps);
      break;
    }
  }
  node["explanation"] = q.explanation;
  node["source"] = source_json(q.source);
  if (q.proof) node["proof"] = proof_json(*q.proof);
  put_text(node, "unprovable", q.unprovable);
  if (!q.lint_allow.empty()) node["lint_allow"] = waivers_json(q.lint_allow);
  return node;
}

}  // namespace

json bank_json(const bank::Bank& b, const std::vector<const bank::Question*>* questions) {
  json meta = json::object();
  meta["id"] = b.id;
  meta["title"] = b.title;
  meta["lesson"] = b.lesson;
  put_text(meta, "description", b.description);
  put_text(meta, "revised", b.revised);  // as written: a date stays a date
  if (!b.prerequisites.empty()) meta["requires"] = requirements_json(b.prerequisites);
  if (!b.lint_allow.empty()) meta["lint_allow"] = waivers_json(b.lint_allow);
  json topics = json::array();
  for (const bank::Topic& topic : b.topics) {
    json item{{"id", topic.id}, {"name", topic.name}};
    put_text(item, "description", topic.description);
    if (!topic.prerequisites.empty()) item["requires"] = requirements_json(topic.prerequisites);
    topics.push_back(std::move(item));
  }
  json traps = json::array();
  for (const bank::Trap& trap : b.traps) {
    traps.push_back(json{{"id", trap.id},
                         {"name", trap.name},
                         {"misconception", trap.misconception},
                         {"correction", trap.correction},
                         {"source", source_json(trap.source)}});
  }
  json list = json::array();
  for (const bank::Question& q : b.questions) {
    if (questions != nullptr &&
        std::find(questions->begin(), questions->end(), &q) == questions->end())
      continue;
    list.push_back(question_json(q));
  }
  return json{{"format", 1},
              {"bank", std::move(meta)},
              {"topics", std::move(topics)},
              {"traps", std::move(traps)},
              {"questions", std::move(list)}};
}

}  // namespace proofdeck::print
