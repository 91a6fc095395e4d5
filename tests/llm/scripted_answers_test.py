#!/usr/bin/env python3
"""Tests of bench/llm_answers: the scripted `command` backend (scripted_model.py) and the
hand-written answer set it serves (answers.json) for issue 19's H200 demonstration.

The script runs as a subprocess of sys.executable on requests shaped as docs/llm.md's command
protocol says, whose messages are rendered from the real kb/prompts/*.md templates with the
example kernels' sources, launcher signatures (as src/gpu/shim.cc's launcher_signature writes
them, from examples/kernels/kblaster.toml) and technique descriptions (kb/catalogue). It checks:
apply answers one ```cuda block holding the manifest's file, which nvcc compiles; repair
answers the same file; review answers VERDICT: yes; gap answers a short lesson naming the
technique and whether the prediction was met; an unknown pair is answered "cannot" with no
code; the log and the delay are honoured. And the manifest itself: every file exists, compiles
with nvcc -arch=sm_90 (skipped without nvcc) and keeps its launcher's parameter list (a textual
check in the spirit of src/llm/signature_check.h), every technique is in the catalogue, and
every cheat says what rejects it. No GPU. ctest runs this file as the test LlmScriptedAnswers.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ANSWERS = os.path.join(REPO, "bench", "llm_answers")
SCRIPT = os.path.join(ANSWERS, "scripted_model.py")
MANIFEST = os.path.join(ANSWERS, "answers.json")
EXAMPLES = os.path.join(REPO, "examples", "kernels")
PROMPTS = os.path.join(REPO, "kb", "prompts")
CATALOGUE = os.path.join(REPO, "kb", "catalogue", "techniques.json")
NVCC = os.environ.get("NVCC") or shutil.which("nvcc") or (
    "/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)

CXX_TYPES = {"f64": "double", "f32": "float", "f16": "__half", "bf16": "__nv_bfloat16",
             "i64": "int64_t", "i32": "int32_t", "i16": "int16_t", "i8": "int8_t",
             "u8": "uint8_t", "bool": "bool"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def kernel_specs():
    """kblaster.toml's [[kernel]] tables, by name."""
    with open(os.path.join(EXAMPLES, "kblaster.toml"), "rb") as f:
        return {k["name"]: k for k in tomllib.load(f)["kernel"]}


def launcher_signature(spec):
    """As src/gpu/shim.cc's launcher_signature(spec) writes it."""
    params = []
    for a in spec["args"]:
        buffer = "shape" in a
        written = a.get("role") in ("out", "inout")
        const = "const " if buffer and not written else ""
        params.append(const + CXX_TYPES[a["type"]] + ("* " if buffer else " ") + a["name"])
    if spec.get("stream"):
        params.append("cudaStream_t stream")
    return spec["launcher"] + "(" + ", ".join(params) + ")"


def spec_text(spec):
    lines = ["kernel %s, launcher %s" % (spec["name"], spec["launcher"])]
    for a in spec["args"]:
        lines.append("  %s: %s %s" % (a["name"], a["type"], a.get("shape", "scalar")))
    lines.append("  sizes: " + ", ".join(str(s) for s in spec.get("sizes", [])))
    return "\n".join(lines)


def technique(technique_id):
    for t in json.loads(read(CATALOGUE))["techniques"]:
        if t["id"] == technique_id:
            return t
    raise KeyError(technique_id)


def render(kind, values):
    """A request for kb/prompts/<kind>.md: the note dropped, {{slot}}s filled once each."""
    text = read(os.path.join(PROMPTS, kind + ".md"))
    _, rest = text.split("--- system ---\n", 1)
    system, user = rest.split("--- user ---\n", 1)
    fill = lambda s: re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], s)
    return {"purpose": kind, "system": fill(system).strip(),
            "messages": [{"role": "user", "content": fill(user).strip()}],
            "temperature": 0.2, "max_tokens": 4096, "model": ""}


def values_for(kernel, technique_id, **extra):
    spec = kernel_specs()[kernel]
    t = technique(technique_id)
    values = {"technique": technique_id, "technique_description": t["description"],
              "launcher_signature": launcher_signature(spec), "spec": spec_text(spec),
              "state": "memory_bound", "profile_summary": "dram throughput 41% of peak",
              "lessons": "none", "prior_failures": "none",
              "parent_source": read(os.path.join(EXAMPLES, spec["source"])),
              "compile_errors": "none", "candidate_source": "none",
              "predicted_gain": "+10.0% ± 5.0%", "observed_gain": "+20.0%",
              "profile_delta": "dram throughput 41% -> 78%"}
    values.update(extra)
    return values


def ask(request, *args, env=None):
    """(answer JSON, seconds) from the script for `request`; fails on a non-zero exit."""
    started = time.monotonic()
    proc = subprocess.run([sys.executable, SCRIPT, *args], input=json.dumps(request),
                          capture_output=True, text=True, env=env, timeout=120)
    took = time.monotonic() - started
    if proc.returncode != 0:
        raise AssertionError("scripted_model.py exited %d:\n%s" % (proc.returncode, proc.stderr))
    return json.loads(proc.stdout), took


def fenced_blocks(text):
    """The bodies of the ``` fenced blocks, with their info strings."""
    return re.findall(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", text, re.MULTILINE | re.DOTALL)


def compile_cuda(source_path, workdir):
    """nvcc's (returncode, output) for one translation unit, as the brief's build line has it."""
    proc = subprocess.run([NVCC, "-std=c++17", "-arch=sm_90", "-O3", "-I",
                           os.path.join(EXAMPLES, "include"), "-c", source_path, "-o",
                           os.path.join(workdir, "answer.o")], capture_output=True, text=True,
                          timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def manifest():
    return json.loads(read(MANIFEST))


# ---- a textual launcher-signature check ------------------------------------------------------

def mask_comments_and_strings(src):
    src = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.DOTALL)
    src = re.sub(r"//[^\n]*", "", src)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', src)


def param_types(params):
    """The parameter list's types, names, defaults, __restrict__ and spacing dropped."""
    types = []
    for p in [p.strip() for p in params.split(",") if p.strip()]:
        p = p.split("=", 1)[0]
        p = re.sub(r"\b(__restrict__|__restrict|restrict)\b", " ", p)
        p = re.sub(r"\s*\*\s*", "* ", p)
        tokens = p.split()
        if len(tokens) > 1 and re.fullmatch(r"[A-Za-z_]\w*", tokens[-1]) and \
                tokens[-1] not in ("int", "float", "double", "char", "long", "short", "unsigned",
                                   "bool") and not tokens[-1].endswith("_t"):
            tokens = tokens[:-1]
        types.append(" ".join(tokens).replace("* ", "*").strip())
    return tuple(types)


def launcher_definitions(src, launcher):
    """The set of parameter-type tuples of the launcher's definitions (name( … ) {), in its
    namespace when the launcher is qualified."""
    masked = mask_comments_and_strings(src)
    *namespaces, name = launcher.split("::")
    for ns in namespaces:
        if not re.search(r"\bnamespace\s+%s\b" % re.escape(ns), masked):
            return set()
    found = set()
    for m in re.finditer(r"\b(?:void|cudaError_t)\s+%s\s*\(([^)]*)\)\s*\{" % re.escape(name),
                         masked):
        found.add(param_types(m.group(1)))
    return found


class ScriptedModelTest(unittest.TestCase):
    def setUp(self):
        if tomllib is None:
            self.skipTest("needs Python 3.11's tomllib to read examples/kernels/kblaster.toml")
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("KBLASTER_SCRIPTED")}

    def test_apply_answers_one_cuda_block_holding_the_manifests_file_which_compiles(self):
        answer, _ = ask(render("apply", values_for("matmul_naive", "shared_memory_tiling")),
                        env=self.env)
        self.assertIsInstance(answer["text"], str)
        self.assertIsInstance(answer["usage"]["input"], int)
        self.assertIsInstance(answer["usage"]["output"], int)
        self.assertGreater(answer["usage"]["input"], 1000)  # the prompt: about chars / 4
        self.assertAlmostEqual(answer["usage"]["output"], len(answer["text"]) / 4, delta=1)
        blocks = fenced_blocks(answer["text"])
        self.assertEqual([info for info, _ in blocks], ["cuda"])
        self.assertEqual(blocks[0][1], read(os.path.join(ANSWERS, "matmul_smem_tiled.cu")))
        self.assertTrue(answer["text"].split("```")[0].strip(), "a sentence before the block")
        if NVCC is None:
            self.skipTest("nvcc not found: the answer's file was not compiled")
        path = os.path.join(self.tmp.name, "answer.cu")
        with open(path, "w", encoding="utf-8") as f:
            f.write(blocks[0][1])
        code, output = compile_cuda(path, self.tmp.name)
        self.assertEqual(code, 0, output)

    def test_apply_serves_every_manifest_pair_for_every_kernel_with_that_launcher(self):
        specs = kernel_specs()
        for entry in manifest()["answers"]:
            kernels = [n for n, s in specs.items() if s["launcher"] == entry["launcher"]]
            self.assertTrue(kernels, entry["launcher"])
            for kernel in kernels:  # axpy and axpy_small share a launcher
                for t in entry["techniques"]:
                    with self.subTest(kernel=kernel, technique=t):
                        answer, _ = ask(render("apply", values_for(kernel, t)), env=self.env)
                        blocks = fenced_blocks(answer["text"])
                        self.assertEqual(len(blocks), 1, answer["text"][:300])
                        self.assertEqual(blocks[0][1],
                                         read(os.path.join(ANSWERS, entry["file"])))

    def test_a_technique_named_by_its_catalogue_name_finds_its_id(self):
        name = technique("vectorized_access")["name"]
        answer, _ = ask(render("apply", values_for("scale_rows", "vectorized_access",
                                                   technique=name)), env=self.env)
        blocks = fenced_blocks(answer["text"])
        self.assertEqual(len(blocks), 1)
        self.assertEqual(blocks[0][1], read(os.path.join(ANSWERS, "scale_rows_float4.cu")))

    def test_an_unknown_pair_is_answered_cannot_without_code(self):
        for kernel, t in (("transpose", "shared_memory_tiling"), ("matmul_naive", "tensor_cores")):
            with self.subTest(kernel=kernel, technique=t):
                answer, _ = ask(render("apply", values_for(kernel, t)), env=self.env)
                self.assertIn("cannot", answer["text"])
                self.assertNotIn("```", answer["text"])
                self.assertNotIn("~~~", answer["text"])

    def test_echo_parent_answers_an_unknown_pair_with_the_parent_and_a_comment(self):
        values = values_for("transpose", "shared_memory_tiling")
        for how, args, env in (("option", ["--echo-parent"], self.env),
                               ("variable", [], dict(self.env, KBLASTER_SCRIPTED_ECHO_PARENT="1"))):
            with self.subTest(how=how):
                answer, _ = ask(render("apply", values), *args, env=env)
                blocks = fenced_blocks(answer["text"])
                self.assertEqual(len(blocks), 1, answer["text"])
                self.assertEqual(blocks[0][0], "cuda")
                code = blocks[0][1]
                self.assertTrue(code.startswith(values["parent_source"].rstrip("\n") + "\n" +
                                "// scripted: shared_memory_tiling leaves this kernel as it was "
                                "(prompt "), code[-200:])
        # Another prompt (another rollout's failures) gets other code.
        other, _ = ask(render("apply", dict(values, prior_failures="- split_k: same")),
                       "--echo-parent", env=self.env)
        self.assertNotEqual(fenced_blocks(other["text"])[0][1], code)
        # A pair the set covers is still answered with its file.
        answer, _ = ask(render("apply", values_for("scale_rows", "vectorized_access")),
                        "--echo-parent", env=self.env)
        self.assertEqual(fenced_blocks(answer["text"])[0][1],
                         read(os.path.join(ANSWERS, "scale_rows_float4.cu")))

    def test_repair_answers_the_same_file(self):
        values = values_for("softmax_slow", "warp_shuffle_reduction",
                            compile_errors="answer.cu(12): error: identifier \"m\" is undefined",
                            candidate_source="broken")
        answer, _ = ask(render("repair", values), env=self.env)
        blocks = fenced_blocks(answer["text"])
        self.assertEqual(len(blocks), 1)
        self.assertEqual(blocks[0][1], read(os.path.join(ANSWERS, "softmax_warp.cu")))

    def test_review_approves_everything_even_the_cheat(self):
        cheat = read(os.path.join(ANSWERS, "cheat_matmul_timed_shape.cu"))
        answer, _ = ask(render("review", values_for("matmul_naive", "split_k",
                                                    candidate_source=cheat)), env=self.env)
        first, rest = answer["text"].split("\n", 1)
        self.assertEqual(first, "VERDICT: yes")
        self.assertTrue(rest.strip())
        self.assertNotIn("```", answer["text"])

    def test_gap_writes_a_short_lesson_saying_whether_the_prediction_was_met(self):
        cases = [("+10.0% ± 5.0%", "+20.0%", "exceeded"), ("+10.0% ± 5.0%", "+10.2%", "met"),
                 ("+30%", "-2.0%", "fell short of"), ("1.5x", "1.2x", "fell short of"),
                 ("1.5x", "3.1x", "exceeded")]
        for predicted, observed, verdict in cases:
            with self.subTest(predicted=predicted, observed=observed):
                values = values_for("matmul_naive", "register_tiling", predicted_gain=predicted,
                                    observed_gain=observed)
                answer, _ = ask(render("gap", values), env=self.env)
                text = answer["text"]
                self.assertIn("register_tiling", text)
                self.assertIn("the observed gain %s the prediction" % verdict, text)
                self.assertNotIn("```", text)
                self.assertNotIn("\n", text.strip())  # one paragraph
                self.assertLessEqual(len(re.findall(r"[.!?](?:\s|$)", text)), 3)

    def test_the_log_variable_and_option_append_one_json_line_per_request(self):
        log = os.path.join(self.tmp.name, "requests.jsonl")
        request = render("review", values_for("axpy", "vectorized_access"))
        ask(request, env=dict(self.env, KBLASTER_SCRIPTED_LOG=log))
        ask(render("apply", values_for("axpy", "vectorized_access")), env=dict(
            self.env, KBLASTER_SCRIPTED_LOG=log))
        other = os.path.join(self.tmp.name, "by-option.jsonl")
        ask(request, "--log", other, env=dict(self.env, KBLASTER_SCRIPTED_LOG=log))
        lines = [json.loads(line) for line in read(log).splitlines()]
        self.assertEqual([line["request"]["purpose"] for line in lines], ["review", "apply"])
        self.assertEqual(lines[0]["request"], request)
        self.assertIsInstance(lines[0]["received_at"], float)
        self.assertEqual(len(read(other).splitlines()), 1)
        # Without the variable or the option nothing is written.
        ask(request, env=self.env)
        self.assertEqual(len(read(log).splitlines()), 2)

    def test_the_delay_variable_and_option_hold_the_answer_back(self):
        request = render("review", values_for("axpy", "vectorized_access"))
        _, took = ask(request, env=dict(self.env, KBLASTER_SCRIPTED_DELAY_S="0.6"))
        self.assertGreaterEqual(took, 0.6)
        _, took = ask(request, "--delay", "0.6", env=self.env)
        self.assertGreaterEqual(took, 0.6)

    def test_input_that_is_not_a_request_is_an_error(self):
        for bad in ("not json", "[1, 2]"):
            with self.subTest(stdin=bad):
                proc = subprocess.run([sys.executable, SCRIPT], input=bad, capture_output=True,
                                      text=True, env=self.env, timeout=60)
                self.assertEqual(proc.returncode, 2)
                self.assertEqual(proc.stdout, "")
                self.assertIn("scripted_model", proc.stderr)


class AnswerSetTest(unittest.TestCase):
    def setUp(self):
        if tomllib is None:
            self.skipTest("needs Python 3.11's tomllib to read examples/kernels/kblaster.toml")

    def test_the_manifest_names_real_files_launchers_and_techniques_and_says_what_rejects_a_cheat(self):
        specs = kernel_specs()
        launchers = {s["launcher"] for s in specs.values()}
        ids = {t["id"] for t in json.loads(read(CATALOGUE))["techniques"]}
        entries = manifest()["answers"]
        pairs = [(e["launcher"], t) for e in entries for t in e["techniques"]]
        self.assertEqual(len(pairs), len(set(pairs)), "a pair mapped twice")
        for e in entries:
            with self.subTest(file=e["file"]):
                self.assertTrue(os.path.isfile(os.path.join(ANSWERS, e["file"])))
                self.assertIn(e["launcher"], launchers)
                sources = {os.path.normpath(os.path.join("examples", "kernels", s["source"]))
                           for s in specs.values() if s["launcher"] == e["launcher"]}
                self.assertIn(os.path.normpath(e["parent"]), sources)
                self.assertLessEqual(set(e["techniques"]), ids)
                if e.get("cheat"):
                    self.assertTrue(e.get("rejected_by"))
                    self.assertIn("CHEATING ANSWER", read(os.path.join(ANSWERS, e["file"])))
        honest = {e["launcher"] for e in entries if not e.get("cheat")}
        self.assertGreaterEqual(len(honest), 3, "faster answers for at least three kernels")
        self.assertTrue(any(e.get("cheat") for e in entries), "at least one cheat")

    def test_every_answer_keeps_its_launchers_parameter_lists(self):
        specs = {s["launcher"]: s for s in kernel_specs().values()}
        for e in manifest()["answers"]:
            with self.subTest(file=e["file"]):
                original = read(os.path.join(EXAMPLES, specs[e["launcher"]]["source"]))
                answer = read(os.path.join(ANSWERS, e["file"]))
                before = launcher_definitions(original, e["launcher"])
                self.assertTrue(before, "the original defines %s" % e["launcher"])
                self.assertEqual(launcher_definitions(answer, e["launcher"]), before)

    def test_the_textual_signature_check_sees_a_changed_parameter(self):
        original = read(os.path.join(EXAMPLES, "kernels", "axpy.cu"))
        changed = original.replace("void axpy(int n, float a,", "void axpy(long n, float a,")
        self.assertNotEqual(launcher_definitions(changed, "axpy"),
                            launcher_definitions(original, "axpy"))
        renamed = original.replace("const float* x, float* y) {", "const float* xs, float* ys) {")
        self.assertEqual(launcher_definitions(renamed, "axpy"),
                         launcher_definitions(original, "axpy"))

    def test_every_answer_compiles_with_nvcc_for_sm_90(self):
        if NVCC is None:
            self.skipTest("nvcc not found")
        with tempfile.TemporaryDirectory() as tmp:
            for e in manifest()["answers"]:
                with self.subTest(file=e["file"]):
                    code, output = compile_cuda(os.path.join(ANSWERS, e["file"]), tmp)
                    self.assertEqual(code, 0, output)


if __name__ == "__main__":
    unittest.main(verbosity=2)
