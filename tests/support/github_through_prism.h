// A fixture for tests of a GitHub client: FakeGitHub behind Prism, so that every request
// the client sends, and every answer it reads, is checked against GitHub's OpenAPI
// description. Give the client api_url() as GITHUB_API_URL and github.options().token.
#pragma once

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>

#include "support/fake_github.h"
#include "support/prism_proxy.h"

namespace kblaster::testing {

// SetUp starts Prism in front of `github`; where Prism cannot run it skips the test and
// says why, or fails it under KBLASTER_REQUIRE_PRISM=1. TearDown fails the test for each
// violation it did not take (prism->take_violations()).
class GitHubThroughPrism : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = PrismProxy::start(github.url());
    if (!started) {
      if (prism_required()) GTEST_FAIL() << "KBLASTER_REQUIRE_PRISM=1: " << started.error().message;
      GTEST_SKIP() << "Prism cannot run here: " << started.error().message;
    }
    prism = std::move(*started);
    github.set_public_url(prism->url());
    RecordProperty("prism_start_seconds", std::to_string(prism->startup_seconds()));
  }
  void TearDown() override {
    if (!prism) return;
    for (const PrismViolation& v : prism->violations())
      ADD_FAILURE() << "GitHub's OpenAPI description rejects " << v.describe();
  }
  // The API root the client under test is given: Prism's recorder.
  std::string api_url() const { return prism->url(); }

  FakeGitHub github;
  std::unique_ptr<PrismProxy> prism;
};

}  // namespace kblaster::testing
