#include "core/shape_expr.h"

#include <algorithm>
#include <cctype>

#include "core/input_limits.h"

namespace kblaster {

struct ShapeExpr::Node {
  enum class Kind { literal, name, add, sub, mul, div, mod, neg } kind;
  std::int64_t value = 0;
  std::string name;
  std::shared_ptr<const Node> lhs, rhs;
};

namespace {

using Node = ShapeExpr::Node;
using NodePtr = std::shared_ptr<const Node>;

// Recursive-descent parser: expr := term (('+'|'-') term)*;
// term := unary (('*'|'/'|'%') unary)*; unary := '-' unary | primary;
// primary := integer | name | '(' expr ')'. It recurses only at '-' and '(',
// and fails once those nest deeper than kMaxExpressionDepth.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<NodePtr> parse_all() {
    auto e = expr();
    if (!e) return e;
    skip_space();
    if (pos_ != text_.size()) return fail(std::string("unexpected `") + text_[pos_] + "`");
    return e;
  }
  std::vector<std::string> names;

 private:
  Error fail(const std::string& what) const {
    return Error::config("col " + std::to_string(pos_ + 1), what);
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  // Counts one nesting level ('(' or unary '-') for as long as it lives.
  class Nested {
   public:
    explicit Nested(std::size_t& depth) : depth_(depth) { ++depth_; }
    ~Nested() { --depth_; }
    Nested(const Nested&) = delete;  // one level, released once
    Nested& operator=(const Nested&) = delete;

   private:
    std::size_t& depth_;
  };
  // Located at the '(' or '-' just read, the one past the limit.
  Error too_deep() const {
    return Error::config("col " + std::to_string(pos_),
                         "parentheses and unary minuses nest more than " +
                             std::to_string(kMaxExpressionDepth) + " deep");
  }

  static NodePtr binary(Node::Kind k, NodePtr l, NodePtr r) {
    return std::make_shared<Node>(Node{k, 0, {}, std::move(l), std::move(r)});
  }

  Result<NodePtr> expr() {
    auto lhs = term();
    if (!lhs) return lhs;
    NodePtr node = *lhs;
    for (;;) {
      Node::Kind k;
      if (eat('+'))
        k = Node::Kind::add;
      else if (eat('-'))
        k = Node::Kind::sub;
      else
        return node;
      auto rhs = term();
      if (!rhs) return rhs;
      node = binary(k, node, *rhs);
    }
  }
  Result<NodePtr> term() {
    auto lhs = unary();
    if (!lhs) return lhs;
    NodePtr node = *lhs;
    for (;;) {
      Node::Kind k;
      if (eat('*'))
        k = Node::Kind::mul;
      else if (eat('/'))
        k = Node::Kind::div;
      else if (eat('%'))
        k = Node::Kind::mod;
      else
        return node;
      auto rhs = unary();
      if (!rhs) return rhs;
      node = binary(k, node, *rhs);
    }
  }
  Result<NodePtr> unary() {
    if (eat('-')) {
      Nested level(depth_);
      if (depth_ > kMaxExpressionDepth) return too_deep();
      auto operand = unary();
      if (!operand) return operand;
      return binary(Node::Kind::neg, *operand, nullptr);
    }
    return primary();
  }
  Result<NodePtr> primary() {
    skip_space();
    if (pos_ >= text_.size()) return fail("expression ends where an operand was expected");
    char c = text_[pos_];
    if (eat('(')) {
      Nested level(depth_);
      if (depth_ > kMaxExpressionDepth) return too_deep();
      auto inner = expr();
      if (!inner) return inner;
      if (!eat(')')) return fail("missing `)`");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, text_[pos_] - '0', &v))
          return fail("integer literal does not fit in 64 bits");
        ++pos_;
      }
      return NodePtr(std::make_shared<Node>(Node{Node::Kind::literal, v, {}, nullptr, nullptr}));
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      std::string name(text_.substr(start, pos_ - start));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      return NodePtr(std::make_shared<Node>(Node{Node::Kind::name, 0, name, nullptr, nullptr}));
    }
    return fail(std::string("unexpected `") + c + "`");
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;  // '(' and unary '-' open around pos_
};

Result<std::int64_t> eval(const Node& n, const std::map<std::string, std::int64_t>& scalars,
                          const std::string& text) {
  auto overflow = [&] { return Error::config("", "`" + text + "` overflows a 64-bit integer"); };
  switch (n.kind) {
    case Node::Kind::literal:
      return n.value;
    case Node::Kind::name: {
      auto it = scalars.find(n.name);
      if (it == scalars.end())
        return Error::config("", "unknown name `" + n.name + "` in `" + text + "`");
      return it->second;
    }
    case Node::Kind::neg: {
      auto v = eval(*n.lhs, scalars, text);
      if (!v) return v;
      std::int64_t r;
      if (__builtin_sub_overflow(std::int64_t{0}, *v, &r)) return overflow();
      return r;
    }
    default:
      break;
  }
  auto l = eval(*n.lhs, scalars, text);
  if (!l) return l;
  auto r = eval(*n.rhs, scalars, text);
  if (!r) return r;
  std::int64_t out = 0;
  switch (n.kind) {
    case Node::Kind::add:
      if (__builtin_add_overflow(*l, *r, &out)) return overflow();
      return out;
    case Node::Kind::sub:
      if (__builtin_sub_overflow(*l, *r, &out)) return overflow();
      return out;
    case Node::Kind::mul:
      if (__builtin_mul_overflow(*l, *r, &out)) return overflow();
      return out;
    case Node::Kind::div:
    case Node::Kind::mod:
      if (*r == 0) return Error::config("", "division by zero in `" + text + "`");
      if (*l == INT64_MIN && *r == -1) return overflow();
      return n.kind == Node::Kind::div ? *l / *r : *l % *r;
    default:
      return Error::internal("bad shape expression node");
  }
}

}  // namespace

Result<ShapeExpr> ShapeExpr::parse(std::string_view text) {
  // The length limit also bounds the tree's depth (a chain `1+1+…` is left-deep),
  // which evaluation and destruction walk recursively.
  if (text.size() > kMaxExpressionLength)
    return Error::config("col " + std::to_string(kMaxExpressionLength + 1),
                         "the expression is " + std::to_string(text.size()) +
                             " characters long; an expression may have at most " +
                             std::to_string(kMaxExpressionLength));
  Parser p(text);
  auto root = p.parse_all();
  if (!root) return root.error();
  ShapeExpr e;
  e.text_ = std::string(text);
  e.names_ = std::move(p.names);
  e.root_ = *root;
  return e;
}

Result<std::int64_t> ShapeExpr::evaluate(const std::map<std::string, std::int64_t>& scalars) const {
  if (!root_) return Error::internal("evaluating an empty shape expression");
  return eval(*root_, scalars, text_);
}

}  // namespace kblaster
