#include <iostream>
#include "gpu/candidate_builder.h"
using namespace kblaster;
int main(int argc, char** argv) {
  auto nvcc = NvccCompiler::find();
  const std::filesystem::path D = argc > 1 ? argv[1] : "build-gpu/device";
  CompileCache cache(D / "cache");
  CandidateBuilder b(*nvcc, cache, D / "work");
  KernelSpec spec; spec.name = "scale"; spec.source = "kernels/scale.cu"; spec.launcher = "scale"; spec.stream = true;
  ArgSpec out; out.name = "out"; out.role = ArgRole::out; out.shape = ShapeExpr::parse("n").value();
  ArgSpec in; in.name = "in"; in.shape = ShapeExpr::parse("n").value();
  ArgSpec n; n.name = "n"; n.type = DType::i32;
  spec.args = {out, in, n};
  spec.tunables = {{"BLOCK", {"256"}}, {"SCALE", {"2.0f"}}};
  for (auto [name, block, s] : {std::tuple{"a", "256", "2.0f"}, {"b", "128", "3.0f"}, {"bad", "2048", "2.0f"}}) {
    BuildRequest r; r.repo_root = D / "repo"; r.macros = {{"BLOCK", block}, {"SCALE", s}};
    auto res = b.build(spec, r);
    std::cout << name << ": " << build_outcome_name(res->outcome) << " " << res->summary << "\n";
    std::filesystem::copy_file(res->object, D / "objs" / (std::string(name) + ".so"), std::filesystem::copy_options::overwrite_existing);
  }
}
