#include "core/init_distribution.h"

#include <cctype>
#include <cmath>
#include <optional>

#include "core/identifier.h"
#include "core/input_limits.h"
#include "core/suggest.h"

namespace kblaster {
namespace {

// The pieces of "kind", "kind(a,b)" (spaces allowed around each), read left to
// right without backtracking; nullopt when the text has another shape.
struct InitText {
  std::string_view kind;
  std::optional<std::string_view> a, b;
};

std::optional<InitText> split_init(std::string_view s) {
  std::size_t i = 0;
  auto space = [&] {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  };
  auto run = [&](auto belongs) {
    const std::size_t start = i;
    while (i < s.size() && belongs(s[i])) ++i;
    return s.substr(start, i - start);
  };
  auto number = [&] {  // or a constant's name
    return run([](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' ||
             c == '_';
    });
  };
  auto eat = [&](char c) {
    space();
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
  };
  InitText out;
  space();
  out.kind = run([](char c) { return c >= 'a' && c <= 'z'; });
  if (out.kind != "normal" && out.kind != "uniform" && out.kind != "randint") return std::nullopt;
  if (eat('(')) {
    space();
    out.a = number();
    if (out.a->empty() || !eat(',')) return std::nullopt;
    space();
    out.b = number();
    if (out.b->empty() || !eat(')')) return std::nullopt;
  }
  space();
  if (i != s.size()) return std::nullopt;
  return out;
}

// The whole of `text` as a double; nullopt when it is not one decimal number (so `inf`, `nan`
// and hex floats are names, not numbers).
std::optional<double> whole_number(std::string_view text) {
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-' && c != '+' && c != '.' &&
        c != 'e' && c != 'E')
      return std::nullopt;
  try {
    std::size_t used = 0;
    const std::string s(text);
    const double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

// "WHAT(NAME)": NAME, or nullopt when `text` has another shape.
std::optional<std::string> called(std::string_view what, std::string_view text) {
  if (text.substr(0, what.size()) != what || text.size() < what.size() + 2 ||
      text[what.size()] != '(' || text.back() != ')')
    return std::nullopt;
  return std::string(text.substr(what.size() + 1, text.size() - what.size() - 2));
}

Result<InitDist> parse_init(std::string_view text,
                            const std::map<std::string, std::int64_t>& constants) {
  const std::string s(text), shown = quote_input(text);
  // Inits that name something: a generator function, or a tensor of the PyTorch Model.
  const struct {
    std::string_view call;
    InitDist::Kind kind;
    bool (*valid)(std::string_view);
    const char* what;
  } named[] = {
      {"generator", InitDist::Kind::generator, [](std::string_view n) { return is_identifier(n); },
       ": a generator is a function name, as in generator(fill_inputs)"},
      {"state", InitDist::Kind::state, is_module_tensor_name,
       ": a state is a name in the PyTorch Model's state_dict, as in state(conv.weight)"},
  };
  for (const auto& n : named) {
    const auto name = called(n.call, text);
    if (!name) continue;
    if (!n.valid(*name)) return Error::config("", shown + n.what);
    InitDist g;
    g.kind = n.kind;
    g.text = s;
    (n.kind == InitDist::Kind::state ? g.state : g.generator) = *name;
    return g;
  }
  const auto parts = split_init(text);
  if (!parts)
    return Error::config("", shown +
                                 " is not a distribution; use normal, normal(mean,std), "
                                 "uniform(lo,hi), randint(lo,hi), generator(function) or "
                                 "state(name)");
  InitDist d;
  d.text = s;
  const std::string kind(parts->kind);
  d.kind = kind == "normal"    ? InitDist::Kind::normal
           : kind == "uniform" ? InitDist::Kind::uniform
                               : InitDist::Kind::randint;
  if (parts->a) {
    for (const auto& [bound, into] : {std::pair{*parts->a, &d.a}, std::pair{*parts->b, &d.b}}) {
      if (const auto v = whole_number(bound)) {
        *into = *v;
      } else if (is_identifier(bound)) {
        const auto c = constants.find(std::string(bound));
        if (c == constants.end()) {
          std::vector<std::string> names;
          for (const auto& [name, value] : constants) names.push_back(name);
          return Error::config("", shown + " uses `" + std::string(bound) +
                                       "`, which is not one of the kernel's constants" +
                                       did_you_mean(std::string(bound), names));
        }
        *into = static_cast<double>(c->second);
      } else {
        return Error::config("", shown + " has a malformed number");
      }
    }
  } else if (d.kind != InitDist::Kind::normal) {
    return Error::config("", "`" + kind + "` needs bounds: " + kind + "(lo,hi)");
  }
  if (d.kind == InitDist::Kind::normal && !(d.b > 0))
    return Error::config("", shown + ": the standard deviation must be positive");
  if (d.kind != InitDist::Kind::normal && !(d.a < d.b))
    return Error::config("", shown + ": lo must be less than hi");
  if (d.kind == InitDist::Kind::randint && (d.a != std::floor(d.a) || d.b != std::floor(d.b)))
    return Error::config("", shown + ": randint bounds must be integers");
  return d;
}

}  // namespace kblaster
