// Reading answers: on a terminal, a line editor (arrows, Home/End, Ctrl-L, history) under which
// an exam's deadline, its reminders and Ctrl-C still work and the terminal is left as it was
// found; from a pipe, or when the output is not a terminal, lines as they come. The terminal is a
// pseudo-terminal: the reader on its slave side, the test typing and watching the screen on the
// master side from a second thread, each step waiting for what the screen shows (no sleeps).
#include <poll.h>
#include <pthread.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <ext/stdio_filebuf.h>
#include <future>
#include <sstream>
#include <string>
#include <string_view>

#include "study/input.hpp"

namespace test_input {

using namespace proofdeck::study;
using Status = LineReader::Status;
using Clock = std::chrono::steady_clock;

namespace {

// How long any one step may take before a test fails: generous, the machine may be loaded.
constexpr auto kPatience = std::chrono::seconds(30);

// An environment variable set for a scope (libedit reads $TERM), restored after.
class EnvironmentVariable {
 public:
  EnvironmentVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old;
    ::setenv(name, value, 1);
  }
  ~EnvironmentVariable() {
    if (previous_) {
      ::setenv(name_, previous_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  EnvironmentVariable(const EnvironmentVariable&) = delete;
  EnvironmentVariable& operator=(const EnvironmentVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> previous_;
};

bool same_attributes(const termios& a, const termios& b) {
  return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag &&
         a.c_lflag == b.c_lflag && std::equal(std::begin(a.c_cc), std::end(a.c_cc), b.c_cc);
}

// A pseudo-terminal of 80 columns with a LineReader reading and writing its slave side, as
// proofdeck reads standard input and writes standard output on a terminal ($TERM=xterm).
class Terminal {
 public:
  explicit Terminal(const char* term = "xterm") : term_("TERM", term) {
    winsize size{24, 80, 0, 0};
    REQUIRE(::openpty(&master_, &slave_, nullptr, nullptr, &size) == 0);
    // A user's own settings (stty -echoctl noflsh), which libedit's cooked mode would change.
    REQUIRE(::tcgetattr(slave_, &found_) == 0);
    found_.c_lflag = (found_.c_lflag & ~tcflag_t{ECHOCTL}) | NOFLSH;
    REQUIRE(::tcsetattr(slave_, TCSANOW, &found_) == 0);
    file_ = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(::dup(slave_), std::ios::out);
    out_ = std::make_unique<std::ostream>(file_.get());
    reader_ = std::make_unique<LineReader>(unused_, slave_, *out_);
  }
  ~Terminal() {
    reader_.reset();
    out_.reset();
    file_.reset();
    ::close(slave_);
    ::close(master_);
  }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  LineReader& reader() { return *reader_; }
  void close_reader() { reader_.reset(); }
  int slave() const { return slave_; }
  const termios& found() const { return found_; }  // the attributes before any reading
  termios attributes() const {
    termios now{};
    ::tcgetattr(slave_, &now);
    return now;
  }

  // Reads one line the way a session does, with a deadline only so that a broken reader fails
  // the test instead of hanging it.
  Status read(std::string& line, const std::string& prompt,
              std::vector<Reminder>* reminders = nullptr) {
    return reader_->read(line, prompt, Clock::now() + kPatience, reminders);
  }

  // Keys typed at the terminal (from the typing thread).
  bool type(std::string_view keys) {
    while (!keys.empty()) {
      const ssize_t wrote = ::write(master_, keys.data(), keys.size());
      if (wrote <= 0) return false;
      keys.remove_prefix(static_cast<std::size_t>(wrote));
    }
    return true;
  }

  // Watches the screen (from the typing thread) until `text` shows at or after byte `from` of
  // everything shown so far; the position just after it, or npos when it never came.
  std::size_t wait_for(std::string_view text, std::size_t from = 0) {
    const auto give_up = Clock::now() + kPatience;
    for (;;) {
      if (const std::size_t at = screen_.find(text, from); at != std::string::npos)
        return at + text.size();
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(give_up - Clock::now());
      if (left.count() <= 0) return std::string::npos;
      pollfd poller{master_, POLLIN, 0};
      if (::poll(&poller, 1, static_cast<int>(left.count())) <= 0) continue;
      char chunk[4096];
      const ssize_t got = ::read(master_, chunk, sizeof chunk);
      if (got <= 0) return std::string::npos;
      screen_.append(chunk, static_cast<std::size_t>(got));
    }
  }
  // The terminal's window resized (from the typing thread), as by the user's mouse.
  bool resize(unsigned short columns) {
    winsize size{24, columns, 0, 0};
    return ::ioctl(master_, TIOCSWINSZ, &size) == 0;
  }

  // The terminal in the mode it was found in (from the typing thread), as a shell puts it back
  // when a job is stopped with Ctrl-Z.
  bool cooked() { return ::tcsetattr(slave_, TCSANOW, &found_) == 0; }

  // Whether keys typed now go to the editor, not to the terminal's own echo and line editing.
  bool raw() const {
    termios now{};
    return ::tcgetattr(slave_, &now) == 0 && (now.c_lflag & (ICANON | ECHO)) == 0;
  }

  // Waits (from the typing thread) for the prompt, and then the terminal must be raw.
  bool prompt_shown(std::string_view prompt) {
    return wait_for(prompt) != std::string::npos && raw();
  }

 private:
  EnvironmentVariable term_;
  int master_ = -1;
  int slave_ = -1;
  termios found_{};
  std::istringstream unused_;
  std::unique_ptr<__gnu_cxx::stdio_filebuf<char>> file_;
  std::unique_ptr<std::ostream> out_;
  std::unique_ptr<LineReader> reader_;
  std::string screen_;
};

constexpr std::size_t kNever = std::string::npos;

// Types on a second thread while the test reads; true when every step happened. Its future
// waits for the thread when destroyed, so a failed REQUIRE never leaves it running.
template <typename Steps>
std::future<bool> typing(Steps steps) {
  return std::async(std::launch::async, steps);
}

// Forgets the interruption a test causes, whatever happens in it.
struct ForgetInterruption {
  ForgetInterruption() { InterruptGuard::clear(); }
  ~ForgetInterruption() { InterruptGuard::clear(); }
};

}  // namespace

TEST_CASE("on a terminal, the left arrow moves back into the line and typing inserts there",
          "[input]") {
  Terminal terminal;
  auto typist = typing([&] { return terminal.prompt_shown("> ") && terminal.type("ab\x1b[DX\r"); });
  std::string line;
  REQUIRE(terminal.read(line, "> ") == Status::line);
  REQUIRE(typist.get());
  REQUIRE(line == "aXb");
}

TEST_CASE("on a terminal, Home and End jump to the ends of the line and backspace deletes",
          "[input]") {
  Terminal terminal;
  auto typist = typing(
      [&] { return terminal.prompt_shown("> ") && terminal.type("bc\x1b[Ha\x1b[Fdx\x7f\r"); });
  std::string line;
  REQUIRE(terminal.read(line, "> ") == Status::line);
  REQUIRE(typist.get());
  REQUIRE(line == "abcd");
}

TEST_CASE("on a terminal, Ctrl-L clears the screen and redraws the prompt with the line so far",
          "[input]") {
  Terminal terminal;
  auto typist = typing([&] {
    if (!terminal.prompt_shown("> ") || !terminal.type("ab")) return false;
    const std::size_t typed = terminal.wait_for("ab");
    if (typed == kNever || !terminal.type("\x0c")) return false;
    const std::size_t cleared = terminal.wait_for("\x1b[2J", typed);  // xterm's clear
    return cleared != kNever && terminal.wait_for("> ab", cleared) != kNever &&
           terminal.type("c\r");
  });
  std::string line;
  REQUIRE(terminal.read(line, "> ") == Status::line);
  REQUIRE(typist.get());
  REQUIRE(line == "abc");
}

TEST_CASE("on a terminal, the up arrow recalls the answer typed before", "[input]") {
  Terminal terminal;
  auto typist = typing([&] {
    return terminal.prompt_shown("1> ") && terminal.type("first answer\r") &&
           terminal.prompt_shown("2> ") && terminal.type("\x1b[A\r");
  });
  std::string first;
  std::string second;
  REQUIRE(terminal.read(first, "1> ") == Status::line);
  REQUIRE(terminal.read(second, "2> ") == Status::line);
  REQUIRE(typist.get());
  REQUIRE(first == "first answer");
  REQUIRE(second == "first answer");
}

TEST_CASE("on a terminal, UTF-8 is typed, edited and returned as UTF-8 after a UTF-8 prompt",
          "[input]") {
  Terminal terminal;
  auto typist = typing([&] {
    return terminal.prompt_shown("1/2 · > ") && terminal.type("\xC3\xA9") &&
           terminal.wait_for("\xC3\xA9") != kNever && terminal.type("\x1b[Dx\r");
  });
  std::string line;
  REQUIRE(terminal.read(line, "1/2 · > ") == Status::line);
  REQUIRE(typist.get());
  REQUIRE(line == "x\xC3\xA9");  // "xé"
}

TEST_CASE("on a terminal, Ctrl-D on an empty line ends the input", "[input]") {
  Terminal terminal;
  auto typist = typing([&] { return terminal.prompt_shown("> ") && terminal.type("\x04"); });
  std::string line;
  REQUIRE(terminal.read(line, "> ") == Status::end);
  REQUIRE(typist.get());
  REQUIRE(same_attributes(terminal.attributes(), terminal.found()));
}

TEST_CASE("on a terminal, a deadline that passes with nothing typed ends the read as a timeout",
          "[input]") {
  Terminal terminal;
  const auto deadline = Clock::now() + std::chrono::milliseconds(300);
  std::string line;
  REQUIRE(terminal.reader().read(line, "> ", deadline) == Status::timeout);
  REQUIRE(Clock::now() >= deadline);
  REQUIRE(same_attributes(terminal.attributes(), terminal.found()));
}

TEST_CASE(
    "on a terminal, a reminder falling due is printed on its own line, the prompt is redrawn "
    "with what was typed, and the line is still read",
    "[input]") {
  Terminal terminal;
  // Due well after the "4" is typed, on any machine; the test passes whatever the order.
  std::vector<Reminder> reminders{
      {Clock::now() + std::chrono::milliseconds(1500), "5 minutes left"}};
  auto typist = typing([&] {
    if (!terminal.prompt_shown("r> ") || !terminal.type("4")) return false;
    const std::size_t reminded = terminal.wait_for("5 minutes left\r\n");
    return reminded != kNever && terminal.wait_for("r> 4", reminded) != kNever &&
           terminal.type("2\r");
  });
  std::string line;
  REQUIRE(terminal.read(line, "r> ", &reminders) == Status::line);
  REQUIRE(typist.get());
  REQUIRE(line == "42");
  REQUIRE(reminders.empty());
}

TEST_CASE("on a terminal, a resize mid-line draws the line again below, at the new width",
          "[input]") {
  Terminal terminal;
  auto typist = typing([&] {
    if (!terminal.prompt_shown("> ") || !terminal.type("ab")) return false;
    const std::size_t typed = terminal.wait_for("ab");
    return typed != kNever && terminal.resize(40) && terminal.type("c") &&
           terminal.wait_for("\r\n> abc", typed) != kNever && terminal.type("\r");
  });
  std::string line;
  REQUIRE(terminal.read(line, "> ") == Status::line);
  REQUIRE(typist.get());
  REQUIRE(line == "abc");
}

TEST_CASE(
    "on a terminal, a line being edited survives a stop and continue (the shell's fg), the "
    "terminal raw again and the line drawn again below",
    "[input]") {
  Terminal terminal;
  const pthread_t reader = ::pthread_self();
  auto typist = typing([&] {
    if (!terminal.prompt_shown("> ") || !terminal.type("ab")) return false;
    const std::size_t typed = terminal.wait_for("ab");
    return typed != kNever && terminal.cooked() && ::pthread_kill(reader, SIGCONT) == 0 &&
           terminal.wait_for("\r\n> ab", typed) != kNever && terminal.raw() &&
           terminal.type("\x1b[DX\r");
  });
  std::string line;
  REQUIRE(terminal.read(line, "> ") == Status::line);
  REQUIRE(typist.get());
  REQUIRE(line == "aXb");
  REQUIRE(same_attributes(terminal.attributes(), terminal.found()));
}

TEST_CASE(
    "on a terminal, SIGINT under an InterruptGuard ends the read as interrupted and leaves the "
    "terminal as it was",
    "[input]") {
  ForgetInterruption forget;
  Terminal terminal;
  InterruptGuard guard;
  const pthread_t reader = ::pthread_self();
  auto typist = typing([&] {
    return terminal.prompt_shown("> ") && terminal.type("ab") &&
           terminal.wait_for("ab") != kNever && ::pthread_kill(reader, SIGINT) == 0;
  });
  std::string line;
  REQUIRE(terminal.read(line, "> ") == Status::interrupted);
  REQUIRE(typist.get());
  REQUIRE(InterruptGuard::interrupted());
  REQUIRE(same_attributes(terminal.attributes(), terminal.found()));
  terminal.close_reader();
  REQUIRE(same_attributes(terminal.attributes(), terminal.found()));
}

TEST_CASE("a terminal whose output goes elsewhere is read as it comes, without editing",
          "[input]") {
  EnvironmentVariable term("TERM", "xterm");
  int master = -1;
  int slave = -1;
  REQUIRE(::openpty(&master, &slave, nullptr, nullptr, nullptr) == 0);
  const std::string typed = "ab\x1b[DX\n";
  REQUIRE(::write(master, typed.data(), typed.size()) == static_cast<ssize_t>(typed.size()));
  std::istringstream unused;
  std::ostringstream out;  // not a terminal
  LineReader reader(unused, slave, out);
  std::string line;
  const Status status = reader.read(line, "> ", Clock::now() + kPatience);
  ::close(slave);
  ::close(master);
  REQUIRE(status == Status::line);
  REQUIRE(line == "ab\x1b[DX");
  REQUIRE(out.str() == "> ");
}

TEST_CASE("a terminal with TERM=dumb is read as it comes, without editing", "[input]") {
  Terminal terminal("dumb");
  auto typist =
      typing([&] { return terminal.wait_for("> ") != kNever && terminal.type("ab\x1b[DX\n"); });
  std::string line;
  REQUIRE(terminal.read(line, "> ") == Status::line);
  REQUIRE(typist.get());
  REQUIRE(line == "ab\x1b[DX");
}

TEST_CASE("a pipe is read line by line, a last line without a newline counts, then the end",
          "[input]") {
  int ends[2];
  REQUIRE(::pipe(ends) == 0);
  REQUIRE(::write(ends[1], "a\nb", 3) == 3);
  ::close(ends[1]);
  std::istringstream unused;
  std::ostringstream out;
  LineReader reader(unused, ends[0], out);
  std::string first;
  std::string second;
  std::string third;
  const Status first_status = reader.read(first, "> ");
  const Status second_status = reader.read(second, "> ");
  const Status third_status = reader.read(third, "> ");
  ::close(ends[0]);
  REQUIRE(first_status == Status::line);
  REQUIRE(first == "a");
  REQUIRE(second_status == Status::line);
  REQUIRE(second == "b");
  REQUIRE(third_status == Status::end);
  REQUIRE(out.str() == "> > > ");
}

}  // namespace test_input
