#include "core/identifier.h"

#include "core/input_limits.h"

namespace kblaster {
namespace {

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return is_letter(c) || is_digit(c); }

// The rule and limit of one kind of name, and how a message says it is broken.
struct NameRule {
  NameKind kind;
  bool (*valid)(std::string_view);
  std::size_t max_length;
  const char* noun;    // "a kernel name", for the length message
  const char* broken;  // follows "`name` " when `valid` fails
};

constexpr NameRule kRules[] = {
    {NameKind::argument, is_identifier, kMaxNameLength, "an argument name",
     "is not a C identifier"},
    {NameKind::macro, is_identifier, kMaxNameLength, "a macro name", "is not a macro name"},
    {NameKind::function, is_qualified_identifier, kMaxNameLength, "a function name",
     "is not a function name (e.g. `launch` or `ns::launch`)"},
    {NameKind::kernel, is_kernel_name, kMaxKernelNameLength, "a kernel name",
     "may only use letters, digits, '_', '.' and '-', and must start with a letter, a digit "
     "or '_'"},
};

const NameRule& rule_for(NameKind kind) {
  for (const NameRule& r : kRules)
    if (r.kind == kind) return r;
  return kRules[0];  // unreachable: every kind has a row
}

}  // namespace

bool is_identifier(std::string_view s) {
  if (s.empty() || !is_letter(s.front())) return false;
  for (char c : s)
    if (!is_word(c)) return false;
  return true;
}

bool is_qualified_identifier(std::string_view s) {
  if (s.substr(0, 2) == "::") s.remove_prefix(2);
  for (;;) {
    const std::size_t sep = s.find("::");
    if (!is_identifier(s.substr(0, sep))) return false;
    if (sep == std::string_view::npos) return true;
    s.remove_prefix(sep + 2);
  }
}

bool is_kernel_name(std::string_view s) {
  if (s.empty() || !is_word(s.front())) return false;
  for (char c : s)
    if (!is_word(c) && c != '.' && c != '-') return false;
  return true;
}

bool is_module_tensor_name(std::string_view s) {
  if (s.empty() || s.size() > kMaxNameLength || s.front() == '.' || s.back() == '.') return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!is_word(s[i]) && !(s[i] == '.' && s[i + 1] != '.')) return false;
  return true;
}

std::optional<std::string> name_problem(std::string_view name, NameKind kind) {
  const NameRule& rule = rule_for(kind);
  if (name.size() > rule.max_length) return too_long(name, rule.max_length, rule.noun);
  if (!rule.valid(name)) return quote_input(name, rule.max_length) + " " + rule.broken;
  return std::nullopt;
}

}  // namespace kblaster
