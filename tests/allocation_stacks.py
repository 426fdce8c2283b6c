#!/usr/bin/env python3
"""Groups the call stacks a test program printed with IMPETUS_ALLOC_TRACE set (tests/allocation_counting.hpp):
each allocation counted once warm, named with addr2line, most frequent stack first.

  python3 tests/allocation_stacks.py PROGRAM STACKS [--frames N]
"""
import argparse
import collections
import os
import re
import subprocess


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("program", help="the test program that printed the stacks")
    parser.add_argument("stacks", help="its stderr")
    parser.add_argument("--frames", type=int, default=8, help="frames shown per stack (default 8)")
    args = parser.parse_args()
    name = re.escape(os.path.basename(args.program))
    stacks = collections.Counter()
    with open(args.stacks) as f:
        blocks = f.read().split("----\n")
    for block in blocks:
        # backtrace_symbols_fd's "PROGRAM(+0xOFFSET) [0x...]"; the first frame is count() itself.
        offsets = re.findall(name + r"\(\+0x([0-9a-f]+)\)", block)[1:args.frames + 1]
        if not offsets:
            continue
        # A return address is one past its call: the byte before it is in the calling line.
        lines = subprocess.run(["addr2line", "-f", "-C", "-e", args.program] +
                               ["0x%x" % (int(o, 16) - 1) for o in offsets],
                               capture_output=True, text=True, check=True).stdout.splitlines()
        functions = [re.sub(r"[<(].*", "", lines[i].replace("(anonymous namespace)", "{anonymous}"))
                     for i in range(0, len(lines), 2)]
        stacks[" <- ".join(functions)] += 1
    for stack, count in stacks.most_common():
        print(count, stack)


if __name__ == "__main__":
    main()
