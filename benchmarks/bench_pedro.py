"""Full-pipeline throughput of the Pedro engine, with a C baseline timed in the same run.

    python benchmarks/bench_pedro.py [deals]

Prints deals/s for each policy on one thread and on all threads (best of three
timed runs after a warm-up, as `bidlab bench`), the speed-up against one thread,
and, when a C compiler is available, the deals/s of ``c/pedro_playout.c``: the
same work as the kernel's ``random`` policy written in plain C, built twice: once
drawing from bidlab's counter-based streams (it plays the very same deals), once
with the cheapest draws a C programmer would pick (``-DSPEED_FIRST``), which shows
what the reproducible streams cost. The ratio numba/C on one thread is the figure
to watch; absolute numbers drift with the load of the machine.
"""

import argparse
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from analyzer import bench

C_SOURCE = Path(__file__).parent / "c" / "pedro_playout.c"


def compile_c(source: Path, folder: str, flags: tuple[str, ...] = ()) -> Path | None:
    """``source`` compiled (-O2 -march=native, then ``flags``) into ``folder``; None
    without a C compiler. Where the kernels deal without PDEP (it is microcode on this
    CPU: ``analyzer.bits.FAST_PEXT``), the C does too (-DSLOW_PDEP): the same work."""
    from analyzer import bits

    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    exe = Path(folder) / source.stem
    same_work = () if bits.FAST_PEXT else ("-DSLOW_PDEP",)
    subprocess.run([cc, "-O2", "-march=native", *same_work, *flags, "-o", str(exe),
                    str(source)], check=True)
    return exe


def c_baseline(source: Path, n: int, unit: str = "deals", repeats: int = 3,
               flags: tuple[str, ...] = ()) -> float | None:
    """Best ``unit``/s of the C playout ``source`` (compiled with ``flags``) run with ``n``
    on one core, or None without a C compiler. The program prints its rate as
    ``<rate> <unit>/s``."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_c(source, tmp, flags)
        if exe is None:
            return None
        runs = [subprocess.run([str(exe), str(n)], check=True, capture_output=True,
                               text=True).stdout for _ in range(repeats)]
    return max(float(re.search(rf"([\d.]+) {re.escape(unit)}/s", out).group(1)) for out in runs)


def count_argument(unit: str) -> argparse.ArgumentParser:
    """The benchmarks' one argument, how many deals (``unit``) each timed run plays, with
    help and a one-line refusal of anything but a whole number of at least 1."""
    def count(text: str) -> int:
        if not text.isdigit() or int(text) < 1:
            raise argparse.ArgumentTypeError(f"{unit} is a whole number of at least 1; got "
                                             f"{text!r}")
        return int(text)

    parser = argparse.ArgumentParser()
    parser.add_argument(unit, nargs="?", type=count, default=1_000_000,
                        help=f"{unit} a timed run plays (default 1,000,000)")
    return parser


def main() -> None:
    parser = count_argument("deals")
    parser.description = __doc__.splitlines()[0]
    deals = parser.parse_args().deals
    rows = bench.run(games=("pedro",), deals=deals)
    base = {(r.game, r.policy): r.deals_per_s for r in rows if r.threads == 1}
    for r in rows:
        ratio = r.deals_per_s / base[(r.game, r.policy)]
        print(f"{r.game:8} {r.policy:10} threads={r.threads}  {r.deals_per_s / 1e6:6.3f} M deals/s"
              f"  x{ratio:4.2f} vs 1 thread")
    c = c_baseline(C_SOURCE, deals)
    if c is None:
        print("C baseline: no C compiler found")
        return
    numba_random = base[("pedro", "random")]
    print(f"C baseline (random policy, 1 core)   {c / 1e6:6.3f} M deals/s;"
          f" numba random / C = {numba_random / c:4.2f}")
    fast = c_baseline(C_SOURCE, deals, flags=("-DSPEED_FIRST",))
    print(f"C speed-first draws (not bidlab's deals) {fast / 1e6:6.3f} M deals/s;"
          f" / C on bidlab's streams = {fast / c:4.2f}")


if __name__ == "__main__":
    main()
