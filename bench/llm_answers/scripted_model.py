#!/usr/bin/env python3
"""A scripted stand-in for a model: kblaster's `command` LLM backend (docs/llm.md).

Reads one request as JSON on stdin ({"purpose", "system", "messages", "temperature",
"max_tokens", "model"}) and writes one answer as JSON on stdout:
{"text": ..., "usage": {"input": N, "output": M}, "model": "scripted-answer-set"},
the token counts estimated as characters / 4.

- apply: finds the launcher (the line under the prompt's "## The launcher" heading) and the
  technique (`Apply the technique "X"`), and answers a sentence, one ```cuda block holding
  the file answers.json maps that pair to, and the entry's summary. A pair it has no file for
  is answered in plain text, with no code block, which kblaster records as a failed step.
- repair: the same file again, found the same way.
- review: "VERDICT: yes" and a sentence. The scripted reviewer approves everything, so that
  kblaster's own checks alone have to catch the cheats in the set.
- gap: one or two sentences naming the technique and saying whether the observed gain met the
  predicted one, both read from the prompt.

Options, each also an environment variable (the option wins). kblaster scrubs its children's
environment (src/gpu/sandbox.h), so under kblaster pass the options in `[llm] command`:
  --delay S   KBLASTER_SCRIPTED_DELAY_S  seconds to sleep before answering (default 0)
  --log FILE  KBLASTER_SCRIPTED_LOG      append one JSON line per request received:
                                          {"received_at": unix seconds, "pid": N, "request": {...}}
  --answers F KBLASTER_SCRIPTED_ANSWERS  the manifest (default answers.json beside this script)
  --echo-parent                          answer an apply the set has no file for with the parent's
                KBLASTER_SCRIPTED_ECHO_PARENT=1   own source and one comment line naming the
                                          technique and the prompt's hash (so each prompt gets
                                          code of its own): new code that changes nothing, which kblaster
                                          builds, verifies and times (SAME), as it would a model's
                                          rewrite that did not help. For measuring the search's
                                          GPU idle share with a model that always writes code.

Figures from this set come from scripted answers written by hand, not from a model.
Standard library only.
"""

import argparse
import fcntl
import hashlib
import json
import math
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.realpath(__file__))
MODEL_NAME = "scripted-answer-set"


def fail(message):
    """Exits 2 with a message on stderr: kblaster records a failed call, naming this program."""
    sys.stderr.write("scripted_model: " + message + "\n")
    sys.exit(2)


def parse_options(argv):
    p = argparse.ArgumentParser(description="kblaster's scripted `command` LLM backend")
    p.add_argument("--delay", type=float, default=None, help="seconds to sleep before answering")
    p.add_argument("--log", default=None, help="append each request as a JSON line to this file")
    p.add_argument("--answers", default=None, help="the manifest (default: answers.json here)")
    p.add_argument("--echo-parent", action="store_true",
                   help="answer an uncovered apply with the parent's source and a comment")
    args = p.parse_args(argv)
    if not args.echo_parent:
        args.echo_parent = os.environ.get("KBLASTER_SCRIPTED_ECHO_PARENT", "") == "1"
    if args.delay is None:
        raw = os.environ.get("KBLASTER_SCRIPTED_DELAY_S", "").strip()
        try:
            args.delay = float(raw) if raw else 0.0
        except ValueError:
            fail("KBLASTER_SCRIPTED_DELAY_S is not a number: %r" % raw)
    if not math.isfinite(args.delay) or args.delay < 0:
        fail("the delay must be a finite number of seconds >= 0, not %r" % args.delay)
    if args.log is None:
        args.log = os.environ.get("KBLASTER_SCRIPTED_LOG") or None
    if args.answers is None:
        args.answers = os.environ.get("KBLASTER_SCRIPTED_ANSWERS") or os.path.join(
            HERE, "answers.json")
    return args


def log_request(path, request):
    """Appends one line under an exclusive lock, so concurrent calls never interleave."""
    line = json.dumps({"received_at": time.time(), "pid": os.getpid(), "request": request},
                      sort_keys=True, separators=(",", ":")) + "\n"
    with open(path, "a", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            f.write(line)
            f.flush()
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def prompt_text(request):
    """The user messages' text, joined (the prompts put everything in one user message)."""
    parts = []
    for m in request.get("messages") or []:
        if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str):
            parts.append(m["content"])
    return "\n".join(parts)


def section(text, heading_prefix):
    """The text under the first Markdown heading that starts with `heading_prefix`, up to the
    next heading of the same level; None when there is no such heading."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("## ") and line[3:].strip().lower().startswith(heading_prefix.lower()):
            body = []
            for rest in lines[i + 1:]:
                if rest.startswith("## "):
                    break
                body.append(rest)
            return "\n".join(body).strip()
    return None


# ---- the manifest and the catalogue --------------------------------------------------------


def load_manifest(path):
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        fail("cannot read the manifest %s: %s" % (path, e))
    base = os.path.dirname(os.path.realpath(path))
    pairs = {}
    for entry in manifest.get("answers", []):
        for technique in entry["techniques"]:
            key = (entry["launcher"], technique)
            if key in pairs:
                fail("the manifest maps %s twice" % (key,))
            pairs[key] = dict(entry, path=os.path.join(base, entry["file"]))
    return pairs


def technique_names():
    """Catalogue name (lower case) -> id, so that a prompt naming "Vectorised (SIMD) global
    access" finds vectorized_access; empty when the catalogue is not beside this checkout."""
    path = os.path.join(HERE, "..", "..", "kb", "catalogue", "techniques.json")
    try:
        with open(path, encoding="utf-8") as f:
            techniques = json.load(f).get("techniques", [])
    except (OSError, ValueError):
        return {}
    return {t["name"].strip().lower(): t["id"] for t in techniques if "name" in t and "id" in t}


def technique_of(text):
    """The technique the prompt names: `... the technique "X"` (apply, repair, review), or the
    id before the colon under "## Technique" (gap)."""
    m = re.search(r'the technique\s+"([^"\n]+)"', text, re.IGNORECASE)
    if m:
        return m.group(1).strip()
    body = section(text, "Technique")
    if body:
        return body.split("\n", 1)[0].split(":", 1)[0].strip()
    return None


def technique_id(name):
    if name is None:
        return None
    return technique_names().get(name.lower(), name)


def launcher_of(text, known):
    """The launcher's qualified name: what precedes "(" on the first line under the launcher
    heading (launcher_signature of src/gpu/shim.cc: "naive::matmul(const float* A, ...)").
    Without that heading, the one known launcher whose name is called or defined in the text."""
    body = section(text, "The launcher")
    if body:
        first = body.split("\n", 1)[0]
        if "(" in first:
            name = first.split("(", 1)[0].strip()
            name = name.split()[-1] if name.split() else name  # "cudaError_t ns::f(" -> "ns::f"
            return name.lstrip(":")
    found = [k for k in known if re.search(r"\b%s\s*\(" % re.escape(k.split("::")[-1]), text)]
    return found[0] if len(found) == 1 else None


# ---- the answers ---------------------------------------------------------------------------


def parent_source(text):
    """The ```cuda block under "## The current source" of an apply prompt; None without one."""
    body = section(text, "The current source")
    if not body or not body.startswith("```cuda\n"):
        return None
    return body[len("```cuda\n"):].split("\n```", 1)[0].rstrip("\n") + "\n"


def answer_rewrite(text, purpose, pairs, echo_parent=False):
    launcher = launcher_of(text, sorted({k[0] for k in pairs}))
    technique = technique_id(technique_of(text))
    entry = pairs.get((launcher, technique))
    parent = parent_source(text) if echo_parent and purpose == "apply" else None
    if entry is None and parent is not None:
        # Unique per prompt, as a sampled model's answers are: each is a candidate of its own.
        asked = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
        return ("Here is the file with %s considered:\n\n```cuda\n%s// scripted: %s leaves "
                "this kernel as it was (prompt %s)\n```\n\nNothing in it changes what runs.\n" %
                (technique, parent, technique, asked))
    if entry is None:
        return ("I cannot do this one: this scripted answer set holds no rewrite of `%s` with "
                "the technique \"%s\", so I am leaving the kernel as it is." %
                (launcher or "an unknown launcher", technique or "unknown"))
    try:
        with open(entry["path"], encoding="utf-8") as f:
            source = f.read()
    except OSError as e:
        fail("the manifest's file for %s / %s cannot be read: %s" % (launcher, technique, e))
    if not source.endswith("\n"):
        source += "\n"
    if purpose == "repair":
        opening = "Here is the file again, complete; it compiles as written:"
        closing = "Nothing in the rewrite needed to change."
    else:
        opening = "Here is `%s` rewritten with %s:" % (launcher, technique.replace("_", " "))
        closing = entry.get("summary", "")
    return "%s\n\n```cuda\n%s```\n\n%s\n" % (opening, source, closing)


def answer_review(text):
    technique = technique_of(text) or "the technique"
    return ("VERDICT: yes\n"
            "The candidate keeps the launcher and writes every output element; applying %s "
            "only changes how the work is organised.\n" % technique)


_GAIN = re.compile(r"([+\-\u2212]?\d+(?:\.\d+)?(?:[eE][+\-]?\d+)?)\s*(%|x\b|\u00d7)?")


def gain_factor(body):
    """(factor, as written) for the first number in a gain's text: "+12.5%" -> 1.125,
    "1.8x" -> 1.8, a bare number after "log" -> exp(it); a bare number otherwise as itself."""
    if not body:
        return None, None
    m = _GAIN.search(body)
    if not m:
        return None, body.split("\n", 1)[0].strip()
    value = float(m.group(1).replace("\u2212", "-"))
    unit = m.group(2)
    written = m.group(0).strip()
    if unit == "%":
        return 1.0 + value / 100.0, written
    if unit in ("x", "\u00d7"):
        return value, written
    if "log" in body[: m.start()].lower():
        return math.exp(value), written
    return value, written


def answer_gap(text):
    technique = technique_of(text) or "this technique"
    predicted, predicted_text = gain_factor(section(text, "Predicted gain"))
    observed, observed_text = gain_factor(section(text, "Observed gain"))
    if predicted is None or observed is None:
        return ("The gain of %s could not be compared with its prediction from the numbers "
                "given. Measure it again before trusting either." % technique)
    if observed >= predicted:
        verdict = "met" if observed < predicted * 1.05 else "exceeded"
        advice = "it is worth trying early on kernels in this state"
    else:
        verdict = "fell short of"
        advice = ("the prediction for this state should come down until a profile shows the "
                  "bottleneck it removes")
    return ("%s gave %s against a predicted %s, so the observed gain %s the prediction. "
            "Going by this step, %s." % (technique, observed_text, predicted_text, verdict, advice))


def answer(request, pairs, echo_parent=False):
    purpose = request.get("purpose")
    text = prompt_text(request)
    if purpose in ("apply", "repair"):
        return answer_rewrite(text, purpose, pairs, echo_parent)
    if purpose == "review":
        return answer_review(text)
    if purpose == "gap":
        return answer_gap(text)
    return "I cannot answer a request whose purpose is %r." % (purpose,)


def tokens(chars):
    return max(1, (chars + 3) // 4) if chars > 0 else 0


def main(argv):
    args = parse_options(argv)
    raw = sys.stdin.read()
    try:
        request = json.loads(raw)
    except ValueError as e:
        fail("the request on stdin is not JSON: %s" % e)
    if not isinstance(request, dict):
        fail("the request on stdin is not a JSON object")
    if args.log:
        log_request(args.log, request)
    pairs = load_manifest(args.answers)
    text = answer(request, pairs, args.echo_parent)
    if args.delay > 0:
        time.sleep(args.delay)
    asked = len(request.get("system") or "") + len(prompt_text(request))
    out = {"text": text, "usage": {"input": tokens(asked), "output": tokens(len(text))},
           "model": MODEL_NAME, "stop_reason": "stop"}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
