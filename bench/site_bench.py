"""The site target beside the Markdown catalogue on the same registry: render time, wall and CPU
(best of --repeat, in this process, the contract view derived once beforehand, as a build does) and
output size. The site should stay under 2x the catalogue's time and under 20 MB.

    python -m bench.site_bench [--codes 5000] [--repeat 5] [--shape plain|prose]
"""

from __future__ import annotations

import argparse
import time

from bench import synth
from errgen.contract import view
from errgen.emit.targets import catalogue, site
from errgen.registry.lint import lint_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codes", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--shape", choices=("plain", "prose"), default="plain",
                        help="short synthetic descriptions, or text-heavy ones like real catalogues")
    args = parser.parse_args()
    text = synth.registry_text(args.codes) if args.shape == "plain" else synth.prose_text(args.codes)
    registry = lint_text(text).registry
    view(registry)
    print(f"{args.codes} codes ({args.shape}), best of {args.repeat}")
    best, best_cpu = {}, {}
    for target in (catalogue, site):
        times, cpu = [], []
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            files = target.render(registry)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        best[target.NAME], best_cpu[target.NAME] = min(times), min(cpu)
        size = sum(len(text.encode()) for text in files.values())
        print(f"  {target.NAME:<5} {min(times):7.3f} s  CPU {min(cpu):7.3f} s  {size / 1e6:6.2f} MB  {len(files)} files")
    # On a shared machine the wall time moves with everyone else's load; the CPU ratio decides.
    print(f"  site / docs: {best['site'] / best['docs']:.2f}x wall, {best_cpu['site'] / best_cpu['docs']:.2f}x CPU (target < 2x)")


if __name__ == "__main__":
    main()
