#include "gpu/nvcc_diagnostics.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <optional>
#include <unordered_set>

namespace kblaster {
namespace {

using Severity = Diagnostic::Severity;

Severity severity_from(const std::string& word) {
  if (word == "warning") return Severity::warning;
  if (word == "note" || word == "remark" || word == "info") return Severity::note;
  return Severity::error;  // error, fatal, fatal error, catastrophic error
}

std::vector<std::string> split_lines(std::string_view log) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < log.size()) {
    auto end = std::min(log.find('\n', start), log.size());
    std::string line(log.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// EDG prints the source line indented by two spaces with CUDA keywords expanded
// (__global__ -> __attribute__((global))). Undo both to turn the caret's
// offset into the column in the file.
int column_from_caret(std::string source, std::size_t caret) {
  if (caret < 2 || source.size() < caret) return 0;
  source = source.substr(2, caret - 2);
  static const std::array<const char*, 6> kKeywords = {"global", "device",   "host",
                                                       "shared", "constant", "managed"};
  for (const char* k : kKeywords) {
    const std::string expanded = std::string("__attribute__((") + k + "))";
    for (auto at = source.find(expanded); at != std::string::npos; at = source.find(expanded, at))
      source.replace(at, expanded.size(), std::string("__") + k + "__");
  }
  return static_cast<int>(source.size()) + 1;
}

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A cursor over one line for the scanners below, which replace regular expressions:
// std::regex recurses once per character matched, and a compile of hostile code can
// print a line of any length. Each step either consumes and returns true, or leaves
// the cursor where it was.
struct LineCursor {
  std::string_view text;

  bool literal(std::string_view s) {
    if (!text.starts_with(s)) return false;
    text.remove_prefix(s.size());
    return true;
  }
  // A 1-based line or column of at most 9 digits (so it fits an int).
  std::optional<int> number() {
    std::size_t n = 0;
    while (n < text.size() && std::isdigit(static_cast<unsigned char>(text[n]))) ++n;
    if (n == 0 || n > 9) return std::nullopt;
    int value = 0;
    std::from_chars(text.data(), text.data() + n, value);
    text.remove_prefix(n);
    return value;
  }
  std::size_t spaces() {
    std::size_t n = 0;
    while (n < text.size() && is_space(text[n])) ++n;
    text.remove_prefix(n);
    return n;
  }
  // The first of `words` the text starts with (list longer words first).
  std::optional<std::string_view> one_of(std::initializer_list<std::string_view> words) {
    for (std::string_view w : words)
      if (literal(w)) return w;
    return std::nullopt;
  }
};

// "  ^  ": the caret under EDG's copy of the source line.
bool is_caret_line(std::string_view line) {
  LineCursor c{line};
  c.spaces();
  if (!c.literal("^")) return false;
  c.spaces();
  return c.text.empty();
}

// Reads the indented lines after an EDG header at lines[i]: the source line and
// caret give the column, anything else is appended to the message. Returns the
// index of the first line after the block.
std::size_t read_edg_block(const std::vector<std::string>& lines, std::size_t i, Diagnostic& d) {
  std::size_t end = i + 1;
  while (end < lines.size() && !lines[end].empty() && is_space(lines[end][0])) ++end;
  for (std::size_t k = i + 1; k < end; ++k) {
    const bool is_source = k + 1 < end && is_caret_line(lines[k + 1]);
    if (is_source) {
      d.column = column_from_caret(lines[k], lines[k + 1].find('^'));
      ++k;  // the caret line
    } else {
      d.message += "; " + trim(lines[k]);
    }
  }
  return end;
}

// file(line): severity[ #code]: message
std::optional<Diagnostic> edg_header(std::string_view line) {
  for (std::size_t open = line.find('(', 1); open != std::string_view::npos;
       open = line.find('(', open + 1)) {
    LineCursor c{line.substr(open + 1)};
    const auto number = c.number();
    if (!number || !c.literal("): ")) continue;
    const auto word = c.one_of({"catastrophic error", "error", "warning", "note", "remark"});
    if (!word) continue;
    if (c.literal(" #")) {
      const std::size_t code = c.text.find(':');
      if (code == 0 || code == std::string_view::npos) continue;
      const std::string_view name = c.text.substr(0, code);
      if (!std::all_of(name.begin(), name.end(), [](char ch) { return is_word(ch) || ch == '-'; }))
        continue;
      c.text.remove_prefix(code);
    }
    if (!c.literal(": ")) continue;
    return Diagnostic{std::string(line.substr(0, open)), *number, 0,
                      severity_from(std::string(*word)), std::string(c.text)};
  }
  return std::nullopt;
}

// file:line:[column:] severity: message (gcc and its preprocessor)
std::optional<Diagnostic> gcc_line(std::string_view line) {
  for (std::size_t colon = line.find(':', 1); colon != std::string_view::npos;
       colon = line.find(':', colon + 1)) {
    LineCursor c{line.substr(colon + 1)};
    const auto number = c.number();
    if (!number || !c.literal(":")) continue;
    int column = 0;
    LineCursor with_column = c;
    if (const auto col = with_column.number(); col && with_column.literal(":")) {
      column = *col;
      c = with_column;
    }
    if (!c.literal(" ")) continue;
    const auto word = c.one_of({"fatal error", "error", "warning", "note"});
    if (!word || !c.literal(": ")) continue;
    return Diagnostic{std::string(line.substr(0, colon)), *number, column,
                      severity_from(std::string(*word)), std::string(c.text)};
  }
  return std::nullopt;
}

// severity[ ]*: message, after a tool's name or location
std::optional<std::pair<std::string_view, std::string_view>> severity_and_message(LineCursor c) {
  const auto word = c.one_of({"error", "warning", "fatal"});
  if (!word) return std::nullopt;
  c.spaces();
  if (!c.literal(": ")) return std::nullopt;
  return std::pair{*word, c.text};
}

// ptxas file, line N; severity : message
std::optional<Diagnostic> ptxas_at(std::string_view line) {
  LineCursor c{line};
  if (!c.literal("ptxas ")) return std::nullopt;
  const std::string_view rest = c.text;
  for (std::size_t at = rest.rfind(", line "); at != std::string_view::npos && at > 0;
       at = rest.rfind(", line ", at - 1)) {
    LineCursor after{rest.substr(at + 7)};
    const auto number = after.number();
    if (!number || !after.literal("; ")) continue;
    if (const auto found = severity_and_message(after))
      return Diagnostic{std::string(rest.substr(0, at)), *number, 0,
                        severity_from(std::string(found->first)),
                        "ptxas: " + std::string(found->second)};
  }
  return std::nullopt;
}

// tool severity : message (ptxas, nvlink, nvcc, … without a location)
std::optional<Diagnostic> tool_line(std::string_view line) {
  LineCursor c{line};
  const auto tool = c.one_of({"ptxas", "nvlink", "nvcc", "fatbinary", "cicc", "cudafe++"});
  if (!tool || c.spaces() == 0) return std::nullopt;
  const auto found = severity_and_message(c);
  if (!found) return std::nullopt;
  return Diagnostic{"", 0, 0, severity_from(std::string(found->first)),
                    std::string(*tool) + ": " + std::string(found->second)};
}

// object:(section): undefined reference to …
std::optional<std::string_view> undefined_reference(std::string_view line) {
  const std::size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos) return std::nullopt;
  if (std::any_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon), is_space))
    return std::nullopt;
  LineCursor c{line.substr(colon + 1)};
  if (!c.literal("(")) return std::nullopt;
  const std::size_t close = c.text.find(')');
  if (close == std::string_view::npos) return std::nullopt;
  c.text.remove_prefix(close + 1);
  if (!c.literal(": ") || !c.text.starts_with("undefined reference to ")) return std::nullopt;
  return c.text;
}

// [path/ or prefix-]ld[.variant]: message (the linker, named as the driver ran it)
std::optional<std::string_view> linker_line(std::string_view line) {
  const std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view head = line.substr(0, colon);
  if (std::any_of(head.begin(), head.end(), is_space)) return std::nullopt;
  if (const std::size_t dot = head.rfind('.'); dot != std::string_view::npos) {
    const std::string_view variant = head.substr(dot + 1);
    if (!variant.empty() && std::all_of(variant.begin(), variant.end(), is_word))
      head = head.substr(0, dot);
  }
  if (!head.ends_with("ld")) return std::nullopt;
  if (head.size() > 2 && head[head.size() - 3] != '/' && head[head.size() - 3] != '-')
    return std::nullopt;
  return line.substr(colon + 2);
}

// "…: in function `f':", the context of the linker's next lines
std::optional<std::string_view> linker_function(std::string_view message) {
  constexpr std::string_view kIn = ": in function ";
  const std::size_t at = message.rfind(kIn);
  if (at == std::string_view::npos || !message.ends_with(':') ||
      at + kIn.size() > message.size() - 1)
    return std::nullopt;
  return message.substr(at + kIn.size(), message.size() - 1 - at - kIn.size());
}

// The identity of a diagnostic, for dropping the repeats.
std::string identity(const Diagnostic& d) {
  return d.file + '\0' + std::to_string(d.line) + '\0' + std::to_string(d.column) + '\0' +
         severity_name(d.severity) + '\0' + d.message;
}

}  // namespace

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::note:
      return "note";
  }
  return "error";
}

std::string Diagnostic::str() const {
  std::string out = file;
  for (int part : {line, line > 0 ? column : 0}) {
    if (part <= 0) continue;
    out += ':';
    out += std::to_string(part);
  }
  if (!out.empty()) out += ": ";
  out += severity_name(severity);
  out += ": ";
  return out += message;
}

std::vector<Diagnostic> parse_diagnostics(std::string_view log) {
  const auto lines = split_lines(log);
  std::vector<Diagnostic> found;
  std::unordered_set<std::string> seen;
  std::size_t left_out = 0;
  std::string ld_context;  // the function a following "undefined reference" is in
  auto add = [&](Diagnostic d) {
    if (!seen.insert(identity(d)).second) return;
    if (found.size() < kMaxDiagnostics)
      found.push_back(std::move(d));
    else
      ++left_out;
  };
  for (std::size_t i = 0; i < lines.size();) {
    const std::string_view text = lines[i];
    std::size_t next = i + 1;
    std::optional<Diagnostic> d;
    if ((d = edg_header(text))) {
      next = read_edg_block(lines, i, *d);
    } else if ((d = gcc_line(text)) || (d = ptxas_at(text)) || (d = tool_line(text))) {
    } else if (const auto undefined = undefined_reference(text)) {
      d = Diagnostic{"", 0, 0, Severity::error, "ld: " + std::string(*undefined)};
      if (!ld_context.empty()) d->message += " (in function " + ld_context + ")";
    } else if (const auto linker = linker_line(text)) {
      if (const auto function = linker_function(*linker)) {
        ld_context = std::string(*function);
      } else {
        const bool warning = linker->starts_with("warning:");
        d = Diagnostic{"", 0, 0, warning ? Severity::warning : Severity::error,
                       "ld: " + std::string(*linker)};
      }
    }
    if (d) add(std::move(*d));
    i = next;
  }
  if (left_out > 0)
    found.push_back({"", 0, 0, Severity::note,
                     std::to_string(left_out) + " more diagnostics not shown (kblaster keeps the first " +
                         std::to_string(kMaxDiagnostics) + ")"});
  return found;
}

}  // namespace kblaster
