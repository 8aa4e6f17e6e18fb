// --help wrapped to the terminal (see help_format.hpp).
#include "cli/help_format.hpp"

#include <algorithm>
#include <string_view>

#include "text/width.hpp"

namespace proofdeck::cli {

namespace {

// Where the text of a definition-list line starts ("  op           one of …" → 15), or npos.
std::size_t definition_column(std::string_view line, std::size_t indent) {
  const std::size_t gap = line.find("  ", indent);
  if (gap == std::string_view::npos) return std::string_view::npos;
  return line.find_first_not_of(' ', gap);
}

}  // namespace

// Help is prose, read at the prose measure however wide the terminal.
HelpFormatter::HelpFormatter(int width) : width_(std::clamp(width, 20, text::kProseWidth)) {
  // The option column takes up to 30 columns, but never more than a third of the line.
  column_ = std::clamp(width_ / 3, 12, 30);
  column_width(static_cast<std::size_t>(column_));
}

std::string wrap_help_text(const std::string& text, int width) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + start, end - start);
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const std::size_t column =
        indent == 0 ? std::string_view::npos : definition_column(line, indent);
    if (indent == line.size()) {
      out += '\n';
    } else if (column != std::string_view::npos && static_cast<int>(column) + 10 <= width) {
      // A definition: the term and its gap as written, the text wrapped in its own column.
      const std::string hanging(column, ' ');
      bool first = true;
      for (const std::string& part :
           text::wrap(line.substr(column), width - static_cast<int>(column))) {
        out += first ? std::string(line.substr(0, column)) : hanging;
        out += part + "\n";
        first = false;
      }
    } else {
      // Prose, an example or a definition's continuation: examples (shallow indents) hang 4
      // deeper so a wrapped command reads as one.
      const std::size_t hanging = indent > 0 && indent <= 4 ? indent + 4 : indent;
      out += text::wrap_block(line.substr(indent), width, std::string(indent, ' '),
                              std::string(hanging, ' '));
    }
    if (end == text.size()) break;
    start = end + 1;
  }
  return out;
}

std::string HelpFormatter::entry(const std::string& name, const std::string& description) const {
  return text::definition(name, description, width_, column_);
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
  const std::string description = CLI::Formatter::make_description(app);
  return description.empty() ? description : wrap_help_text(description, width_);
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const {
  std::string usage = CLI::Formatter::make_usage(app, name);
  while (!usage.empty() && usage.back() == '\n')
    usage.pop_back();
  return text::wrap_block(usage, width_, "", "    ");
}

std::string HelpFormatter::make_option(const CLI::Option* opt, bool is_positional) const {
  return entry(make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
}

std::string HelpFormatter::make_subcommand(const CLI::App* sub) const {
  return entry(sub->get_display_name(true), sub->get_description());
}

std::string HelpFormatter::make_footer(const CLI::App* app) const {
  const std::string footer = app->get_footer();
  return footer.empty() ? footer : wrap_help_text(footer, width_);
}

}  // namespace proofdeck::cli
