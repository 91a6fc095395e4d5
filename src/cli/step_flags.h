// The flags of the eval layer's steps, defined once for every command that runs them.
#pragma once

#include <CLI/CLI.hpp>

#include "eval/build_step.h"
#include "eval/measure_step.h"
#include "eval/verify_step.h"

namespace kblaster {

// Adds --arch and --cache-dir.
void add_build_flags(CLI::App& app, BuildFlags& flags);

// Adds --seeds, --seed and --timeout. A command whose requests also time the
// kernel passes its `timeout_floor_s`, which --help states.
void add_verify_flags(CLI::App& app, VerifyFlags& flags, double timeout_floor_s = 0);

// Adds --max-noise, --min-samples, --min-time, --max-time, --repeat and --baseline (torch).
void add_bench_flags(CLI::App& app, BenchFlags& flags);

// Adds --report DIR: the command's result also written as report.md, report.html and
// report.json into DIR (report/report_dir.h).
void add_report_flag(CLI::App& app, std::string& dir);

}  // namespace kblaster
