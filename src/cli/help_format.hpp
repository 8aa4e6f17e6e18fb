// `--help` at any width: CLI11's own formatter writes descriptions on one line however long, so a
// terminal breaks them mid-word. This one (for Debian's CLI11 2.1) wraps every description, usage
// line and footer at word boundaries to the width text output uses (cli::text_width) but at most
// the prose measure (text::kProseWidth), keeping
// the option column where it fits and moving a description under a long option name otherwise.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace proofdeck::cli {

class HelpFormatter : public CLI::Formatter {
 public:
  explicit HelpFormatter(int width);

  std::string make_description(const CLI::App* app) const override;
  std::string make_usage(const CLI::App* app, std::string name) const override;
  std::string make_option(const CLI::Option* opt, bool is_positional) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_footer(const CLI::App* app) const override;

 private:
  // A name in the left column and its description wrapped beside it.
  std::string entry(const std::string& name, const std::string& description) const;

  int width_;
  int column_;  // where descriptions start
};

// Text laid out for a help screen `width` columns wide. A newline ends a paragraph; each is
// wrapped on its own at word boundaries. An indented line keeps its indent: a definition
// ("  term   text") wraps its text in the text's column, an example (indent of 4 or less)
// continues 4 columns deeper, anything else at its own indent.
std::string wrap_help_text(const std::string& text, int width);

}  // namespace proofdeck::cli
