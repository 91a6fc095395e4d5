#!/usr/bin/env bash
# Tests actions/Dockerfile's recipe on a machine with no container engine: makes clean Debian 12
# roots with mmdebstrap, runs the Dockerfile's own build and runtime stages in them with chroot
# (actions/recipe/run_dockerfile.py reads the steps from the Dockerfile), then, in the runtime
# root as the image's non-root user, checks that every shared library of kblaster and
# kblaster-harness resolves, and runs `kblaster --version`, `kblaster plan examples/kernels`,
# `kblaster build` of one kernel (nvcc at run time) and `kblaster kb init`.
#
#   actions/test-recipe.sh [WORKDIR]     (root; default WORKDIR /work/recipe-root, outside the repo)
#
# Long: a full Release build. It is not part of ctest. RECIPE_JOBS (default 1) caps the build's
# parallelism; run it with `nice -n 15` on a shared machine. What it cannot test: the toolkit
# stage (NVIDIA's image is not pulled; this machine's /usr/local/cuda-13.0 stands in for it),
# Nsight Compute (not on this machine), and a GPU (plan needs none).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-/work/recipe-root}"
case "$work" in "$repo"/*) echo "test-recipe: $work is inside the repository; choose another" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "test-recipe: needs root (mmdebstrap, chroot, mount)" >&2; exit 3; }
cuda=/usr/local/cuda-13.0
[ -x "$cuda/bin/nvcc" ] || { echo "test-recipe: needs the CUDA 13.0 toolkit in $cuda (it stands in for the toolkit stage)" >&2; exit 3; }
command -v mmdebstrap >/dev/null || {
  echo "test-recipe: installing mmdebstrap"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap
}

mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() { mkdir -p "$2"; mount --bind "$1" "$2"; mounts+=("$2"); }

# debian:12-slim's equivalent: bookworm with its updates and security suites, minbase.
make_root() {
  local root="$1" m
  # Mounts left by an interrupted run come off first, so rm never reaches the host's /dev.
  for m in $(findmnt -rn -o TARGET | grep "^$root/" | sort -r); do umount -l "$m"; done
  rm -rf --one-file-system "$root"
  mmdebstrap --variant=minbase --quiet bookworm "$root" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  bind /proc "$root/proc"
  bind /dev "$root/dev"
  bind /sys "$root/sys"
}

echo "test-recipe: $(date -u +%FT%TZ) in $work"
mkdir -p "$work"
umount -l "$work/toolkit/usr/local/cuda-13.0" 2>/dev/null || true
rm -rf "$work/toolkit"
# The toolkit stage's output, /toolkit/usr/local/{cuda-13.0,cuda}, from this machine.
mkdir -p "$work/toolkit/usr/local"
bind "$cuda" "$work/toolkit/usr/local/cuda-13.0"
ln -s cuda-13.0 "$work/toolkit/usr/local/cuda"
run_stage() {
  python3 "$repo/actions/recipe/run_dockerfile.py" "$repo/actions/Dockerfile" "$@" \
    --context "$repo" --from-host toolkit \
    --host-map "/toolkit/usr/local/=$work/toolkit/usr/local/" --host-map "/toolkit/=$work/toolkit/"
}

make_root "$work/build"
# Where this machine reaches the npm registry through a TLS proxy with a CA of its own
# (NODE_EXTRA_CA_CERTS set here), the build root's npm is given that CA the same way; a
# `docker build` behind such a proxy needs the same (a build secret). Nothing else is passed.
extra_env=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  cp "$NODE_EXTRA_CA_CERTS" "$work/build/etc/recipe-extra-ca.crt"
  extra_env+=(--env NODE_EXTRA_CA_CERTS=/etc/recipe-extra-ca.crt)
fi
RECIPE_ARG_CUDA_ARCHITECTURES=90 run_stage build "$work/build" \
  --env "CMAKE_BUILD_PARALLEL_LEVEL=${RECIPE_JOBS:-1}" "${extra_env[@]}"

make_root "$work/runtime"
run_stage runtime "$work/runtime" --stage-root "build=$work/build" --print-env "$work/runtime.env"

# The image's environment and user, as `docker run` would give them.
mapfile -t image_env < <(grep -v '^RECIPE_' "$work/runtime.env")
user=$(sed -n 's/^RECIPE_USER=//p' "$work/runtime.env")
[ -n "$user" ] || { echo "test-recipe: the runtime stage sets no USER (it must not run as root)" >&2; exit 1; }
[ "${user%%:*}" != 0 ] || { echo "test-recipe: the runtime stage's USER is root" >&2; exit 1; }
home=$(chroot "$work/runtime" getent passwd "${user%%:*}" | cut -d: -f6)
cp -a "$repo/examples/kernels" "$work/runtime$home/kernels"
chroot "$work/runtime" chown -R "$user" "$home/kernels"
in_image() {
  chroot --userspec="$user" "$work/runtime" /usr/bin/env -i "${image_env[@]}" HOME="$home" \
    /bin/sh -c "cd $home && $1"
}

echo "test-recipe: shared libraries of the runtime image's binaries"
missing=$(in_image 'ldd /opt/kblaster/bin/kblaster /opt/kblaster/bin/kblaster-harness' | grep 'not found' || true)
[ -z "$missing" ] || { echo "test-recipe: missing in the runtime image: $missing" >&2; exit 1; }
echo "test-recipe: kblaster --version"
set +e
in_image 'kblaster --version'
rc=$?
set -e
# --version reports "GPU: none (…)" without a device; it must not fail for lack of anything else.
[ "$rc" -eq 0 ] || { echo "test-recipe: kblaster --version exited $rc" >&2; exit 1; }
echo "test-recipe: kblaster plan kernels"
in_image 'kblaster plan kernels'
# kblaster compiles candidates at run time: nvcc and its host compiler (g++) must work there.
echo "test-recipe: kblaster build kernels --kernel axpy (nvcc and g++ in the runtime image)"
in_image 'kblaster build kernels --kernel axpy'
echo "test-recipe: kb init (reads the seed catalogue at \$KBLASTER_CATALOGUE)"
in_image 'kblaster kb init kernels && kblaster kb stats kernels'
echo "test-recipe: passed $(date -u +%FT%TZ)"
