// A PyTorch reference (`reference = "ref.py:Model"`), run by a Python worker process that this
// object starts on first use and ends when destroyed: python_reference_worker.py, written into a
// private directory together with every exchanged tensor. The worker builds the module's class
// once (`Model(*get_init_inputs())`, seeded) and answers one JSON line per call of forward.
// Nothing from Python is loaded into this process; the worker is this process's child, so it
// runs in the harness's sandbox (its network namespace, no new privileges, filtered environment)
// and is killed if the harness dies.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "element_type.h"

namespace kblaster::harness {

class PythonReference {
 public:
  // One tensor as forward sees it: the buffer's reference type and dimensions.
  struct Tensor {
    std::string name;
    ElementType type = ElementType::f32;
    std::vector<std::int64_t> dims;
    const std::vector<unsigned char>* bytes = nullptr;  // an input's bytes; null for an output
  };

  // `module`: the staged .py file; `class_name`: its module class. `python`: the interpreter,
  // looked up in PATH (KBLASTER_PYTHON, else "python3"). `train`: forward in training mode
  // (KernelBench's), else eval mode. Starts nothing yet.
  PythonReference(std::string module, std::string class_name, std::string python,
                  bool train = false);
  PythonReference(const PythonReference&) = delete;
  PythonReference& operator=(const PythonReference&) = delete;
  // Ends the worker (SIGKILL after its stdin closes) and removes the private directory.
  ~PythonReference();

  // forward(*inputs), its results written as `outputs` declare: one byte vector each, of the
  // output's type and element count. Throws HarnessFailure naming the module and the worker's
  // error (a Python exception, an output of the wrong count or size, a worker that ended).
  std::vector<std::vector<unsigned char>> run(const std::vector<Tensor>& inputs,
                                              const std::vector<Tensor>& outputs);

  // The module's own tensors named by `tensors` (state_dict names), each converted to its type
  // and checked against its dimensions: one byte vector each. Throws HarnessFailure as run does
  // (a name the module does not have is said with the names it has).
  std::vector<std::vector<unsigned char>> state(const std::vector<Tensor>& tensors);

  // Times forward in `mode` ("eager" or "compile": torch.compile) as kblaster times a kernel:
  // `count` samples, each one call after an L2 flush (`l2_bytes` of it), between CUDA events, the
  // stream held behind a GPU spin while the call is queued; seconds each. `inputs` are sent when
  // given; null times on the last ones sent. Throws HarnessFailure as run does.
  std::vector<double> time(const std::vector<Tensor>* inputs, const std::string& mode, int count,
                           std::size_t l2_bytes);

  // Whether the module the worker builds has its constant floating-point tensors (a fresh norm
  // layer's ones and zeros) replaced by seeded varied values: on when the kernel is handed the
  // module's state, so a kernel that ignores it fails. Sent with every later request.
  void vary_constants(bool on) { vary_ = on; }

  // What the worker reported at its last call: "torch 2.5.1 on cuda".
  const std::string& runtime() const { return runtime_; }

 private:
  void start();
  std::string request(const std::string& line);  // one line out, one line back
  // The worker's answer to `req` as JSON, its `ok: false` a failure.
  nlohmann::json call(const nlohmann::json& req);
  // Writes the bytes of `tensors` that have them as <prefix><i>.bin and lists them all.
  nlohmann::json send(const std::vector<Tensor>& tensors, const char* prefix);
  // Reads back what the worker wrote for `tensors` as `listed` (send's list), then removes every
  // file sent or written; `listed_as` names them in errors ("its output").
  std::vector<std::vector<unsigned char>> receive(const std::vector<Tensor>& tensors,
                                                  const nlohmann::json& listed,
                                                  const char* listed_as);
  // Throws ReferenceFailure naming the module; `cause`: kCauseReference or kCauseEnvironment.
  [[noreturn]] void fail(const std::string& why, const char* cause = kCauseReference) const;

  std::string module_, class_name_, python_, runtime_;
  bool vary_ = false;  // vary_constants
  bool train_ = false;
  std::string dir_;  // the private directory; empty until started
  pid_t pid_ = -1;
  int to_worker_ = -1, from_worker_ = -1;
  std::string pending_;  // bytes read past the last answer's newline
};

// The interpreter the harness runs references with: $KBLASTER_PYTHON, else "python3".
std::string python_interpreter();

}  // namespace kblaster::harness
