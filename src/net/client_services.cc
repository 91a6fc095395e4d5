#include "net/client_services.h"

#include <chrono>
#include <memory>
#include <random>
#include <thread>

namespace kblaster {

HttpClientServices real_client_services(Clock& clock, std::uint64_t seed,
                                        std::function<void(const std::string& line)> log) {
  auto engine = std::make_shared<std::mt19937_64>(seed);
  return {
      .clock = clock,
      .unix_seconds =
          [] {
            return std::chrono::duration<double>(
                       std::chrono::system_clock::now().time_since_epoch())
                .count();
          },
      .sleep =
          [](double seconds) {
            std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
          },
      .jitter = [engine] { return static_cast<double>((*engine)() >> 11) * 0x1.0p-53; },
      .log = std::move(log),
  };
}

}  // namespace kblaster
