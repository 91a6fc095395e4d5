// kblaster-harness: serves docs/harness-protocol.md on stdin/stdout, one JSON
// request per line. The only place the harness catches exceptions.
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
  if (op == "recheck") return h.recheck(request);
  if (op == "peak_bandwidth") return h.peak_bandwidth();
  throw kblaster::harness::HarnessFailure("unknown op `" + op + "`");
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  Harness harness;
  for (std::string line; std::getline(std::cin, line);) {
    if (line.empty()) continue;
    json response;
    try {
      const json request = json::parse(line);
      if (request.value("op", "") == "quit") break;
      if (!harness.sticky_error().empty())
        throw kblaster::harness::HarnessFailure("an earlier launch faulted: " + harness.sticky_error());
      response = dispatch(harness, request);
      response["ok"] = true;
    } catch (const std::exception& e) {
      response = {{"ok", false}, {"error", e.what()}};
    }
    std::cout << response.dump() << "\n" << std::flush;
  }
  return 0;
}
