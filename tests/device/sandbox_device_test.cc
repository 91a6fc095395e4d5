// A candidate whose launcher tries to reach a service on the host's loopback,
// run by `kblaster verify` and under ncu by `kblaster profile` on a real GPU: it
// must reach nothing in either. Labelled `gpu`; skips, saying why, without a
// CUDA device or where the platform gives no network namespace.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "cli_run.h"
#include "gpu/ncu.h"
#include "host_listener.h"
#include "on_device.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;

// Connects to the host's loopback on `port`, as the candidate below does.
bool phone(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<unsigned short>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool reached = fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  if (fd >= 0) ::close(fd);
  return reached;
}

constexpr const char* kPhoningKernel = R"cu(#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

__global__ void fill(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}

// Hostile: before its honest work, it tries to reach a service on the host's loopback.
void phone(float* out, int n, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<unsigned short>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0) {
    connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    close(fd);
  }
  fill<<<(n + 255) / 256, 256>>>(out, n);
}
)cu";

class SandboxOnDevice : public testing::OnDevice {};

TEST_F(SandboxOnDevice, AKernelReachesNoHostServiceUnderVerifyOrProfile) {
  testing::HostListener host;
  ASSERT_TRUE(phone(host.port()));
  ASSERT_EQ(host.drain(), 1) << "the listener is reachable from the host itself";

  testing::TempDir repo, cache;
  repo.write("phone.cu", kPhoningKernel);
  repo.write(
      "phone_ref.cpp",
      "void phone_ref(float* out, int n, int) { for (int i = 0; i < n; ++i) out[i] = 1; }\n");
  repo.write("kblaster.toml", R"TOML([[kernel]]
name = "phone"
source = "phone.cu"
launcher = "phone"
reference = "phone_ref.cpp:phone_ref"
args = [
  { name = "out", type = "f32", shape = "n", role = "out" },
  { name = "n", type = "i32" },
  { name = "port", type = "i32", value = )TOML" +
                                  std::to_string(host.port()) + R"TOML( },
]
sizes = [ { n = 4096 } ]
)TOML");

  auto verify =
      run_kblaster({"verify", repo.path().string(), "--cache-dir", cache.path().string()});
  ASSERT_EQ(verify.exit_code, 0) << verify.err;
  // On a GPU machine the harness must get a network namespace of its own: a harness on the
  // host's network is the failure this test exists to catch, not a reason to skip it.
  ASSERT_THAT(verify.err, HasSubstr("its network: no network (a namespace of its own"))
      << "the harness ran on the host's network";
  EXPECT_EQ(host.drain(), 0) << "the candidate reached the host under verify";

  // Without ncu installed there is nothing to run under it; an ncu that is there
  // must profile, so a failure inside the namespace fails this test.
  const auto ncu = find_ncu([](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    return value ? std::optional<std::string>(value) : std::nullopt;
  });
  if (!ncu) GTEST_SKIP() << "verify reached no host service; no ncu here: " << ncu.error().message;
  auto profile = run_kblaster(
      {"profile", repo.path().string(), "--json", "--cache-dir", cache.path().string()});
  ASSERT_EQ(profile.exit_code, 0) << "ncu profiles inside the namespace: " << profile.err;
  EXPECT_EQ(host.drain(), 0) << "the candidate reached the host under ncu";
}

}  // namespace
}  // namespace kblaster
