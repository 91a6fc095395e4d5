#include "report/reproduce_commands.h"

#include <algorithm>

namespace kblaster {
namespace {

using nlohmann::json;

// The number at `key` of `j` as JSON writes it; "" when it is not a number.
std::string number_text(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].dump() : "";
}

std::string text_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// The kernel's entry of the result; null when it has none.
json kernel_entry(const json& result, const std::string& name) {
  if (result.is_object() && result.contains("kernels") && result["kernels"].is_array())
    for (const json& k : result["kernels"])
      if (text_at(k, "kernel") == name) return k;
  return json();
}

// "kernels/softmax.cu" -> "kernels/softmax.kblaster.cu": beside the original, so its
// relative includes still resolve.
std::string beside(const std::string& source) {
  const auto slash = source.rfind('/');
  const auto dot = source.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return source + ".kblaster";
  return source.substr(0, dot) + ".kblaster" + source.substr(dot);
}

}  // namespace

std::string shell_word(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_./=:,+-").find(c) != std::string_view::npos;
  });
  if (plain && word.front() != '-') return std::string(word);
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string code_block(std::string_view text, std::string_view language) {
  std::size_t longest = 0, run = 0;
  for (char c : text) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  return fence + std::string(language) + "\n" + std::string(text) +
         (text.ends_with('\n') ? "" : "\n") + fence + "\n";
}

std::string reproduce_commands(const json& result, const OptimizationPrFacts& facts) {
  const std::string repo = facts.repo_dir.empty() ? "." : facts.repo_dir;
  const std::string prefix = facts.repo_dir.empty() ? "" : facts.repo_dir + "/";
  const json budget = result.contains("budget") ? result["budget"] : json();
  const json seeds = result.contains("verification_seeds") ? result["verification_seeds"] : json();
  std::string search = "kblaster optimize " + shell_word(repo);
  for (const auto& k : facts.kernels) search += " --kernel " + shell_word(k);
  search += " --search-seed " + number_text(result, "search_seed");
  for (const auto& [flag, key] : {std::pair{"--breadth", "breadth"},
                                  {"--depth", "depth"},
                                  {"--max-time", "max_seconds"},
                                  {"--patience", "patience"}})
    if (const std::string v = number_text(budget, key); !v.empty())
      search.append(" ").append(flag).append(" ").append(v);
  if (seeds.is_array() && !seeds.empty() && seeds[0].is_number())
    search += " --seed " + seeds[0].dump();
  if (result.contains("source_only") && result["source_only"] == true) search += " --source-only";

  std::string text =
      "# 1. The search as it ran (it also stops at its time limit, so elsewhere it may take\n"
      "#    another path):\n" +
      search +
      "\n\n"
      "# 2. This pull request's source against the base's, verified and timed A/B on your GPU:\n"
      "git fetch origin " +
      shell_word(facts.branch) + "\n";
  for (const auto& name : facts.kernels) {
    const std::string source = text_at(kernel_entry(result, name), "source");
    text += "git show " + shell_word("origin/" + facts.branch + ":" + prefix + source) + " > " +
            shell_word(prefix + beside(source)) + "\n";
    text += "kblaster compare " + shell_word(repo) + " --a " + shell_word(name) + " --b-source " +
            shell_word(beside(source));
    if (seeds.is_array() && !seeds.empty() && seeds[0].is_number())
      text += " --seed " + seeds[0].dump();
    text += "\n";
  }
  return code_block(text);
}

}  // namespace kblaster
