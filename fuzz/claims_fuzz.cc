// libFuzzer target: parse_claims on the input as a pull request's body, and the review
// built from its claims. Beyond not crashing: every claim read names a kernel of the
// allowed characters and a positive, finite factor; no more than kMaxClaims are read;
// and the review's Markdown carries none of the body's raw "@" or "<" (no mention, no HTML).
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_check.h"
#include "github/claim_review.h"
#include "github/claims.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kblaster;
  const std::string body(reinterpret_cast<const char*>(data), size);
  const ClaimList list = parse_claims(body);
  if (list.claims.size() > kMaxClaims) fuzz_bug("more claims than kMaxClaims");
  for (const SpeedupClaim& c : list.claims) {
    if (!(c.factor > 0) || !std::isfinite(c.factor)) fuzz_bug("a factor that is not positive");
    if (c.kernel.empty() || c.kernel.size() > 64) fuzz_bug("a kernel name out of bounds");
    for (char ch : c.kernel)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '-' && ch != '.')
        fuzz_bug("a kernel name with `" + std::string(1, ch) + "`");
  }
  const std::string review =
      review_body(answer_claims(list.claims, nlohmann::json::object()), list.ignored, "0");
  // The review's own markup removed, no "<" or "@" may be left: those came from the body.
  std::string text = review.substr(review.find('\n') + 1);  // after the <!-- marker -->
  for (const char* tag : {"<details>", "</details>", "<summary>", "</summary>"})
    for (std::size_t at; (at = text.find(tag)) != std::string::npos;)
      text.erase(at, std::strlen(tag));
  if (text.find_first_of("@<") != std::string::npos) fuzz_bug("the review carries a raw @ or <");
  return 0;
}
