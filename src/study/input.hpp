// Reading answers line by line — the same from a terminal or a pipe — where Ctrl-C or SIGTERM
// ends a session gracefully (progress saved, summary printed, exit 130) and an exam's deadline
// stops the wait for an answer that never comes.
#pragma once

#include <chrono>
#include <istream>
#include <optional>
#include <string>

namespace proofdeck::study {

// Installs SIGINT and SIGTERM handlers for its lifetime (restoring the previous ones after).
// The handlers only set a flag; a blocked read returns so the session can wind down.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  static bool interrupted();
  static void clear();  // forget an earlier interruption (a new session in the same process)
};

class LineReader {
 public:
  // fd >= 0: read that file descriptor directly (needed to wait with a deadline and to notice a
  // signal while blocked); otherwise read the stream (in-process tests).
  LineReader(std::istream& in, int fd) : in_(in), fd_(fd) {}

  enum class Status { line, end, interrupted, timeout };
  using Deadline = std::optional<std::chrono::steady_clock::time_point>;

  // One line without its newline (a last line without one counts). A line that arrives after
  // the deadline is not returned: timeout.
  Status read(std::string& line, Deadline deadline = std::nullopt);

 private:
  Status read_fd(std::string& line, Deadline deadline);
  std::istream& in_;
  int fd_ = -1;
  std::string buffer_;
  bool eof_ = false;
};

}  // namespace proofdeck::study
