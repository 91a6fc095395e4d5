// Texts that overflowed the stack of the recursive parsers, for the limit tests.
#pragma once

#include <cstddef>
#include <string>

namespace kblaster::testing {

// `depth` opening parentheses around N, then as many closing ones.
inline std::string nested(std::size_t depth) {
  return std::string(depth, '(') + "N" + std::string(depth, ')');
}

// "1+1+…+1" with `terms` ones: a left-deep tree as deep as it is long.
inline std::string chain(std::size_t terms) {
  std::string text = "1";
  for (std::size_t i = 1; i < terms; ++i) text += "+1";
  return text;
}

}  // namespace kblaster::testing
