#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-report.py RELEASE CELLS SVG STACK - make bench's table and plot.

CELLS is tools/bench-guest.sh's output: "cell FS SERIES X WALKER MEDIAN
P90 MIN RUNS ERR" per cell, walker and repeat, "batch R N NS", and
"live WORKLOAD SETTING R NS SEEN TAKEN DROPPED SHADOWED MATCH RACED
MISMATCH UNCHECKED" per live-mode run.
Prints the release's table: per cell the median ns/lookup of each
walker (the median of the repeats' medians) and the ratios to the
kernel, with their range over the repeats; the cost per component and
per link (slopes of the depth and chained-link series); batch
throughput; live mode's cost on real programs (each armed run's time
over the unarmed run of the same repeat) and its counts; the stack
footprint.  Writes the plot to SVG with gnuplot,
and as text beside it (.txt, gnuplot's dumb terminal).
"""
import statistics
import subprocess
import sys
from collections import defaultdict

WALKERS = ("kernel", "shadow", "shadow-record")


def load(path):
    cells = defaultdict(lambda: defaultdict(list))  # (fs,series,x) -> walker -> [median]
    errs = {}
    batch = []
    order = []
    live = defaultdict(list)  # (workload, setting) -> [(ns, counts...)]
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 10 and w[0] == "cell":
                key = (w[1], w[2], int(w[3]))
                if key not in cells:
                    order.append(key)
                cells[key][w[4]].append(int(w[5]))
                errs[(key, w[4])] = w[9]
            elif len(w) == 4 and w[0] == "batch":
                batch.append(int(w[2]) * 1e9 / int(w[3]))
            elif len(w) == 13 and w[0] == "live":
                live[(w[1], w[2])].append([int(v) for v in w[4:]])
    return cells, errs, batch, order, live


def live_table(live):
    """Live mode: each workload's time armed over unarmed (same repeat), and its counts."""
    workloads = list(dict.fromkeys(k[0] for k in live))
    if not workloads:
        return
    print("live mode: a workload's time at each setting over its time off (the same repeat),")
    print("median (min-max); probes: armed for no task; lookups/s: seen over the run's time;")
    print("counts summed over the repeats")
    print("%-16s %-10s %8s  %-17s %9s %8s %8s %8s %6s %5s %5s %5s" %
          ("workload", "setting", "off ms", "time/off", "lookups/s", "seen", "taken",
           "shadowed", "raced", "mism", "unch", "drop"))
    for wl in workloads:
        off = [r[0] for r in live.get((wl, "off"), [])]
        for setting in ("probes", "sample=100", "sample=1"):
            runs = live.get((wl, setting), [])
            if not runs or not off:
                continue
            ratio = [r[0] / o for r, o in zip(runs, off) if o]
            tot = [sum(r[i] for r in runs) for i in range(1, 9)]
            seen, taken, dropped, shadowed, _, raced, mism, unch = tot
            rate = statistics.median(r[1] * 1e9 / r[0] for r in runs if r[0])
            print("%-16s %-10s %8.0f  %-17s %9s %8d %8d %8d %6d %5d %5d %5d" %
                  (wl, setting, statistics.median(off) / 1e6, fmt_ratio(ratio),
                   "%.0f" % rate if seen else "-", seen, taken, shadowed, raced, mism,
                   unch, dropped))


def ratios(cell, walker):
    """The walker's ratio to the kernel in each repeat (same boot, same round)."""
    return [s / k for s, k in zip(cell[walker], cell["kernel"]) if k]


def slope(cells, fs, series, walker):
    pts = sorted((x, statistics.median(c[walker])) for (f, s, x), c in cells.items()
                 if f == fs and s == series and c.get(walker))
    if len(pts) < 2 or pts[-1][0] == pts[0][0]:
        return None
    return (pts[-1][1] - pts[0][1]) / (pts[-1][0] - pts[0][0])


def fmt_ratio(r):
    if not r:
        return "-"
    return "%.2f (%.2f-%.2f)" % (statistics.median(r), min(r), max(r))


def main():
    rel, path, svg, stack = sys.argv[1:5]
    cells, errs, batch, order, live = load(path)
    def most_repeats(cold):
        return max((len(v) for k, c in cells.items() if k[0].endswith("-cold") == cold
                    for v in c.values()), default=0)
    print("%s: ns per lookup, median of %d repeats (each the median of its walks);"
          % (rel, most_repeats(False)))
    if most_repeats(True):
        print("<fs>-cold: one walk each, after drop_caches, %d repeats" % most_repeats(True))
    print("ratios to the kernel: median (min-max) over the repeats, walks of the same round")
    print("%-13s %-8s %3s %8s %8s %8s  %-17s %-17s %s" %
          ("fs", "series", "x", "kernel", "shadow", "record", "shadow/kernel",
           "record/kernel", "answer"))
    for key in order:
        c = cells[key]
        med = [("%d" % statistics.median(c[w])) if c.get(w) else "-" for w in WALKERS]
        answers = sorted({errs.get((key, w), "?") for w in WALKERS if c.get(w)})
        print("%-13s %-8s %3d %8s %8s %8s  %-17s %-17s %s" %
              (key[0], key[1], key[2], med[0], med[1], med[2],
               fmt_ratio(ratios(c, "shadow")), fmt_ratio(ratios(c, "shadow-record")),
               "same" if len(answers) == 1 else "DIFFER " + ",".join(answers)))
    for fs in ("tmpfs", "ext4"):
        for series, what in (("depth", "component"), ("chained", "link"), ("nested", "nested link")):
            k = slope(cells, fs, series, "kernel")
            s = slope(cells, fs, series, "shadow")
            r = slope(cells, fs, series, "shadow-record")
            if k and s:
                print("%s: per %s (slope of %s): kernel %.0f ns, shadow %.0f ns (%.2fx), "
                      "with record %.0f ns (%.2fx)" % (fs, what, series, k, s, s / k,
                                                       r or 0, (r or 0) / k))
    if batch:
        print("batch: %.0f checked requests/s (depth 8; %d runs, %.0f-%.0f)" %
              (statistics.median(batch), len(batch), min(batch), max(batch)))
    live_table(live)
    print("stack: %s" % stack)
    print()
    plot(cells, rel, svg)


def plot(cells, rel, svg):
    data = svg[:-4] + ".dat"
    with open(data, "w") as f:
        for series in ("depth", "chained"):
            f.write("# %s\n" % series)
            for (fs, s, x), c in sorted(cells.items()):
                if fs == "tmpfs" and s == series:
                    f.write("%d %s\n" % (x, " ".join(
                        "%d" % statistics.median(c[w]) if c.get(w) else "NaN" for w in WALKERS)))
            f.write("\n\n")
    # the same two plots, as SVG and as text (for the README)
    plots = """
set key top left
set xlabel 'components'
set title '{rel}: ns per lookup on tmpfs against depth (hot)'
plot for [i=2:4] '{data}' index 0 using 1:i with linespoints title word('kernel shadow shadow-record', i-1)
set xlabel 'chained links'
set title '{rel}: ns per lookup on tmpfs against chained links (hot)'
plot for [i=2:4] '{data}' index 1 using 1:i with linespoints title word('kernel shadow shadow-record', i-1)
""".format(data=data, rel=rel)
    svg_script = """
set terminal svg size 900,420 dynamic
set output '{svg}'
set multiplot layout 1,2 title '{rel}: ns per lookup on tmpfs (hot; median of the repeats)'
set grid
{plots}
unset multiplot
""".format(svg=svg, rel=rel, plots=plots)
    text_script = """
set terminal dumb size 76,20 mono
set output '{text}'
{plots}
""".format(text=svg[:-4] + ".txt", plots=plots)
    for script in (svg_script, text_script):
        subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    main()
