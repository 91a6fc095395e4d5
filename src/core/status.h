// Errors as values: every fallible call returns Result<T>, and only main turns
// an Error into a message and an exit code (see exit_code.h).
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "core/exit_code.h"

namespace kblaster {

// What kind of failure an Error is; it decides the process exit code.
enum class ErrorKind {
  usage,        // bad command line
  config,       // bad kblaster.toml or spec (message names file:line:col and field)
  environment,  // something missing on this machine (nvcc, a GPU, a token)
  io,           // a file, a database or a child process failed in a way kblaster did not expect:
                // exit 4, as a bug. Callers that know the cause is the machine's or the user's
                // (a permission, a damaged KB) say so with environment or usage instead.
  internal,     // a bug in kblaster
  remote,       // a remote service (GitHub, an LLM API) failed or refused a call after retries:
                // not kblaster's bug, nor this machine's; exit 5
};

// A failure with a human-readable message; `where` is "file:line:col" when known.
struct Error {
  ErrorKind kind = ErrorKind::internal;
  std::string message;
  std::string where;

  static Error usage(std::string m) { return {ErrorKind::usage, std::move(m), {}}; }
  static Error config(std::string where, std::string m) {
    return {ErrorKind::config, std::move(m), std::move(where)};
  }
  static Error environment(std::string m) { return {ErrorKind::environment, std::move(m), {}}; }
  static Error io(std::string m) { return {ErrorKind::io, std::move(m), {}}; }
  static Error internal(std::string m) { return {ErrorKind::internal, std::move(m), {}}; }
  static Error remote(std::string m) { return {ErrorKind::remote, std::move(m), {}}; }

  // "where: message" or just the message.
  std::string describe() const { return where.empty() ? message : where + ": " + message; }
};

// The exit code an error of this kind ends the process with.
inline ExitCode exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::usage:
    case ErrorKind::config:
      return ExitCode::bad_config;
    case ErrorKind::environment:
      return ExitCode::missing_environment;
    case ErrorKind::io:
    case ErrorKind::internal:
      return ExitCode::internal_error;
    case ErrorKind::remote:
      return ExitCode::remote_failure;
  }
  return ExitCode::internal_error;
}

// Either a value or an Error. Accessing the wrong alternative is a bug and throws.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

// Result of an operation that yields nothing but may fail.
struct Ok {};
using Status = Result<Ok>;

}  // namespace kblaster

// Returns early from the enclosing function with the error of `expr` if it failed.
#define KB_TRY(expr)                                         \
  do {                                                       \
    auto kb_try_result_ = (expr);                            \
    if (!kb_try_result_.ok()) return kb_try_result_.error(); \
  } while (0)
