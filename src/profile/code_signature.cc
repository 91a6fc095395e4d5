#include "profile/code_signature.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "core/source_regions.h"

// Token rules, not a parser: the source is cut into code, comments and literals first
// (core/source_regions.h), then the code is split into tokens, each literal one token, with
// matched brackets. Macros are not expanded (their bodies count where written);
// host code counts like device code, so host loops set `loops` and a host `double` sets
// `double_precision`. PTX features are read only from the string literals of asm(...) statements.
namespace kblaster {
namespace {

using Flag = bool CodeSignature::*;
using CS = CodeSignature;

struct Token {
  std::string_view text;
  std::optional<std::string_view> string;  // a string literal's text
};

// Appends the tokens of `code`, which holds no comment or literal, so a quote in it
// is a digit separator.
void tokenize_code(std::string_view code, std::vector<Token>& out) {
  static const std::unordered_set<std::string_view> kPairs = {
      "::", "+=", "-=", "*=", "/=", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "->", "<<"};
  for (size_t i = 0; i < code.size();) {
    const char c = code[i];
    const bool number = std::isdigit(static_cast<unsigned char>(c));
    size_t e = i + 1;
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
      i = e;
      continue;
    }
    if (number) {
      e = number_end(code, i);
    } else if (is_identifier_char(c)) {
      while (e < code.size() && is_identifier_char(code[e])) ++e;
    } else if (kPairs.count(code.substr(i, 2))) {
      e = i + 2;
    }
    out.push_back({code.substr(i, e - i), std::nullopt});
    i = e;
  }
}

// The tokens of `source`: those of its code, and each literal whole; comments are skipped.
std::vector<Token> tokenize(std::string_view source) {
  std::vector<Token> out;
  for (const SourceRegion& r : lex_regions(source)) {
    const std::string_view whole = source.substr(r.begin, r.end - r.begin);
    if (r.kind == RegionKind::code) tokenize_code(whole, out);
    if (r.kind == RegionKind::string_literal) out.push_back({whole, r.text(source)});
    if (r.kind == RegionKind::char_literal) out.push_back({whole, std::nullopt});
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
  explicit Scan(std::string_view source) : t_(tokenize(source)), n_(t_.size()), match_(n_, n_) {
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
  const std::optional<std::string_view>& string(size_t i) const { return t_[i].string; }
  size_t match(size_t i) const { return match_[i]; }
  static bool is_ident(std::string_view x) {
    return !x.empty() && is_identifier_char(x[0]) &&
           !std::isdigit(static_cast<unsigned char>(x[0]));
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
  const Scan s(source);
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
        if (const auto& text = s.string(j)) ptx.append(*text).append("\n");
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
        sig.*f.flag = !is_identifier_char(m[0]) || at == 0 ||
                      !(is_identifier_char(ptx[at - 1]) || ptx[at - 1] == '.');
    });
  }
  return sig;
}

}  // namespace kblaster
