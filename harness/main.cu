// kblaster-harness: serves docs/harness-protocol.md on stdin/stdout, one JSON
// request per line. The only place the harness catches exceptions.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "cuda_check.h"
#include "harness.h"

namespace {

using kblaster::harness::Harness;
using nlohmann::json;

json dispatch(Harness& h, const json& request) {
  const std::string op = request.at("op").get<std::string>();
  if (op == "hello") return h.hello();
  if (op == "load") return h.load(request);
  if (op == "setup") return h.setup(request);
  if (op == "verify") return h.verify(request);
  if (op == "bench_prepare") return h.bench_prepare(request);
  if (op == "sample") return h.sample(request);
  if (op == "baseline_sample") return h.baseline_sample(request);
  if (op == "guard_damage") return h.guard_damage(request);
  if (op == "recheck") return h.recheck(request);
  if (op == "peak_bandwidth") return h.peak_bandwidth();
  if (op == "peak_fp32") return h.peak_fp32();
  if (op == "peak_tensor") return h.peak_tensor();
  if (op == "profile") return h.profile(request);
  throw kblaster::harness::HarnessFailure("unknown op `" + op + "`");
}

}  // namespace

int main() {
  // Candidates' own CUDA runtimes read this when they start: load every kernel
  // of a module at once, so no later launch stops to load one (a load
  // synchronises the device, which must not happen while a stream is held).
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);
  // Responses go to the original stdout; anything a candidate prints goes to stderr.
  const int protocol_fd = dup(STDOUT_FILENO);
  if (protocol_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return 3;
  FILE* protocol = fdopen(protocol_fd, "w");
  if (!protocol) return 3;
  // Reference outputs shared with the session's other harnesses, where kblaster gave a folder.
  Harness harness(kblaster::harness::SharedReferenceOutputs::from_environment());
  for (std::string line; std::getline(std::cin, line);) {
    if (line.empty()) continue;
    json response;
    try {
      const json request = json::parse(line);
      if (request.value("op", "") == "quit") break;
      if (!harness.sticky_error().empty())
        throw kblaster::harness::HarnessFailure("an earlier launch faulted: " +
                                                harness.sticky_error());
      response = dispatch(harness, request);
      response["ok"] = true;
    } catch (const kblaster::harness::ReferenceFailure& e) {
      response = {{"ok", false}, {"error", e.what()}, {"cause", e.cause}};
    } catch (const std::exception& e) {
      response = {{"ok", false}, {"error", e.what()}};
    }
    const std::string text = response.dump() + "\n";
    if (std::fwrite(text.data(), 1, text.size(), protocol) != text.size() ||
        std::fflush(protocol) != 0)
      return 3;  // the parent is gone
  }
  return 0;
}
