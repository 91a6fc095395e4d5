// The buffers and scalars of one launch at one size: guarded device buffers for
// every argument, pristine copies of the inputs, host copies for a CPU reference,
// and the void* argument vectors the candidate and the reference are called with.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "device_memory.h"
#include "element_type.h"
#include "guard_scan.h"
#include "guarded_buffer.h"
#include "python_reference.h"
#include "random_fill.h"
#include "verdict.h"

namespace kblaster::harness {

enum class Role { in, out, inout };

struct ArgDesc {
  std::string name;
  ElementType type = ElementType::f32;
  Role role = Role::in;
  bool is_buffer = false;
  std::size_t elements = 0;
  std::vector<std::int64_t> dims;  // the tensor's dimensions (a PyTorch reference's); {elements}
  Distribution init;
  double value = 0.0;  // scalars
  bool to_reference = true;
  // The type a CPU reference takes this buffer in (the spec's `reference_type`); `type` unless
  // declared. Inputs are converted to it on the way in, outputs back on the way out.
  ElementType reference_type = ElementType::f32;

  std::size_t bytes() const { return elements * element_size(type); }
  std::size_t reference_bytes() const { return elements * element_size(reference_type); }
  bool is_output() const { return is_buffer && role != Role::in; }
  bool is_input() const { return is_buffer && role != Role::out; }
};

// Parses the `args` of a setup request; throws HarnessFailure naming the bad field.
std::vector<ArgDesc> parse_args(const nlohmann::json& args);

// Host bytes of every output buffer, in argument order.
using OutputSnapshot = std::vector<std::vector<unsigned char>>;

class Workload {
 public:
  explicit Workload(std::vector<ArgDesc> args);
  Workload(const Workload&) = delete;  // owns device memory
  Workload& operator=(const Workload&) = delete;

  const std::vector<ArgDesc>& args() const { return args_; }
  // Device bytes allocated, guards and pristine copies included.
  std::size_t device_bytes() const;

  // The function that fills buffer `arg` when its init is a generator: it writes `count` elements
  // of the argument's reference type at `data`, from `seed`. fill_inputs needs one for each.
  using GeneratorFn = void (*)(void* data, std::int64_t count, std::uint64_t seed);
  void set_generator(std::size_t arg, GeneratorFn fn) { generators_.at(arg) = fn; }
  // What buffer `arg` holds when its init is a module's state: `bytes` of its type, exactly
  // bytes() of them (else HarnessFailure). fill_inputs needs them for each such buffer.
  void set_state(std::size_t arg, std::vector<unsigned char> bytes);

  // Fresh inputs from `seed` into the device buffers, their pristine copies and
  // host copies; every guard is filled with its canary again.
  void fill_inputs(std::uint64_t seed, cudaStream_t stream);
  // Copies the pristine inputs back over every input and inout buffer.
  void restore_inputs(cudaStream_t stream);
  // Fills every role=out buffer with the byte `pattern`.
  void poison_outputs(unsigned char pattern, cudaStream_t stream);
  // Reads every buffer's guards back (synchronising `stream`): `out_of_bounds_write`
  // for the first changed guard in argument order, before then after; every guard
  // is then armed again, so the next launch is judged on its own.
  Verdict check_guards(cudaStream_t stream);

  // Copies of the device buffers (outputs / inputs), synchronising `stream`.
  OutputSnapshot read_outputs(cudaStream_t stream) const;
  OutputSnapshot read_inputs(cudaStream_t stream) const;
  // Device buffers shaped like the outputs, for copies taken while a stream is
  // held (allocating then could synchronise the device, so it happens before).
  std::vector<DeviceBuffer> allocate_output_copies() const;
  // Enqueues device-to-device copies of the outputs into `copies` on `stream`.
  void copy_outputs(std::vector<DeviceBuffer>& copies, cudaStream_t stream) const;
  // Host bytes of such copies, synchronising `stream`.
  static OutputSnapshot read_copies(const std::vector<DeviceBuffer>& copies, cudaStream_t stream);

  // The host copies of the role=in buffers made by fill_inputs, in argument order.
  OutputSnapshot host_inputs() const;
  // What the outputs hold before a launch: `poison` for role=out, the inputs for inout.
  OutputSnapshot initial_outputs(unsigned char poison) const;

  // Argument vectors: every argument for a candidate; `to_reference` ones for a
  // reference, with device pointers (GPU) or host pointers (CPU).
  void** candidate_args() { return candidate_args_.data(); }
  void** gpu_reference_args() { return gpu_reference_args_.data(); }
  // Host buffers for a CPU reference: inputs are copies of this seed's inputs,
  // outputs start poisoned. After the call, cpu_reference_outputs() holds them.
  void** prepare_cpu_reference();
  OutputSnapshot cpu_reference_outputs() const;
  // After prepare_cpu_reference: runs `reference` on the host inputs (buffers in and inout, in
  // argument order, of their reference types and dims) into the host outputs (out and inout),
  // and returns them as cpu_reference_outputs does. Scalars are not passed: a module's sizes are
  // its tensors' shapes.
  OutputSnapshot python_reference_outputs(PythonReference& reference);
  // After prepare_cpu_reference: the inputs python_reference_outputs hands the module.
  std::vector<PythonReference::Tensor> python_reference_inputs() const;

 private:
  // Enqueues every guard's canary upload on `stream`.
  void arm_guards(cudaStream_t stream);

  struct Slot {
    GuardedBuffer device;               // buffers only: what the launch is handed
    DeviceBuffer pristine;              // inputs only
    std::vector<unsigned char> host;    // host copy (inputs) or CPU reference buffer
    std::vector<unsigned char> scalar;  // a scalar's bytes
  };
  std::vector<ArgDesc> args_;
  std::vector<Slot> slots_;
  std::vector<void*> candidate_args_, gpu_reference_args_, cpu_reference_args_;
  std::vector<std::vector<unsigned char>> cpu_inputs_;
  std::vector<GeneratorFn> generators_ = std::vector<GeneratorFn>(args_.size(), nullptr);
  std::vector<std::vector<unsigned char>> states_ =
      std::vector<std::vector<unsigned char>>(args_.size());
  GuardScan guard_scan_;  // every buffer's guards, before then after, in argument order
  std::vector<std::pair<std::size_t, GuardSide>> guard_owners_;  // per scanned guard
};

}  // namespace kblaster::harness
