// Where a CUDA source defines functions with an execution-space qualifier, and
// where it launches kernels. Works on mask_source() text.
// Limits: a function is recognised by `qualifier ... name(params)`, with
// attributes, template arguments in the return type and `::` skipped; operators,
// function-pointer returns and qualifiers produced by macros are not.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "transform/source_text.h"

namespace kblaster {

// One declaration or definition of a function carrying a qualifier.
struct FunctionSite {
  std::string name;
  std::size_t qualifier = 0;  // offset of the __global__ / __device__ word
  std::size_t name_begin = 0;
  Span params;                                      // between the parentheses
  std::size_t body_open = std::string_view::npos;   // '{'; npos for a declaration
  std::size_t body_close = std::string_view::npos;  // the matching '}'
  bool has_launch_bounds = false;                   // __launch_bounds__ in its header
};

// Every function declared or defined with `qualifier` ("__global__", "__device__").
std::vector<FunctionSite> find_functions(std::string_view masked, std::string_view qualifier);

// One `kernel<<<config>>>` launch.
struct LaunchSite {
  std::string kernel;        // the last name before <<<, without template arguments
  std::size_t at = 0;        // offset of "<<<"
  std::vector<Span> config;  // grid, block, and the optional shared bytes and stream
};

// Every triple-chevron launch, in order.
std::vector<LaunchSite> find_launches(std::string_view masked);

}  // namespace kblaster
