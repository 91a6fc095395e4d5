#include "report/optimization_pr_body.h"

#include "core/markup_escape.h"
#include "report/markdown_blocks.h"
#include "report/number_text.h"
#include "report/reproduce_commands.h"
#include "report/result_reader.h"
#include "report/speedup_caveat.h"

namespace kblaster {
namespace {

using nlohmann::json;

// One kernel of the pull request: its view and its entry in the result.
struct PrKernel {
  const KernelView* view;
  json entry;
};

std::string text_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

std::optional<double> number_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number()
             ? std::optional<double>(j[key].get<double>())
             : std::nullopt;
}

Estimate speedup_of(const json& entry) {
  const json s = entry.contains("speedup") ? entry["speedup"] : json();
  return {.value = number_at(s, "value").value_or(1.0),
          .low = number_at(s, "ci_low"),
          .high = number_at(s, "ci_high")};
}

// `text` shown exactly, as a code span: escapes would show as backslashes inside one.
std::string code(std::string_view text) { return markdown_code_span(text); }

// "N=8192, C=768 (timed); N=333, C=1000", or what stands in when the result has no sizes.
std::string sizes_text(const json& entry) {
  if (!entry.contains("sizes") || !entry["sizes"].is_array() || entry["sizes"].empty())
    return "every size the kernel declares in kblaster.toml (this result does not list them)";
  std::string out;
  for (const json& size : entry["sizes"]) {
    std::string one;
    if (size.is_object())
      for (const auto& [name, value] : size.items())
        one += (one.empty() ? "" : ", ") + name + "=" + value.dump();
    out += (out.empty() ? "" : "; ") + (one.empty() ? std::string("(no scalars)") : one) +
           (out.empty() ? " (timed)" : "");
  }
  return markdown_escape(out);
}

// The verified source form a pull request carries for `entry` instead of its best, which
// needed build settings (github/optimization_selection.h); null when it carries the best.
json carried_form(const json& entry) {
  const json settings = entry.value("settings_needed", json::array());
  const json form = entry.value("source_form", json());
  if (!settings.is_array() || settings.empty() || text_at(form, "status") != "verified")
    return nullptr;
  return form;
}

// What the search's best needed and how the pull request's source carries it instead.
std::string written_as_source(const PrKernel& k) {
  const json form = carried_form(k.entry);
  if (form.is_null()) return "";
  std::string out = "**" + markdown_escape(k.view->name) +
                    "**: the search's best needed build settings, so this pull request carries "
                    "its source form, verified and timed on its own (the speedup above is the "
                    "form's):\n";
  for (const json& line : form.value("rewrites", json::array()))
    if (line.is_string()) out += "- " + markdown_escape(line.get<std::string>()) + "\n";
  if (const auto ratio = number_at(form.value("against_best", json()), "ratio"))
    out +=
        "- time of the source form / time of the best with its settings: " + format_number(*ratio) +
        "\n";
  for (const json& name : form.value("source_defaults", json::array()))
    if (name.is_string())
      out += "- kblaster.toml still lists " + code(name.get<std::string>()) +
             "'s values with the old one first, and kblaster passes the first value as -D, "
             "which overrides the new default: put the new value first to have kblaster time "
             "what your build compiles\n";
  return out + "\n";
}

std::string verification(const PrKernel& k, const json& result) {
  const json ab = k.entry.contains("final_ab") ? k.entry["final_ab"] : json();
  const json recheck = ab.is_object() && ab.contains("recheck") ? ab["recheck"] : json();
  const auto passed = [&](const char* end) {
    return recheck.is_object() && recheck.contains(end) && recheck[end] == true ? "passed"
                                                                                : "not recorded";
  };
  std::string seeds;
  if (result.contains("verification_seeds") && result["verification_seeds"].is_array())
    for (const json& s : result["verification_seeds"])
      seeds += (seeds.empty() ? "" : ", ") + s.dump();
  std::string out = "**" + markdown_escape(k.view->name) + "**\n";
  out += "- verified: " + markdown_escape(text_at(k.entry, "verification")) + "\n";
  out += "- sizes: " + sizes_text(k.entry) + "\n";
  out += "- seeds: " + markdown_escape(seeds) + ", fresh random inputs for each, never zeros\n";
  out +=
      "- checks passed at every size and seed: outputs poisoned before each launch (no element "
      "left unwritten), inputs checksummed (none changed), no NaN or Inf where the reference "
      "is finite, results within the kernel's tolerance\n";
  out += "- after timing: the output of the last timed launch re-verified on changed inputs (A: " +
         std::string(passed("a")) + ", B: " + passed("b") +
         "); timing trusted (above the roofline floor, no work on other streams)\n";
  out +=
      "- soft verification: passed (no extra streams or threads, timer calls, library "
      "shortcuts or removed work)\n";
  out += "- final A/B: " + markdown_escape(text_at(ab, "reason"));
  if (const auto mhz = number_at(ab, "sm_mhz")) out += "; SM clock " + format_number(*mhz) + " MHz";
  return out + "\n\n";
}

std::string techniques(const PrKernel& k) {
  const auto& changes = k.entry.contains("changes") ? k.entry["changes"] : json::array();
  std::string out = "**" + markdown_escape(k.view->name) + "**\n";
  for (std::size_t i = 0; i < k.view->path.size(); ++i) {
    out += std::to_string(i + 1) + ". " + code(k.view->path[i]);
    if (changes.is_array() && i < changes.size() && changes[i].is_string())
      out += ": " + markdown_escape(changes[i].get<std::string>());
    out += "\n";
  }
  out += "\n";
  if (!carried_form(k.entry).is_null())
    out +=
        "These are the steps of the search's best, which needed build settings; this pull "
        "request carries them as the source form above. The profile below is of that best, "
        "built with its settings.\n\n";
  if (k.view->profile) return out + profile_delta_markdown(*k.view);
  const std::string missing = text_at(k.entry, "profile_delta_missing");
  return out + "No profile delta" + (missing.empty() ? "" : ": " + markdown_escape(missing)) +
         ".\n\n";
}

std::string lessons(const std::vector<PrKernel>& kernels) {
  static constexpr std::size_t kMostPerKernel = 12;
  std::string out;
  for (const PrKernel& k : kernels) {
    std::vector<std::string> seen;
    const json steps = k.entry.contains("steps") ? k.entry["steps"] : json::array();
    for (const json& step : steps.is_array() ? steps : json::array()) {
      const std::string lesson = text_at(step, "lesson");
      if (lesson.empty() || std::find(seen.begin(), seen.end(), lesson) != seen.end()) continue;
      seen.push_back(lesson);
      if (seen.size() <= kMostPerKernel)
        out += "- **" + markdown_escape(k.view->name) + "**: " + markdown_escape(lesson) + "\n";
    }
    if (seen.size() > kMostPerKernel)
      out += "- **" + markdown_escape(k.view->name) +
             "**: " + std::to_string(seen.size() - kMostPerKernel) + " more in the KB\n";
  }
  return out.empty() ? "None were recorded in this result.\n\n" : out + "\n";
}

}  // namespace

Result<std::string> optimization_pr_body(const json& result, const OptimizationPrFacts& facts) {
  auto view = read_result(result, "the optimize result");
  if (!view) return view.error();
  std::vector<PrKernel> kernels;
  for (const std::string& name : facts.kernels) {
    const auto it = std::find_if(view->kernels.begin(), view->kernels.end(),
                                 [&](const KernelView& k) { return k.name == name; });
    if (it == view->kernels.end())
      return Error::internal("the optimize result has no kernel " + name);
    json entry = result["kernels"][it - view->kernels.begin()];
    if (const json form = carried_form(entry); !form.is_null()) {
      entry["speedup"] = form.value("speedup", json());
      entry["final_ab"] = form.value("final_ab", json());
    }
    kernels.push_back({&*it, std::move(entry)});
  }
  std::string out = "## kblaster: ";
  out += kernels.size() == 1 ? markdown_escape(kernels[0].view->name) + " " +
                                   format_ratio(speedup_of(kernels[0].entry).value) + " faster"
                             : std::to_string(kernels.size()) + " kernels faster";
  out += ", verified\n\nkblaster's search found faster source for " +
         std::string(kernels.size() == 1 ? "this kernel" : "these kernels") +
         " and verified it. This pull request changes only source files, each exactly as it "
         "was verified and timed; the repository's own build picks them up with no new flag or "
         "setting.\n\n| kernel | source | speedup (99% CI) | final A/B |\n|---|---|---:|---|\n";
  for (const PrKernel& k : kernels)
    out += "| " + markdown_escape(k.view->name) + " | " +
           code((facts.repo_dir.empty() ? "" : facts.repo_dir + "/") + text_at(k.entry, "source")) +
           " | " + format_ratio(speedup_of(k.entry)) + " | " +
           markdown_escape(text_at(k.entry.value("speedup", json()), "verdict")) + " |\n";
  out +=
      "\nSpeedup: base time / new time, from a final interleaved A/B of the two; the CI is "
      "its 99% interval. " +
      markdown_escape(speedup_caveat()) + "\n\n### Verification\n\n";
  for (const PrKernel& k : kernels) out += verification(k, result);
  std::string forms;
  for (const PrKernel& k : kernels) forms += written_as_source(k);
  if (!forms.empty()) out += "### Build settings written as source\n\n" + forms;
  out += "### Path of techniques and profile delta\n\n";
  for (const PrKernel& k : kernels) out += techniques(k);
  out += "### Lessons from the KB\n\n" + lessons(kernels);
  out += "### Reproduce locally\n\n" + reproduce_commands(result, facts) + "\n";
  if (!facts.left_out.empty()) {
    out += "### Left out of this pull request\n\n";
    for (const auto& [kernel, why] : facts.left_out)
      out += "- **" + markdown_escape(kernel) + "**: " + markdown_escape(why) + "\n";
    out += "\n";
  }
  out += "<details><summary>Provenance</summary>\n\n";
  for (const auto& [label, value] : view->facts)
    out += "- " + label + ": " + markdown_escape(value) + "\n";
  return out + "\n</details>\n";
}

}  // namespace kblaster
