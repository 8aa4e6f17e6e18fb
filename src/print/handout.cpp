// Handouts in Markdown and HTML. Every bank string is escaped for its target here; the demo
// figures come from render/ (HTML sections, Markdown figures, standalone SVG files).
#include "print/handout.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "render/figure.hpp"
#include "render/parts.hpp"
#include "render/theme.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"

namespace proofdeck::print {

namespace {

using Out = std::back_insert_iterator<std::string>;

bool worksheet(const HandoutOptions& options) {
  return options.answers != AnswerPlacement::inline_answers;
}

std::string kind_name(const HandoutOptions& options) {
  return worksheet(options) ? "Worksheet" : "Study sheet";
}

std::size_t question_count(const std::vector<TopicGroup>& groups) {
  std::size_t questions = 0;
  for (const TopicGroup& group : groups)
    questions += group.questions.size();
  return questions;
}

std::string subtitle(const std::vector<TopicGroup>& groups, const HandoutOptions& options) {
  const std::size_t questions = question_count(groups);
  std::string text =
      fmt::format("{} · {} · seed {}", text::count(questions, "question", "questions"),
                  text::count(groups.size(), "topic", "topics"), options.seed);
  switch (options.answers) {
    case AnswerPlacement::inline_answers:
      return text + " · answers, traps and proofs with each question";
    case AnswerPlacement::appendix:
      return text + " · answer key at the end";
    case AnswerPlacement::none:
      return text + " · no answers";
  }
  return text;
}

// The instructor's --title, else a fixed label: "Worksheet — 20 questions". Never the banks' or
// topics' own words, which can state what a question asks.
std::string title_of(const std::vector<TopicGroup>& groups, const HandoutOptions& options) {
  if (!options.title.empty()) return options.title;
  const std::size_t n = question_count(groups);
  return fmt::format("{} — {}", kind_name(options), text::count(n, "question", "questions"));
}

// The traps a topic's questions test, each once, in the order the questions first name them.
std::vector<const bank::Trap*> topic_traps(const TopicGroup& group) {
  std::vector<const bank::Trap*> traps;
  for (const Printed& printed : group.questions) {
    for (const TrapNote& note : facts_of(printed, *printed.bank).traps)
      if (std::find(traps.begin(), traps.end(), note.trap) == traps.end())
        traps.push_back(note.trap);
  }
  return traps;
}

// Keeps each figure of a distinct demo run drawn once per scope (a topic on a study sheet, the
// key of a worksheet): later questions on the same run point back to the first.
using DrawnRuns = std::map<const demo::DemoResult*, int>;  // run → the question that drew it

// ============================================================================================
// HTML
// ============================================================================================

// "Trap: name — correction"; a key names the trap alone (its correction is the study sheet's).
std::string html_trap_note(const bank::Trap& trap, bool with_correction = true) {
  if (!with_correction) {
    return fmt::format(
        "<span class=\"trap-note\"><span class=\"trap-label\">Trap:</span> <strong>{}</strong>"
        "</span>",
        text::html_text(trap.name));
  }
  return fmt::format(
      "<span class=\"trap-note\"><span class=\"trap-label\">Trap:</span> <strong>{}</strong> — "
      "{}</span>",
      text::html_text(trap.name), text::html_text(trap.correction));
}

// The question and its options (or the blanks a worksheet leaves).
void html_stem(std::string& html, const Printed& printed, const Facts& facts, bool answers_here) {
  const bank::Question& q = printed.question();
  Out out(html);
  fmt::format_to(out,
                 "<div class=\"stem\">\n<h3><span class=\"qnum\">{}.</span> <span "
                 "class=\"prompt\">{}</span></h3>\n",
                 printed.number, text::html_text(printed.instance.prompt));
  // No id: ids name what a question tests ("sdpa-scaled-not-uniform") and give answers away.
  fmt::format_to(out, "<p class=\"qmeta\">{}", text::html_text(facts.kind));
  if (q.difficulty > 0) fmt::format_to(out, " · difficulty {}/3", q.difficulty);
  html += "</p>\n";
  const auto trap_at = [&](const std::string& answer) -> const bank::Trap* {
    for (const TrapNote& note : facts.traps)
      if (note.answer == answer) return note.trap;
    return nullptr;
  };
  const auto option = [&](const std::string& letter, const std::string& text, bool correct,
                          const bank::Trap* trap) {
    const char* state = !answers_here ? "" : correct ? " class=\"correct\"" : " class=\"wrong\"";
    fmt::format_to(out, "<li{}><span class=\"box\" aria-hidden=\"true\"></span>", state);
    if (!letter.empty()) fmt::format_to(out, "<span class=\"letter\">{})</span>", letter);
    fmt::format_to(out, "<span class=\"body\"><span class=\"text\">{}</span>",
                   text::html_text(text));
    if (answers_here && correct) html += " <span class=\"mark\" title=\"correct\">✓</span>";
    if (answers_here && trap != nullptr) html += "\n" + html_trap_note(*trap);
    html += "</span></li>\n";
  };
  switch (q.type) {
    case bank::QuestionType::single:
    case bank::QuestionType::multi:
      fmt::format_to(out, "<ol class=\"options {}\">\n", bank::question_type_name(q.type));
      for (std::size_t i = 0; i < facts.labels.size(); ++i) {
        const std::string letter = bank::letter(i);
        option(letter, facts.labels[i], facts.correct[i], trap_at(letter));
      }
      html += "</ol>\n";
      break;
    case bank::QuestionType::truefalse:
      html += "<ol class=\"options truefalse\">\n";
      option("", "True", q.answer, trap_at("True"));
      option("", "False", !q.answer, trap_at("False"));
      html += "</ol>\n";
      break;
    case bank::QuestionType::numeric:
      if (!answers_here) {
        fmt::format_to(out,
                       "<p class=\"answer-line\">Answer: <span class=\"blank\"></span>{}</p>\n",
                       q.key.unit.empty() ? "" : " " + text::html_text(q.key.unit));
      }
      break;
    case bank::QuestionType::order:
      html += "<ol class=\"options order\">\n";
      for (std::size_t i = 0; i < facts.labels.size(); ++i)
        option(bank::letter(i), facts.labels[i], false, nullptr);
      html += "</ol>\n";
      if (!answers_here) {
        html += "<p class=\"answer-line order-slots\">Order:";
        for (std::size_t i = 0; i < facts.labels.size(); ++i)
          html += std::string(i == 0 ? " " : " → ") + "<span class=\"blank short\"></span>";
        html += "</p>\n";
      }
      break;
  }
  html += "</div>\n";
}

// The proof: its heading, demo and key numbers, and — on a study sheet, the first time a run is
// shown — its figures. A worksheet's key leaves the figures to the study sheet, so it prints on a
// few pages.
void html_proof(std::string& html, const Printed& printed, DrawnRuns& drawn,
                bank::DemoRunner& runner, bool figures_here) {
  const bank::Question& q = printed.question();
  const std::optional<ProofRun> run = run_proof(printed, runner);
  Out out(html);
  if (!run) {
    if (!q.unprovable.empty()) {
      fmt::format_to(out, "<p class=\"unprovable\"><strong>No proof:</strong> {}</p>\n",
                     text::html_text(q.unprovable));
    }
    return;
  }
  if (run->result == nullptr) {
    fmt::format_to(out,
                   "<div class=\"proof\" data-figures=\"0\">\n<p class=\"proof-error\"><strong>"
                   "Proof:</strong> the demo <code>{}</code> could not run: {}</p>\n</div>\n",
                   text::html_text(q.proof->demo), text::html_text(run->error));
    return;
  }
  const auto [first, fresh] = drawn.emplace(run->result, printed.number);
  const std::size_t figures = fresh && figures_here ? render::figure_count(*run->result) : 0;
  fmt::format_to(out, "<div class=\"proof\" id=\"proof-{}\" data-figures=\"{}\">\n", printed.number,
                 figures);
  fmt::format_to(out, "<p class=\"proof-head\"><strong>{}</strong> · <code>{}</code>", run->heading,
                 text::html_text(q.proof->demo));
  if (!fresh && figures_here) {
    fmt::format_to(out, " · the same computation as <a href=\"#proof-{0}\">question {0}</a>",
                   first->second);
  }
  if (!run->key_numbers.empty()) {
    // On the line of their own on a study sheet, above the figures; on the heading's line in a key.
    html += figures_here ? "<br />\nKey numbers:" : " · key numbers:";
    for (std::size_t i = 0; i < run->key_numbers.size(); ++i) {
      fmt::format_to(out, "{} {}: {}", i == 0 ? "" : " ·",
                     text::html_text(run->key_numbers[i].first),
                     text::html_text(run->key_numbers[i].second));
    }
  }
  html += "</p>\n";
  if (fresh && figures_here && run->info != nullptr) {
    // The same demo can be drawn for several questions: its id carries the question's number.
    // The key numbers above say what the question needs; the full list of values stays only
    // when it is all the demo draws.
    render::HtmlSectionOptions section;
    section.id = fmt::format("q{}-demo", printed.number);
    section.values = !render::draws_figures(*run->result);
    html += render::render_html_section(*run->result, *run->info, section);
  }
  html += "</div>\n";
}

// The answer, the traps (beside the options on a study sheet, listed in a key), the explanation,
// the worked formula, the source and the proof.
void html_answer(std::string& html, const Printed& printed, const Facts& facts, bool in_key,
                 DrawnRuns& drawn, bank::DemoRunner& runner) {
  const bank::Question& q = printed.question();
  Out out(html);
  html += "<div class=\"answer-block\">\n";
  fmt::format_to(out, "<p class=\"answer\"><strong>Answer:</strong> {}</p>\n",
                 text::html_text(facts.answer_words));
  const bool traps_beside_options = !in_key && q.type != bank::QuestionType::numeric;
  if (!facts.traps.empty() && !traps_beside_options) {
    html += "<ul class=\"trap-list\">\n";
    for (const TrapNote& note : facts.traps) {
      // A letter alone would send the reader back to the question: the option's text comes too.
      const std::string option = note.option.empty() ? std::string()
                                                     : " <span class=\"option-text\">" +
                                                           text::html_text(note.option) + "</span>";
      fmt::format_to(out, "<li><span class=\"wrong-answer\">{}{}</span>{} {}</li>\n",
                     text::html_text(note.answer), note.option.empty() ? "" : ")", option,
                     html_trap_note(*note.trap, !in_key));
    }
    html += "</ul>\n";
  }
  // In a key the source closes the explanation's paragraph, so the key takes fewer pages.
  fmt::format_to(out, "<p class=\"why\"><strong>Why:</strong> {}{}</p>\n",
                 text::html_text(bank::explanation_text(printed.instance, runner)),
                 in_key ? fmt::format(" <span class=\"source\">Source: {}</span>",
                                      text::html_text(facts.source))
                        : "");
  if (!facts.worked.empty()) {
    fmt::format_to(out, "<p class=\"worked\"><strong>Worked:</strong> {}</p>\n",
                   text::html_text(facts.worked));
  }
  if (!in_key)
    fmt::format_to(out, "<p class=\"source\">Source: {}</p>\n", text::html_text(facts.source));
  html_proof(html, printed, drawn, runner, !in_key);
  html += "</div>\n";
}

std::string html_document(const std::vector<TopicGroup>& groups, const HandoutOptions& options,
                          bank::DemoRunner& runner) {
  const std::string title = title_of(groups, options);
  std::string html;
  Out out(html);
  fmt::format_to(
      out,
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n"
      "<meta name=\"generator\" content=\"proofdeck\" />\n"
      "<title>{}</title>\n<style>\n{}{}</style>\n</head>\n",
      text::html_text(options.title.empty() ? title
                                            : fmt::format("{} · {}", title, kind_name(options))),
      render::html_stylesheet(), handout_stylesheet());
  fmt::format_to(out, "<body class=\"handout {}\">\n<header class=\"handout-header\">\n",
                 worksheet(options) ? "worksheet" : "study-sheet");
  // The default title already says what kind of sheet it is.
  if (!options.title.empty()) fmt::format_to(out, "<p class=\"kind\">{}</p>\n", kind_name(options));
  fmt::format_to(out, "<h1>{}</h1>\n<p class=\"subtitle\">{}</p>\n", text::html_text(title),
                 text::html_text(subtitle(groups, options)));
  if (worksheet(options)) {
    html +=
        "<p class=\"name-line\"><span>Name <span class=\"blank\"></span></span>"
        "<span>Date <span class=\"blank short\"></span></span></p>\n";
  }
  html += "</header>\n<nav class=\"contents\" aria-label=\"Topics\">\n<ol>\n";
  // Anchors by position, not by the topic's id: nothing a learner receives carries an id.
  for (std::size_t t = 0; t < groups.size(); ++t) {
    const TopicGroup& group = groups[t];
    const int first = group.questions.front().number, last = group.questions.back().number;
    fmt::format_to(out, "<li><a href=\"#topic-{}\">{}</a> <span class=\"range\">{}</span></li>\n",
                   t + 1, text::html_text(group.topic->name),
                   first == last ? fmt::format("question {}", first)
                                 : fmt::format("questions {}–{}", first, last));
  }
  if (options.answers == AnswerPlacement::appendix)
    html += "<li><a href=\"#answer-key\">Answer key</a></li>\n";
  html += "</ol>\n</nav>\n<main>\n";

  for (std::size_t t = 0; t < groups.size(); ++t) {
    const TopicGroup& group = groups[t];
    // A worksheet's topic is its name alone: a description or a bank's title can state what a
    // question asks ("dot products of unit-variance d_k-vectors have variance d_k").
    if (worksheet(options)) {
      fmt::format_to(out, "<section class=\"topic\" id=\"topic-{}\">\n<h2>{}</h2>\n", t + 1,
                     text::html_text(group.topic->name));
    } else {
      fmt::format_to(out,
                     "<section class=\"topic\" id=\"topic-{}\">\n<h2><span "
                     "class=\"topic-bank\">{}</span> {}</h2>\n",
                     t + 1, text::html_text(group.bank->title), text::html_text(group.topic->name));
    }
    if (!worksheet(options) && !group.topic->description.empty()) {
      fmt::format_to(out, "<p class=\"topic-description\">{}</p>\n",
                     text::html_text(group.topic->description));
    }
    if (options.answers == AnswerPlacement::inline_answers) {
      // The traps this topic's questions test, before the questions.
      const std::vector<const bank::Trap*> traps = topic_traps(group);
      if (!traps.empty()) {
        html += "<aside class=\"traps\">\n<h3>Traps in this topic</h3>\n<dl>\n";
        for (const bank::Trap* trap : traps) {
          fmt::format_to(out,
                         "<dt>{}</dt>\n<dd><span class=\"misconception\">Belief: {}</span><br />\n"
                         "<span class=\"correction\">Instead: {}</span></dd>\n",
                         text::html_text(trap->name), text::html_text(trap->misconception),
                         text::html_text(trap->correction));
        }
        html += "</dl>\n</aside>\n";
      }
    }
    DrawnRuns drawn;
    for (const Printed& printed : group.questions) {
      const Facts facts = facts_of(printed, *printed.bank);
      fmt::format_to(out, "<article class=\"question\" id=\"q{}\">\n", printed.number);
      const bool answers_here = options.answers == AnswerPlacement::inline_answers;
      html_stem(html, printed, facts, answers_here);
      if (answers_here) html_answer(html, printed, facts, false, drawn, runner);
      html += "</article>\n";
    }
    html += "</section>\n";
  }

  if (options.answers == AnswerPlacement::appendix) {
    fmt::format_to(out,
                   "<section class=\"answer-key\" id=\"answer-key\">\n<h2>Answer key</h2>\n"
                   "<p class=\"subtitle\">{} · for the worksheet printed with seed {} and the "
                   "same filters</p>\n<ol class=\"key-grid\">\n",
                   text::html_text(title), options.seed);
    for (const TopicGroup& group : groups) {
      for (const Printed& printed : group.questions) {
        fmt::format_to(out,
                       "<li><a class=\"key-number\" href=\"#key-{0}\">{0}</a> <span "
                       "class=\"key-answer\">{1}</span></li>\n",
                       printed.number,
                       text::html_text(facts_of(printed, *printed.bank).answer_letters));
      }
    }
    html += "</ol>\n<h3 class=\"key-details-title\">Answers explained</h3>\n";
    DrawnRuns drawn;
    for (const TopicGroup& group : groups) {
      for (const Printed& printed : group.questions) {
        const Facts facts = facts_of(printed, *printed.bank);
        // The key may name the question, so an instructor can find it in its bank.
        fmt::format_to(out,
                       "<article class=\"key-entry\" id=\"key-{0}\">\n<h4><a href=\"#q{0}\" "
                       "class=\"qnum\">{0}.</a> {1}</h4>\n<p class=\"qmeta\">{2} · "
                       "<code>{3}</code></p>\n",
                       printed.number, text::html_text(printed.instance.prompt),
                       text::html_text(printed.bank->id), text::html_text(printed.question().id));
        html_answer(html, printed, facts, true, drawn, runner);
        html += "</article>\n";
      }
    }
    html += "</section>\n";
  }
  html += "</main>\n</body>\n</html>\n";
  return html;
}

// ============================================================================================
// Markdown
// ============================================================================================

std::string blanks(int count) {
  std::string out;
  for (int i = 0; i < count; ++i)
    out += "\\_";
  return out;
}

// Figure file names: q03-order-blindness-weights_none_a.svg.
std::string asset_name(int number, const std::string& demo_name, const std::string& figure) {
  std::string name = fmt::format("q{:02}-{}-", number, text::slug(demo_name, "x"));
  for (const char c : figure) {
    const auto byte = static_cast<unsigned char>(c);
    name += std::isalnum(byte) || c == '_' || c == '-' ? c : '_';
  }
  return name + ".svg";
}

struct MarkdownWriter {
  const HandoutOptions& options;
  bank::DemoRunner& runner;
  std::vector<Asset>& assets;
  std::string md;

  void stem(const Printed& printed, const Facts& facts, bool answers_here) {
    const bank::Question& q = printed.question();
    Out out(md);
    fmt::format_to(out, "### Question {}\n\n{}\n\n*{}", printed.number,
                   text::markdown_escape(printed.instance.prompt),
                   text::markdown_escape(facts.kind));
    if (q.difficulty > 0) fmt::format_to(out, " · difficulty {}/3", q.difficulty);
    md += "*\n\n";
    const auto trap_at = [&](const std::string& answer) -> const bank::Trap* {
      for (const TrapNote& note : facts.traps)
        if (note.answer == answer) return note.trap;
      return nullptr;
    };
    const auto option = [&](const std::string& letter, const std::string& text, bool box,
                            bool correct, const bank::Trap* trap) {
      md += "- ";
      if (box) md += answers_here && correct ? "[x] " : "[ ] ";
      if (!letter.empty()) md += "**" + letter + ")** ";
      md += text::markdown_escape(text, "  ");
      if (answers_here && correct) md += " ✓";
      if (answers_here && trap != nullptr) {
        fmt::format_to(out, "  \n  ✗ *Trap: {}* — {}", text::markdown_escape(trap->name),
                       text::markdown_escape(trap->correction, "  "));
      }
      md += "\n";
    };
    switch (q.type) {
      case bank::QuestionType::single:
      case bank::QuestionType::multi:
        for (std::size_t i = 0; i < facts.labels.size(); ++i) {
          const std::string letter = bank::letter(i);
          option(letter, facts.labels[i], true, facts.correct[i], trap_at(letter));
        }
        md += "\n";
        break;
      case bank::QuestionType::truefalse:
        option("", "True", true, q.answer, trap_at("True"));
        option("", "False", true, !q.answer, trap_at("False"));
        md += "\n";
        break;
      case bank::QuestionType::numeric:
        if (!answers_here) {
          fmt::format_to(out, "**Answer:** {}{}\n\n", blanks(16),
                         q.key.unit.empty() ? "" : " " + text::markdown_escape(q.key.unit));
        }
        break;
      case bank::QuestionType::order:
        for (std::size_t i = 0; i < facts.labels.size(); ++i)
          option(bank::letter(i), facts.labels[i], false, false, nullptr);
        md += "\n";
        if (!answers_here) {
          md += "**Order:**";
          for (std::size_t i = 0; i < facts.labels.size(); ++i)
            md += (i == 0 ? " " : " → ") + blanks(3);
          md += "\n\n";
        }
        break;
    }
  }

  // As html_proof: figures on a study sheet only.
  void proof(const Printed& printed, DrawnRuns& drawn, bool figures_here) {
    const bank::Question& q = printed.question();
    const std::optional<ProofRun> run = run_proof(printed, runner);
    Out out(md);
    if (!run) {
      if (!q.unprovable.empty())
        fmt::format_to(out, "**No proof:** {}\n\n", text::markdown_escape(q.unprovable));
      return;
    }
    if (run->result == nullptr) {
      fmt::format_to(out, "**Proof:** the demo {} could not run: {}\n\n",
                     text::markdown_code(q.proof->demo), text::markdown_escape(run->error));
      return;
    }
    const auto [first, fresh] = drawn.emplace(run->result, printed.number);
    fmt::format_to(out, "**{}** · {}", run->heading, text::markdown_code(q.proof->demo));
    if (!fresh && figures_here)
      fmt::format_to(out, " · the same computation as question {}", first->second);
    if (!run->key_numbers.empty()) {
      md += "  \nKey numbers:";
      for (std::size_t i = 0; i < run->key_numbers.size(); ++i) {
        // The numbers are digits, signs, "e", "yes" or "no": nothing Markdown acts on mid-line.
        fmt::format_to(out, "{} {}: {}", i == 0 ? "" : " ·",
                       text::markdown_escape(run->key_numbers[i].first),
                       run->key_numbers[i].second);
      }
    }
    md += "\n\n";
    if (!fresh || !figures_here || run->info == nullptr) return;
    // Under the question's heading; the key numbers above stand for the list of values unless
    // it is all the demo draws; each figure once, as an SVG file when there is an assets folder.
    render::MarkdownOptions figure;
    figure.heading_level = 4;
    figure.values = !render::draws_figures(*run->result);
    if (!options.assets_href.empty()) {
      figure.link_figure = [&](const render::SvgFigure& svg) {
        Asset asset{asset_name(printed.number, run->result->demo, svg.name), svg.svg};
        std::string href = options.assets_href;
        if (href.back() != '/') href += '/';
        const std::string link = fmt::format("![{}]({})", text::markdown_escape(svg.title),
                                             text::url_path(href + asset.name));
        assets.push_back(std::move(asset));
        return link;
      };
    }
    md += render::render_markdown(*run->result, *run->info, figure) + "\n";
  }

  void answer(const Printed& printed, const Facts& facts, bool in_key, DrawnRuns& drawn) {
    const bank::Question& q = printed.question();
    Out out(md);
    fmt::format_to(out, "**Answer:** {}\n\n", text::markdown_escape(facts.answer_words));
    const bool traps_beside_options = !in_key && q.type != bank::QuestionType::numeric;
    if (!facts.traps.empty() && !traps_beside_options) {
      for (const TrapNote& note : facts.traps) {
        // A lettered answer with its text, the trap beneath it.
        const std::string answer =
            note.option.empty() ? fmt::format("**{}**", text::markdown_escape(note.answer))
                                : fmt::format("**{})** {}  \n ", text::markdown_escape(note.answer),
                                              text::markdown_escape(note.option, "  "));
        if (in_key) {  // the trap's name alone, as html_trap_note
          fmt::format_to(out, "- ✗ {} *Trap: {}*\n", answer,
                         text::markdown_escape(note.trap->name));
        } else {
          fmt::format_to(out, "- ✗ {} *Trap: {}* — {}\n", answer,
                         text::markdown_escape(note.trap->name),
                         text::markdown_escape(note.trap->correction, "  "));
        }
      }
      md += "\n";
    }
    fmt::format_to(out, "**Why:** {}\n\n",
                   text::markdown_escape(bank::explanation_text(printed.instance, runner)));
    if (!facts.worked.empty())
      fmt::format_to(out, "**Worked:** {}\n\n", text::markdown_escape(facts.worked));
    fmt::format_to(out, "*Source: {}*\n\n", text::markdown_escape(facts.source));
    proof(printed, drawn, !in_key);
  }

  void document(const std::vector<TopicGroup>& groups) {
    Out out(md);
    const std::string title = title_of(groups, options);
    fmt::format_to(out, "# {}\n\n", text::markdown_escape(title));
    // The default title already says what kind of sheet it is.
    if (!options.title.empty()) fmt::format_to(out, "**{}** · ", kind_name(options));
    fmt::format_to(out, "{}\n\n", text::markdown_escape(subtitle(groups, options)));
    if (worksheet(options)) fmt::format_to(out, "Name: {} · Date: {}\n\n", blanks(24), blanks(12));
    md += "**Topics:**";
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const TopicGroup& group = groups[i];
      const int first = group.questions.front().number, last = group.questions.back().number;
      fmt::format_to(out, "{} {} ({})", i == 0 ? "" : " ·",
                     text::markdown_escape(group.topic->name),
                     first == last ? fmt::format("{}", first) : fmt::format("{}–{}", first, last));
    }
    md += "\n\n";
    for (const TopicGroup& group : groups) {
      fmt::format_to(out, "---\n\n## {}\n\n", text::markdown_escape(group.topic->name));
      // A worksheet's topic is its name alone (see html_document).
      if (!worksheet(options)) {
        fmt::format_to(out, "*{}*", text::markdown_escape(group.bank->title));
        if (!group.topic->description.empty())
          fmt::format_to(out, " — {}", text::markdown_escape(group.topic->description));
        md += "\n\n";
      }
      const bool answers_here = options.answers == AnswerPlacement::inline_answers;
      if (answers_here) {
        const std::vector<const bank::Trap*> traps = topic_traps(group);
        if (!traps.empty()) {
          md += "**Traps in this topic:**\n\n";
          for (const bank::Trap* trap : traps) {
            fmt::format_to(out, "- **{}** — belief: {}  \n  *Instead:* {}\n",
                           text::markdown_escape(trap->name),
                           text::markdown_escape(trap->misconception, "  "),
                           text::markdown_escape(trap->correction, "  "));
          }
          md += "\n";
        }
      }
      DrawnRuns drawn;
      for (const Printed& printed : group.questions) {
        const Facts facts = facts_of(printed, *printed.bank);
        stem(printed, facts, answers_here);
        if (answers_here) answer(printed, facts, false, drawn);
      }
    }
    if (options.answers == AnswerPlacement::appendix) {
      fmt::format_to(out,
                     "---\n\n## Answer key\n\n*For the worksheet printed with seed {} and the same "
                     "filters.*\n\n",
                     options.seed);
      std::vector<std::pair<int, std::string>> keys;
      for (const TopicGroup& group : groups)
        for (const Printed& printed : group.questions)
          keys.emplace_back(printed.number, facts_of(printed, *printed.bank).answer_letters);
      constexpr std::size_t per_row = 3;
      md += "|";
      for (std::size_t c = 0; c < per_row; ++c)
        md += " # | answer |";
      md += "\n|";
      for (std::size_t c = 0; c < per_row; ++c)
        md += " ---: | --- |";
      md += "\n";
      const std::size_t rows = (keys.size() + per_row - 1) / per_row;
      for (std::size_t r = 0; r < rows; ++r) {
        md += "|";
        // Column-major, as a printed key reads: down the first column, then the next.
        for (std::size_t c = 0; c < per_row; ++c) {
          const std::size_t k = c * rows + r;
          if (k < keys.size()) {
            fmt::format_to(out, " **{}** | {} |", keys[k].first,
                           text::markdown_cell(keys[k].second));
          } else {
            md += "  |  |";
          }
        }
        md += "\n";
      }
      md += "\n### Answers explained\n\n";
      DrawnRuns drawn;
      for (const TopicGroup& group : groups) {
        for (const Printed& printed : group.questions) {
          fmt::format_to(out, "#### {}. {}\n\n*{} · {}*\n\n", printed.number,
                         text::markdown_cell(printed.instance.prompt),
                         text::markdown_escape(printed.bank->id),
                         text::markdown_code(printed.question().id));
          answer(printed, facts_of(printed, *printed.bank), true, drawn);
        }
      }
    }
    while (md.size() > 1 && md.back() == '\n' && md[md.size() - 2] == '\n')
      md.pop_back();
  }
};

}  // namespace

const std::string& handout_stylesheet() {
  static const std::string css = R"(body.handout { max-width: 56rem; }
.handout-header { margin: 0 0 1.5rem; }
.handout-header .kind { margin: 0; color: #2166ac; font-weight: 600; text-transform: uppercase;
  letter-spacing: .06em; font-size: .8rem; }
.handout-header h1 { margin: .1rem 0 .3rem; font-size: 2rem; line-height: 1.2; }
.subtitle { margin: 0 0 1rem; color: #59636e; }
.name-line { display: flex; gap: 2.5rem; margin: 1.5rem 0 0; }
.name-line > span { display: flex; flex: 1; gap: .5rem; align-items: baseline; }
.name-line > span:last-child { flex: 0 0 14rem; }
.name-line .blank { flex: 1; min-width: 0; }
.blank { display: inline-block; min-width: 14rem; border-bottom: 1px solid #57606a;
  height: 1.1em; vertical-align: baseline; }
.blank.short { min-width: 3rem; }
nav.contents { margin: 0 0 2rem; padding: .75rem 1.25rem; background: #f6f8fa;
  border-radius: 6px; }
nav.contents ol { margin: 0; padding-left: 1.25rem; columns: 2; column-gap: 2.5rem; }
nav.contents li { margin: .15rem 0; break-inside: avoid; }
nav.contents .range { color: #59636e; font-size: .85rem; }
a { color: #0969da; }
section.topic { margin: 2.5rem 0 0; }
section.topic > h2 { margin: 0 0 .5rem; padding-bottom: .35rem; font-size: 1.6rem;
  border-bottom: 2px solid #2166ac; }
.topic-bank { display: block; color: #59636e; font-size: .75rem; font-weight: 600;
  text-transform: uppercase; letter-spacing: .06em; }
.topic-description { margin: .25rem 0 1rem; color: #424a53; }
aside.traps { margin: 1rem 0 1.75rem; padding: .6rem 1.1rem; background: #fff8e5;
  border-left: 4px solid #bf8700; border-radius: 0 6px 6px 0; }
aside.traps h3 { margin: .2rem 0 .4rem; font-size: 1rem; }
aside.traps dl { margin: 0; }
aside.traps dt { font-weight: 600; margin-top: .5rem; }
aside.traps dd { margin: .1rem 0 0 1rem; font-size: .92rem; }
.misconception { color: #7d4e00; }
article.question { margin: 1.75rem 0; }
article.question h3, .key-entry h4 { display: flex; gap: .5rem; margin: 0 0 .2rem;
  font-size: 1.05rem; line-height: 1.45; font-weight: 600; }
.qnum { flex: none; min-width: 2.1rem; color: #2166ac; text-decoration: none; }
.qmeta { margin: 0 0 .5rem 2.6rem; color: #59636e; font-size: .82rem; }
ol.options { list-style: none; margin: .4rem 0 .75rem 2.6rem; padding: 0; }
ol.options li { display: flex; gap: .55rem; align-items: baseline; margin: .3rem 0; }
.box { flex: none; display: inline-block; width: .8em; height: .8em; position: relative;
  top: .08em; border: 1.5px solid #57606a; border-radius: 2px; }
ol.single .box, ol.truefalse .box { border-radius: 50%; }
ol.order .box { display: none; }
li.correct .box { background: #2166ac; border-color: #2166ac; }
.letter { flex: none; min-width: 1.3em; font-weight: 600; }
.body { flex: 1; }
.mark { color: #1a7f37; font-weight: 700; }
.trap-note { display: block; margin-top: .15rem; color: #7d4e00; font-size: .88rem; }
.trap-label { font-weight: 600; }
.answer-line { margin: .5rem 0 .75rem 2.6rem; }
.answer-block { margin: .5rem 0 0 2.6rem; padding: .1rem 0 .1rem 1rem;
  border-left: 3px solid #d0d7de; }
.answer-block p { margin: .45rem 0; }
.answer-block .answer { font-size: 1.02rem; }
ul.trap-list { margin: .3rem 0 .6rem; padding-left: 1.1rem; }
ul.trap-list li { margin: .2rem 0; }
.wrong-answer { font-weight: 600; }
.source { color: #59636e; font-size: .88rem; }
.unprovable, .proof-error { color: #59636e; font-size: .9rem; }
.proof { margin: .9rem 0 .5rem; }
.proof-head { font-size: .92rem; }
.proof section.demo { margin: .75rem 0 1rem; padding: .75rem 1rem; background: #fbfcfd;
  border: 1px solid #d8dee4; border-radius: 6px; }
.proof section.demo > header h2 { font-size: 1.1rem; }
.proof section.demo h3 { margin-top: 1.1rem; font-size: 1rem; }
.proof blockquote.claim { font-size: .95rem; }
.proof table { font-size: .88rem; }
.proof th, .proof td { overflow-wrap: normal; word-break: normal; }
.proof td { white-space: nowrap; }
section.answer-key { margin-top: 3rem; }
section.answer-key > h2 { font-size: 1.6rem; margin: 0 0 .3rem; border-bottom: 2px solid #2166ac;
  padding-bottom: .35rem; }
ol.key-grid { list-style: none; margin: 1rem 0 2rem; padding: 0; columns: 4 9rem;
  column-gap: 2rem; }
ol.key-grid li { display: flex; gap: .6rem; padding: .12rem 0; border-bottom: 1px solid #eaeef2;
  break-inside: avoid; }
.key-number { min-width: 2rem; text-align: right; font-weight: 600; color: #2166ac;
  text-decoration: none; }
.key-answer { font-variant-numeric: tabular-nums; min-width: 0; overflow-wrap: anywhere; }
.key-details-title { font-size: 1.25rem; margin: 2rem 0 .5rem; }
.key-entry { margin: 1.1rem 0; }
.key-entry .answer-block { margin-left: 2.6rem; }
.key-entry .answer-block p { margin: .3rem 0; }
.key-entry ul.trap-list .trap-note { display: inline; margin-left: .35em; }
@media print {
  html, body.handout { font-size: 10pt; }
  body.handout { max-width: none; }
  nav.contents { display: none; }
  a { color: inherit; text-decoration: none; }
  body.study-sheet section.topic { break-before: page; page-break-before: always; margin-top: 0; }
  body.study-sheet section.topic:first-of-type { break-before: auto; page-break-before: auto; }
  body.worksheet section.topic { margin-top: 1rem; }
  body.worksheet section.topic > h2 { font-size: 1.2rem; padding-bottom: .2rem;
    border-bottom-width: 1px; }
  body.worksheet article.question { margin: .9rem 0; break-inside: avoid; page-break-inside: avoid; }
  section.answer-key { break-before: page; page-break-before: always; margin-top: 0; }
  .stem, aside.traps dd, ol.key-grid li, .proof-head, .answer-block > p, ul.trap-list li {
    break-inside: avoid; page-break-inside: avoid; }
  article.question h3, .key-entry h4, section.topic > h2, .key-details-title, aside.traps h3,
  aside.traps dt { break-after: avoid; page-break-after: avoid; }
  section.answer-key { line-height: 1.4; }
  section.answer-key .key-entry { margin: .7rem 0; }
  section.answer-key .answer-block p { margin: .15rem 0; }
  section.answer-key ul.trap-list { margin: .1rem 0 .2rem; }
  section.answer-key ul.trap-list li { margin: 0; }
  section.answer-key .proof { margin: .3rem 0 0; }
  section.answer-key .key-entry h4 { font-size: 1rem; line-height: 1.35; }
  section.answer-key .key-entry .qmeta { margin-bottom: .2rem; }
  section.answer-key ol.key-grid { margin: .5rem 0 1rem; }
  section.answer-key .key-details-title { margin: 1rem 0 .3rem; }
  .key-entry .answer-block > p { break-inside: auto; page-break-inside: auto; orphans: 2;
    widows: 2; }
  .proof section.demo { background: none; }
  .proof .heatmaps { display: flex; flex-wrap: wrap; column-gap: 1.5rem; }
  .proof figure.heatmap { zoom: .8; }
  .proof svg.chart { width: 75%; }
}
)";
  return css;
}

Handout render_handout(const std::vector<TopicGroup>& groups, const HandoutOptions& options,
                       bank::DemoRunner& runner) {
  Handout handout;
  if (options.format == HandoutFormat::html) {
    handout.document = html_document(groups, options, runner);
    return handout;
  }
  MarkdownWriter writer{options, runner, handout.assets, {}};
  writer.document(groups);
  handout.document = std::move(writer.md) + "\n";
  return handout;
}

}  // namespace proofdeck::print
