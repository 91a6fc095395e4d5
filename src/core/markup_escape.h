// Text from a result (kernel names and reasons come from untrusted pull requests)
// made safe for the markup it goes into.
#pragma once

#include <string>
#include <string_view>

namespace kblaster {

// `text` for HTML and SVG element content and quoted attribute values: & < > " '
// as entities; control characters other than tab and newline dropped.
std::string html_escape(std::string_view text);

// `text` as inline Markdown that does not start a line (a table cell, a list item
// after its label): & < > as entities, so no HTML reaches GitHub's renderer; the
// inline markup characters \ ` * _ [ ] | ~ backslash-escaped; @ as an entity, so no
// one is mentioned; newlines and other control characters as spaces.
std::string markdown_escape(std::string_view text);

// `text` as an inline Markdown code span, shown exactly (a code span takes no backslash
// escapes, renders no HTML and mentions no one): fenced by one more backtick than its
// longest run of backticks, padded with a space where it starts or ends with one, and
// line breaks and other control characters made spaces.
std::string markdown_code_span(std::string_view text);

}  // namespace kblaster
