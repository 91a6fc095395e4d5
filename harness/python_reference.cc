#include "python_reference.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cuda_check.h"
#include "python_reference_worker.h"

namespace kblaster::harness {
namespace {

namespace fs = std::filesystem;

// Element type names as the worker's TYPES table spells them (the spec's).
const char* type_name(ElementType t) {
  switch (t) {
    case ElementType::f64:
      return "f64";
    case ElementType::f32:
      return "f32";
    case ElementType::f16:
      return "f16";
    case ElementType::bf16:
      return "bf16";
    case ElementType::i64:
      return "i64";
    case ElementType::i32:
      return "i32";
    case ElementType::i16:
      return "i16";
    case ElementType::i8:
      return "i8";
    case ElementType::u8:
      return "u8";
    case ElementType::boolean:
      return "bool";
  }
  return "?";
}

std::size_t element_count(const std::vector<std::int64_t>& dims) {
  std::size_t n = 1;
  for (auto d : dims) n *= static_cast<std::size_t>(d);
  return n;
}

void write_bytes(const fs::path& path, const std::vector<unsigned char>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f.flush())
    throw HarnessFailure("cannot write a PyTorch reference's input to " + path.string() + ": " +
                         std::strerror(errno));
}

// The longest answer line the worker may send: its samples, a runtime and an error fit in far
// less.
constexpr std::size_t kMaxAnswerBytes = 4 << 20;

// `name` as execv needs it: itself when it has a '/', else the first executable of that name
// on PATH; "" when there is none.
std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  const std::string search = path && *path ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= search.size();) {
    const std::size_t end = std::min(search.find(':', start), search.size());
    const std::string dir = end > start ? search.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

// What the worker says, as one line of printable text: a pull request's module controls it,
// and a newline could forge a CI log's commands.
std::string one_line(std::string text, std::size_t max) {
  if (text.size() > max) text.resize(max);
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return text;
}

// An output file the worker wrote: a regular file (not a link to /dev/zero, not a FIFO) of
// exactly `want` bytes, read no further than that.
std::optional<std::vector<unsigned char>> read_output(const std::string& file, std::size_t want,
                                                      std::string& why) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    why = std::string("cannot be opened: ") + std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<std::size_t>(st.st_size) != want) {
    why = S_ISREG(st.st_mode) ? "came back with " + std::to_string(st.st_size) + " bytes, not " +
                                    std::to_string(want)
                              : std::string("is not a regular file");
    ::close(fd);
    return std::nullopt;
  }
  std::vector<unsigned char> bytes(want);
  std::size_t got = 0;
  while (got < want) {
    const ssize_t n = ::read(fd, bytes.data() + got, want - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (got != want) {
    why = "came back short: " + std::to_string(got) + " of " + std::to_string(want) + " bytes";
    return std::nullopt;
  }
  return bytes;
}

}  // namespace

std::string python_interpreter() {
  const char* set = std::getenv("KBLASTER_PYTHON");
  return set && *set ? set : "python3";
}

PythonReference::PythonReference(std::string module, std::string class_name, std::string python,
                                 bool train)
    : module_(std::move(module)),
      class_name_(std::move(class_name)),
      python_(std::move(python)),
      train_(train) {}

PythonReference::~PythonReference() {
  if (to_worker_ >= 0) ::close(to_worker_);
  if (from_worker_ >= 0) ::close(from_worker_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

void PythonReference::fail(const std::string& why, const char* cause) const {
  throw ReferenceFailure(
      "the PyTorch reference " + module_ + ":" + class_name_ + ": " + one_line(why, 1000), cause);
}

void PythonReference::start() {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ =
      (tmp && *tmp ? std::string(tmp) : std::string("/tmp")) + "/kblaster-pyref-XXXXXX";
  if (!::mkdtemp(templ.data()))
    fail(std::string("cannot create its directory: ") + std::strerror(errno), kCauseEnvironment);
  dir_ = templ;
  const std::string script = dir_ + "/python_reference_worker.py";
  {
    std::ofstream f(script, std::ios::trunc);
    f << kPythonReferenceWorker;
    if (!f.flush()) fail("cannot write its worker script to " + script, kCauseEnvironment);
  }
  // Resolved before the fork: the child makes only async-signal-safe calls, and execv is one.
  const std::string program = resolve_program(python_);
  if (program.empty())
    fail("its Python worker could not be started (is `" + python_ + "` in PATH?)",
         kCauseEnvironment);
  rlimit files{};
  const int max_fd = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
                         ? static_cast<int>(std::min<rlim_t>(files.rlim_cur, 1 << 16))
                         : 1 << 16;
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0)
    fail(std::string("pipe: ") + std::strerror(errno), kCauseEnvironment);
  if (::pipe2(out, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(in[0]), ::close(in[1]);
    fail(std::string("pipe: ") + std::strerror(e), kCauseEnvironment);
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
    fail(std::string("fork: ") + std::strerror(e), kCauseEnvironment);
  }
  if (pid == 0) {
    // Only async-signal-safe calls until exec. Killed with the harness, whatever kills it.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    // Nothing else the harness holds reaches the worker (close_range, else one by one).
    if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
      for (int fd = 3; fd < max_fd; ++fd) ::close(fd);
    const char* argv[] = {program.c_str(), "-B", script.c_str(), nullptr};
    ::execv(argv[0], const_cast<char* const*>(argv));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  pid_ = pid;
  to_worker_ = in[1];
  from_worker_ = out[0];
  ::signal(SIGPIPE, SIG_IGN);  // a worker that died shows as EPIPE, then as its exit status
}

std::string PythonReference::request(const std::string& line) {
  const std::string msg = line + "\n";
  for (std::size_t sent = 0; sent < msg.size();) {
    const ssize_t n = ::write(to_worker_, msg.data() + sent, msg.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the worker is gone: its exit status says more below
    sent += static_cast<std::size_t>(n);
  }
  for (;;) {
    if (auto nl = pending_.find('\n'); nl != std::string::npos) {
      std::string answer = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return answer;
    }
    char buf[65536];
    const ssize_t n = ::read(from_worker_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n > 0) {
      pending_.append(buf, static_cast<std::size_t>(n));
      // The module runs in the worker and can reach its protocol pipe: an answer line has a
      // bound, so it cannot grow this process without one.
      if (pending_.size() > kMaxAnswerBytes) {
        pending_.clear();
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
        fail("its Python worker answered more than " + std::to_string(kMaxAnswerBytes) +
             " bytes without ending the line; it was killed");
      }
      continue;
    }
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    const std::string how = WIFEXITED(status) && WEXITSTATUS(status) == 127
                                ? "could not be started (is `" + python_ + "` in PATH?)"
                            : WIFEXITED(status)
                                ? "ended with exit status " + std::to_string(WEXITSTATUS(status))
                                : "was killed by signal " + std::to_string(WTERMSIG(status));
    fail("its Python worker " + how + " (its stderr is the harness's)",
         WIFEXITED(status) && WEXITSTATUS(status) == 127 ? kCauseEnvironment : kCauseReference);
  }
}

nlohmann::json PythonReference::send(const std::vector<Tensor>& tensors, const char* prefix) {
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    const std::string file = dir_ + "/" + prefix + std::to_string(i) + ".bin";
    if (t.bytes) write_bytes(file, *t.bytes);
    list.push_back(
        {{"name", t.name}, {"file", file}, {"type", type_name(t.type)}, {"dims", t.dims}});
  }
  return list;
}

nlohmann::json PythonReference::call(const nlohmann::json& req) {
  nlohmann::json sent = req;
  sent["vary"] = vary_;
  sent["train"] = train_;
  const std::string line = request(sent.dump());
  auto answer = nlohmann::json::parse(line, nullptr, false);
  if (answer.is_discarded() || !answer.is_object())
    fail("its Python worker answered something that is not JSON: " + line.substr(0, 200));
  // The module's own words, which a pull request controls: kept to a few lines.
  if (!answer.value("ok", false))
    fail(answer.value("error", std::string("failed, saying nothing")),
         answer.value("missing", false) ? kCauseEnvironment : kCauseReference);
  runtime_ = one_line(answer.value("runtime", std::string()), 200);
  return answer;
}

std::vector<double> PythonReference::time(const std::vector<Tensor>* inputs,
                                          const std::string& mode, int count,
                                          std::size_t l2_bytes) {
  if (pid_ < 0 && dir_.empty()) start();
  if (pid_ < 0) fail("its Python worker ended earlier");
  const auto answer = call({{"op", "time"},
                            {"module", module_},
                            {"class", class_name_},
                            {"mode", mode},
                            {"count", count},
                            {"l2_bytes", l2_bytes},
                            {"inputs", inputs ? send(*inputs, "in") : nlohmann::json()}});
  const auto samples = answer.value("samples", std::vector<double>{});
  if (samples.size() != static_cast<std::size_t>(count))
    fail("its Python worker timed " + std::to_string(samples.size()) + " of " +
         std::to_string(count) + " calls");
  return samples;
}

std::vector<std::vector<unsigned char>> PythonReference::run(const std::vector<Tensor>& inputs,
                                                             const std::vector<Tensor>& outputs) {
  if (pid_ < 0 && dir_.empty()) start();
  if (pid_ < 0) fail("its Python worker ended earlier");
  const nlohmann::json req = {{"op", "run"},
                              {"module", module_},
                              {"class", class_name_},
                              {"inputs", send(inputs, "in")},
                              {"outputs", send(outputs, "out")}};
  call(req);
  return receive(outputs, req["outputs"], "its output");
}

std::vector<std::vector<unsigned char>> PythonReference::state(const std::vector<Tensor>& tensors) {
  if (pid_ < 0 && dir_.empty()) start();
  if (pid_ < 0) fail("its Python worker ended earlier");
  const nlohmann::json req = {
      {"op", "state"}, {"module", module_}, {"class", class_name_}, {"state", send(tensors, "st")}};
  call(req);
  return receive(tensors, req["state"], "the module's state");
}

std::vector<std::vector<unsigned char>> PythonReference::receive(const std::vector<Tensor>& tensors,
                                                                 const nlohmann::json& listed,
                                                                 const char* listed_as) {
  std::vector<std::vector<unsigned char>> result;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    std::string why;
    auto bytes = read_output(listed[i]["file"].get<std::string>(),
                             element_count(t.dims) * element_size(t.type), why);
    if (!bytes) fail(std::string(listed_as) + " `" + t.name + "` " + why);
    result.push_back(std::move(*bytes));
  }
  for (const auto& entry : fs::directory_iterator(dir_))
    if (entry.path().extension() == ".bin") fs::remove(entry.path());
  return result;
}

}  // namespace kblaster::harness
