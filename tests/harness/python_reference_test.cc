// The harness's PyTorch reference worker (issue 22, "PyTorch references"), run for real with
// python3, but against tests/fixtures/torch_stand_in: a stand-in for the few torch calls the
// worker makes, as CI has no torch. The H200 run (tests/device) uses the real torch.
#include "python_reference.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "cuda_check.h"

namespace kblaster::harness {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::vector<unsigned char> floats(std::initializer_list<float> v) {
  std::vector<unsigned char> b(v.size() * sizeof(float));
  std::memcpy(b.data(), std::data(v), b.size());
  return b;
}

std::vector<float> as_floats(const std::vector<unsigned char>& b) {
  std::vector<float> v(b.size() / sizeof(float));
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

class PythonReferenceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("PYTHONPATH",
             (fs::path(KBLASTER_SOURCE_DIR) / "tests/fixtures/torch_stand_in").c_str(), 1);
    std::string templ = (fs::temp_directory_path() / "pyref-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir = templ;
    // The worker's private directory is made under TMPDIR: here, so the test can see it go.
    const char* tmp = std::getenv("TMPDIR");
    saved_tmpdir = tmp ? tmp : "";
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  void TearDown() override {
    if (saved_tmpdir.empty())
      ::unsetenv("TMPDIR");
    else
      ::setenv("TMPDIR", saved_tmpdir.c_str(), 1);
    fs::remove_all(dir);
  }
  std::string module(const std::string& text) {
    const fs::path path = dir / "ref.py";
    std::ofstream(path) << text;
    return path.string();
  }
  // A [2, 3] input `x` and `y`, and a [2, 3] output `out`.
  std::vector<std::vector<unsigned char>> run(PythonReference& ref, int outputs = 1) {
    std::vector<PythonReference::Tensor> out;
    for (int i = 0; i < outputs; ++i)
      out.push_back({"out" + std::to_string(i), ElementType::f32, {2, 3}, nullptr});
    return ref.run({{"x", ElementType::f32, {2, 3}, &x}, {"y", ElementType::f32, {2, 3}, &y}}, out);
  }
  // What a failed run blames: kCauseReference or kCauseEnvironment (docs: exit 2 or 3).
  std::string cause(PythonReference& ref) {
    try {
      run(ref);
    } catch (const ReferenceFailure& f) {
      return f.cause;
    }
    return "(no reference failure)";
  }
  std::string failure(PythonReference& ref, int outputs = 1) {
    try {
      run(ref, outputs);
    } catch (const HarnessFailure& f) {
      return f.what();
    }
    return "(no failure)";
  }

  fs::path dir;
  std::string saved_tmpdir;
  std::vector<unsigned char> x = floats({1, 2, 3, 4, 5, 6}), y = floats({10, 20, 30, 40, 50, 60});
};

constexpr const char* kScaleAdd = R"PY(import torch
import torch.nn as nn

BUILT = 0

class Model(nn.Module):
    def __init__(self, scale):
        global BUILT
        BUILT += 1
        self.scale = scale
    def forward(self, x, y):
        print("the module's own chatter, on stdout")
        return x * self.scale + y * BUILT

def get_init_inputs():
    return [2.0]
)PY";

TEST_F(PythonReferenceTest, ForwardOfTheModulesClassGivesTheOutputs) {
  PythonReference ref(module(kScaleAdd), "Model", "python3");
  // Built once with get_init_inputs() (scale 2): BUILT stays 1 over both calls. The module's
  // print does not garble the answers.
  for (int call = 0; call < 2; ++call) {
    const auto out = run(ref);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(as_floats(out[0]), (std::vector<float>{12, 24, 36, 48, 60, 72})) << call;
  }
  EXPECT_EQ(ref.runtime(), "torch stand-in on cpu");
}

// KernelBench runs its Models in training mode (BatchNorm normalises by the batch); kblaster's
// default is eval mode. The mode is the reference's, so both can run in one worker.
TEST_F(PythonReferenceTest, ForwardRunsInEvalModeUnlessTheReferenceSaysTrain) {
  const std::string text = R"PY(import torch
class Model(torch.nn.Module):
    def forward(self, x, y):
        return x * (3.0 if self.training else 1.0)
)PY";
  PythonReference eval_mode(module(text), "Model", "python3");
  EXPECT_EQ(as_floats(run(eval_mode)[0]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  PythonReference train_mode(module(text), "Model", "python3", /*train=*/true);
  EXPECT_EQ(as_floats(run(train_mode)[0]), (std::vector<float>{3, 6, 9, 12, 15, 18}));
}

TEST_F(PythonReferenceTest, ATupleFillsTheOutputsInOrderConvertedToTheirTypes) {
  PythonReference ref(module(R"PY(import torch
class Model(torch.nn.Module):
    def forward(self, x, y):
        return x + y, torch.relu(x - y).sum(-1)
)PY"),
                      "Model", "python3");
  const auto out = ref.run(
      {{"x", ElementType::f32, {2, 3}, &x}, {"y", ElementType::f32, {2, 3}, &y}},
      {{"sum", ElementType::f32, {2, 3}, nullptr}, {"rows", ElementType::f64, {2}, nullptr}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(as_floats(out[0]), (std::vector<float>{11, 22, 33, 44, 55, 66}));
  ASSERT_EQ(out[1].size(), 2 * sizeof(double)) << "converted to the output's f64";
}

TEST_F(PythonReferenceTest, EachFailureNamesTheModuleAndSaysWhy) {
  const std::string ok = module(kScaleAdd);
  PythonReference missing_class(ok, "Nope", "python3");
  EXPECT_THAT(failure(missing_class), HasSubstr("ref.py:Nope: the module defines no `Nope`"));

  PythonReference two_outputs(ok, "Model", "python3");
  EXPECT_THAT(
      failure(two_outputs, 2),
      HasSubstr("forward returned 1 tensor(s); the spec declares 2 output(s) (`out0`, `out1`)"));

  PythonReference no_python(ok, "Model", "/nonexistent/python3");
  EXPECT_THAT(failure(no_python),
              HasSubstr("could not be started (is `/nonexistent/python3` in PATH?)"));

  // Whose it is to fix: the module's mistakes are the reference's, a missing python or package
  // the environment's.
  PythonReference again_missing_class(ok, "Nope", "python3");
  EXPECT_EQ(cause(again_missing_class), kCauseReference);
  PythonReference again_no_python(ok, "Model", "/nonexistent/python3");
  EXPECT_EQ(cause(again_no_python), kCauseEnvironment);
  PythonReference no_package(module("import kblaster_no_such_package\n" + std::string(kScaleAdd)),
                             "Model", "python3");
  EXPECT_EQ(cause(no_package), kCauseEnvironment);
  // Out of memory is the machine's too (the GPU is shared with the candidates under test).
  const std::string no_room = module(
      "import torch\nclass Model(torch.nn.Module):\n"
      "    def forward(self, x, y):\n        raise MemoryError('no room')\n");
  PythonReference out_of_memory(no_room, "Model", "python3");
  EXPECT_EQ(cause(out_of_memory), kCauseEnvironment);
  PythonReference out_of_memory_again(no_room, "Model", "python3");
  EXPECT_THAT(failure(out_of_memory_again),
              HasSubstr("out of memory running the reference, on a GPU shared with the candidates "
                        "under test: MemoryError: no room"));
}

TEST_F(PythonReferenceTest, TheModulesOwnErrorIsSaidWithWhereAndKeptShort) {
  PythonReference ref(module("import torch\nclass Model(torch.nn.Module):\n"
                             "    def forward(self, x, y):\n"
                             "        raise ValueError('bad ' * 5000)\n"),
                      "Model", "python3");
  const std::string why = failure(ref);
  EXPECT_THAT(why, HasSubstr("ValueError: bad bad"));
  EXPECT_LT(why.size(), 1200u) << "a pull request's module controls this text";
}

// The worker gets stdin, stdout and stderr, nothing else the harness holds (here: descriptor
// 100, open without close-on-exec); and what it says reaches kblaster as one line.
TEST_F(PythonReferenceTest, TheWorkerHoldsNoOtherDescriptorAndSpeaksInOneLine) {
  const int fd = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::dup2(fd, 100), 100);
  ::close(fd);
  PythonReference ref(module("import os, torch\nclass Model(torch.nn.Module):\n"
                             "    def forward(self, x, y):\n"
                             "        if os.path.exists('/proc/self/fd/100'):\n"
                             "            raise RuntimeError('descriptor 100 leaked')\n"
                             "        raise RuntimeError('line one\\n::error::forged')\n"),
                      "Model", "python3");
  const std::string why = failure(ref);
  ::close(100);
  EXPECT_THAT(why, HasSubstr("RuntimeError: line one ::error::forged"));
  EXPECT_EQ(why.find('\n'), std::string::npos);
}

// The module runs inside the worker and can write to its protocol pipe: a line without end is cut
// off and the worker killed, instead of growing the harness.
TEST_F(PythonReferenceTest, AnEndlessAnswerIsRefusedAndTheWorkerKilled) {
  PythonReference ref(module("import os, torch\nclass Model(torch.nn.Module):\n"
                             "    def forward(self, x, y):\n"
                             "        for fd in range(3, 64):\n"
                             "            try:\n"
                             "                while True: os.write(fd, b'x' * (1 << 20))\n"
                             "            except OSError:\n"
                             "                pass\n"),
                      "Model", "python3");
  EXPECT_THAT(failure(ref), HasSubstr("answered more than 4194304 bytes without ending the line"));
  EXPECT_THAT(failure(ref), HasSubstr("its Python worker ended earlier"));
}

TEST_F(PythonReferenceTest, AWrongSizedResultIsRefused) {
  PythonReference ref(module("import torch\nclass Model(torch.nn.Module):\n"
                             "    def forward(self, x, y):\n        return x.sum(-1)\n"),
                      "Model", "python3");
  EXPECT_THAT(failure(ref), HasSubstr("has shape [2] (2 elements); the spec declares [2, 3] (6)"));
}

// A module's own tensors (state_dict: weights a KernelBench problem's Model holds) are handed to
// the kernel as inputs: the worker writes each, converted to the buffer's type, built as forward
// uses it (the same Model object).
TEST_F(PythonReferenceTest, TheModulesOwnTensorsAreWrittenForTheKernelConvertedToItsTypes) {
  PythonReference ref(module(R"PY(import torch
class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.full([2, 3], 0.5))
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = Inner()
        self.steps = torch.full([1], 7, dtype=torch.int64)
    def forward(self, x, y):
        return x * self.lin.weight + y
)PY"),
                      "Model", "python3");
  const auto state = ref.state({{"lin.weight", ElementType::f32, {2, 3}, nullptr},
                                {"steps", ElementType::i32, {1}, nullptr}});
  ASSERT_EQ(state.size(), 2u);
  EXPECT_EQ(as_floats(state[0]), (std::vector<float>(6, 0.5f)));
  ASSERT_EQ(state[1].size(), sizeof(std::int32_t));
  std::int32_t steps = 0;
  std::memcpy(&steps, state[1].data(), sizeof steps);
  EXPECT_EQ(steps, 7) << "an int64 buffer converted to the kernel's i32";
  EXPECT_EQ(as_floats(run(ref)[0]), (std::vector<float>{10.5, 21, 31.5, 42, 52.5, 63}));

  try {
    ref.state({{"conv.weight", ElementType::f32, {2, 3}, nullptr}});
    ADD_FAILURE() << "a name the module does not have";
  } catch (const HarnessFailure& f) {
    EXPECT_THAT(f.what(), HasSubstr("the module has no state `conv.weight` (its parameters and "
                                    "buffers: `lin.weight`, `steps`)"));
  }
  try {
    ref.state({{"lin.weight", ElementType::i8, {2, 3}, nullptr}});
    ADD_FAILURE() << "floats into an integer buffer";
  } catch (const HarnessFailure& f) {
    EXPECT_THAT(f.what(), HasSubstr("the module's `lin.weight` is float32: a buffer of i8 would "
                                    "cut its fractions off"));
  }
  try {
    ref.state({{"lin.weight", ElementType::f32, {4}, nullptr}});
    ADD_FAILURE() << "a shape that differs";
  } catch (const HarnessFailure& f) {
    EXPECT_THAT(f.what(), HasSubstr("the module's state `lin.weight` has shape [2, 3]"));
  }
}

// A fresh norm layer's weight is all ones: a kernel that ignored it would pass. With the kernel
// handed the module's state, its constant tensors are varied (seeded), for forward as for the
// kernel; without, the module is left as built.
TEST_F(PythonReferenceTest, AKernelHandedTheModulesStateGetsItsConstantsVaried) {
  PythonReference ref(module(R"PY(import torch
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.full([2, 3], 1.0))
        self.steps = torch.full([1], 7, dtype=torch.int64)
    def forward(self, x, y):
        return x * self.weight + y
)PY"),
                      "Model", "python3");
  const std::vector<PythonReference::Tensor> asked = {
      {"weight", ElementType::f32, {2, 3}, nullptr}};
  EXPECT_EQ(as_floats(ref.state(asked)[0]), std::vector<float>(6, 1.0f)) << "left as built";
  ref.vary_constants(true);
  const auto varied = as_floats(ref.state(asked)[0]);
  for (float w : varied) {
    EXPECT_GE(w, 0.5f);
    EXPECT_LT(w, 1.5f);
  }
  EXPECT_NE(varied[0], varied[1]);
  const auto out = as_floats(run(ref)[0]);
  const auto inputs = as_floats(x), addends = as_floats(y);
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_FLOAT_EQ(out[i], inputs[i] * varied[i] + addends[i]) << "forward sees the same values";
}

// `bench --baseline torch`: forward timed eager and under torch.compile (the stand-in's compile
// returns the module; with no CUDA the worker says it used the host clock).
TEST_F(PythonReferenceTest, ForwardIsTimedEagerAndCompiledOnTheInputsLastSent) {
  PythonReference ref(module(kScaleAdd), "Model", "python3");
  EXPECT_THAT(
      [&] {
        try {
          ref.time(nullptr, "eager", 3, 1 << 20);
        } catch (const HarnessFailure& f) {
          return std::string(f.what());
        }
        return std::string("(no failure)");
      }(),
      HasSubstr("no inputs to time forward on"));
  const std::vector<PythonReference::Tensor> inputs = {{"x", ElementType::f32, {2, 3}, &x},
                                                       {"y", ElementType::f32, {2, 3}, &y}};
  const auto eager = ref.time(&inputs, "eager", 5, 1 << 20);
  ASSERT_EQ(eager.size(), 5u);
  for (double s : eager) EXPECT_GT(s, 0.0);
  EXPECT_EQ(ref.runtime(), "torch stand-in on cpu (host clock: no CUDA)");
  EXPECT_EQ(ref.time(nullptr, "compile", 4, 1 << 20).size(), 4u) << "the last inputs sent";
}

TEST_F(PythonReferenceTest, AWorkerThatDiesIsSaidAndItsDirectoryRemoved) {
  {
    PythonReference ref(module("import os, torch\nclass Model(torch.nn.Module):\n"
                               "    def forward(self, x, y):\n        os._exit(3)\n"),
                        "Model", "python3");
    EXPECT_THAT(failure(ref), HasSubstr("its Python worker ended with exit status 3"));
    EXPECT_THAT(failure(ref), HasSubstr("its Python worker ended earlier"));
    int private_dirs = 0;
    for (const auto& e : fs::directory_iterator(dir))
      private_dirs += e.path().filename().string().rfind("kblaster-pyref-", 0) == 0;
    EXPECT_EQ(private_dirs, 1);
  }
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_THAT(e.path().filename().string(), ::testing::Not(HasSubstr("kblaster-pyref-")))
        << "left behind: " << e.path();
}

}  // namespace
}  // namespace kblaster::harness
