#include "core/markup_escape.h"

#include <algorithm>

namespace kblaster {
namespace {

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (!is_control(static_cast<unsigned char>(c)) || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string markdown_escape(std::string_view text) {
  // Inline markup, backslash-escaped (CommonMark lets any ASCII punctuation be).
  constexpr std::string_view kPunctuation = "\\`*_[]|~";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '@')
      out += "&#64;";
    else if (is_control(static_cast<unsigned char>(c)))
      out += ' ';
    else if (kPunctuation.find(c) != std::string_view::npos)
      out += '\\', out += c;
    else
      out += c;
  }
  return out;
}

std::string markdown_code_span(std::string_view text) {
  std::string body;
  std::size_t run = 0, longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    body += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  std::string out = fence;
  if (pad) out += ' ';
  out += body;
  if (pad) out += ' ';
  out += fence;
  return out;
}

}  // namespace kblaster
