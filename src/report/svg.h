// The text of one inline SVG image, built element by element. Coordinates are in
// the image's own pixels; every string is escaped; an element with a coordinate
// that is not finite is left out, so no "nan" reaches the page. Classes are styled
// by the report's CSS (html_style.cc), which also serves the dark theme.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace kblaster {

// Which end of a text sits at its x: SVG's text-anchor.
enum class Anchor { start, middle, end };

// Not thread-safe; one image per builder.
class Svg {
 public:
  // An image `width` x `height` whose accessible name (and tooltip) is `label`.
  Svg(double width, double height, std::string_view label);

  void line(double x1, double y1, double x2, double y2, std::string_view cls);
  // A rectangle; negative sizes are flipped, so a bar may grow either way.
  // `tooltip` (may be empty) shows on hover.
  void rect(double x, double y, double w, double h, std::string_view cls,
            std::string_view tooltip = {});
  void circle(double cx, double cy, double r, std::string_view cls, std::string_view tooltip = {});
  // `text` with its baseline at y.
  void text(double x, double y, std::string_view text, std::string_view cls,
            Anchor anchor = Anchor::start);
  // `text` centred on (x, y), turned a quarter anticlockwise (a y axis's title).
  void vertical_text(double x, double y, std::string_view text, std::string_view cls);
  void polyline(std::span<const std::pair<double, double>> points, std::string_view cls);

  // The finished image; the builder is spent.
  std::string finish() &&;

 private:
  std::string out_;
};

// `text` in at most `max_chars` characters (UTF-8 aware), ending in "…" when cut.
std::string shorten(std::string_view text, std::size_t max_chars);

}  // namespace kblaster
