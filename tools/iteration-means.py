#!/usr/bin/env python3
"""Per-fork, per-iteration means of a JMH SampleTime result, and the 99.9% confidence interval of each cell's mean
computed from those iteration means (the figure inferbench's summary prints). Used to choose the run defaults in
benchmarks.properties: every cell's interval must stay within 3% of its mean.

usage: tools/iteration-means.py results/<run>/jmh-result.json
"""
import json
import math
import statistics
import sys

# Student-t 0.9995 quantiles by degrees of freedom (two-sided 99.9%); between table entries the next lower df is
# used, so the interval printed here is slightly wider (conservative) than the exact one in summary.txt.
T9995 = {1: 636.62, 2: 31.6, 3: 12.92, 4: 8.61, 5: 6.87, 6: 5.96, 7: 5.41, 8: 5.04, 9: 4.78, 10: 4.59,
         11: 4.44, 12: 4.32, 13: 4.22, 14: 4.14, 15: 4.07, 16: 4.01, 17: 3.97, 18: 3.92, 19: 3.88, 20: 3.85,
         21: 3.82, 22: 3.79, 23: 3.77, 24: 3.75, 25: 3.73, 26: 3.71, 27: 3.69, 28: 3.67, 29: 3.66, 30: 3.65,
         40: 3.55, 60: 3.46, 80: 3.42, 100: 3.39, 120: 3.37}


def t_quantile(df):
    keys = sorted(k for k in T9995 if k <= df)
    return T9995[keys[-1]] if df <= 120 else 3.29


def main(path):
    worst = 0.0
    for cell in json.load(open(path)):
        params = " ".join(f"{k}={v}" for k, v in sorted(cell.get("params", {}).items()))
        means = []
        print(params)
        for f, fork in enumerate(cell["primaryMetric"]["rawDataHistogram"]):
            fork_means = []
            for it in fork:
                n = sum(c for _, c in it)
                fork_means.append(sum(v * c for v, c in it) / n)
            means += fork_means
            print(f"  fork {f + 1}: " + " ".join(f"{m:.3f}" for m in fork_means))
        mean = statistics.fmean(means)
        if len(means) > 1:
            half = t_quantile(len(means) - 1) * statistics.stdev(means) / math.sqrt(len(means))
            worst = max(worst, half / mean)
            print(f"  mean {mean:.3f} ± {half:.3f} (99.9% CI, n={len(means)}) = ±{100 * half / mean:.2f}%")
        else:
            print(f"  mean {mean:.3f} (one iteration: no interval)")
    print(f"widest interval: ±{100 * worst:.2f}% of the mean")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
