#!/usr/bin/env python3
"""Screenshot test of the HTML report: headless Chromium draws every chart, and each must
show its data, not a blank box.

    tests/report/screenshot_test.py --kblaster build/kblaster --out DIR [RESULT.json ...]

Renders the results (default: the real H200 check results and the synthetic optimize
result with a roofline) with `kblaster report --format html`. Each <figure data-chart>
of the page is shown alone, with the page's stylesheet, in light and dark themes; its
PNG (decoded here with zlib, no imaging library) must have enough pixels off the
background, and enough in the colours the chart draws data with (bars, lines, points)
rather than only axes and text, and no more than half off it (else the theme did not
apply). The whole page is kept too, light and dark, in DIR for a person to look at.

Chromium is Debian's chromium-headless-shell (or chromium); scripts/setup.sh installs it.
Without it the test skips (exit 77), saying so, unless KBLASTER_REQUIRE_CHROMIUM=1, as
scripts/test.sh sets, which makes its absence a failure.
"""
import argparse
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_RESULTS = [
    "tests/eval/fixtures/h200/UncoalescedAccessIsSlower.json",
    "tests/eval/fixtures/h200/CommentOnlyEditIsSame.json",
    "tests/eval/fixtures/h200/ChangedOutputIsAFunctionalRegression.json",
    "tests/eval/fixtures/h200/optimize_softmax_slow_matmul_naive.json",
]
# Every chart the default results must yield, and how many of each.
EXPECTED = {"time": 3, "speedup": 3, "progress-evaluations": 2, "progress-time": 2, "roofline": 1}
# The colours charts draw data with, per theme (html_style.cc): base, good, bad, neutral, accent.
DATA_COLOURS = {
    "light": ["#8c959f", "#1a7f37", "#cf222e", "#5a6fd6", "#0969da"],
    "dark": ["#6e7681", "#3fb950", "#f85149", "#8b9cf7", "#4493f8"],
}
BACKGROUND = {"light": "#f6f8fa", "dark": "#151b23"}  # a figure's panel
MIN_INK = 0.04   # share of a chart's pixels off its background
MAX_INK = 0.5    # more, and the theme's background did not apply
MIN_DATA = 150   # pixels in a data colour: bars, lines and points, not just axes
SKIP = 77


def chromium():
    for name in ("chromium-headless-shell", "chromium"):
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(browser, html_file, png, width, height, theme):
    """Chromium's PNG of `html_file` in a `width` x `height` window."""
    with tempfile.TemporaryDirectory() as profile:
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                   "--no-first-run", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                   f"--user-data-dir={profile}", f"--screenshot={png}",
                   f"--window-size={width},{height}",
                   f"--blink-settings=preferredColorScheme={0 if theme == 'dark' else 1}",
                   pathlib.Path(html_file).as_uri()]
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if run.returncode != 0 or not pathlib.Path(png).is_file():
            raise RuntimeError(f"chromium failed ({run.returncode}): {run.stderr[-2000:]}")


def decode_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    at, idat, header = 8, b"", None
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"{path}: unexpected PNG {header}"
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up, corner = previous[x], previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        previous = line
    return width, height, rows


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def near(a, b, tolerance=40):
    return sum(abs(x - y) for x, y in zip(a, b)) <= tolerance


def measure(rows, background, data_colours):
    """(share of pixels off the background, pixels in a data colour)."""
    pixels = [p for row in rows for p in row]
    off = sum(1 for p in pixels if not near(p, background, 12))
    data = sum(1 for p in pixels if any(near(p, c) for c in data_colours))
    return off / max(1, len(pixels)), data


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kblaster", required=True)
    parser.add_argument("--out", required=True, help="where the screenshots are kept")
    parser.add_argument("results", nargs="*", default=DEFAULT_RESULTS)
    args = parser.parse_args()
    browser = chromium()
    if not browser:
        why = "no chromium-headless-shell or chromium on PATH (scripts/setup.sh installs it)"
        if os.environ.get("KBLASTER_REQUIRE_CHROMIUM") == "1":
            print(f"FAIL: {why}")
            return 1
        print(f"SKIP: {why}")
        return SKIP
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = out / "report.html"
    subprocess.run([args.kblaster, "report", *args.results, "--format", "html", "--out", str(report)],
                   cwd=ROOT, check=True)
    page = report.read_text()
    style = re.search(r"<style>.*?</style>", page, re.S).group(0)
    figures = re.findall(r'<figure data-chart="([a-z-]+)">(.*?)</figure>', page, re.S)
    # A control: a chart with axes and a caption but no data must be judged blank, or
    # the measure below proves nothing.
    control = ('<figcaption>control</figcaption><svg class="chart" width="500" height="120">'
               '<line class="axis" x1="60" y1="90" x2="480" y2="90"/>'
               '<text class="tick" x="60" y="105">0</text></svg>')
    failures, counts = [], {}
    for name, _ in figures:
        counts[name] = counts.get(name, 0) + 1
    for index, (name, body) in enumerate(figures + [("control", control)]):
        width, height = (float(v) for v in re.search(r'<svg class="chart" width="([0-9.]+)" '
                                                     r'height="([0-9.]+)"', body).groups())
        alone = out / f"chart-{index}-{name}.html"
        alone.write_text(f'<!DOCTYPE html><html><head><meta charset="utf-8">{style}</head>'
                         f'<body style="margin:0"><figure data-chart="{name}" style="border:0;'
                         f'border-radius:0;display:inline-block">{body}</figure></body></html>')
        for theme in ("light", "dark"):
            png = out / f"chart-{index}-{name}-{theme}.png"
            # The figure: 8 px padding around its caption (about 24 px) and the SVG.
            screenshot(browser, alone, png, int(width) + 16, int(height) + 16 + 24, theme)
            _, _, rows = decode_png(png)
            ink, data = measure(rows, rgb(BACKGROUND[theme]), [rgb(c) for c in DATA_COLOURS[theme]])
            verdict = ("ok" if MIN_INK <= ink <= MAX_INK and data >= MIN_DATA
                       else "BLANK" if ink < MIN_INK or data < MIN_DATA else "WRONG THEME")
            print(f"{png.name}: {ink:.1%} of pixels drawn, {data} in data colours: {verdict}")
            if name == "control":
                if verdict != "BLANK":
                    failures.append(f"{png.name}: a chart without data was judged {verdict}")
                continue
            if verdict != "ok":
                failures.append(f"{png.name}: {ink:.1%} drawn (need {MIN_INK:.0%} to "
                                f"{MAX_INK:.0%}), {data} data pixels (need {MIN_DATA})")
    if args.results == DEFAULT_RESULTS and counts != EXPECTED:
        failures.append(f"charts on the page: {counts}, expected {EXPECTED}")
    # The whole page, for a person to look at (decoding it here would take long).
    for theme in ("light", "dark"):
        png = out / f"report-{theme}.png"
        screenshot(browser, report, png, 1150, 3600, theme)
        print(f"{png.name}: {png.stat().st_size // 1024} KiB")
    for f in failures:
        print(f"FAIL: {f}")
    print(f"{len(figures)} charts, screenshots in {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
