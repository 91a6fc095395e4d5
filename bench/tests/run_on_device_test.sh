#!/usr/bin/env bash
# bench/run_on_device.sh's verdict on a gpu test run (issue 21, E): it fails when gtest fails or
# when any test skips (on the GPU machine a skip means the test did not test what it is for),
# and passes only a clean run. A stand-in for kblaster_device_tests prints what gtest prints.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/kblaster_device_tests" <<'FAKE'
#!/usr/bin/env bash
case "$FAKE_RUN" in
  pass) printf '[       OK ] A.B (1 ms)\n[  PASSED  ] 1 test.\n'; exit 0;;
  fail) printf '[  FAILED  ] A.B (1 ms)\n[  FAILED  ] 1 test, listed below:\n'; exit 1;;
  skip) printf '[  SKIPPED ] A.B (0 ms)\n[  PASSED  ] 0 tests.\n[  SKIPPED ] 1 test, listed below:\n'; exit 0;;
  many) for i in $(seq 1 12); do echo "$i" >"$KBLASTER_DEVICE_LOG_DIR/log-$i.json"; done
        printf '[  FAILED  ] A.B (1 ms)\n'; exit 1;;
  big) head -c $((9 * 1024 * 1024)) /dev/zero >"$KBLASTER_DEVICE_LOG_DIR/big.json"
       printf '[  PASSED  ] 1 test.\n'; exit 0;;
  huge) for i in $(seq 1 9); do head -c $((2 * 1024 * 1024)) /dev/urandom >"$KBLASTER_DEVICE_LOG_DIR/r-$i.bin"; done
        printf '[  PASSED  ] 1 test.\n'; exit 0;;
esac
FAKE
chmod +x "$work/kblaster_device_tests"
failures=0
expect() {  # expect RUN STATUS WORDS
  local out rc
  out=$(FAKE_RUN=$1 KBLASTER_DEVICE_DIR=$work OUT=$work/out-$1 "$root/bench/run_on_device.sh" tests 2>&1)
  rc=$?
  if [ "$rc" -ne "$2" ] || ! grep -q "$3" <<<"$out"; then
    echo "run '$1': expected exit $2 and '$3', got exit $rc:"; echo "$out"; failures=$((failures + 1))
  fi
}
expect pass 0 "device tests passed"
expect fail 1 "device tests FAILED: gtest exited 1"
expect skip 1 "device tests FAILED: 1 skipped on the GPU machine"
# More files than the device tool returns (8) are packed into one, and the verdict survives.
expect many 1 "packed 14 files into $work/out-many/all.tgz"
if [ "$(find "$work/out-many" -type f)" != "$work/out-many/all.tgz" ] ||
  ! tar xzOf "$work/out-many/all.tgz" ./log-12.json | grep -qx 12; then
  echo "run 'many': expected only all.tgz, holding every file"; failures=$((failures + 1))
fi
# A file over 8 MiB comes back gzipped (the device tool returns files up to 16 MiB), whole.
expect big 0 "gzipped 1 file(s) over 8 MiB"
if [ -e "$work/out-big/big.json" ] || [ "$(gzip -dc "$work/out-big/big.json.gz" | wc -c)" -ne $((9 * 1024 * 1024)) ]; then
  echo "run 'big': expected big.json.gz holding all 9 MiB"; failures=$((failures + 1))
fi
# A pack over 15 MiB is split into parts that rejoin to the whole.
expect huge 0 "split all.tgz into 2 parts of 15 MiB"
if [ -e "$work/out-huge/all.tgz" ] ||
  [ "$(cat "$work/out-huge"/all.tgz.part-* | tar tzf - | grep -c 'r-[0-9]\.bin')" -ne 9 ]; then
  echo "run 'huge': expected parts rejoining to every file"; failures=$((failures + 1))
fi
# A folder that held files before the run is never emptied: they are not the run's to pack.
mkdir -p "$work/out-kept" && echo mine >"$work/out-kept/mine.txt"
out=$(FAKE_RUN=many KBLASTER_DEVICE_DIR=$work OUT=$work/out-kept "$root/bench/run_on_device.sh" tests 2>&1)
if ! grep -q "left 15 files in $work/out-kept unpacked" <<<"$out" || [ ! -f "$work/out-kept/mine.txt" ] ||
  [ -e "$work/out-kept/all.tgz" ]; then
  echo "run 'many' into a used folder: expected it left as it was, got:"; echo "$out"; failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] && echo "run_on_device.sh: a failure and a skip fail it, a clean run passes"
exit "$failures"
