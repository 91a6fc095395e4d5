#include "profile/code_signature.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <unordered_map>
#include <unordered_set>

// Token rules, not a parser: comments and literals are stripped first, then the text is split
// into tokens with matched brackets. Macros are not expanded (their bodies count where written);
// host code counts like device code, so host loops set `loops` and a host `double` sets
// `double_precision`. PTX features are read only from the string literals of asm(...) statements.
namespace kblaster {
namespace {

using Flag = bool CodeSignature::*;
using CS = CodeSignature;

struct Token {
  std::string_view text;
  int literal = -1;  // index into Stripped::literals for a string literal
};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `source` with comments and literal contents blanked (newlines kept); string contents kept aside.
struct Stripped {
  std::string code;
  std::vector<std::string> literals;
};

Stripped strip(std::string_view source) {
  Stripped s{std::string(source), {}};
  std::string& c = s.code;
  auto blank = [&c](size_t from, size_t to) {
    for (; from < to && from < c.size(); ++from) c[from] = c[from] == '\n' ? '\n' : ' ';
  };
  for (size_t i = 0; i < c.size();) {
    size_t e = i + 1;
    if (c.compare(i, 2, "//") == 0) {
      e = std::min(c.find('\n', i), c.size());
      blank(i, e);
    } else if (c.compare(i, 2, "/*") == 0) {
      e = c.find("*/", i + 2);
      e = e == std::string::npos ? c.size() : e + 2;
      blank(i, e);
    } else if (c[i] == '"' && i > 0 && c[i - 1] == 'R' && (i == 1 || !ident_char(c[i - 2]))) {
      const size_t open = std::min(c.find('(', i), c.size());  // R"delim( ... )delim"
      // Built by append: GCC 12 misreads `")" + str + "\""` (-Wrestrict).
      const std::string terminator =
          std::string(")").append(c.substr(i + 1, open - i - 1)).append("\"");
      const size_t close = c.find(terminator, open);
      e = close == std::string::npos ? c.size() : close + open - i + 1;
      s.literals.emplace_back(
          c.begin() + std::min(open + 1, c.size()),
          c.begin() + std::max(std::min(open + 1, c.size()), std::min(close, c.size())));
      blank(i + 1, e - 1);
    } else if (c[i] == '"' ||
               (c[i] == '\'' && !(i > 0 && std::isdigit(static_cast<unsigned char>(c[i - 1]))))) {
      while (e < c.size() && c[e] != c[i] && c[e] != '\n') e += c[e] == '\\' ? 2 : 1;
      e = std::min(e, c.size());
      if (c[i] == '"') s.literals.push_back(c.substr(i + 1, e - i - 1));
      blank(i + 1, e);
      ++e;
    }
    i = e;
  }
  return s;
}

std::vector<Token> tokenize(const std::string& code) {
  static const std::unordered_set<std::string_view> kPairs = {
      "::", "+=", "-=", "*=", "/=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "->", "<<"};
  std::vector<Token> out;
  int literal = 0;
  for (size_t i = 0; i < code.size();) {
    const char c = code[i];
    size_t e = i + 1;
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
      i = e;
      continue;
    }
    if (ident_char(c)) {
      while (e < code.size() && (ident_char(code[e]) ||
                                 (std::isdigit(static_cast<unsigned char>(c)) && code[e] == '.')))
        ++e;
    } else if (c == '"' || c == '\'') {
      while (e < code.size() && code[e] != c && code[e] != '\n') ++e;
      e = std::min(e + 1, code.size());
    } else if (kPairs.count(std::string_view(code).substr(i, 2))) {
      e = i + 2;
    }
    out.push_back({std::string_view(code).substr(i, e - i), c == '"' ? literal++ : -1});
    i = e;
  }
  return out;
}

// The features in header order. Each is set by its `identifiers` wherever they appear, by its
// `ptx` mnemonics in an asm(...) string (a leading letter must start a word), and by the
// rules in read_signature. Both lists are space-separated.
struct Feature {
  std::string_view name;
  Flag flag;
  std::string_view identifiers, ptx;
};

constexpr Feature kFeatures[] = {
    {"shared_memory", &CS::shared_memory, "__shared__", ""},
    {"tensor_cores", &CS::tensor_cores, "mma_sync MMA_Atom TiledMMA make_tiled_mma",
     "mma.sync wmma. wgmma. tcgen05.mma"},
    {"vector_access", &CS::vector_access,
     "float2 float4 int2 int4 uint4 double2 half2 __half2 __nv_bfloat162", ""},
    {"atomics", &CS::atomics, "", "atom. red."},
    {"warp_shuffles", &CS::warp_shuffles, "", "shfl.sync"},
    {"barriers", &CS::barriers, "__syncwarp __barrier_sync arrive_and_wait",
     "bar.sync barrier.sync"},
    {"loops", &CS::loops, "for", ""},
    {"unroll_pragmas", &CS::unroll_pragmas, "", ""},
    {"launch_bounds", &CS::launch_bounds, "__launch_bounds__", ""},
    {"restrict_pointers", &CS::restrict_pointers, "__restrict__ __restrict", ""},
    {"grid_stride_loop", &CS::grid_stride_loop, "", ""},
    {"async_copy", &CS::async_copy, "__pipeline_memcpy_async memcpy_async CUtensorMap", "cp.async"},
    {"fast_math_intrinsics", &CS::fast_math_intrinsics,
     "__expf __exp10f __logf __log2f __log10f __powf __sinf __cosf __sincosf __tanf __fdividef",
     "ex2.approx lg2.approx"},
    {"half_precision", &CS::half_precision, "nv_bfloat16 nv_bfloat162", ".f16 .bf16"},
    {"double_precision", &CS::double_precision, "double", ".f64"},
    {"matmul_like", &CS::matmul_like, "", ""}};

// Calls `f` on each word of the space-separated `list`.
template <typename F>
void for_each_word(std::string_view list, F f) {
  for (size_t at = 0; at < list.size();) {
    const size_t end = std::min(list.find(' ', at), list.size());
    f(list.substr(at, end - at));
    at = end + 1;
  }
}

const std::unordered_map<std::string_view, Flag>& flag_by_identifier() {
  static const auto k = [] {
    std::unordered_map<std::string_view, Flag> m;
    for (const Feature& f : kFeatures)
      for_each_word(f.identifiers, [&](std::string_view id) { m.emplace(id, f.flag); });
    return m;
  }();
  return k;
}

// Tokens with their matching brackets, and the rules that need structure.
class Scan {
 public:
  explicit Scan(const std::string& code) : t_(tokenize(code)), n_(t_.size()), match_(n_, n_) {
    std::vector<size_t> open;  // a closer that does not match the innermost opener is ignored
    for (size_t i = 0; i < n_; ++i) {
      const char c = t_[i].text[0];
      if (c == '(' || c == '[' || c == '{') open.push_back(i);
      if ((c == ')' || c == ']' || c == '}') && !open.empty() &&
          t_[open.back()].text[0] == (c == ')' ? '(' : c - 2)) {
        match_[i] = open.back();
        match_[open.back()] = i;
        open.pop_back();
      }
    }
  }
  size_t size() const { return n_; }
  std::string_view at(size_t i) const { return i < n_ ? t_[i].text : std::string_view(); }
  int literal(size_t i) const { return t_[i].literal; }
  size_t match(size_t i) const { return match_[i]; }
  static bool is_ident(std::string_view x) {
    return !x.empty() && ident_char(x[0]) && !std::isdigit(static_cast<unsigned char>(x[0]));
  }
  bool contains(size_t from, size_t to, std::string_view x) const {
    for (; from < to && from < n_; ++from)
      if (t_[from].text == x) return true;
    return false;
  }
  // The end of the expression starting at `i`: its `;` or `,`, or an unmatched closer.
  size_t expr_end(size_t i) const {
    for (; i < n_; ++i) {
      const char c = t_[i].text[0];
      if (c == ';' || c == ',' || c == ')' || c == ']' || c == '}') return i;
      if (c == '(' || c == '[' || c == '{') i = match_[i];
    }
    return n_;
  }
  // The end of the statement starting at `i`: its `;`, or a block's `}` not followed by `else`.
  size_t statement_end(size_t i) const {
    for (; i < n_; ++i) {
      const char c = t_[i].text[0];
      if (c == ';') return i;
      if (c == '(' || c == '[' || c == '{') {
        if (c == '{' && match_[i] < n_ && at(match_[i] + 1) != "else") return match_[i];
        i = match_[i];
      }
    }
    return n_;
  }
  // Whether [from, to) is exactly `name[..]..[..]` with `var` in a subscript; sets `name`.
  bool indexed_by(size_t from, size_t to, std::string_view var, std::string_view* name) const {
    if (from >= to || !is_ident(at(from)) || at(from + 1) != "[") return false;
    size_t i = from + 1;
    while (i < to && at(i) == "[") i = match_[i] + 1;
    *name = at(from);
    return i == to && contains(from + 1, to, var);
  }
  // Whether [from, to) holds `a[..var..] * b[..var..]`, `a` and `b` different arrays.
  bool indexed_product(size_t from, size_t to, std::string_view var) const {
    std::string_view a, b;
    for (size_t p = from + 2; p + 1 < to; ++p) {
      if (at(p) != "*" || at(p - 1) != "]") continue;
      size_t l = p - 1, r = p + 2;
      while (at(l) == "]" && match_[l] < l && match_[l] > from + 1) l = match_[l] - 1;
      while (at(r) == "[" && match_[r] < n_) r = match_[r] + 1;
      if (indexed_by(l, p, var, &a) && indexed_by(p + 1, r, var, &b) && a != b) return true;
    }
    return false;
  }
  // Whether `i` starts `fmaf(a[..var..], b[..var..], …)` (or fma, __fmaf_rn, …).
  bool indexed_fma(size_t i, std::string_view var) const {
    const std::string_view f = at(i);
    if (!(f == "fmaf" || f == "fma" || f.starts_with("__fma")) || at(i + 1) != "(") return false;
    std::string_view a, b;
    const size_t e1 = expr_end(i + 2), e2 = expr_end(e1 + 1);
    return at(e1) == "," && indexed_by(i + 2, e1, var, &a) && indexed_by(e1 + 1, e2, var, &b) &&
           a != b;
  }

 private:
  std::vector<Token> t_;
  size_t n_;
  std::vector<size_t> match_;  // the matching bracket's index, n_ where none
};

}  // namespace

std::vector<std::string> CodeSignature::features() const {
  std::vector<std::string> out;
  for (const Feature& f : kFeatures)
    if (this->*f.flag) out.emplace_back(f.name);
  return out;
}

CodeSignature read_signature(std::string_view source) {
  const Stripped stripped = strip(source);
  const Scan s(stripped.code);
  CodeSignature sig;
  std::string ptx;                               // the asm(...) string literals
  std::unordered_set<std::string_view> strides;  // variables assigned from blockDim and gridDim
  auto grid_sized = [&s](size_t from, size_t to) {
    return s.contains(from, to, "blockDim") && s.contains(from, to, "gridDim");
  };
  for (size_t i = 0; i < s.size(); ++i) {
    const std::string_view x = s.at(i), prev = i ? s.at(i - 1) : "", next = s.at(i + 1);
    const std::string_view scope = i > 1 && prev == "::" ? s.at(i - 2) : "";
    const bool cg = scope == "cg" || scope == "cooperative_groups";
    if (auto it = flag_by_identifier().find(x); it != flag_by_identifier().end())
      sig.*(it->second) = true;
    sig.kernels += x == "__global__";
    sig.loops |= x == "while" && !(next == "(" && s.at(i + 3) == ")" &&
                                   (s.at(i + 2) == "0" || s.at(i + 2) == "false"));
    sig.tensor_cores |= x == "wmma" && next == "::";
    sig.atomics |=
        x.size() > 6 && x.starts_with("atomic") && std::isupper(static_cast<unsigned char>(x[6]));
    sig.warp_shuffles |=
        ((x.starts_with("__shfl") || x.starts_with("__reduce_")) && x.ends_with("_sync")) ||
        (prev == "." && x.starts_with("shfl") && next == "(") || (cg && x == "reduce");
    sig.barriers |= x.starts_with("__syncthreads") || (x == "sync" && (cg || prev == "."));
    sig.unroll_pragmas |= x == "pragma" && next == "unroll";
    sig.async_copy |= x.starts_with("cp_async") || (scope == "cuda" && x == "pipeline");
    sig.half_precision |=
        (x.starts_with("__") && (x.find("half") != x.npos || x.find("bfloat16") != x.npos)) ||
        ((x == "half" || x == "half2") &&  // a type, not a variable named half
         (Scan::is_ident(next) || next == ">" || prev == "<" ||
          ((next == "*" || next == "&") && Scan::is_ident(s.at(i + 2)) &&
           (prev == "(" || prev == "," || prev == "const" || prev == ";" || prev == "{"))));
    if ((x == "asm" || x == "__asm__" || x == "__asm") && s.size() > i + 2) {
      size_t open = i + 1;
      while (open < s.size() && Scan::is_ident(s.at(open))) ++open;  // volatile, goto
      for (size_t j = open; s.at(open) == "(" && j < s.match(open); ++j)
        if (s.literal(j) >= 0) ptx += stripped.literals[s.literal(j)] + "\n";
    }
    if (x == "=" && Scan::is_ident(prev) && grid_sized(i + 1, s.expr_end(i + 1)))
      strides.insert(prev);
  }
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.at(i) == "+=") {  // a grid-stride step: i += blockDim.x * gridDim.x, or i += stride
      const size_t end = s.expr_end(i + 1);
      bool by_stride = false;
      for (size_t j = i + 1; j < end; ++j) by_stride |= strides.count(s.at(j)) > 0;
      sig.grid_stride_loop |= by_stride || grid_sized(i + 1, end);
    }
    if (s.at(i) != "for" || s.at(i + 1) != "(" || sig.matmul_like) continue;
    size_t v = i + 2;  // the loop variable: the name before the header's first `=` or `:`
    while (v < s.size() && s.at(v) != "=" && s.at(v) != ":" && s.at(v) != ";") ++v;
    const std::string_view var = s.at(v) == ";" ? "" : s.at(v - 1);
    const size_t body = s.match(i + 1) + 1, end = s.statement_end(body);
    if (!Scan::is_ident(var) || body >= s.size()) continue;
    for (size_t j = body; j < end && !sig.matmul_like; ++j)
      sig.matmul_like |= (s.at(j) == "+=" && s.indexed_product(j, s.expr_end(j + 1), var)) ||
                         s.indexed_fma(j, var);
  }
  for (const Feature& f : kFeatures) {
    for_each_word(f.ptx, [&](std::string_view m) {
      for (size_t at = ptx.find(m); at != ptx.npos && !(sig.*f.flag); at = ptx.find(m, at + 1))
        sig.*f.flag =
            !ident_char(m[0]) || at == 0 || !(ident_char(ptx[at - 1]) || ptx[at - 1] == '.');
    });
  }
  return sig;
}

}  // namespace kblaster
