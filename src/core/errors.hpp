// The application's one small exception hierarchy. Every error carries an id, a message that says
// where and what (file, JSON pointer or field, what was expected, what was found) and the exit
// code the contract gives it:
//   [proofdeck.spec.shape] spec.json: params.in_proj_weight: expected (24, 8), got (23, 8)
#pragma once

#include <stdexcept>
#include <string>

namespace proofdeck {

// Exit codes (docs/ARCHITECTURE.md § Contracts).
enum class ExitCode : int {
  ok = 0,
  check_failed = 1,   // `check` found a failing question or a surviving mutation
  invalid_input = 2,  // usage error or invalid input (bank, spec, demo parameter)
  state = 3,          // progress store or I/O: locked, corrupt, not writable
  interrupted = 130,
};

class Error : public std::runtime_error {
 public:
  Error(std::string id, const std::string& message, ExitCode code)
      : std::runtime_error("[proofdeck." + id + "] " + message),
        id_(std::move(id)),
        message_(message),
        code_(code) {}
  const std::string& id() const { return id_; }
  // The message without the id prefix, for terminal output.
  const std::string& message() const { return message_; }
  ExitCode exit_code() const { return code_; }

 private:
  std::string id_;
  std::string message_;
  ExitCode code_;
};

// Bad command line, spec, bank or parameter: exit 2.
class InputError : public Error {
 public:
  InputError(std::string id, const std::string& message)
      : Error(std::move(id), message, ExitCode::invalid_input) {}
};

// Files the tool reads or writes for itself (output, progress store): exit 3.
class StateError : public Error {
 public:
  StateError(std::string id, const std::string& message)
      : Error(std::move(id), message, ExitCode::state) {}
};

}  // namespace proofdeck
