// Item analysis drawn for a terminal, as CSV and as one HTML page (analysis.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "render/html_figure.hpp"
#include "study/analysis.hpp"
#include "study/calibration_view.hpp"
#include "study/confidence.hpp"
#include "text/escape.hpp"
#include "text/number.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

namespace {

// An undefined statistic (NaN) prints as a dash.
std::string decimal(double x, int decimals = 2) {
  if (!std::isfinite(x)) return "–";
  // A minus sign, not a hyphen, as the lesson prints negative numbers.
  const std::string digits = fmt::format("{:.{}f}", std::fabs(x), decimals);
  return (x < 0 && digits.find_first_not_of("0.") != std::string::npos ? "−" : "") + digits;
}

std::string share(double x) {
  if (!std::isfinite(x)) return "–";
  const std::string digits = text::percent(std::fabs(x));
  return (x < 0 && digits != "0%" ? "−" : "") + digits;
}

std::string safe(const std::string& text) {
  return text::terminal_safe(text, text::Newlines::as_spaces);
}

// A text the loaded banks do not hold prints as a dash.
std::string safe(const std::optional<std::string>& text) {
  return text ? safe(*text) : std::string("–");
}

// Score histogram rows: one a score, or bins of equal width when there are more than 16 scores.
struct Bin {
  int low, high, learners;
};
std::vector<Bin> bins_of(const std::vector<int>& histogram) {
  const int scores = static_cast<int>(histogram.size());
  const int width = std::max(1, (scores + 15) / 16);
  std::vector<Bin> out;
  for (int low = 0; low < scores; low += width) {
    Bin bin{low, std::min(scores - 1, low + width - 1), 0};
    for (int s = bin.low; s <= bin.high; ++s)
      bin.learners += histogram[static_cast<std::size_t>(s)];
    out.push_back(bin);
  }
  return out;
}

std::string bin_label(const Bin& bin) {
  return bin.low == bin.high ? std::to_string(bin.low) : fmt::format("{}–{}", bin.low, bin.high);
}

std::string form_title(const FormAnalysis& form, std::size_t number) {
  return fmt::format("Form {}: {} · seed {} · {} · {} ({} complete)", number, form.mode, form.seed,
                     text::count(form.questions, "question", "questions"),
                     text::count(form.reports, "report", "reports"), form.complete);
}

std::string form_scores_line(const FormAnalysis& form) {
  return fmt::format("Score: mean {} · median {} · SD {} · KR-20 {} · SEM {}",
                     decimal(form.mean, 1), decimal(form.median, 1), decimal(form.sd),
                     decimal(form.kr20), decimal(form.sem));
}

std::string question_numbers(const QuestionAnalysis& q) {
  return fmt::format(
      "facility {} · discrimination {} · upper−lower {} · efficiency {} · {} · "
      "median {} s",
      decimal(q.facility), decimal(q.discrimination), decimal(q.upper_lower), share(q.efficiency),
      text::count(q.attempts, "learner", "learners"), decimal(q.median_time_s, 0));
}

std::string render_form(const FormAnalysis& form, std::size_t number, const Theme& theme,
                        int width) {
  std::string out = "\n" + wrap_styled(theme.emphasis, form_title(form, number), width);
  out += text::wrap_block(form_scores_line(form), width, "  ", "    ");
  const std::vector<Bin> bins = bins_of(form.histogram);
  int most = 1, label_width = 5;
  for (const Bin& bin : bins) {
    most = std::max(most, bin.learners);
    label_width = std::max(label_width, text::display_width(bin_label(bin)));
  }
  const int bar_room = std::max(4, std::min(40, width - label_width - 12));
  out += fmt::format("  {} learners\n", text::pad_left("score", label_width));
  for (const Bin& bin : bins) {
    const int cells =
        static_cast<int>(std::lround(static_cast<double>(bin.learners) / most * bar_room));
    std::string bar;
    for (int i = 0; i < cells; ++i)
      bar += "█";
    out += fmt::format("  {} {:>4}{}\n", text::pad_left(bin_label(bin), label_width), bin.learners,
                       bar.empty() ? "" : " " + fmt::format(theme.dim, "{}", bar));
  }
  return out;
}

std::string render_flagged(const QuestionAnalysis& q, std::size_t number, const Theme& theme,
                           int width) {
  std::string out = "\n" + wrap_labelled(fmt::format("{}. {}", number, safe(q.id)), theme.emphasis,
                                         "· " + question_numbers(q), width, "     ");
  if (q.prompt)
    out += wrap_styled(theme.dim, text::truncate(safe(q.prompt), 3 * width), width, "   ", "   ");
  for (const QuestionFlag& flag : q.flags) {
    out += wrap_styled(theme.bad, "⚑ " + flag.message, width, "   ", "     ");
    out += text::wrap_block("look at: " + flag.look_at, width, "     ", "     ");
  }
  if (!q.options.empty()) {
    out += fmt::format("     {:<8} {:>6} {:>6} {:>6}\n", "option", "chosen", "upper", "lower");
    for (const OptionAnalysis& option : q.options) {
      const std::string id = text::fit(safe(option.id) + (option.key ? " ✓" : ""), 8);
      std::string line = fmt::format("     {} {:>6} {:>6} {:>6}", id, share(option.rate),
                                     share(option.upper), share(option.lower));
      if (option.trap) {
        const int room = width - text::display_width(line) - 2;
        if (room >= 8) line += "  " + text::truncate("trap " + safe(option.trap), room);
      }
      out += line + "\n";
    }
  }
  if (q.common_wrong_answers && !q.common_wrong_answers->empty()) {
    std::string list;
    for (const WrongAnswer& wrong : *q.common_wrong_answers)
      list += fmt::format("{}{} ×{}", list.empty() ? "" : " · ", safe(wrong.answer), wrong.count);
    out += text::wrap_block("most given wrong answers: " + list, width, "     ", "     ");
  }
  return out;
}

// The questions without a flag, a line each: id, learners, facility, discrimination, efficiency.
std::string render_unflagged(const std::vector<const QuestionAnalysis*>& questions, int width) {
  if (questions.empty()) return "";
  const int numbers = 30;  // "  200  0.71   0.42   63%   14"
  const int id_width = std::max(8, std::min(48, width - numbers - 2));
  std::string out =
      fmt::format("  {} {:>5} {:>5} {:>6} {:>5} {:>4}\n", text::pad_right("question", id_width),
                  "n", "fac.", "disc.", "eff.", "s");
  for (const QuestionAnalysis* q : questions) {
    out += fmt::format("  {} {:>5} {:>5} {:>6} {:>5} {:>4}\n", text::fit(safe(q->id), id_width),
                       q->attempts, decimal(q->facility), decimal(q->discrimination),
                       share(q->efficiency), decimal(q->median_time_s, 0));
  }
  return out;
}

// A trap as the class's analysis names it: its name where a loaded bank has one, else its id.
std::string trap_display(const GroupAnalysis& group, const std::string& id) {
  const auto named = std::find_if(group.traps.begin(), group.traps.end(),
                                  [&](const TrapAnalysis& t) { return t.id == id; });
  return named != group.traps.end() && named->name ? *named->name : id;
}

// With confidence asked: the class's calibration, and the questions answered wrong at 3 (sure),
// most often first — misconceptions held with confidence, and the trap that drew them.
std::string render_confidence(const GroupAnalysis& group, const Theme& theme, int width) {
  if (group.calibration.empty()) return "";
  int given = 0;
  for (const CalibrationRow& row : group.calibration)
    given += row.answers;
  std::string out =
      "\n" + wrap_styled(theme.emphasis,
                         fmt::format("Confidence, the class ({} given with a level)",
                                     given == 1 ? "1 answer" : fmt::format("{} answers", given)),
                         width);
  out += render_calibration_rows(group.calibration, width);
  std::vector<const QuestionAnalysis*> sure_and_wrong;
  for (const QuestionAnalysis& q : group.questions)
    if (q.confident_wrong && q.confident_wrong->wrong_at_3 > 0) sure_and_wrong.push_back(&q);
  if (sure_and_wrong.empty()) return out;
  std::stable_sort(sure_and_wrong.begin(), sure_and_wrong.end(), [](const auto* a, const auto* b) {
    return a->confident_wrong->share > b->confident_wrong->share;
  });
  out += "\n" + wrap_styled(theme.emphasis, "Wrong at 3 (sure), most often first", width);
  for (const QuestionAnalysis* q : sure_and_wrong) {
    const ConfidentWrong& w = *q->confident_wrong;
    const std::string trap = w.trap ? trap_display(group, *w.trap) : "";
    out += text::wrap_block(
        fmt::format("{} — {} of {} answers given with a level ({}){}", safe(q->id), w.wrong_at_3,
                    w.with_level, share(w.share), trap.empty() ? "" : ", most into " + safe(trap)),
        width, "  ", "    ");
  }
  return out;
}

std::string render_group(const GroupAnalysis& group, const AnalysisThresholds& thresholds,
                         const Theme& theme, int width) {
  std::string out;
  std::size_t number = 0;
  for (const FormAnalysis& form : group.forms)
    out += render_form(form, ++number, theme, width);

  std::vector<const QuestionAnalysis*> flagged, unflagged;
  for (const QuestionAnalysis& q : group.questions)
    (q.flags.empty() ? unflagged : flagged).push_back(&q);
  out += "\n" + wrap_styled(theme.emphasis,
                            fmt::format("Questions, worst first: {} flagged of {}", flagged.size(),
                                        group.questions.size()),
                            width);
  out += text::wrap_block(
      fmt::format("Facility: the share right. Discrimination: the point-biserial of the question "
                  "against the rest of the form. Upper−lower: the facility of the top {0} of "
                  "learners minus the bottom {0}'s. Efficiency: the discrimination over the "
                  "most it could be at this facility. Flags need {1} learners.",
                  text::percent(thresholds.group_share), thresholds.min_attempts),
      width, "  ", "  ");
  number = 0;
  for (const QuestionAnalysis* q : flagged)
    out += render_flagged(*q, ++number, theme, width);
  if (!unflagged.empty()) {
    out += "\n" +
           wrap_styled(theme.emphasis,
                       fmt::format("No flag ({}), weakest discrimination first", unflagged.size()),
                       width);
    out += render_unflagged(unflagged, width);
  }

  if (!group.objectives.empty()) {
    out += "\n" + wrap_styled(theme.emphasis, "Objectives, hardest first", width);
    const int id_width = std::max(8, std::min(48, width - 18));
    out += fmt::format("  {} {:>6} {:>7}\n", text::pad_right("objective", id_width), "right",
                       "answers");
    for (const ObjectiveAnalysis& objective : group.objectives)
      out += fmt::format("  {} {:>6} {:>7}\n", text::fit(safe(objective.id), id_width),
                         share(objective.facility), objective.attempts);
  }
  std::string traps;
  constexpr std::size_t kTrapsShown = 12;
  std::size_t fallen = 0;
  for (const TrapAnalysis& trap : group.traps) {
    if (trap.fell == 0 || ++fallen > kTrapsShown) continue;
    traps += text::wrap_block(
        fmt::format("{} — fell {} of {} answers that offered it ({})",
                    safe(trap.name.value_or(trap.id)), trap.fell, trap.exposed, share(trap.rate)),
        width, "  ", "    ");
  }
  if (fallen > kTrapsShown)
    traps += text::wrap_block(
        fmt::format("… and {} more (--format json or html lists them all)", fallen - kTrapsShown),
        width, "  ", "    ");
  if (!traps.empty())
    out += "\n" + wrap_styled(theme.emphasis, "Traps, most fallen for first", width) + traps;
  return out + render_confidence(group, theme, width);
}

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\n\r") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// A missing text, or an undefined statistic, is an empty field.
std::string csv_field(const std::optional<std::string>& value) {
  return value ? csv_field(*value) : std::string();
}

std::string csv_number(double value) {
  return std::isfinite(value) ? fmt::format("{}", value) : std::string();
}

std::string html_escape(const std::string& text) {
  return text::markup_escape(text);
}

std::string html_escape(const std::optional<std::string>& text) {
  return text ? html_escape(*text) : std::string("–");
}

std::string html_bar(double rate, const char* kind) {
  const double x = std::isfinite(rate) ? std::clamp(rate, 0.0, 1.0) : 0.0;
  return fmt::format(
      "<td class=\"bar\"><span class=\"{}\" style=\"width:{:.1f}%\"></span><b>{}</b></td>", kind,
      100 * x, share(rate));
}

}  // namespace

std::string render_analysis(const Analysis& analysis, const Theme& theme, int width) {
  std::string out = wrap_labelled(
      "proofdeck analyze", theme.emphasis,
      fmt::format("· {} analysed{}", text::count(analysis.reports, "report", "reports"),
                  analysis.skipped.empty() ? std::string()
                                           : fmt::format(" · {} skipped", analysis.skipped.size())),
      width);
  for (const std::string& warning : analysis.warnings)
    out += wrap_labelled("warning:", theme.warning, safe(warning), width);
  std::size_t number = 0;
  for (const GroupAnalysis& group : analysis.groups) {
    if (analysis.groups.size() > 1) {
      std::string revisions;
      for (const auto& [bank, revised] : group.banks)
        revisions += fmt::format("{}{} {}", revisions.empty() ? "" : ", ", bank,
                                 revised.empty() ? "(no date)" : revised);
      out += "\n" +
             wrap_styled(theme.emphasis,
                         fmt::format("Group {}: {} · {}", ++number,
                                     text::count(group.reports, "report", "reports"), revisions),
                         width);
    }
    out += render_group(group, analysis.thresholds, theme, width);
  }
  return out;
}

std::string analysis_csv(const Analysis& analysis) {
  std::string out =
      "group,question,bank,topic,type,objective,learners,answered,facility,sd,discrimination,"
      "upper_lower,efficiency,guess_chance,median_time_s,flags,with_level,wrong_at_3,"
      "wrong_at_3_share,wrong_at_3_trap\r\n";
  std::size_t number = 0;
  for (const GroupAnalysis& group : analysis.groups) {
    ++number;
    for (const QuestionAnalysis& q : group.questions) {
      std::string flags;
      for (const QuestionFlag& flag : q.flags)
        flags += (flags.empty() ? "" : ";") + flag.flag;
      // The confidence columns are empty where no answer was given with a level.
      const std::optional<ConfidentWrong>& sure = q.confident_wrong;
      out += fmt::format(
          "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n", number,
          csv_field(q.id), csv_field(q.bank), csv_field(q.topic), csv_field(q.type),
          csv_field(q.objective), q.attempts, q.answered, csv_number(q.facility), csv_number(q.sd),
          csv_number(q.discrimination), csv_number(q.upper_lower), csv_number(q.efficiency),
          csv_number(q.guess_chance), csv_number(q.median_time_s), csv_field(flags),
          sure ? std::to_string(sure->with_level) : "",
          sure ? std::to_string(sure->wrong_at_3) : "", sure ? csv_number(sure->share) : "",
          csv_field(sure ? sure->trap : std::nullopt));
    }
  }
  return out;
}

namespace {

// The class's confidence as a table: each level's answers, share right with its Wilson 95%
// interval, and Moodle's judgement; nothing when no answer had a level.
std::string html_calibration(const std::vector<CalibrationRow>& rows) {
  if (rows.empty()) return "";
  std::string out =
      "<h2>Confidence, the class</h2><div class=\"table-scroll\"><table><thead><tr><th>level</th>"
      "<th>answers</th><th>right</th><th>share right</th><th>95% interval</th><th>judgement</th>"
      "</tr></thead><tbody>";
  for (const CalibrationRow& row : rows) {
    out += fmt::format(
        "<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        html_escape(confidence_name(row.level)), row.answers, row.right,
        row.share_right ? share(*row.share_right) : "–",
        row.interval ? fmt::format("{}–{}", share(row.interval->first), share(row.interval->second))
                     : "–",
        html_escape(row.judgement.value_or("–")));
  }
  return out + "</tbody></table></div>\n";
}

}  // namespace

std::string analysis_html(const Analysis& analysis) {
  std::string body;
  body += fmt::format(
      "<header><h1>Item analysis</h1><p class=\"meta\">{} analysed{}</p>"
      "</header>\n",
      text::count(analysis.reports, "report", "reports"),
      analysis.skipped.empty() ? std::string()
                               : fmt::format(" · {} skipped", analysis.skipped.size()));
  for (const std::string& warning : analysis.warnings)
    body += fmt::format("<p class=\"warning\">{}</p>\n", html_escape(warning));
  std::size_t group_number = 0;
  for (const GroupAnalysis& group : analysis.groups) {
    ++group_number;
    if (analysis.groups.size() > 1) body += fmt::format("<h2>Group {}</h2>\n", group_number);
    std::size_t form_number = 0;
    for (const FormAnalysis& form : group.forms) {
      body += fmt::format("<section class=\"form\"><h2>{}</h2><p>{}</p>\n",
                          text::markup_escape(form_title(form, ++form_number)),
                          text::markup_escape(form_scores_line(form)));
      const std::vector<Bin> bins = bins_of(form.histogram);
      int most = 1;
      for (const Bin& bin : bins)
        most = std::max(most, bin.learners);
      // Wide enough for its label: a score, or a range of scores ("10–11").
      const bool ranges = !bins.empty() && bins.front().low != bins.front().high;
      const int bar_width = ranges ? 38 : 22, gap = 4, chart_height = 160;
      const int chart_width = static_cast<int>(bins.size()) * (bar_width + gap);
      body += fmt::format(
          "<figure class=\"chart\"><figcaption>Scores: learners per number of "
          "right answers</figcaption><svg viewBox=\"0 0 {} {}\" width=\"{}\" "
          "height=\"{}\" role=\"img\">",
          chart_width, chart_height + 36, chart_width, chart_height + 36);
      int x = 0;
      for (const Bin& bin : bins) {
        const double h = static_cast<double>(bin.learners) / most * chart_height;
        body += fmt::format(
            "<rect x=\"{}\" y=\"{:.1f}\" width=\"{}\" height=\"{:.1f}\" fill=\"#2166ac\">"
            "<title>{}: {} learners</title></rect><text x=\"{}\" y=\"{}\" font-size=\"11\" "
            "text-anchor=\"middle\">{}</text>",
            x, 16 + chart_height - h, bar_width, h, bin_label(bin), bin.learners, x + bar_width / 2,
            chart_height + 30, bin_label(bin));
        if (bin.learners > 0)
          body += fmt::format(
              "<text x=\"{}\" y=\"{:.1f}\" font-size=\"10\" "
              "text-anchor=\"middle\" fill=\"#59636e\">{}</text>",
              x + bar_width / 2, 12 + chart_height - h, bin.learners);
        x += bar_width + gap;
      }
      body += "</svg></figure></section>\n";
    }
    body += "<h2>Questions, worst first</h2>\n";
    for (const QuestionAnalysis& q : group.questions) {
      body += fmt::format("<section class=\"question{}\"><h3>{}</h3>",
                          q.flags.empty() ? "" : " flagged", html_escape(q.id));
      if (q.prompt) body += fmt::format("<p class=\"prompt\">{}</p>", html_escape(q.prompt));
      body += fmt::format("<p class=\"meta\">{}</p>", text::markup_escape(question_numbers(q)));
      if (q.confident_wrong && q.confident_wrong->wrong_at_3 > 0) {
        const ConfidentWrong& w = *q.confident_wrong;
        body += fmt::format(
            "<p class=\"sure\">Wrong at 3 (sure): {} of {} answers given with a level ({}){}</p>",
            w.wrong_at_3, w.with_level, share(w.share),
            w.trap ? ", most into " + html_escape(trap_display(group, *w.trap)) : "");
      }
      for (const QuestionFlag& flag : q.flags)
        body += fmt::format("<p class=\"flag\"><strong>{}</strong><br />Look at: {}</p>",
                            html_escape(flag.message), html_escape(flag.look_at));
      if (!q.options.empty()) {
        body +=
            "<div class=\"table-scroll\"><table class=\"options\"><thead><tr><th>option</th>"
            "<th>all</th><th>upper group</th><th>lower group</th></tr></thead><tbody>";
        for (const OptionAnalysis& option : q.options) {
          body += fmt::format("<tr><th>{}{}<span class=\"text\">{}</span></th>{}{}{}</tr>",
                              html_escape(option.id),
                              option.key ? " <span class=\"key\">✓ key</span>" : "",
                              html_escape(option.text), html_bar(option.rate, "all"),
                              html_bar(option.upper, "upper"), html_bar(option.lower, "lower"));
        }
        body += "</tbody></table></div>";
      }
      body += "</section>\n";
    }
    if (!group.traps.empty()) {
      body +=
          "<h2>Traps</h2><div class=\"table-scroll\"><table><thead><tr><th>trap</th>"
          "<th>fell</th><th>offered</th><th>rate</th></tr></thead><tbody>";
      for (const TrapAnalysis& trap : group.traps)
        body += fmt::format("<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
                            html_escape(trap.name.value_or(trap.id)), trap.fell, trap.exposed,
                            share(trap.rate));
      body += "</tbody></table></div>\n";
    }
    body += html_calibration(group.calibration);
  }
  static const std::string extra_css = R"(h1 { font-size: 1.8rem; margin: 0; }
section.question { margin: 0 0 2rem; padding: .2rem 0 .2rem 1rem; border-left: 4px solid #d8dee4;
  overflow-wrap: anywhere; }
section.question.flagged { border-left-color: #b35806; }
p.prompt { margin: .3rem 0; max-width: 48rem; }
p.flag { margin: .5rem 0; padding: .4rem .8rem; background: #fff4e5; max-width: 48rem; }
p.warning { padding: .4rem .8rem; background: #fff4e5; }
p.sure { margin: .5rem 0; padding: .4rem .8rem; background: #fdecea; max-width: 48rem; }
table.options th .text { display: block; font-weight: 400; color: #59636e; font-size: .85rem;
  max-width: 22rem; }
table.options thead th { text-align: left; }
td.bar { position: relative; min-width: 7rem; text-align: left; }
td.bar span { display: block; height: .9rem; background: #92c5de; }
td.bar span.upper { background: #2166ac; }
td.bar span.lower { background: #d6604d; }
td.bar b { font-weight: 400; font-size: .85rem; }
span.key { color: #1a7f37; font-weight: 600; }
)";
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta "
      "name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Item "
      "analysis</title>\n<style>\n{}{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
      render::html_stylesheet(), extra_css, body);
}

}  // namespace proofdeck::study
