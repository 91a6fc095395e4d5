#include "search/source_form_check.h"

#include <cstdio>

#include "core/file_replace.h"
#include "core/file_write.h"
#include "core/text_join.h"
#include "search/final_ab.h"
#include "search/soft_verification.h"
#include "search/source_form.h"

namespace kblaster {
namespace {

std::string times(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3fx", x);
  return text;
}

}  // namespace

Result<nlohmann::json> check_source_form(const SearchResult& r, ResultProbe& probe,
                                         const std::filesystem::path& dir,
                                         const std::filesystem::path& file_name,
                                         std::ostream& progress) {
  const SourceForm form = source_form_of(r.best);
  nlohmann::json j = {{"rewrites", form.rewrites}, {"not_carried", form.not_carried}};
  if (!form.complete()) {
    j["status"] = "incomplete";
    progress << "  source form: none: " << join_texts(form.not_carried) << "\n";
    return j;
  }
  const Candidate& c = form.candidate;
  j["candidate"] = c.fingerprint();
  j["source"] = c.source;
  j["source_defaults"] = c.source_defaults;
  progress << "  source form: " << join_texts(form.rewrites) << "; verifying and timing it\n";
  auto e = probe.verify_and_time(r.best, c);
  if (!e) return e.error();
  j["verification"] = {{"outcome", outcome_name(e->outcome)}, {"detail", e->detail}};
  if (!is_measured(e->outcome)) {
    j["status"] = "fails verification";
    progress << "  source form: " << outcome_name(e->outcome) << ": " << e->detail << "\n";
    return j;
  }
  j["against_best"] = {{"ratio", e->ratio}, {"ci_low", e->ci_low}, {"ci_high", e->ci_high}};
  auto ab = final_ab(probe, r.baseline, c);
  if (!ab) return ab.error();
  j["final_ab"] = std::move(ab->final_ab);
  j["speedup"] = std::move(ab->speedup);
  j["soft_verification"] = soft_verification_findings(r.baseline.source, c.source);
  j["status"] = "verified";
  const auto file = dir / "source_form" / file_name;
  KB_TRY(make_directories(file.parent_path()));
  KB_TRY(replace_file(file, c.source));
  j["source_file"] = file.string();
  progress << "  source form: " << j["speedup"]["verdict"].get<std::string>();
  if (j["speedup"]["value"].is_number())
    progress << " " << times(j["speedup"]["value"].get<double>()) << " against the baseline";
  progress << ", " << times(e->ratio) << " the time of the build with settings; wrote "
           << file.string() << "\n";
  return j;
}

}  // namespace kblaster
