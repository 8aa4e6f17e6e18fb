// Signal-aware line reading: a pipe or file read as it comes, a terminal through libedit.
#include "study/input.hpp"

#include <histedit.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <ext/stdio_filebuf.h>
#include <ext/stdio_sync_filebuf.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cwchar>
#include <exception>
#include <string_view>

// ncurses leaks a few bytes in every tgetent (in _nc_trim_sgr0), which el_init calls: not ours
// to free, so LeakSanitizer is told to ignore them in the sanitizer builds.
#if defined(__SANITIZE_ADDRESS__)
#define PROOFDECK_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROOFDECK_LEAK_CHECKED 1
#endif
#endif
#ifdef PROOFDECK_LEAK_CHECKED
extern "C" const char* __lsan_default_suppressions() {
  return "leak:_nc_trim_sgr0\n";
}
#endif

namespace proofdeck::study {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

extern "C" void on_signal(int) {
  g_interrupted = 1;
}

// Set when the process is continued (fg after Ctrl-Z) while a line is edited: the shell has put
// the terminal back in its own mode meanwhile.
volatile std::sig_atomic_t g_continued = 0;

extern "C" void on_continue(int) {
  g_continued = 1;
}

// SIGWINCH's handler does nothing: it is there so that the wait for a key returns at a resize
// (ppoll is never restarted), and the line is drawn again at the new width at once.
extern "C" void on_resize(int) {}

// Prints the reminders whose time has come (and drops them); true when one was printed.
bool show_due(std::vector<Reminder>* reminders, std::ostream& out) {
  if (reminders == nullptr) return false;
  const auto now = std::chrono::steady_clock::now();
  bool shown = false;
  for (auto it = reminders->begin(); it != reminders->end();) {
    if (it->at > now) {
      ++it;
      continue;
    }
    out << it->text << "\n";
    shown = true;
    it = reminders->erase(it);
  }
  return shown;
}

std::optional<std::chrono::steady_clock::time_point> next_reminder(
    const std::vector<Reminder>* reminders) {
  std::optional<std::chrono::steady_clock::time_point> soonest;
  if (reminders == nullptr) return soonest;
  for (const Reminder& r : *reminders) {
    if (!soonest || r.at < *soonest) soonest = r.at;
  }
  return soonest;
}

// Milliseconds to wait for input: until the deadline or the next reminder, whichever comes
// first; -1 (for ever) when there is neither.
int wait_ms(LineReader::Deadline deadline, const std::vector<Reminder>* reminders,
            std::chrono::steady_clock::time_point now) {
  LineReader::Deadline wake = deadline;
  if (const auto reminder = next_reminder(reminders); reminder && (!wake || *reminder < *wake))
    wake = reminder;
  if (!wake) return -1;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*wake - now);
  return static_cast<int>(std::clamp<long long>(left.count() + 1, 0, 1 << 30));
}

// The descriptor `out` writes to, when it is a file stream of the C++ library (std::cout in
// either synchronisation mode, or a stdio_filebuf); -1 for anything else (a string stream).
int descriptor_of(std::ostream& out) {
  std::streambuf* buffer = out.rdbuf();
  if (auto* file = dynamic_cast<__gnu_cxx::stdio_filebuf<char>*>(buffer)) return file->fd();
  if (auto* sync = dynamic_cast<__gnu_cxx::stdio_sync_filebuf<char>*>(buffer))
    return ::fileno(sync->file());
  return -1;
}

// Sets the thread's C locale for its lifetime: libedit measures, classifies and encodes
// characters (wcwidth, iswprint, wcrtomb) by it.
class LocaleScope {
 public:
  explicit LocaleScope(locale_t locale) : previous_(::uselocale(locale)) {}
  ~LocaleScope() { ::uselocale(previous_); }
  LocaleScope(const LocaleScope&) = delete;
  LocaleScope& operator=(const LocaleScope&) = delete;

 private:
  locale_t previous_;
};

// Puts the terminal's attributes back, at the end of its scope, as they were at its start.
// libedit switches to raw mode and back to a cooked mode of its own making; the user's own is
// restored whatever happens in between.
class TerminalScope {
 public:
  explicit TerminalScope(int fd) : fd_(fd), saved_(::tcgetattr(fd, &attributes_) == 0) {}
  ~TerminalScope() {
    if (saved_) ::tcsetattr(fd_, TCSADRAIN, &attributes_);
  }
  TerminalScope(const TerminalScope&) = delete;
  TerminalScope& operator=(const TerminalScope&) = delete;

 private:
  int fd_;
  termios attributes_{};
  bool saved_;
};

// Notices SIGCONT and SIGWINCH for its lifetime (restoring the previous handlers after). SIGCONT
// without SA_RESTART, so a wait for a key returns when the process is continued; SIGWINCH with
// it, so that only the wait (never restarted) returns at a resize, not a read or a write.
class ContinueScope {
 public:
  ContinueScope() {
    g_continued = 0;
    struct sigaction action {};
    action.sa_handler = on_continue;
    sigemptyset(&action.sa_mask);
    continue_installed_ = ::sigaction(SIGCONT, &action, &previous_continue_) == 0;
    action.sa_handler = on_resize;
    action.sa_flags = SA_RESTART;
    resize_installed_ = ::sigaction(SIGWINCH, &action, &previous_resize_) == 0;
  }
  ~ContinueScope() {
    if (continue_installed_) ::sigaction(SIGCONT, &previous_continue_, nullptr);
    if (resize_installed_) ::sigaction(SIGWINCH, &previous_resize_, nullptr);
  }
  ContinueScope(const ContinueScope&) = delete;
  ContinueScope& operator=(const ContinueScope&) = delete;

 private:
  struct sigaction previous_continue_ {};
  struct sigaction previous_resize_ {};
  bool continue_installed_ = false;
  bool resize_installed_ = false;
};

// A UTF-8 character locale for the editor, whatever the process's own: proofdeck writes UTF-8
// everywhere ("·" in the exam's prompt). Debian's glibc always has C.UTF-8; else the user's
// locale, if it is UTF-8.
locale_t utf8_locale() {
  if (locale_t c_utf8 = ::newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t{})) return c_utf8;
  locale_t user = ::newlocale(LC_CTYPE_MASK, "", locale_t{});
  if (user != locale_t{} && std::string_view(::nl_langinfo_l(CODESET, user)) == "UTF-8")
    return user;
  if (user != locale_t{}) ::freelocale(user);
  return locale_t{};
}

extern "C" {
int editor_get_char(EditLine* el, wchar_t* ch);
char* editor_prompt(EditLine* el);
unsigned char editor_wake(EditLine* el, int key);
}

// A private-use control character (U+0091 PRIVATE USE ONE) the editor's input callback hands
// libedit to run `editor_wake` between keys. Typed C1 controls are dropped, so it is never the
// user's.
constexpr wchar_t kWakeKey = 0x91;
// Sent again while libedit swallows it (it ends an escape sequence in progress); bounded.
constexpr int kWakeAttempts = 8;

}  // namespace

// libedit over a terminal: emacs key bindings, the session's answers as history (in memory
// only), and an input callback that waits for keys the way read_fd waits for bytes, so a
// deadline, a signal or a reminder is noticed while the line is being edited.
class TerminalEditor {
 public:
  using Status = LineReader::Status;
  using Deadline = LineReader::Deadline;
  // What the input callback does once the cursor is after the text: a reminder (print it, then
  // draw the line again below), a redraw (below, after a resize or a continue), or a stop.
  enum class Pending { nothing, reminder, redraw, stop };

  // nullptr when the terminal cannot be edited (no UTF-8 locale, libedit refuses).
  static std::unique_ptr<TerminalEditor> open(int fd, int out_fd, std::ostream& out) {
    std::unique_ptr<TerminalEditor> editor(new TerminalEditor(fd, out));
    if (!editor->start(out_fd)) return nullptr;
    return editor;
  }

  ~TerminalEditor() {
    LocaleScope scope(locale_);
    if (el_ != nullptr) {
      // The terminal is already the user's (TerminalScope); without editing, el_end leaves it
      // alone instead of restoring it with TCSAFLUSH, which would discard typed-ahead input.
      el_set(el_, EL_EDITMODE, 0);
      el_end(el_);
    }
    if (history_ != nullptr) history_end(history_);
    if (file_ != nullptr) std::fclose(file_);
    if (locale_ != locale_t{}) ::freelocale(locale_);
  }
  TerminalEditor(const TerminalEditor&) = delete;
  TerminalEditor& operator=(const TerminalEditor&) = delete;

  Status read(std::string& line, const std::string& prompt, Deadline deadline,
              std::vector<Reminder>* reminders) {
    show_due(reminders, out_);
    out_ << std::flush;  // what the session printed comes before libedit's prompt
    prompt_ = prompt;
    deadline_ = deadline;
    reminders_ = reminders;
    pending_ = Pending::nothing;
    at_end_ = false;
    stop_.reset();
    if (::ioctl(fd_, TIOCGWINSZ, &size_) != 0) size_ = winsize{};  // el_gets starts at this size
    error_ = nullptr;
    int count = 0;
    const char* got = nullptr;
    {
      TerminalScope terminal(fd_);
      LocaleScope locale(locale_);
      ContinueScope continued;
      // Raw mode before the prompt shows (el_gets would flush the prompt first): keys typed at
      // the prompt reach the editor, not the terminal's own echo and line editing.
      el_set(el_, EL_PREP_TERM, 1);
      got = el_gets(el_, &count);
    }
    if (error_) std::rethrow_exception(error_);
    if (stop_) return *stop_;
    if (got == nullptr) return Status::end;  // Ctrl-D on an empty line
    line = got;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
      line.pop_back();
    if (deadline && std::chrono::steady_clock::now() > *deadline) return Status::timeout;
    if (!line.empty()) {
      LocaleScope locale(locale_);
      HistEvent event;
      history(history_, &event, H_ENTER, line.c_str());
    }
    return Status::line;
  }

  // libedit's input: the next character typed, 1; end of input, 0; -1 to end the line unread
  // (stop_ says why). Never throws: an exception is kept for read() to rethrow.
  int next_char(EditLine* el, wchar_t* ch) noexcept {
    try {
      for (;;) {
        if (pending_ != Pending::nothing) {
          // First the wake key, so the cursor goes after the text: a reminder then prints below
          // all of it, and so does what the session prints after a stop.
          if (!at_end_ && wake_attempts_++ < kWakeAttempts) {
            *ch = kWakeKey;
            return 1;
          }
          at_end_ = false;
          if (pending_ == Pending::stop) return -1;
          out_ << "\n";
          if (pending_ == Pending::reminder) show_due(reminders_, out_);
          out_ << std::flush;
          el_resize(el);
          pending_ = Pending::nothing;
          el_cursor(el, cursor_ - el_cursor(el, 0));  // back where the user left it
          el_set(el, EL_REFRESH);  // the prompt and the text so far, on the fresh line
          continue;
        }
        const auto now = std::chrono::steady_clock::now();
        if (InterruptGuard::interrupted()) {
          stop(Status::interrupted);
          continue;
        }
        if (deadline_ && *deadline_ <= now) {
          stop(Status::timeout);
          continue;
        }
        if (const auto reminder = next_reminder(reminders_); reminder && *reminder <= now) {
          redraw(el, Pending::reminder);
          continue;
        }
        if (g_continued != 0) {  // stopped and continued: raw mode again, and the line below
          g_continued = 0;
          el_set(el, EL_PREP_TERM, 0);  // libedit believes it is still in raw mode
          el_set(el, EL_PREP_TERM, 1);
          redraw(el, Pending::redraw);
          continue;
        }
        // A terminal resized mid-line has wrapped (or cut) what it shows its own way: the line
        // is drawn again below, at the new width, before the next key.
        if (winsize size{}; ::ioctl(fd_, TIOCGWINSZ, &size) == 0 &&
                            (size.ws_col != size_.ws_col || size.ws_row != size_.ws_row)) {
          size_ = size;
          redraw(el, Pending::redraw);
          continue;
        }
        if (take_char(ch)) return 1;
        const int ready = wait_for_input(wait_ms(deadline_, reminders_, now));
        if (ready == 0 || (ready < 0 && errno == EINTR)) continue;  // time, or a signal: look
        char chunk[4096];
        const ssize_t got = ready < 0 ? -1 : ::read(fd_, chunk, sizeof chunk);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) {  // the terminal went away
          stop_ = Status::end;
          return 0;
        }
        bytes_.append(chunk, static_cast<std::size_t>(got));
      }
    } catch (...) {
      error_ = std::current_exception();
      return -1;
    }
  }

  char* prompt() { return prompt_.data(); }

  // Bound to kWakeKey: the cursor after the text.
  unsigned char wake(EditLine* el) {
    const LineInfoW* text = el_wline(el);
    el_cursor(el, static_cast<int>(text->lastchar - text->cursor));
    at_end_ = true;
    return CC_CURSOR;
  }

 private:
  TerminalEditor(int fd, std::ostream& out) : fd_(fd), out_(out) {}

  bool start(int out_fd) {
    locale_ = utf8_locale();
    if (locale_ == locale_t{}) return false;
    const int out_copy = ::dup(out_fd);
    if (out_copy < 0) return false;
    file_ = ::fdopen(out_copy, "w");
    if (file_ == nullptr) {
      ::close(out_copy);
      return false;
    }
    TerminalScope terminal(fd_);  // el_init already sets the terminal up its own way
    LocaleScope locale(locale_);  // the key map is built for the locale's printable characters
    // libedit reads through editor_get_char, so its input FILE is never used.
    el_ = el_init_fd("proofdeck", file_, file_, file_, fd_, out_copy, out_copy);
    history_ = history_init();
    if (el_ == nullptr || history_ == nullptr) return false;
    HistEvent event;
    history(history_, &event, H_SETSIZE, 500);
    history(history_, &event, H_SETUNIQUE, 1);
    el_wset(el_, EL_EDITOR, L"emacs");
    el_wset(el_, EL_SIGNAL, 0);  // InterruptGuard's handlers stay in place while editing
    el_wset(el_, EL_CLIENTDATA, static_cast<void*>(this));
    el_wset(el_, EL_GETCFN, &editor_get_char);
    el_set(el_, EL_PROMPT, &editor_prompt);
    el_set(el_, EL_HIST, history, history_);
    const wchar_t wake_key[] = {kWakeKey, L'\0'};
    return el_wset(el_, EL_ADDFN, L"proofdeck-wake", L"Wake between keys (reminders, stops)",
                   &editor_wake) == 0 &&
           el_wset(el_, EL_BIND, wake_key, L"proofdeck-wake", static_cast<wchar_t*>(nullptr)) == 0;
  }

  void redraw(EditLine* el, Pending why) {
    pending_ = why;
    wake_attempts_ = 0;
    cursor_ = el_cursor(el, 0);
  }

  void stop(Status why) {
    stop_ = why;
    pending_ = Pending::stop;
    wake_attempts_ = 0;
  }

  // The next whole character of what was read; false when more bytes are needed. Bytes that
  // are not UTF-8 and C1 controls are dropped.
  bool take_char(wchar_t* ch) {
    while (!bytes_.empty()) {
      std::mbstate_t state{};
      wchar_t decoded = 0;
      const std::size_t used = std::mbrtowc(&decoded, bytes_.data(), bytes_.size(), &state);
      if (used == static_cast<std::size_t>(-2)) return false;
      if (used == static_cast<std::size_t>(-1)) {
        bytes_.erase(0, 1);
        continue;
      }
      bytes_.erase(0, std::max<std::size_t>(used, 1));  // 0: a NUL byte
      if (decoded >= 0x80 && decoded <= 0x9F) continue;
      *ch = decoded;
      return true;
    }
    return false;
  }

  // Waits until the terminal has input (1), the time is up (0) or a signal arrives (-1, EINTR);
  // -1 with another errno when the terminal cannot be waited on. SIGINT, SIGTERM, SIGCONT and
  // SIGWINCH are blocked between looking at the flags and waiting, and ppoll unblocks them
  // atomically, so a signal in between is not slept through.
  int wait_for_input(int timeout_ms) {
    sigset_t stops;
    sigset_t previous;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGCONT);
    sigaddset(&stops, SIGWINCH);
    pthread_sigmask(SIG_BLOCK, &stops, &previous);
    int ready = 0;
    if (!InterruptGuard::interrupted() && g_continued == 0) {
      timespec timeout{timeout_ms / 1000, static_cast<long>(timeout_ms % 1000) * 1'000'000};
      pollfd poller{fd_, POLLIN, 0};
      ready = ::ppoll(&poller, 1, timeout_ms < 0 ? nullptr : &timeout, &previous);
    }
    const int wait_errno = errno;
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    errno = wait_errno;
    return ready;
  }

  int fd_;
  std::ostream& out_;
  locale_t locale_{};
  FILE* file_ = nullptr;  // libedit's output: the terminal `out` writes to
  EditLine* el_ = nullptr;
  History* history_ = nullptr;
  // The read in progress.
  std::string prompt_;
  Deadline deadline_;
  std::vector<Reminder>* reminders_ = nullptr;
  Pending pending_ = Pending::nothing;
  bool at_end_ = false;  // editor_wake has run for what is pending
  int wake_attempts_ = 0;
  int cursor_ = 0;  // where the cursor was when a redraw fell due
  winsize size_{};  // the terminal's size as libedit last measured it
  std::optional<Status> stop_;
  std::exception_ptr error_;
  std::string bytes_;  // read from the terminal, not yet handed to libedit
};

namespace {

TerminalEditor& editor_of(EditLine* el) {
  void* data = nullptr;
  el_get(el, EL_CLIENTDATA, &data);
  return *static_cast<TerminalEditor*>(data);
}

extern "C" int editor_get_char(EditLine* el, wchar_t* ch) {
  return editor_of(el).next_char(el, ch);
}

extern "C" char* editor_prompt(EditLine* el) {
  return editor_of(el).prompt();
}

extern "C" unsigned char editor_wake(EditLine* el, int) {
  return editor_of(el).wake(el);
}

// Line editing needs a terminal on both sides and one that can move its cursor.
bool wants_editor(int fd, int out_fd) {
  const char* term = std::getenv("TERM");
  return ::isatty(fd) == 1 && out_fd >= 0 && ::isatty(out_fd) == 1 && term != nullptr &&
         *term != '\0' && std::string_view(term) != "dumb";
}

}  // namespace

InterruptGuard::InterruptGuard() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

bool InterruptGuard::interrupted() {
  return g_interrupted != 0;
}
void InterruptGuard::clear() {
  g_interrupted = 0;
}

LineReader::LineReader(std::istream& in, int fd, std::ostream& out) : in_(in), out_(out), fd_(fd) {}
LineReader::LineReader(LineReader&&) noexcept = default;
LineReader::~LineReader() = default;

LineReader::Status LineReader::read(std::string& line, const std::string& prompt, Deadline deadline,
                                    std::vector<Reminder>* reminders) {
  if (InterruptGuard::interrupted()) return Status::interrupted;
  if (fd_ >= 0 && !editor_decided_) {
    editor_decided_ = true;
    if (const int out_fd = descriptor_of(out_); wants_editor(fd_, out_fd))
      editor_ = TerminalEditor::open(fd_, out_fd, out_);
  }
  if (editor_) return editor_->read(line, prompt, deadline, reminders);
  if (fd_ >= 0) return read_fd(line, prompt, deadline, reminders);
  show_due(reminders, out_);
  out_ << prompt << std::flush;
  if (!std::getline(in_, line)) {
    return InterruptGuard::interrupted() ? Status::interrupted : Status::end;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (deadline && std::chrono::steady_clock::now() > *deadline) return Status::timeout;
  return Status::line;
}

LineReader::Status LineReader::read_fd(std::string& line, const std::string& prompt,
                                       Deadline deadline, std::vector<Reminder>* reminders) {
  show_due(reminders, out_);
  out_ << prompt << std::flush;
  for (;;) {
    if (const std::size_t newline = buffer_.find('\n'); newline != std::string::npos) {
      line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (deadline && std::chrono::steady_clock::now() > *deadline) return Status::timeout;
      return Status::line;
    }
    if (eof_) {
      if (buffer_.empty()) return Status::end;
      line = std::move(buffer_);
      buffer_.clear();
      return Status::line;
    }
    const auto now = std::chrono::steady_clock::now();
    if (deadline && *deadline <= now) return Status::timeout;
    // Wake at the deadline or the next reminder, whichever comes first.
    pollfd poller{fd_, POLLIN, 0};
    const int ready = ::poll(&poller, 1, wait_ms(deadline, reminders, now));
    if (InterruptGuard::interrupted()) return Status::interrupted;
    if (ready < 0) {
      if (errno == EINTR) continue;
      return Status::end;
    }
    if (ready == 0) {
      // A reminder fell due while the prompt waits: show it above a fresh prompt (what was
      // typed so far stays in the terminal's line buffer).
      if (const auto reminder = next_reminder(reminders);
          reminder && *reminder <= std::chrono::steady_clock::now()) {
        out_ << "\n";
        show_due(reminders, out_);
        out_ << prompt << std::flush;
      }
      continue;
    }
    char chunk[4096];
    const ssize_t got = ::read(fd_, chunk, sizeof chunk);
    if (got < 0) {
      if (errno == EINTR) continue;
      return Status::end;
    }
    if (got == 0) {
      eof_ = true;
      continue;
    }
    buffer_.append(chunk, static_cast<std::size_t>(got));
    if (buffer_.size() > (1u << 20)) {  // a "line" of a megabyte is not an answer
      buffer_.clear();
      line.clear();
      return Status::line;
    }
  }
}

}  // namespace proofdeck::study
