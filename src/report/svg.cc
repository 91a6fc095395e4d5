#include "report/svg.h"

#include <cmath>
#include <cstdio>

#include "core/markup_escape.h"

namespace kblaster {
namespace {

bool finite(std::initializer_list<double> values) {
  for (double v : values)
    if (!std::isfinite(v)) return false;
  return true;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string_view anchor_name(Anchor a) {
  switch (a) {
    case Anchor::start:
      return "start";
    case Anchor::middle:
      return "middle";
    case Anchor::end:
      return "end";
  }
  return "start";
}

// The element's closing: a tooltip as a <title> child, else self-closed.
std::string close(std::string_view element, std::string_view tooltip) {
  if (tooltip.empty()) return "/>";
  return "><title>" + html_escape(tooltip) + "</title></" + std::string(element) + ">";
}

}  // namespace

Svg::Svg(double width, double height, std::string_view label) {
  const std::string w = num(width), h = num(height), name = html_escape(label);
  out_ = "<svg class=\"chart\" width=\"" + w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " +
         h + "\" role=\"img\" aria-label=\"" + name + "\"><title>" + name + "</title>";
}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view cls) {
  if (!finite({x1, y1, x2, y2})) return;
  out_ += "<line class=\"" + std::string(cls) + "\" x1=\"" + num(x1) + "\" y1=\"" + num(y1) +
          "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\"/>";
}

void Svg::rect(double x, double y, double w, double h, std::string_view cls,
               std::string_view tooltip) {
  if (!finite({x, y, w, h})) return;
  if (w < 0) x += w, w = -w;
  if (h < 0) y += h, h = -h;
  out_ += "<rect class=\"" + std::string(cls) + "\" x=\"" + num(x) + "\" y=\"" + num(y) +
          "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\"" + close("rect", tooltip);
}

void Svg::circle(double cx, double cy, double r, std::string_view cls, std::string_view tooltip) {
  if (!finite({cx, cy, r})) return;
  out_ += "<circle class=\"" + std::string(cls) + "\" cx=\"" + num(cx) + "\" cy=\"" + num(cy) +
          "\" r=\"" + num(r) + "\"" + close("circle", tooltip);
}

void Svg::text(double x, double y, std::string_view text, std::string_view cls, Anchor anchor) {
  if (!finite({x, y})) return;
  out_ += "<text class=\"" + std::string(cls) + "\" x=\"" + num(x) + "\" y=\"" + num(y) +
          "\" text-anchor=\"" + std::string(anchor_name(anchor)) + "\">" + html_escape(text) +
          "</text>";
}

void Svg::vertical_text(double x, double y, std::string_view text, std::string_view cls) {
  if (!finite({x, y})) return;
  out_ += "<text class=\"" + std::string(cls) + "\" transform=\"translate(" + num(x) + "," +
          num(y) + ") rotate(-90)\" text-anchor=\"middle\">" + html_escape(text) + "</text>";
}

void Svg::polyline(std::span<const std::pair<double, double>> points, std::string_view cls) {
  std::string coords;
  for (const auto& [x, y] : points)
    if (finite({x, y})) {
      if (!coords.empty()) coords += ' ';
      coords += num(x) + "," + num(y);
    }
  if (!coords.empty())
    out_ += "<polyline class=\"" + std::string(cls) + "\" points=\"" + coords + "\"/>";
}

std::string Svg::finish() && { return std::move(out_) + "</svg>"; }

std::string shorten(std::string_view text, std::size_t max_chars) {
  auto starts_char = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  std::size_t chars = 0;
  for (char c : text) chars += starts_char(c);
  if (chars <= max_chars) return std::string(text);
  std::size_t kept = 0, i = 0;
  for (; i < text.size(); ++i)
    if (starts_char(text[i]) && kept++ == (max_chars == 0 ? 0 : max_chars - 1)) break;
  std::string out(text.substr(0, i));
  out += "\u2026";
  return out;
}

}  // namespace kblaster
