// A result's provenance (reports/schema/provenance.schema.json) as the lines a
// report's details list: GPU, driver, nvcc, kblaster, revisions, seeds, times.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "report/json_field.h"

namespace kblaster {

// Labelled lines, in the order shown: ("GPU", "NVIDIA H200"), …
using Facts = std::vector<std::pair<std::string, std::string>>;

// The facts of `provenance` in a fixed order; a field of the wrong type is an error
// naming it. Absent optional fields are left out.
Result<Facts> provenance_facts(const JsonField& provenance);

// The first 7 characters of a SHA; "" stays "".
std::string short_sha(const std::string& sha);

}  // namespace kblaster
