#!/usr/bin/env python3
"""Runs one stage of actions/Dockerfile in a Debian root with chroot, as Docker would run it.

Used by actions/test-recipe.sh, on machines with no container engine. It reads the Dockerfile
itself (continuation lines joined, comment lines dropped, as Docker's parser does), so the
test runs the recipe's own RUN, COPY, ENV, ARG, WORKDIR and USER steps, not a copy of them.

  run_dockerfile.py DOCKERFILE STAGE ROOT --context DIR [--stage-root NAME=ROOT]...
                    [--from-host NAME] [--env K=V]... [--print-env]

What cannot be done without an engine is said, not hidden: FROM is the ROOT given (a Debian 12
root made by mmdebstrap), and COPY --from a stage named by --from-host copies from this
machine's file system (the CUDA toolkit in /usr/local/cuda-13.0 stands in for NVIDIA's image).
Exit status: 0 when every step of the stage succeeded, else the failing step's status.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys


def instructions(path):
    """(keyword, argument text) per instruction, as Docker's parser joins and strips them."""
    out, pending = [], ""
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.lstrip().startswith("#"):
                continue  # a comment line, also inside a continuation
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            line = pending + line
            pending = ""
            if line.strip():
                word, _, rest = line.strip().partition(" ")
                out.append((word.upper(), rest.strip()))
    return out


def substitute(text, env):
    """${NAME}, ${NAME:-default} and $NAME from env; unknown names become empty, as in Docker."""
    def repl(m):
        name = m.group(1) or m.group(3)
        default = m.group(2)
        value = env.get(name, "")
        return value if value or default is None else default
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)", repl, text)


def stages(steps):
    """{stage name: [steps]}, and the global ARGs before the first FROM."""
    globals_, by_stage, current = {}, {}, None
    for word, rest in steps:
        if word == "FROM":
            parts = rest.split()
            current = parts[-1] if len(parts) >= 3 and parts[-2].upper() == "AS" else parts[0]
            by_stage[current] = []
        elif current is None and word == "ARG":
            name, _, value = rest.partition("=")
            globals_[name] = value
        elif current is not None:
            by_stage[current].append((word, rest))
    return globals_, by_stage


def parse_env_pairs(text, env):
    """ENV K=V K2="V 2" … (the key=value form only)."""
    pairs = {}
    for token in shlex.split(text):
        key, _, value = token.partition("=")
        pairs[key] = substitute(value, {**env, **pairs})
    return pairs


def chroot_run(root, command, env, workdir, user):
    userspec = ["--userspec=" + user] if user else []
    argv = ["chroot", *userspec, root, "/usr/bin/env", "-i",
            *[f"{k}={v}" for k, v in env.items()], "/bin/sh", "-c",
            f"mkdir -p {shlex.quote(workdir)} 2>/dev/null; cd {shlex.quote(workdir)} && {command}"]
    return subprocess.run(argv).returncode


def context_files(context):
    """The files `COPY . .` sends: what git tracks and the untracked files it does not ignore."""
    listed = subprocess.run(["git", "-C", context, "ls-files", "-co", "--exclude-standard", "-z"],
                            check=True, capture_output=True).stdout.decode().split("\0")
    return [p for p in listed if p and os.path.lexists(os.path.join(context, p))]


def copy_into(root, sources, dest, workdir):
    target = dest if dest.startswith("/") else os.path.join(workdir, dest)
    target_in_root = os.path.join(root, target.lstrip("/"))
    into_dir = dest.endswith("/") or len(sources) > 1 or dest in (".", "./")
    for src in sources:
        if os.path.isdir(src) and not os.path.islink(src):
            # COPY dir dest copies the directory's contents into dest
            shutil.copytree(src, target_in_root, symlinks=True, dirs_exist_ok=True)
        else:
            where = os.path.join(target_in_root, os.path.basename(src)) if into_dir else target_in_root
            os.makedirs(os.path.dirname(where), exist_ok=True)
            shutil.copy2(src, where, follow_symlinks=False)


def run_stage(args):
    globals_, by_stage = stages(instructions(args.dockerfile))
    if args.stage not in by_stage:
        sys.exit(f"run_dockerfile: no stage {args.stage} in {args.dockerfile}")
    stage_roots = dict(s.split("=", 1) for s in args.stage_root)
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root"}
    env.update(dict(e.split("=", 1) for e in args.env))
    args_seen = dict(globals_)
    workdir, user = "/", None
    for word, rest in by_stage[args.stage]:
        scope = {**args_seen, **env}
        print(f"recipe [{args.stage}] {word} {rest}", flush=True)
        if word == "ARG":
            name, _, value = rest.partition("=")
            args_seen[name] = os.environ.get("RECIPE_ARG_" + name, substitute(value, scope))
        elif word == "ENV":
            env.update(parse_env_pairs(rest, scope))
        elif word == "WORKDIR":
            workdir = os.path.join(workdir, substitute(rest, scope))
            os.makedirs(os.path.join(args.root, workdir.lstrip("/")), exist_ok=True)
        elif word == "USER":
            name = substitute(rest, scope)
            uid = subprocess.run(["chroot", args.root, "id", "-u", name], check=True,
                                 capture_output=True, text=True).stdout.strip()
            user = f"{uid}:{uid}"
        elif word == "RUN":
            # ARG values are visible to RUN as environment variables, as in Docker.
            rc = chroot_run(args.root, rest, {**args_seen, **env}, workdir, user)
            if rc != 0:
                print(f"recipe [{args.stage}] RUN failed with exit status {rc}", flush=True)
                return rc
        elif word == "COPY":
            parts = shlex.split(substitute(rest, scope))
            source_stage = None
            while parts and parts[0].startswith("--"):
                flag = parts.pop(0)
                if flag.startswith("--from="):
                    source_stage = flag.split("=", 1)[1]
            *sources, dest = parts
            if source_stage is None:
                if sources == ["."]:
                    files = context_files(args.context)
                    for rel in files:
                        copy_into(args.root, [os.path.join(args.context, rel)],
                                  os.path.join(dest, os.path.dirname(rel)) + "/", workdir)
                    continue
                base = args.context
            elif source_stage in args.from_host:
                base = "/"
                print(f"recipe [{args.stage}]   stage {source_stage} is not built here: "
                      "copying from this machine's file system", flush=True)
            else:
                base = stage_roots[source_stage]
            resolved = []
            for s in sources:
                path = os.path.join(base, s.lstrip("/"))
                if source_stage in args.from_host:
                    path = args.host_map.get(s, path)
                resolved.append(path)
            copy_into(args.root, resolved, dest, workdir)
        elif word in ("CMD", "ENTRYPOINT", "LABEL", "EXPOSE"):
            pass
        else:
            print(f"recipe [{args.stage}] {word} is not supported by this runner", flush=True)
            return 2
    if args.print_env:
        with open(args.print_env, "w", encoding="utf-8") as f:
            for k, v in env.items():
                f.write(f"{k}={v}\n")
            if user:
                f.write(f"RECIPE_USER={user}\n")
            f.write(f"RECIPE_WORKDIR={workdir}\n")
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dockerfile")
    p.add_argument("stage")
    p.add_argument("root")
    p.add_argument("--context", required=True)
    p.add_argument("--stage-root", action="append", default=[])
    p.add_argument("--from-host", action="append", default=[])
    p.add_argument("--host-map", action="append", default=[],
                   help="SRC=HOSTPATH: where a --from-host stage's SRC lies on this machine")
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--print-env")
    args = p.parse_args()
    args.host_map = dict(m.split("=", 1) for m in args.host_map)
    sys.exit(run_stage(args))


if __name__ == "__main__":
    main()
