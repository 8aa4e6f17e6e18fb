// Item analysis drawn for a terminal, as CSV and as one HTML page (analysis.hpp).
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "render/html_figure.hpp"
#include "study/analysis.hpp"
#include "text/escape.hpp"
#include "text/width.hpp"

namespace proofdeck::study {

using nlohmann::ordered_json;

namespace {

std::string decimal(const ordered_json& value, int decimals = 2) {
  if (!value.is_number()) return "–";
  const double x = value.get<double>();
  // A minus sign, not a hyphen, as the lesson prints negative numbers.
  const std::string digits = fmt::format("{:.{}f}", std::fabs(x), decimals);
  return (x < 0 && digits.find_first_not_of("0.") != std::string::npos ? "−" : "") + digits;
}

std::string share(const ordered_json& value) {
  if (!value.is_number()) return "–";
  const std::string digits = fmt::format("{:.0f}%", std::fabs(100 * value.get<double>()));
  return (value.get<double>() < 0 && digits != "0%" ? "−" : "") + digits;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string safe(const ordered_json& value) {
  return value.is_string()
             ? text::terminal_safe(value.get<std::string>(), text::Newlines::as_spaces)
             : std::string("–");
}

// Score histogram rows: one a score, or bins of equal width when there are more than 16 scores.
struct Bin {
  int low, high, learners;
};
std::vector<Bin> bins_of(const ordered_json& histogram) {
  const int scores = static_cast<int>(histogram.size());
  const int width = std::max(1, (scores + 15) / 16);
  std::vector<Bin> out;
  for (int low = 0; low < scores; low += width) {
    Bin bin{low, std::min(scores - 1, low + width - 1), 0};
    for (int s = bin.low; s <= bin.high; ++s)
      bin.learners += histogram[static_cast<std::size_t>(s)].get<int>();
    out.push_back(bin);
  }
  return out;
}

std::string bin_label(const Bin& bin) {
  return bin.low == bin.high ? std::to_string(bin.low) : fmt::format("{}–{}", bin.low, bin.high);
}

std::string form_title(const ordered_json& form, std::size_t number) {
  return fmt::format("Form {}: {} · seed {} · {} · {} ({} complete)", number,
                     form["mode"].get<std::string>(), form["seed"].get<std::uint64_t>(),
                     plural(form["questions"].get<std::size_t>(), "question", "questions"),
                     plural(form["reports"].get<std::size_t>(), "report", "reports"),
                     form["complete"].get<std::size_t>());
}

std::string form_scores_line(const ordered_json& form) {
  return fmt::format("Score: mean {} · median {} · SD {} · KR-20 {} · SEM {}",
                     decimal(form["mean"], 1), decimal(form["median"], 1), decimal(form["sd"]),
                     decimal(form["kr20"]), decimal(form["sem"]));
}

std::string question_numbers(const ordered_json& q) {
  return fmt::format(
      "facility {} · discrimination {} · upper−lower {} · efficiency {} · {} · "
      "median {} s",
      decimal(q["facility"]), decimal(q["discrimination"]), decimal(q["upper_lower"]),
      share(q["efficiency"]), plural(q["attempts"].get<std::size_t>(), "learner", "learners"),
      decimal(q["median_time_s"], 0));
}

std::string render_form(const ordered_json& form, std::size_t number, const Theme& theme,
                        int width) {
  std::string out = "\n" + wrap_styled(theme.emphasis, form_title(form, number), width);
  out += text::wrap_block(form_scores_line(form), width, "  ", "    ");
  const std::vector<Bin> bins = bins_of(form["histogram"]);
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

std::string render_flagged(const ordered_json& q, std::size_t number, const Theme& theme,
                           int width) {
  std::string out =
      "\n" + wrap_labelled(fmt::format("{}. {}", number, safe(q["id"])), theme.emphasis,
                           "· " + question_numbers(q), width, "     ");
  if (q["prompt"].is_string())
    out +=
        wrap_styled(theme.dim, text::truncate(safe(q["prompt"]), 3 * width), width, "   ", "   ");
  for (const auto& flag : q["flags"]) {
    out += wrap_styled(theme.bad, "⚑ " + flag["message"].get<std::string>(), width, "   ", "     ");
    out +=
        text::wrap_block("look at: " + flag["look_at"].get<std::string>(), width, "     ", "     ");
  }
  if (!q["options"].empty()) {
    out += fmt::format("     {:<8} {:>6} {:>6} {:>6}\n", "option", "chosen", "upper", "lower");
    for (const auto& option : q["options"]) {
      const std::string id =
          text::fit(safe(option["id"]) + (option["key"].get<bool>() ? " ✓" : ""), 8);
      std::string line = fmt::format("     {} {:>6} {:>6} {:>6}", id, share(option["rate"]),
                                     share(option["upper"]), share(option["lower"]));
      if (option["trap"].is_string()) {
        const int room = width - text::display_width(line) - 2;
        if (room >= 8) line += "  " + text::truncate("trap " + safe(option["trap"]), room);
      }
      out += line + "\n";
    }
  }
  if (q.contains("common_wrong_answers") && !q["common_wrong_answers"].empty()) {
    std::string list;
    for (const auto& wrong : q["common_wrong_answers"])
      list += fmt::format("{}{} ×{}", list.empty() ? "" : " · ", safe(wrong["answer"]),
                          wrong["count"].get<int>());
    out += text::wrap_block("most given wrong answers: " + list, width, "     ", "     ");
  }
  return out;
}

// The questions without a flag, a line each: id, learners, facility, discrimination, efficiency.
std::string render_unflagged(const std::vector<const ordered_json*>& questions, int width) {
  if (questions.empty()) return "";
  const int numbers = 30;  // "  200  0.71   0.42   63%   14"
  const int id_width = std::max(8, std::min(48, width - numbers - 2));
  std::string out =
      fmt::format("  {} {:>5} {:>5} {:>6} {:>5} {:>4}\n", text::pad_right("question", id_width),
                  "n", "fac.", "disc.", "eff.", "s");
  for (const ordered_json* q : questions) {
    out += fmt::format("  {} {:>5} {:>5} {:>6} {:>5} {:>4}\n",
                       text::fit(safe((*q)["id"]), id_width), (*q)["attempts"].get<int>(),
                       decimal((*q)["facility"]), decimal((*q)["discrimination"]),
                       share((*q)["efficiency"]), decimal((*q)["median_time_s"], 0));
  }
  return out;
}

std::string render_group(const ordered_json& group, const AnalysisOptions& options,
                         const Theme& theme, int width) {
  std::string out;
  std::size_t number = 0;
  for (const auto& form : group["forms"])
    out += render_form(form, ++number, theme, width);

  std::vector<const ordered_json*> flagged, unflagged;
  for (const auto& q : group["questions"])
    (q["flags"].empty() ? unflagged : flagged).push_back(&q);
  out += "\n" + wrap_styled(theme.emphasis,
                            fmt::format("Questions, worst first: {} flagged of {}", flagged.size(),
                                        group["questions"].size()),
                            width);
  out += text::wrap_block(
      fmt::format("Facility: the share right. Discrimination: the point-biserial of the question "
                  "against the rest of the form. Upper−lower: the facility of the top {0:.0f}% of "
                  "learners minus the bottom {0:.0f}%'s. Efficiency: the discrimination over the "
                  "most it could be at this facility. Flags need {1} learners.",
                  100 * options.group_share, options.min_attempts),
      width, "  ", "  ");
  number = 0;
  for (const ordered_json* q : flagged)
    out += render_flagged(*q, ++number, theme, width);
  if (!unflagged.empty()) {
    out += "\n" +
           wrap_styled(theme.emphasis,
                       fmt::format("No flag ({}), weakest discrimination first", unflagged.size()),
                       width);
    out += render_unflagged(unflagged, width);
  }

  if (!group["objectives"].empty()) {
    out += "\n" + wrap_styled(theme.emphasis, "Objectives, hardest first", width);
    const int id_width = std::max(8, std::min(48, width - 18));
    out += fmt::format("  {} {:>6} {:>7}\n", text::pad_right("objective", id_width), "right",
                       "answers");
    for (const auto& objective : group["objectives"])
      out += fmt::format("  {} {:>6} {:>7}\n", text::fit(safe(objective["id"]), id_width),
                         share(objective["facility"]), objective["attempts"].get<int>());
  }
  std::string traps;
  constexpr std::size_t kTrapsShown = 12;
  std::size_t fallen = 0;
  for (const auto& trap : group["traps"]) {
    if (trap["fell"].get<int>() == 0 || ++fallen > kTrapsShown) continue;
    traps += text::wrap_block(
        fmt::format("{} — fell {} of {} answers that offered it ({})",
                    trap["name"].is_string() ? safe(trap["name"]) : safe(trap["id"]),
                    trap["fell"].get<int>(), trap["exposed"].get<int>(), share(trap["rate"])),
        width, "  ", "    ");
  }
  if (fallen > kTrapsShown)
    traps += text::wrap_block(
        fmt::format("… and {} more (--format json or html lists them all)", fallen - kTrapsShown),
        width, "  ", "    ");
  if (!traps.empty())
    out += "\n" + wrap_styled(theme.emphasis, "Traps, most fallen for first", width) + traps;
  return out;
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

std::string csv_value(const ordered_json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return csv_field(value.get<std::string>());
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  return value.dump();
}

std::string html_escape(const ordered_json& value) {
  return value.is_string() ? text::markup_escape(value.get<std::string>()) : std::string("–");
}

std::string html_bar(const ordered_json& rate, const char* kind) {
  const double x = rate.is_number() ? std::clamp(rate.get<double>(), 0.0, 1.0) : 0.0;
  return fmt::format(
      "<td class=\"bar\"><span class=\"{}\" style=\"width:{:.1f}%\"></span><b>{}</b></td>", kind,
      100 * x, share(rate));
}

}  // namespace

std::string render_analysis(const ordered_json& analysis, const Theme& theme, int width) {
  const AnalysisOptions options{
      analysis["thresholds"]["min_attempts"].get<int>(),
      analysis["thresholds"]["group_share"].get<double>(),
  };
  std::string out = wrap_labelled(
      "proofdeck analyze", theme.emphasis,
      fmt::format(
          "· {} analysed{}", plural(analysis["reports"].get<std::size_t>(), "report", "reports"),
          analysis["skipped"].empty() ? std::string()
                                      : fmt::format(" · {} skipped", analysis["skipped"].size())),
      width);
  for (const auto& warning : analysis["warnings"])
    out += wrap_labelled("warning:", theme.warning, safe(warning), width);
  std::size_t number = 0;
  for (const auto& group : analysis["groups"]) {
    if (analysis["groups"].size() > 1) {
      std::string revisions;
      for (const auto& [bank, revised] : group["banks"].items())
        revisions += fmt::format(
            "{}{} {}", revisions.empty() ? "" : ", ", bank,
            revised.get<std::string>().empty() ? "(no date)" : revised.get<std::string>());
      out +=
          "\n" +
          wrap_styled(theme.emphasis,
                      fmt::format("Group {}: {} · {}", ++number,
                                  plural(group["reports"].get<std::size_t>(), "report", "reports"),
                                  revisions),
                      width);
    }
    out += render_group(group, options, theme, width);
  }
  return out;
}

std::string analysis_csv(const ordered_json& analysis) {
  std::string out =
      "group,question,bank,topic,type,objective,learners,answered,facility,sd,discrimination,"
      "upper_lower,efficiency,guess_chance,median_time_s,flags\r\n";
  std::size_t number = 0;
  for (const auto& group : analysis["groups"]) {
    ++number;
    for (const auto& q : group["questions"]) {
      std::string flags;
      for (const auto& flag : q["flags"])
        flags += (flags.empty() ? "" : ";") + flag["flag"].get<std::string>();
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n", number,
                         csv_value(q["id"]), csv_value(q["bank"]), csv_value(q["topic"]),
                         csv_value(q["type"]), csv_value(q["objective"]), csv_value(q["attempts"]),
                         csv_value(q["answered"]), csv_value(q["facility"]), csv_value(q["sd"]),
                         csv_value(q["discrimination"]), csv_value(q["upper_lower"]),
                         csv_value(q["efficiency"]), csv_value(q["guess_chance"]),
                         csv_value(q["median_time_s"]), csv_field(flags));
    }
  }
  return out;
}

std::string analysis_html(const ordered_json& analysis) {
  std::string body;
  body += fmt::format(
      "<header><h1>Item analysis</h1><p class=\"meta\">{} analysed{}</p>"
      "</header>\n",
      plural(analysis["reports"].get<std::size_t>(), "report", "reports"),
      analysis["skipped"].empty() ? std::string()
                                  : fmt::format(" · {} skipped", analysis["skipped"].size()));
  for (const auto& warning : analysis["warnings"])
    body += fmt::format("<p class=\"warning\">{}</p>\n", html_escape(warning));
  std::size_t group_number = 0;
  for (const auto& group : analysis["groups"]) {
    ++group_number;
    if (analysis["groups"].size() > 1) body += fmt::format("<h2>Group {}</h2>\n", group_number);
    std::size_t form_number = 0;
    for (const auto& form : group["forms"]) {
      body += fmt::format("<section class=\"form\"><h2>{}</h2><p>{}</p>\n",
                          text::markup_escape(form_title(form, ++form_number)),
                          text::markup_escape(form_scores_line(form)));
      const std::vector<Bin> bins = bins_of(form["histogram"]);
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
    for (const auto& q : group["questions"]) {
      body += fmt::format("<section class=\"question{}\"><h3>{}</h3>",
                          q["flags"].empty() ? "" : " flagged", html_escape(q["id"]));
      if (q["prompt"].is_string())
        body += fmt::format("<p class=\"prompt\">{}</p>", html_escape(q["prompt"]));
      body += fmt::format("<p class=\"meta\">{}</p>", text::markup_escape(question_numbers(q)));
      for (const auto& flag : q["flags"])
        body += fmt::format("<p class=\"flag\"><strong>{}</strong><br />Look at: {}</p>",
                            html_escape(flag["message"]), html_escape(flag["look_at"]));
      if (!q["options"].empty()) {
        body +=
            "<div class=\"table-scroll\"><table class=\"options\"><thead><tr><th>option</th>"
            "<th>all</th><th>upper group</th><th>lower group</th></tr></thead><tbody>";
        for (const auto& option : q["options"]) {
          body +=
              fmt::format("<tr><th>{}{}<span class=\"text\">{}</span></th>{}{}{}</tr>",
                          html_escape(option["id"]),
                          option["key"].get<bool>() ? " <span class=\"key\">✓ key</span>" : "",
                          html_escape(option["text"]), html_bar(option["rate"], "all"),
                          html_bar(option["upper"], "upper"), html_bar(option["lower"], "lower"));
        }
        body += "</tbody></table></div>";
      }
      body += "</section>\n";
    }
    if (!group["traps"].empty()) {
      body +=
          "<h2>Traps</h2><div class=\"table-scroll\"><table><thead><tr><th>trap</th>"
          "<th>fell</th><th>offered</th><th>rate</th></tr></thead><tbody>";
      for (const auto& trap : group["traps"])
        body +=
            fmt::format("<tr><th>{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
                        html_escape(trap["name"].is_string() ? trap["name"] : trap["id"]),
                        trap["fell"].get<int>(), trap["exposed"].get<int>(), share(trap["rate"]));
      body += "</tbody></table></div>\n";
    }
  }
  static const std::string extra_css = R"(h1 { font-size: 1.8rem; margin: 0; }
section.question { margin: 0 0 2rem; padding: .2rem 0 .2rem 1rem; border-left: 4px solid #d8dee4;
  overflow-wrap: anywhere; }
section.question.flagged { border-left-color: #b35806; }
p.prompt { margin: .3rem 0; max-width: 48rem; }
p.flag { margin: .5rem 0; padding: .4rem .8rem; background: #fff4e5; max-width: 48rem; }
p.warning { padding: .4rem .8rem; background: #fff4e5; }
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
