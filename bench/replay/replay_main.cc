// kblaster-replay: the KB-cold vs KB-warm ablation replayed offline, by the real search
// against outcomes the H200 recorded. A model, not a measurement (README.md).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/config_loader.h"
#include "replay_protocol.h"
#include "replay_report.h"

namespace kblaster {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return {std::istreambuf_iterator<char>(in), {}};
}

// "101-130", "7,11,13", or a mix: "1-3,9".
std::vector<std::uint64_t> parse_seeds(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const auto dash = item.find('-');
    const std::uint64_t lo = std::stoull(item.substr(0, dash));
    const std::uint64_t hi = dash == std::string::npos ? lo : std::stoull(item.substr(dash + 1));
    for (std::uint64_t s = lo; s <= hi; ++s) out.push_back(s);
  }
  return out;
}

// Every kernel of the example configuration that has at least one result.json under `dirs`.
std::map<std::string, KernelOutcomes> load_recordings(const Config& config,
                                                      const std::filesystem::path& examples,
                                                      const std::vector<std::string>& dirs) {
  std::vector<std::filesystem::path> files;
  for (const auto& d : dirs)
    for (const auto& e : std::filesystem::recursive_directory_iterator(d))
      if (e.is_regular_file() && e.path().filename() == "result.json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::map<std::string, KernelOutcomes> out;
  for (const auto& f : files) {
    const auto result = nlohmann::json::parse(read_file(f));
    const std::string name = result.value("kernel", "");
    auto it = out.find(name);
    if (it == out.end()) {
      const auto spec = std::find_if(config.kernels.begin(), config.kernels.end(),
                                     [&](const KernelSpec& k) { return k.name == name; });
      if (spec == config.kernels.end()) continue;  // not an example kernel
      it = out.emplace(name, KernelOutcomes(*spec, read_file(examples / spec->source),
                                            TargetGpu{"sm_90", true}))
               .first;
    }
    it->second.add_run(result, f.string());
  }
  return out;
}

int run(int argc, char** argv) {
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
  CLI11_PARSE(app, argc, argv);

  auto config = load_config(DirectoryTree(examples));
  if (!config) throw std::runtime_error(config.error().describe());
  const auto cat_dir = root / "kb/catalogue";
  auto catalogue =
      load_catalogue(read_file(cat_dir / "techniques.json"), read_file(cat_dir / "states.json"));
  if (!catalogue) throw std::runtime_error(catalogue.error().describe());
  const auto recorded = load_recordings(*config, examples, results);
  for (const auto& k : kernels)
    if (!recorded.count(k)) throw std::runtime_error("no recordings of kernel " + k);

  ReplayProtocol protocol;
  protocol.seeds = parse_seeds(seeds);
  protocol.train_seeds = parse_seeds(train_seeds);
  protocol.kernels = kernels;
  char tmpl[] = "/tmp/kblaster-replay-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("cannot make a temporary folder");
  protocol.kb_dir = tmpl;
  auto replayed = replay_ablation(recorded, *catalogue, protocol);
  std::filesystem::remove_all(protocol.kb_dir);
  if (!replayed) throw std::runtime_error(replayed.error().describe());
  if (json)
    std::cout << report_json(recorded, protocol, *replayed).dump(2) << "\n";
  else
    print_report(std::cout, recorded, protocol, *replayed);
  return 0;
}

}  // namespace
}  // namespace kblaster

int main(int argc, char** argv) {
  try {
    return kblaster::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kblaster-replay: %s\n", e.what());
    return 1;
  }
}
