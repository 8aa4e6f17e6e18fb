// Reading answers line by line — the same from a terminal or a pipe — where Ctrl-C or SIGTERM
// ends a session gracefully (progress saved, summary printed, exit 130) and an exam's deadline
// stops the wait for an answer that never comes. On a terminal the line can be edited (arrows,
// Home/End, Ctrl-L) and earlier answers recalled (up/down), through libedit.
#pragma once

#include <chrono>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

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

// A line printed when its time comes while a read waits — an exam's "5 minutes left" — on its
// own line above the prompt, which is shown again after it.
struct Reminder {
  std::chrono::steady_clock::time_point at;
  std::string text;  // printed as is (styled and wrapped by the caller), without a newline
};

class TerminalEditor;  // libedit over a terminal (input.cpp)

class LineReader {
 public:
  // fd >= 0: read that file descriptor directly (needed to wait with a deadline and to notice a
  // signal while blocked); otherwise read the stream (in-process tests). Prompts and reminders
  // go to `out`. When fd is a terminal, `out` writes to a terminal too and $TERM is not "dumb",
  // lines are read through a line editor (docs/ARCHITECTURE.md, "Reading answers");
  // anything else is read as it comes.
  LineReader(std::istream& in, int fd, std::ostream& out);
  LineReader(LineReader&&) noexcept;
  ~LineReader();  // puts the terminal back as it was found

  enum class Status { line, end, interrupted, timeout };
  using Deadline = std::optional<std::chrono::steady_clock::time_point>;

  // Shows `prompt` and reads one line without its newline (a last line without one counts). A
  // line that arrives after the deadline is not returned: timeout. Reminders that fall due
  // before the line arrives are printed when they do and taken out of the list.
  Status read(std::string& line, const std::string& prompt = "", Deadline deadline = std::nullopt,
              std::vector<Reminder>* reminders = nullptr);

 private:
  Status read_fd(std::string& line, const std::string& prompt, Deadline deadline,
                 std::vector<Reminder>* reminders);
  std::istream& in_;
  std::ostream& out_;
  int fd_ = -1;
  std::string buffer_;
  bool eof_ = false;
  bool editor_decided_ = false;  // whether to edit was decided (at the first read)
  std::unique_ptr<TerminalEditor> editor_;
};

}  // namespace proofdeck::study
