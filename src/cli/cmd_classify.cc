// `kblaster classify --ncu-csv FILE [--source FILE]`: the profile, roofline and
// performance state from saved ncu output, with no GPU; with --before-csv, the
// profile delta from that run to this one.
#include "cli/commands.h"
#include "cli/flag_checks.h"
#include "core/bounded_read.h"
#include "core/input_limits.h"
#include "eval/classify_result.h"
#include "eval/provenance.h"

namespace kblaster {
namespace {

struct ClassifyOptions {
  std::string csv, source, before_csv, before_source;
  double min_bytes = 0.0, flops = 0.0, peak_dram = 0.0, peak_fp32 = 0.0;
  bool json = false;
};

// One end: the CSV's profile, classified with its source's signature.
Result<ProfileReport> read_end(const std::string& csv, const std::string& source,
                               const ClassifyOptions& o, const char* csv_flag,
                               const char* source_flag) {
  auto text = read_bounded(csv, kMaxCsvBytes, csv_flag);
  if (!text) return text.error();
  std::optional<CodeSignature> signature;
  if (!source.empty()) {
    auto code = read_bounded(source, kMaxSourceBytes, source_flag);
    if (!code) return code.error();
    signature = read_signature(*code);
  }
  std::optional<RooflineInputs> roofline;
  if (o.min_bytes > 0 && o.peak_dram > 0)
    roofline = RooflineInputs{o.min_bytes, o.flops, {o.peak_dram, o.peak_fp32, {}}};
  return read_profile(*text, csv, signature, roofline);
}

Result<ExitCode> classify_command(const ClassifyOptions& o, Session& session) {
  ClassifyResult r{.provenance = command_provenance(session, "."),
                   .source = o.source,
                   .profile = {},
                   .before = std::nullopt,
                   .before_source = o.before_source.empty() ? o.source : o.before_source};
  auto after = read_end(o.csv, o.source, o, "--ncu-csv", "--source");
  if (!after) return after.error();
  r.profile = std::move(*after);
  if (!o.before_csv.empty()) {
    auto b = read_end(o.before_csv, r.before_source, o, "--before-csv", "--before-source");
    if (!b) return b.error();
    r.before = std::move(*b);
  }
  stamp_finished(r.provenance);
  if (o.json) {
    session.out << to_json(r).dump(2) << "\n";
    return ExitCode::ok;
  }
  session.out << "profile from " << o.csv << (o.source.empty() ? "" : " and " + o.source) << "\n";
  print_profile(session.out, r.profile);
  if (const auto delta = delta_of(r)) {
    session.out << "\nprofile delta from " << o.before_csv << " to " << o.csv << ":\n";
    print_profile_delta(session.out, *delta);
  }
  return ExitCode::ok;
}

}  // namespace

CommandAction setup_classify(CLI::App& app) {
  auto o = std::make_shared<ClassifyOptions>();
  app.add_option("--ncu-csv", o->csv, "ncu --csv output (kblaster's metric list or --set full)")
      ->required();
  app.add_option("--source", o->source, "The kernel's source file, for its code signature");
  app.add_option("--before-csv", o->before_csv,
                 "An earlier run's CSV: also print the profile delta from it to --ncu-csv");
  app.add_option("--before-source", o->before_source,
                 "The earlier run's source (default: --source)");
  // The roofline needs both a workload and a ceiling: half of either pair is a usage error.
  auto* min_bytes = app.add_option("--min-bytes", o->min_bytes,
                                   "The workload's minimum DRAM bytes, for the roofline");
  auto* flops = app.add_option("--flops", o->flops, "The workload's FLOPs, for the roofline");
  auto* peak_dram =
      app.add_option("--peak-dram", o->peak_dram, "Measured DRAM bytes/s, for the roofline");
  auto* peak_fp32 =
      app.add_option("--peak-fp32", o->peak_fp32, "Measured FP32 FLOP/s, for the roofline");
  for (CLI::Option* o : {min_bytes, flops, peak_dram, peak_fp32}) o->check(positive_validator());
  min_bytes->needs(peak_dram);
  peak_dram->needs(min_bytes);
  flops->needs(peak_fp32)->needs(min_bytes);
  peak_fp32->needs(flops);
  app.add_flag("--json", o->json, "Machine-readable JSON on stdout");
  return [o](Session& session) { return classify_command(*o, session); };
}

}  // namespace kblaster
