// Fixtures for tests of a GitHub client: FakeGitHub behind Prism, so that every request
// the client sends, and every answer it reads, is checked against GitHub's OpenAPI
// description. Give the client api_url() as GITHUB_API_URL and github.options().token,
// or use GitHubApiThroughPrism's `api`.
#pragma once

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>

#include "github/github_api.h"
#include "net/curl_transport.h"
#include "net/fake_time.h"
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

// The same, with kblaster's own client for acme/kernels through Prism: `api`, over libcurl,
// its waits taken in `time` (no real sleeping). Set up after Prism has started.
class GitHubApiThroughPrism : public GitHubThroughPrism {
 protected:
  void SetUp() override {
    GitHubThroughPrism::SetUp();
    if (!prism) return;
    http = std::make_unique<HttpClient>(
        transport, time.services(),
        HttpClientOptions{.service = "GitHub", .retry = {}, .secrets = {github.options().token}});
    api = std::make_unique<GitHubApi>(
        *http, GitHubTarget{api_url(), "acme", "kernels", github.options().token});
  }

  FakeTime time;
  CurlTransport transport;
  std::unique_ptr<HttpClient> http;
  std::unique_ptr<GitHubApi> api;
};

}  // namespace kblaster::testing
