// Structured diagnostics from a build log: the nvcc front end (EDG), the host
// compiler (gcc), ptxas, nvlink and the linker, so reports and the search's
// fix-up prompts can point at a file and line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

struct Diagnostic {
  enum class Severity { error, warning, note };
  std::string file;  // as the tool printed it; empty when it names none (ptxas, nvlink, ld)
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based; 0 = unknown (EDG's is taken from its caret line)
  Severity severity = Severity::error;
  std::string message;  // one line; follow-up lines (argument types, instantiation
                        // context) are appended after "; "

  // "file:line:col: error: message", leaving out the parts that are unknown.
  std::string str() const;
};

// "error", "warning" or "note".
const char* severity_name(Diagnostic::Severity s);

// The most diagnostics parse_diagnostics returns, less its closing note.
inline constexpr std::size_t kMaxDiagnostics = 1000;

// Every diagnostic in `log`, in order, without duplicates (nvcc repeats the
// front end's warnings for the host and device passes). Source-context and
// summary lines are not diagnostics. Remarks count as notes, fatal errors as errors.
// Past kMaxDiagnostics, one note says how many more there were. Linear in the
// log's length: no line, however long, can exhaust the stack.
std::vector<Diagnostic> parse_diagnostics(std::string_view log);

}  // namespace kblaster
