// Signal-aware line reading.
#include "study/input.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

namespace proofdeck::study {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

extern "C" void on_signal(int) {
  g_interrupted = 1;
}

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

LineReader::Status LineReader::read(std::string& line, const std::string& prompt, Deadline deadline,
                                    std::vector<Reminder>* reminders) {
  if (InterruptGuard::interrupted()) return Status::interrupted;
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
    Deadline wake = deadline;
    if (const auto reminder = next_reminder(reminders); reminder && (!wake || *reminder < *wake))
      wake = reminder;
    int timeout_ms = -1;
    if (wake) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*wake - now);
      timeout_ms = static_cast<int>(std::clamp<long long>(left.count() + 1, 0, 1 << 30));
    }
    pollfd poller{fd_, POLLIN, 0};
    const int ready = ::poll(&poller, 1, timeout_ms);
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
