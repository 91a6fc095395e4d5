#include "gpu/sandbox.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "gpu/child_process.h"
#include "gpu/landlock_rules.h"
#include "host_listener.h"
#include "scoped_env.h"
#include "test_paths.h"

namespace kblaster {
namespace {

struct SandboxedRun {
  ChildReply reply;
  SandboxReport report;
};

// Runs `script` under /bin/sh in a sandboxed child: its first stdout line, and its sandbox.
SandboxedRun run_sandboxed(const std::string& script, const SandboxPolicy& policy = {}) {
  ChildSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.sandbox = policy;
  auto child = ChildProcess::start(spec);
  if (!child) return {{{}, ChildError{ChildFailure::exited, child.error().message, -1, {}}}, {}};
  return {child->request("go", 10.0), child->sandbox()};
}

TEST(Sandbox, RecognisesSecretNamesCaseInsensitively) {
  for (const char* name :
       {"GITHUB_TOKEN", "GH_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_RUNTIME_URL",
        "OPENAI_API_KEY", "HF_TOKEN", "MY_SECRET", "DB_SECRET_VALUE", "PGPASSWORD",
        "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "my_secret"})
    EXPECT_TRUE(looks_like_secret(name)) << name;
  for (const char* name : {"PATH", "HOME", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH",
                           "TOKENIZERS_PARALLELISM", "LANG"})
    EXPECT_FALSE(looks_like_secret(name)) << name;
}

TEST(Sandbox, EnvironmentKeepsAllowListedNamesButNeverSecrets) {
  SandboxPolicy policy;
  policy.env_allow = {"PATH", "HOME", "GITHUB_TOKEN", "MY_SECRET"};
  const char* parent[] = {"HOME=/root",     "GITHUB_TOKEN=ghp_x", "NOT_ALLOWED=1", "MY_SECRET=s",
                          "no-equals-sign", "PATH=/usr/bin:/bin", "PATHX=2",       nullptr};
  EXPECT_EQ(sandbox_environment(policy, parent),
            (std::vector<std::string>{"HOME=/root", "PATH=/usr/bin:/bin"}));
  EXPECT_TRUE(sandbox_environment(policy, nullptr).empty());
}

// The test that proves token scrubbing: a real child, a parent full of secrets.
TEST(Sandbox, ChildSeesNoSecretsEvenWhenTheParentHasThemAndAllowsThem) {
  const std::vector<std::string> secrets = {"GITHUB_TOKEN",          "OPENAI_API_KEY",
                                            "ANTHROPIC_API_KEY",     "MY_SECRET",
                                            "ACTIONS_RUNTIME_TOKEN", "AWS_SECRET_ACCESS_KEY"};
  std::vector<std::pair<std::string, std::string>> vars;
  for (const auto& name : secrets) vars.push_back({name, "leaked-" + name});
  testing::ScopedEnv env(vars);
  testing::TempDir dir;
  const auto out = dir.path() / "env.txt";

  SandboxPolicy allowing_secrets;
  allowing_secrets.env_allow.insert(allowing_secrets.env_allow.end(), secrets.begin(),
                                    secrets.end());
  for (const SandboxPolicy& policy : {SandboxPolicy{}, allowing_secrets}) {
    auto [reply, report] = run_sandboxed("env > '" + out.string() + "'; echo done", policy);
    ASSERT_TRUE(reply.ok()) << reply.failure->message;
    EXPECT_EQ(reply.line, "done");
    std::stringstream text;
    text << std::ifstream(out).rdbuf();
    for (const auto& name : secrets) {
      EXPECT_EQ(text.str().find(name + "="), std::string::npos) << name;
      EXPECT_EQ(text.str().find("leaked-"), std::string::npos);
    }
    EXPECT_NE(text.str().find("PATH=" + std::string(::getenv("PATH"))), std::string::npos);
  }
}

const char* kInterfaces = "echo $(tail -n +3 /proc/net/dev | cut -d: -f1)";

TEST(Sandbox, IsolatedChildSeesOnlyLoopback) {
  auto [reply, report] = run_sandboxed(kInterfaces);
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  if (!report.network_isolated)
    GTEST_SKIP() << "network isolation unavailable here: " << report.why_not;
  EXPECT_TRUE(report.why_not.empty());
  EXPECT_EQ(reply.line, "lo");
}

TEST(Sandbox, NetworkIsolationOffSharesTheParentsInterfaces) {
  SandboxPolicy policy;
  policy.network = NetworkIsolation::off;
  auto [reply, report] = run_sandboxed(kInterfaces, policy);
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_FALSE(report.network_isolated);
  EXPECT_NE(report.why_not.find("off by policy"), std::string::npos);
  std::ifstream dev("/proc/net/dev");
  std::string line;
  std::vector<std::string> parent;
  for (int n = 0; std::getline(dev, line); ++n) {
    if (n < 2) continue;
    const auto start = line.find_first_not_of(' ');
    parent.push_back(line.substr(start, line.find(':') - start));
  }
  std::string joined;
  for (const auto& name : parent) joined += (joined.empty() ? "" : " ") + name;
  EXPECT_EQ(reply.line, joined);
}

// A child's view of loopback: "own-ok" when it can listen on and connect to its
// own 127.0.0.1 (what ncu needs to reach its target), then "host-reached" or
// "host-unreachable" for the host's listener on `port`.
std::string loopback_probe(int port) {
  return "python3 -c '\n"
         "import socket\n"
         "own = socket.socket()\n"
         "own.bind((\"127.0.0.1\", 0))\n"
         "own.listen(1)\n"
         "socket.create_connection(own.getsockname(), timeout=5)\n"
         "try:\n"
         "    socket.create_connection((\"127.0.0.1\", " +
         std::to_string(port) +
         "), timeout=5)\n"
         "    host = \"host-reached\"\n"
         "except OSError:\n"
         "    host = \"host-unreachable\"\n"
         "print(\"own-ok\", host)\n"
         "' 2>&1";
}

// The namespace of its own keeps a working loopback, so ncu can talk to the
// harness it starts, but the host's loopback services are out of reach.
TEST(Sandbox, IsolatedChildHasALoopbackOfItsOwnButNotTheHosts) {
  testing::HostListener host;
  auto [reply, report] = run_sandboxed(loopback_probe(host.port()));
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  if (!report.network_isolated)
    GTEST_SKIP() << "network isolation unavailable here: " << report.why_not;
  EXPECT_TRUE(report.loopback_up) << report.loopback_why_not;
  EXPECT_EQ(reply.line, "own-ok host-unreachable");
  EXPECT_EQ(network_summary(report), "no network (a namespace of its own, loopback only)");
}

// The control for the test above: the same probe, unsandboxed network, reaches the host.
TEST(Sandbox, WithIsolationOffTheProbeReachesTheHostsListener) {
  testing::HostListener host;
  SandboxPolicy policy;
  policy.network = NetworkIsolation::off;
  auto [reply, report] = run_sandboxed(loopback_probe(host.port()), policy);
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_EQ(reply.line, "own-ok host-reached");
  EXPECT_FALSE(report.loopback_up);
  EXPECT_EQ(network_summary(report), "the host's network (network isolation is off by policy)");
}

TEST(Sandbox, NetworkSummaryNamesWhatFailed) {
  SandboxReport shared{false, "unshare(CLONE_NEWNET): Operation not permitted", false, ""};
  EXPECT_EQ(network_summary(shared),
            "the host's network (unshare(CLONE_NEWNET): Operation not permitted)");
  SandboxReport no_loopback{true, "", false, "bringing up lo: Operation not permitted"};
  EXPECT_EQ(network_summary(no_loopback),
            "no network, not even loopback (a namespace of its own; bringing up lo: Operation "
            "not permitted)");
}

TEST(Sandbox, RlimitsAndNoNewPrivilegesApplyInTheChild) {
  auto [reply, report] = run_sandboxed(
      "set -- $(grep 'Max file size' /proc/self/limits);"
      "echo \"$(ulimit -c) $(ulimit -n) $4 $(grep NoNewPrivs /proc/self/status | cut -f2)\"");
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_EQ(reply.line, "0 256 1073741824 1");
}

// Issue 21 B2: compiles run beside timings, niced, so the harness keeps its core.
TEST(Sandbox, ANicenessIsAddedToTheParentsInTheChild) {
  errno = 0;
  const int parent = ::getpriority(PRIO_PROCESS, 0);
  ASSERT_EQ(errno, 0);
  SandboxPolicy niced;
  niced.niceness = 10;
  auto [reply, report] = run_sandboxed("nice", niced);
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_EQ(reply.line, std::to_string(std::min(19, parent + 10)));
  auto [plain, plain_report] = run_sandboxed("nice");
  ASSERT_TRUE(plain.ok()) << plain.failure->message;
  EXPECT_EQ(plain.line, std::to_string(parent)) << "0 leaves the parent's";
}

// A child cannot take the token from kblaster's own /proc files either: the
// sandbox makes the parent non-dumpable, and a child started as root has no
// CAP_SYS_PTRACE to get past that.
TEST(Sandbox, ChildCannotReadTheParentsEnvironmentFromProc) {
  testing::ScopedEnv env({{"GITHUB_TOKEN", "ghp_from_proc"}, {"DEPLOY_KEY", "k"}});
  const std::string parent = std::to_string(::getpid());
  auto [reply, report] = run_sandboxed("if cat /proc/" + parent +
                                       "/environ >/dev/null 2>&1; then echo read; else echo "
                                       "refused; fi");
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_EQ(reply.line, "refused");
}

TEST(Sandbox, ConfinedChildWritesOnlyBeneathItsWriteRoots) {
  if (landlock_abi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  testing::TempDir dir;
  dir.write("secret/token.txt", "ghp_file\n");
  dir.write("mine/.keep", "");
  SandboxPolicy policy;
  policy.filesystem = FilesystemIsolation::required;
  policy.files.read = {"/usr", "/lib", "/lib64", "/bin", "/etc", "/dev", "/proc"};
  policy.files.write = {dir.path() / "mine", "/dev/null"};
  const std::string d = dir.path().string();
  auto [reply, report] =
      run_sandboxed("r=; (echo a > " + d +
                        "/mine/ok) 2>/dev/null && r=\"$r wrote-mine\"; "
                        "(echo b > " +
                        d +
                        "/outside) 2>/dev/null || r=\"$r outside-refused\"; "
                        "cat " +
                        d + "/secret/token.txt >/dev/null 2>&1 || r=\"$r read-refused\"; echo $r",
                    policy);
  ASSERT_TRUE(reply.ok()) << reply.failure->message;
  EXPECT_TRUE(report.filesystem_confined) << report.filesystem_why_not;
  EXPECT_EQ(reply.line, "wrote-mine outside-refused read-refused");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "outside"));
  EXPECT_EQ(testing::read_text(dir.path() / "mine/ok"), "a\n");
}

}  // namespace
}  // namespace kblaster
