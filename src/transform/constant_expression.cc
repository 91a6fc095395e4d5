// ConstantTable's evaluation of integer expressions and launch block sizes; the
// scanning for definitions lives in constant_table.cc.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

#include "transform/constant_table.h"

namespace kblaster {
namespace {

constexpr int kMaxDepth = 16;  // definitions read through definitions; stops #define A A

// Recursive descent over one integer expression, with names read from a table.
class Evaluator {
 public:
  Evaluator(const ConstantTable& table, std::string_view masked, Span expr, std::size_t at,
            std::vector<const ConstantDefinition*>* used, int depth)
      : table_(table),
        masked_(masked),
        text_(expr.of(masked)),
        at_(at),
        used_(used),
        depth_(depth) {}

  std::optional<std::int64_t> run() {
    auto v = shift();
    return v && skip() == text_.size() ? v : std::nullopt;
  }

 private:
  std::size_t skip() { return pos_ = skip_spaces(text_, pos_); }
  bool take(std::string_view op) {
    skip();
    if (text_.compare(pos_, op.size(), op) != 0) return false;
    const char after = pos_ + op.size() < text_.size() ? text_[pos_ + op.size()] : '\0';
    if (after == '=' || (op.size() == 1 && after == op[0])) return false;  // not <<=, not <<
    pos_ += op.size();
    return true;
  }
  using Value = std::optional<std::int64_t>;
  template <typename Next, typename Apply>
  Value binary(Next next, std::initializer_list<std::string_view> ops, Apply apply) {
    Value v = (this->*next)();
    for (bool more = true; v && more;) {
      more = false;
      for (const auto op : ops) {
        if (!take(op)) continue;
        const Value rhs = (this->*next)();
        v = rhs ? apply(op, *v, *rhs) : std::nullopt;
        more = true;
        break;
      }
    }
    return v;
  }
  Value shift() {
    return binary(&Evaluator::additive, {"<<", ">>"}, [](auto op, std::int64_t a, std::int64_t b) {
      return b < 0 || b > 62 ? Value() : Value(op == "<<" ? a << b : a >> b);
    });
  }
  Value additive() {
    return binary(
        &Evaluator::multiplicative, {"+", "-"}, [](auto op, std::int64_t a, std::int64_t b) {
          std::int64_t r;
          const bool overflow =
              op == "+" ? __builtin_add_overflow(a, b, &r) : __builtin_sub_overflow(a, b, &r);
          return overflow ? Value() : Value(r);
        });
  }
  Value multiplicative() {
    return binary(&Evaluator::unary, {"*", "/", "%"}, [](auto op, std::int64_t a, std::int64_t b) {
      std::int64_t r;
      if (op == "*") return __builtin_mul_overflow(a, b, &r) ? Value() : Value(r);
      if (b == 0) return Value();
      return Value(op == "/" ? a / b : a % b);
    });
  }
  Value unary() {
    if (take("-")) {
      const Value v = unary();
      return v ? Value(-*v) : v;
    }
    if (take("+")) return unary();
    return primary();
  }
  Value primary() {
    if (take("(")) {
      const Value v = shift();
      return v && take(")") ? v : Value();
    }
    skip();
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
      return number();
    const Span name = identifier_at(text_, pos_);
    if (name.empty() || depth_ >= kMaxDepth) return Value();
    pos_ = name.end;
    const ConstantDefinition* def = table_.lookup(name.of(text_), at_);
    if (!def || def->kind == ConstantDefinition::Kind::dim3 || def->values.size() != 1)
      return Value();
    if (used_) used_->push_back(def);
    // A definition's initialiser means what it means where the definition stands.
    return Evaluator(table_, masked_, def->values[0], def->name_begin, used_, depth_ + 1).run();
  }
  Value number() {
    std::string digits;
    while (pos_ < text_.size() && (is_identifier_char(text_[pos_]) || text_[pos_] == '\'')) {
      if (text_[pos_] != '\'') digits += text_[pos_];
      ++pos_;
    }
    while (!digits.empty() && std::strchr("uUlLzZ", digits.back())) digits.pop_back();
    int base = 10;
    std::size_t from = 0;
    if (digits.size() > 1 && digits[0] == '0') {
      const char kind = static_cast<char>(std::tolower(digits[1]));
      base = kind == 'x' ? 16 : kind == 'b' ? 2 : 8;
      from = base == 8 ? 1 : 2;
    }
    std::int64_t v = 0;
    const auto [end, err] =
        std::from_chars(digits.data() + from, digits.data() + digits.size(), v, base);
    if (err != std::errc() || end != digits.data() + digits.size()) return Value();
    return v;
  }

  const ConstantTable& table_;
  std::string_view masked_;
  std::string_view text_;  // the expression
  std::size_t at_;
  std::vector<const ConstantDefinition*>* used_;
  int depth_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<std::int64_t> ConstantTable::evaluate(
    Span expr, std::size_t at, std::vector<const ConstantDefinition*>* used) const {
  return Evaluator(*this, masked_, expr, at, used, 0).run();
}

std::optional<BlockSize> ConstantTable::block_size(Span arg, std::size_t at) const {
  arg = trim(masked_, arg);
  std::vector<Span> parts{arg};
  std::size_t resolve_at = at;
  BlockSize size;
  const std::size_t open = skip_spaces(masked_, arg.begin + 4);
  const ConstantDefinition* var = lookup(arg.of(masked_), at);
  if (masked_.compare(arg.begin, 4, "dim3") == 0 && open < arg.end &&
      (masked_[open] == '(' || masked_[open] == '{') &&
      find_closing(masked_, open) == arg.end - 1) {
    parts = split_top_level(masked_, {open + 1, arg.end - 1}, ',');
  } else if (var && var->kind == ConstantDefinition::Kind::dim3) {
    parts = var->values;
    resolve_at = var->name_begin;
    size.used.push_back(var);
  }
  if (parts.empty()) return std::nullopt;
  size.threads = 1;
  for (const auto part : parts) {
    const auto v = evaluate(part, resolve_at, &size.used);
    if (!v || *v <= 0 || __builtin_mul_overflow(size.threads, *v, &size.threads))
      return std::nullopt;
    std::string text = collapse_spaces(part.of(masked_));
    const bool simple = std::all_of(text.begin(), text.end(), is_identifier_char);
    if (!size.expression.empty()) size.expression += " * ";
    size.expression += parts.size() == 1 || simple ? text : "(" + text + ")";
    for (std::size_t i = part.begin; i < part.end;) {
      const Span w = identifier_at(masked_, i);
      if (w.empty()) {
        for (++i;
             i < part.end && is_identifier_char(masked_[i - 1]) && is_identifier_char(masked_[i]);)
          ++i;
        continue;
      }
      size.names.emplace_back(std::string(w.of(masked_)), lookup(w.of(masked_), resolve_at));
      i = w.end;
    }
  }
  return size;
}

}  // namespace kblaster
