#!/usr/bin/env python3
"""Draws the per-kernel overhead chart from atoll-bench's results.json.

    python3 bench/plot.py bench/results/results.json [-o docs/benchmarks-overhead.png]
                          [--raw]

One group of bars per kernel (and one for the geometric mean): the hardened/native
kernel-time ratio of each clamping mode (mask-based = the default, modulo-based),
through the runtime (Pipeline::launch); --raw adds the raw-launch cross-check
variants. Lines at 1.0 (native) and at 1.05 (the geometric-mean target).
Needs matplotlib (Debian: apt-get install python3-matplotlib).
"""
import argparse
import json
import math
import os
import sys

MODES = [("mask", "mask-based (default)"), ("modulo", "modulo-based")]
RAW_MODES = [("mask-raw", "mask-based, raw launch"), ("modulo-raw", "modulo-based, raw launch")]
COLORS = {"mask": "#1f77b4", "modulo": "#ff7f0e", "mask-raw": "#9ecae1", "modulo-raw": "#fdd0a2"}


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def load(path):
    with open(path) as f:
        data = json.load(f)
    overhead = data.get("sections", {}).get("overhead")
    if not overhead or not overhead.get("kernels"):
        sys.exit(f"plot.py: {path} has no overhead results (run atoll-bench with a GPU, "
                 "without --only or with --only=overhead)")
    return data, overhead


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.join(os.path.dirname(here), "docs", "benchmarks-overhead.png")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="results.json written by atoll-bench")
    ap.add_argument("-o", "--out", default=default_out, help="PNG to write (default: %(default)s)")
    ap.add_argument("--raw", action="store_true", help="also plot the raw-launch variants")
    args = ap.parse_args()

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed; install it with "
              "'apt-get install python3-matplotlib' (Debian/Ubuntu) or "
              "'python3 -m pip install matplotlib', then run this script again.",
              file=sys.stderr)
        return 2

    data, overhead = load(args.results)
    modes = MODES + (RAW_MODES if args.raw else [])
    kernels = [k for k in overhead["kernels"] if k.get("variants")]
    if not kernels:
        sys.exit("plot.py: no kernel has hardened results")
    names = [k["name"] for k in kernels]
    ratios = {}
    for mode, _ in modes:
        ratios[mode] = [k["variants"].get(mode, {}).get("ratio") for k in kernels]
    names.append("geomean")
    for mode, _ in modes:
        ratios[mode].append(geomean(ratios[mode]))

    width = 0.8 / len(modes)
    fig, ax = plt.subplots(figsize=(max(10, 0.75 * len(names) + 2), 5.5))
    top = 1.25
    bottom = 0.9
    for i, (mode, label) in enumerate(modes):
        xs, ys = [], []
        for j, r in enumerate(ratios[mode]):
            if r is None:
                continue
            xs.append(j - 0.4 + width * (i + 0.5))
            ys.append(r)
            top = max(top, r + 0.05)
            bottom = min(bottom, r - 0.05)
        bars = ax.bar(xs, [y - 1.0 for y in ys], width, bottom=1.0, label=label,
                      color=COLORS.get(mode), edgecolor="black", linewidth=0.4)
        if len(modes) <= 2:
            for bar, y in zip(bars, ys):
                ax.annotate(f"{y:.3f}", (bar.get_x() + bar.get_width() / 2, max(y, 1.0)),
                            xytext=(0, 2), textcoords="offset points", ha="center",
                            va="bottom", fontsize=6.5, rotation=90)
    ax.axhline(1.0, color="black", linewidth=1.0)
    ax.axhline(1.05, color="green", linestyle="--", linewidth=1.0,
               label="target: geomean <= 1.05x")
    ax.axhline(1.20, color="red", linestyle=":", linewidth=1.0,
               label="limit: no kernel > 1.20x")
    ax.axvline(len(names) - 1.5, color="grey", linewidth=0.5)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=35, ha="right")
    ax.set_ylim(max(0.0, bottom), top + 0.03)
    ax.set_ylabel("kernel time, hardened / native")
    m = data.get("machine", {})
    title = "AToLL hardening overhead per kernel"
    details = ", ".join(str(x) for x in [m.get("gpu"), m.get("driver_release") and
                                         f"driver {m.get('driver_release')}", m.get("date")] if x)
    if details:
        title += f"\n{details}"
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=8, loc="upper left", ncol=2)
    ax.grid(axis="y", linewidth=0.3, alpha=0.6)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    fig.savefig(args.out, dpi=150)
    print(f"plot.py: wrote {args.out}")
    for mode, label in modes:
        g = ratios[mode][-1]
        if g is not None:
            print(f"  {label}: geomean {g:.3f}x, max {max(r for r in ratios[mode][:-1] if r):.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
