// What a workflow's `permissions:` must grant for a GitHub REST call, so that a 403
// "Resource not accessible by integration" can say what to add.
#pragma once

#include <string>
#include <string_view>

namespace kblaster {

// The `permissions:` entry the call `method` `path` (a REST path such as
// "/repos/o/r/check-runs/5", with or without the API URL's origin and a query) needs:
// "checks: write", "pull-requests: write", "contents: write", "issues: write" (PR
// comments), or "contents: read" for other reads; "" when the call is none kblaster makes.
std::string required_permission(std::string_view method, std::string_view path);

// The message for a 403 "Resource not accessible by integration" on that call:
// names the permission and where it goes in the workflow, and notes that a pull request
// from a fork gets a read-only token whatever the workflow asks for.
std::string permission_advice(std::string_view method, std::string_view path);

}  // namespace kblaster
