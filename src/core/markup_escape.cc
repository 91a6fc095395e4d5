#include "core/markup_escape.h"

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

}  // namespace kblaster
