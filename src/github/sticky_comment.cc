#include "github/sticky_comment.h"

#include <array>

namespace kblaster {
namespace {

std::string marker_prefix(std::string_view key) {
  return "<!-- kblaster:sticky key=" + std::string(key) + " ";
}

std::string_view first_line(std::string_view body) { return body.substr(0, body.find('\n')); }

constexpr std::array<std::pair<CommentMode, std::string_view>, 3> kModes = {{
    {CommentMode::always, "always"},
    {CommentMode::on_change, "on-change"},
    {CommentMode::never, "never"},
}};

}  // namespace

std::string_view comment_mode_name(CommentMode mode) {
  for (const auto& [m, name] : kModes)
    if (m == mode) return name;
  return "always";
}

std::optional<CommentMode> parse_comment_mode(std::string_view name) {
  for (const auto& [m, n] : kModes)
    if (n == name) return m;
  return std::nullopt;
}

std::string sticky_body(std::string_view key, std::string_view digest, std::string_view markdown) {
  return marker_prefix(key) + "digest=" + std::string(digest) + " -->\n" + std::string(markdown);
}

bool is_sticky_comment(std::string_view body, std::string_view key) {
  return first_line(body).starts_with(marker_prefix(key));
}

std::string sticky_digest(std::string_view body) {
  const std::string_view line = first_line(body);
  const std::size_t at = line.find(" digest=");
  if (at == std::string_view::npos) return "";
  const std::string_view rest = line.substr(at + 8);
  return std::string(rest.substr(0, rest.find(' ')));
}

CommentAction decide_comment(CommentMode mode, const std::optional<std::string>& existing,
                             std::string_view digest) {
  if (mode == CommentMode::never) return CommentAction::leave;
  if (!existing) return CommentAction::create;
  if (mode == CommentMode::on_change && !digest.empty() && sticky_digest(*existing) == digest)
    return CommentAction::leave;
  return CommentAction::edit;
}

}  // namespace kblaster
