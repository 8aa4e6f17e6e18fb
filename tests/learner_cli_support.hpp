// A learner's data folder and the commands run on it, as the learner types them: the test banks
// only, a fixed clock and seed, no colour; and a count read back from its progress.db.
#pragma once

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <string>
#include <vector>

#include "cli_test_support.hpp"

namespace cli_test {

struct LearnerCli {
  TempDir dir;
  std::string now = "2026-03-02T09:00:00Z";

  int run(Cli& cli, std::vector<std::string> args, const std::string& input = "") {
    cli.in.str(input);
    args.insert(args.end(), {"--no-builtin", "--bank",
                             std::string(PROOFDECK_FIXTURE_DIR) + "/../banks", "--data-dir",
                             dir.path().string(), "--now", now, "--color", "never", "--seed", "0"});
    return cli.run(args);
  }
  int count(const std::string& sql) const {
    SQLite::Database db((dir.path() / "progress.db").string());
    SQLite::Statement query(db, sql);
    query.executeStep();
    return query.getColumn(0).getInt();
  }
};

}  // namespace cli_test
