#include "gpu/nvcc_diagnostics.h"

#include <algorithm>
#include <array>
#include <regex>

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

// Reads the indented lines after an EDG header at lines[i]: the source line and
// caret give the column, anything else is appended to the message. Returns the
// index of the first line after the block.
std::size_t read_edg_block(const std::vector<std::string>& lines, std::size_t i, Diagnostic& d) {
  static const std::regex kCaret(R"(^\s*\^\s*$)");
  std::size_t end = i + 1;
  while (end < lines.size() && !lines[end].empty() &&
         (lines[end][0] == ' ' || lines[end][0] == '\t'))
    ++end;
  for (std::size_t k = i + 1; k < end; ++k) {
    const bool is_source = k + 1 < end && std::regex_match(lines[k + 1], kCaret);
    if (is_source) {
      d.column = column_from_caret(lines[k], lines[k + 1].find('^'));
      ++k;  // the caret line
    } else {
      d.message += "; " + trim(lines[k]);
    }
  }
  return end;
}

struct LinePatterns {
  std::regex edg{
      R"(^(.+)\((\d+)\): (catastrophic error|error|warning|note|remark)(?: #[\w-]+)?: (.*)$)"};
  std::regex gcc{R"(^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note): (.*)$)"};
  std::regex ptxas_at{R"(^ptxas (.+), line (\d+); (error|warning|fatal)\s*: (.*)$)"};
  std::regex tool{
      R"(^(ptxas|nvlink|nvcc|fatbinary|cicc|cudafe\+\+)\s+(error|warning|fatal)\s*: (.*)$)"};
  std::regex ld{R"(^(?:\S*[/-])?ld(?:\.\w+)?: (.*)$)"};
  std::regex ld_function{R"(^.*: in function (.*):$)"};
  std::regex undefined{R"(^[^\s:]+:\([^)]*\): (undefined reference to .*)$)"};
};

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
  static const LinePatterns p;
  const auto lines = split_lines(log);
  std::vector<Diagnostic> found;
  std::string ld_context;  // the function a following "undefined reference" is in
  auto add = [&found](Diagnostic d) {
    auto same = [&d](const Diagnostic& o) {
      return o.file == d.file && o.line == d.line && o.column == d.column &&
             o.severity == d.severity && o.message == d.message;
    };
    if (std::none_of(found.begin(), found.end(), same)) found.push_back(std::move(d));
  };
  for (std::size_t i = 0; i < lines.size();) {
    const std::string& text = lines[i];
    std::smatch m;
    Diagnostic d;
    std::size_t next = i + 1;
    if (std::regex_match(text, m, p.edg)) {
      d = {m[1], std::stoi(m[2]), 0, severity_from(m[3]), m[4]};
      next = read_edg_block(lines, i, d);
    } else if (std::regex_match(text, m, p.gcc)) {
      d = {m[1], std::stoi(m[2]), m[3].matched ? std::stoi(m[3]) : 0, severity_from(m[4]), m[5]};
    } else if (std::regex_match(text, m, p.ptxas_at)) {
      d = {m[1], std::stoi(m[2]), 0, severity_from(m[3]), "ptxas: " + m[4].str()};
    } else if (std::regex_match(text, m, p.tool)) {
      d = {"", 0, 0, severity_from(m[2]), m[1].str() + ": " + m[3].str()};
    } else if (std::regex_match(text, m, p.undefined)) {
      d = {"", 0, 0, Severity::error, "ld: " + m[1].str()};
      if (!ld_context.empty()) d.message += " (in function " + ld_context + ")";
    } else if (std::regex_match(text, m, p.ld)) {
      std::smatch f;
      const std::string rest = m[1];
      if (std::regex_match(rest, f, p.ld_function)) {
        ld_context = f[1];
        i = next;
        continue;
      }
      const bool warning = rest.starts_with("warning:");
      d = {"", 0, 0, warning ? Severity::warning : Severity::error, "ld: " + rest};
    } else {
      i = next;
      continue;
    }
    add(std::move(d));
    i = next;
  }
  return found;
}

}  // namespace kblaster
