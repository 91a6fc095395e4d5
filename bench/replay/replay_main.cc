// kblaster-replay: the KB-cold vs KB-warm ablation replayed offline, by the real search
// against outcomes the H200 recorded. A model, not a measurement (README.md).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "core/config_loader.h"
#include "replay_protocol.h"
#include "replay_report.h"

namespace kblaster {
namespace {

Result<std::string> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return Error::io("cannot read " + p.string());
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// "101-130", "7,11,13", or a mix: "1-3,9". `option` names the flag in errors.
Result<std::vector<std::uint64_t>> parse_seeds(const std::string& text, const char* option) {
  const auto number = [&](std::string_view digits) -> Result<std::uint64_t> {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty())
      return Error::usage(std::string(option) + ": '" + std::string(digits) +
                          "' is not a seed (want e.g. 101-130 or 7,11,13)");
    return value;
  };
  std::vector<std::uint64_t> out;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const auto dash = item.find('-');
    auto lo = number(std::string_view(item).substr(0, dash));
    if (!lo) return lo.error();
    auto hi = dash == std::string::npos ? lo : number(std::string_view(item).substr(dash + 1));
    if (!hi) return hi.error();
    for (std::uint64_t s = *lo; s <= *hi; ++s) out.push_back(s);
  }
  if (out.empty()) return Error::usage(std::string(option) + ": no seeds");
  return out;
}

// Every kernel of the example configuration that has at least one result.json under `dirs`.
Result<std::map<std::string, KernelOutcomes>> load_recordings(
    const Config& config, const std::filesystem::path& examples,
    const std::vector<std::string>& dirs) {
  std::vector<std::filesystem::path> files;
  for (const auto& d : dirs) {
    std::error_code ec;
    std::filesystem::recursive_directory_iterator it(d, ec), end;
    for (; !ec && it != end; it.increment(ec))
      if (it->is_regular_file() && it->path().filename() == "result.json")
        files.push_back(it->path());
    if (ec) return Error::io("--results " + d + ": " + ec.message());
  }
  std::sort(files.begin(), files.end());
  std::map<std::string, KernelOutcomes> out;
  for (const auto& f : files) {
    auto text = read_file(f);
    if (!text) return text.error();
    const auto result = nlohmann::json::parse(*text, nullptr, false);
    if (result.is_discarded() || !result.is_object() || !result.contains("steps") ||
        !result["steps"].is_array())
      return Error::io(f.string() + ": not a kblaster optimize result.json (no steps array)");
    const std::string name = result.value("kernel", "");
    auto it = out.find(name);
    if (it == out.end()) {
      const auto spec = std::find_if(config.kernels.begin(), config.kernels.end(),
                                     [&](const KernelSpec& k) { return k.name == name; });
      if (spec == config.kernels.end()) continue;  // not an example kernel
      auto source = read_file(examples / spec->source);
      if (!source) return source.error();
      it = out.emplace(name, KernelOutcomes(*spec, *source, TargetGpu{"sm_90", true})).first;
    }
    it->second.add_run(result, f.string());
  }
  return out;
}

Result<int> run(int argc, char** argv) {
  const std::filesystem::path root = KBLASTER_SOURCE_DIR;
  const std::string h200 = (root / "bench/results/2026-11-30-h200/").string();
  std::vector<std::string> results = {h200 + "session3", h200 + "session4", h200 + "followup",
                                      h200 + "pilot-borrow"};
  std::string seeds = "101-130", train_seeds = "7,11,13";
  std::vector<std::string> kernels = {"softmax_slow", "scale_rows", "matmul_naive", "layernorm",
                                      "softmax"};
  std::string examples = (root / "examples/kernels").string();
  bool json = false;
  CLI::App app{
      "Replays the KB-cold vs KB-warm ablation offline: the real search against "
      "outcomes the H200 recorded. A model, not a measurement."};
  app.add_option("--results", results, "Folders searched recursively for result.json");
  app.add_option("--seeds", seeds, "Search seeds of the compared pairs (default 101-130)");
  app.add_option("--train-seeds", train_seeds, "Seeds of the training cold runs (default 7,11,13)");
  app.add_option("--kernels", kernels, "Compared kernels (default the five gain kernels)");
  app.add_option("--examples", examples, "The example kernel repository");
  app.add_flag("--json", json, "Print JSON instead of the table");
  ChoiceOptions choice;
  app.add_option("--top-k", choice.top_k, "The choice's top k (default: optimize's, 4)");
  app.add_option("--explore-share", choice.explore_share,
                 "Share of choices that explore untried techniques (default: optimize's, 0.25)")
      ->check(CLI::Range(0.0, 1.0));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // --help prints and returns 0; a bad flag returns CLI11's code
  }

  auto config = load_config(DirectoryTree(examples));
  if (!config) return config.error();
  const auto cat_dir = root / "kb/catalogue";
  auto techniques = read_file(cat_dir / "techniques.json");
  if (!techniques) return techniques.error();
  auto states = read_file(cat_dir / "states.json");
  if (!states) return states.error();
  auto catalogue = load_catalogue(*techniques, *states);
  if (!catalogue) return catalogue.error();
  auto loaded = load_recordings(*config, examples, results);
  if (!loaded) return loaded.error();
  const auto& recorded = *loaded;
  for (const auto& k : kernels)
    if (!recorded.count(k)) return Error::usage("--kernels: no recordings of kernel " + k);

  ReplayProtocol protocol;
  auto compared = parse_seeds(seeds, "--seeds");
  if (!compared) return compared.error();
  auto training = parse_seeds(train_seeds, "--train-seeds");
  if (!training) return training.error();
  protocol.seeds = *compared;
  protocol.train_seeds = *training;
  protocol.choice = choice;
  protocol.kernels = kernels;
  char tmpl[] = "/tmp/kblaster-replay-XXXXXX";
  if (!mkdtemp(tmpl)) return Error::io("cannot make a temporary folder under /tmp");
  protocol.kb_dir = tmpl;
  auto replayed = replay_ablation(recorded, *catalogue, protocol);
  std::error_code removed;
  std::filesystem::remove_all(protocol.kb_dir, removed);  // a leftover temp folder is no failure
  if (!replayed) return replayed.error();
  if (json)
    std::cout << report_json(recorded, protocol, *replayed).dump(2) << "\n";
  else
    print_report(std::cout, recorded, protocol, *replayed);
  return 0;
}

}  // namespace
}  // namespace kblaster

int main(int argc, char** argv) {
  const kblaster::Result<int> code = kblaster::run(argc, argv);
  if (code) return *code;
  std::fprintf(stderr, "kblaster-replay: %s\n", code.error().describe().c_str());
  return kblaster::to_int(kblaster::exit_code_for(code.error().kind));
}
