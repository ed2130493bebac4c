#!/usr/bin/env python3
"""Runs a command and checks its exit status and output (tests of the test gates).

usage: expect_exit.py STATUS TEXT -- COMMAND...
Passes when COMMAND exits with STATUS and its output (stdout and stderr) contains
TEXT. Unlike CTest's WILL_FAIL, a crash or a different failure does not pass.
"""
import subprocess
import sys


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    want, text, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[4:]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")
    print(p.stdout)
    ok = True
    if p.returncode != want:
        print(f"expect_exit: exit status {p.returncode}, expected {want}")
        ok = False
    if text not in p.stdout:
        print(f"expect_exit: the output lacks {text!r}")
        ok = False
    print("expect_exit: " + ("as expected" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
