#!/usr/bin/env python3
"""ctest ActionsRecipe: what can be checked of actions/ without a container engine or GitHub.

- actions/Dockerfile, as actions/recipe/run_dockerfile.py reads it (the parser the recipe test
  trusts): its stages, a non-root USER last, no token or key in any ENV, ARG or RUN, and a
  comment naming every package the runtime stage installs (the Dockerfile says why each is there).
- actions/kblaster/action.yml's "Run kblaster" step, run with bash against a stand-in kblaster:
  the command line it builds for check, optimize and sweep, and the outputs it derives from the
  exit code and the --json result (verdict, regressions, exit-code).
Standard library only; no device, no network.
"""
import os
import re
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "actions", "recipe"))
import run_dockerfile  # noqa: E402

DOCKERFILE = os.path.join(ROOT, "actions", "Dockerfile")
ACTION = os.path.join(ROOT, "actions", "kblaster", "action.yml")


class DockerfileTest(unittest.TestCase):
    def setUp(self):
        self.globals, self.stages = run_dockerfile.stages(run_dockerfile.instructions(DOCKERFILE))

    def test_parser_joins_continuations_and_drops_comment_lines_as_docker_does(self):
        with tempfile.NamedTemporaryFile("w", suffix="Dockerfile", delete=False) as f:
            f.write("ARG A=1\nFROM x AS one\n# a comment\nRUN echo a \\\n# inside\n    && echo b\n"
                    "ENV K=v\nFROM y\nRUN true\n")
        try:
            g, s = run_dockerfile.stages(run_dockerfile.instructions(f.name))
        finally:
            os.unlink(f.name)
        self.assertEqual(g, {"A": "1"})
        self.assertEqual(list(s), ["one", "y"])
        self.assertEqual(s["one"][0][0], "RUN")
        self.assertEqual(s["one"][0][1].split(), ["echo", "a", "&&", "echo", "b"])

    def test_substitute_follows_docker(self):
        env = {"P": "/bin", "E": ""}
        self.assertEqual(run_dockerfile.substitute("${P}:$P:${E:-d}:${U}", env), "/bin:/bin:d:")

    def test_three_stages_and_the_runtime_ends_as_a_user_that_is_not_root(self):
        self.assertEqual(list(self.stages), ["toolkit", "build", "runtime"])
        users = [rest for word, rest in self.stages["runtime"] if word == "USER"]
        self.assertEqual(len(users), 1)
        self.assertNotIn(users[0].strip(), ("root", "0"))

    def test_no_token_or_key_in_any_layer(self):
        secret = re.compile(r"TOKEN|_KEY\b|API_KEY|PASSWORD|SECRET", re.IGNORECASE)
        for stage, steps in self.stages.items():
            for word, rest in steps:
                if word in ("ENV", "ARG", "RUN"):
                    self.assertIsNone(secret.search(rest), f"{stage}: {word} {rest}")
        for name in self.globals:
            self.assertIsNone(secret.search(name))

    def test_every_runtime_package_has_a_comment_saying_why(self):
        installs = [rest for word, rest in self.stages["runtime"]
                    if word == "RUN" and "apt-get install" in rest]
        self.assertEqual(len(installs), 1)
        after = installs[0].split("--no-install-recommends", 1)[1].split("&&", 1)[0]
        packages = after.split()
        self.assertIn("g++", packages)  # nvcc's host compiler at run time
        with open(DOCKERFILE, encoding="utf-8") as f:
            comments = " ".join(line for line in f if line.lstrip().startswith("#"))
        for p in packages:
            named = re.search(r"(^|\s)" + re.escape(p) + r"(\s|$)", comments)
            self.assertTrue(named, f"no comment in actions/Dockerfile says why {p} is installed")


def run_step_script():
    """The body of action.yml's `id: run` step (a literal block scalar), dedented."""
    with open(ACTION, encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = next(i for i, l in enumerate(lines) if l.strip() == "id: run")
    run = next(i for i in range(start, len(lines)) if lines[i].strip() == "run: |")
    indent = len(lines[run]) - len(lines[run].lstrip())
    body = []
    for line in lines[run + 1:]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line)
    return textwrap.dedent("\n".join(body))


class ActionRunStepTest(unittest.TestCase):
    def run_step(self, command, exit_code, result, **inputs):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = os.path.join(tmp, "bin")
            os.makedirs(bin_dir)
            stub = os.path.join(bin_dir, "kblaster")
            with open(stub, "w", encoding="utf-8") as f:
                f.write("#!/bin/bash\nprintf '%s\\n' \"$@\" > \"$STUB_ARGV\"\n"
                        f"cat <<'JSON'\n{result}\nJSON\nexit {exit_code}\n")
            os.chmod(stub, stat.S_IRWXU)
            env = {"PATH": bin_dir + ":/usr/bin:/bin", "RUNNER_TEMP": tmp,
                   "GITHUB_OUTPUT": os.path.join(tmp, "out"), "STUB_ARGV": os.path.join(tmp, "argv"),
                   "COMMAND": command, "REPOSITORY": "repo", "KERNELS": "", "BASE": "", "SHARD": "",
                   "KB": "repo/.kblaster/kb.sqlite", "PUBLISH": "false", "COMMENT": "on-change",
                   "COMMENT_KEY": "kblaster", "CHECK_RUN": "true",
                   "CHECK_NAME": "kblaster / check", "REVIEW": "false",
                   "REQUEST_CHANGES": "false", "LLM": "", "LLM_MODEL": "", "LLM_BASE_URL": "",
                   "LLM_KEY_ENV": "", "MAX_TIME": "", "KERNEL_TIME": "", "MAX_COST": "",
                   "MAX_TOKENS": "", "ARGS": "", "GITHUB_TOKEN": "not-a-real-token"}
            env.update(inputs)
            step = subprocess.run(["bash", "-c", run_step_script()], env=env, capture_output=True,
                                  text=True)
            with open(env["STUB_ARGV"], encoding="utf-8") as f:
                argv = f.read().split("\n")[:-1]
            with open(env["GITHUB_OUTPUT"], encoding="utf-8") as f:
                outputs = dict(l.split("=", 1) for l in f.read().splitlines())
            self.assertNotIn("not-a-real-token", step.stdout + step.stderr + " ".join(argv))
            return step.returncode, argv, outputs

    CHECK = ('{"kind":"check","kernels":[{"kernel":"a","verdict":"SLOWER","timing":{"verdict":"SLOWER"}},'
             '{"kernel":"b","verdict":"SAME"},{"kernel":"c","verdict":"REGRESSION"},'
             '{"kernel":"d","verdict":"UNVERIFIED"},{"kernel":"e","verdict":"NOT_COMPARED"},'
             '{"kernel":"f","verdict":"NEW"}]}')

    def test_check_on_an_event_with_publish_and_a_regression(self):
        rc, argv, out = self.run_step("check", 1, self.CHECK, PUBLISH="true", CHECK_RUN="false",
                                      KERNELS="a  c")
        self.assertEqual(rc, 0)  # exit 1 is a finding: the workflow decides
        self.assertEqual(argv[:3], ["check", "repo", "--json"])
        self.assertIn("--event", argv)
        self.assertEqual(argv.count("--kernel"), 2)
        self.assertIn("--no-check-run", argv)
        self.assertNotIn("--check-name", argv)
        self.assertNotIn("--kb", argv)  # check uses no KB
        self.assertEqual((out["verdict"], out["regressions"], out["exit-code"]), ("regression", "4", "1"))

    def test_check_with_a_base_compares_against_the_merge_base(self):
        _, argv, out = self.run_step("check", 0, '{"kind":"check","kernels":[]}', BASE="main")
        self.assertIn("--merge-base", argv)
        self.assertNotIn("--event", argv)
        self.assertEqual((out["verdict"], out["regressions"]), ("pass", "0"))

    def test_optimize_passes_the_budget_and_the_llm_key_name_only(self):
        _, argv, out = self.run_step("optimize", 0, '{"kind":"optimize","kernels":[{"kernel":"a"}]}',
                                     LLM="openai", LLM_KEY_ENV="OPENAI_API_KEY", MAX_TIME="900",
                                     MAX_COST="5", PUBLISH="true", ARGS="--breadth 4")
        for flag, value in (("--kb", "repo/.kblaster/kb.sqlite"), ("--max-time", "900"),
                            ("--llm", "openai"), ("--llm-key-env", "OPENAI_API_KEY"), ("--max-cost", "5")):
            self.assertEqual(argv[argv.index(flag) + 1], value)
        self.assertEqual(argv[-2:], ["--breadth", "4"])
        self.assertIn("--publish", argv)
        self.assertEqual(argv[argv.index("--check-name") + 1], "kblaster / check")
        self.assertEqual(out["regressions"], "0")

    def test_sweep_gets_a_deadline_and_counts_the_failures_of_its_run_result(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_file = os.path.join(tmp, "run.json")
            with open(run_file, "w", encoding="utf-8") as f:
                f.write('{"kind":"run","kernels":['
                        '{"name":"a","verification":{"status":"passed"},"measurement":{"median_s":1e-4}},'
                        '{"name":"b","verification":{"status":"failed"}},'
                        '{"name":"c","verification":{"status":"passed"},'
                        '"measurement":{"median_s":1e-4,"rejected":"below the roofline floor"}}]}')
            sweep = '{"kind":"sweep","kernels":["a","b","c"],"run_file":"%s"}' % run_file
            _, argv, out = self.run_step("sweep", 1, sweep, SHARD="2/3", MAX_TIME="3600",
                                         KERNEL_TIME="300", LLM="openai", PUBLISH="true")
        self.assertEqual(argv[argv.index("--shard") + 1], "2/3")
        # --max-time is sweep's timing limit (as run's); the shard's budget is --deadline.
        self.assertEqual(argv[argv.index("--deadline") + 1], "3600")
        self.assertNotIn("--max-time", argv)
        self.assertEqual(argv[argv.index("--kernel-time") + 1], "300")
        self.assertEqual(argv[argv.index("--llm") + 1], "openai")  # sweep takes a model too
        self.assertIn("--out", argv)
        self.assertNotIn("--publish", argv)
        self.assertEqual((out["verdict"], out["regressions"]), ("regression", "2"))

    def test_an_environment_failure_fails_the_step(self):
        rc, _, out = self.run_step("check", 3, "", PUBLISH="false")
        self.assertNotEqual(rc, 0)
        self.assertEqual((out["verdict"], out["exit-code"], out["regressions"]), ("error", "3", "0"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
