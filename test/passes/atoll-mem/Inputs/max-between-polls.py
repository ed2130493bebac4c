# Prints the largest number of lines matching PATTERN (argv[2]) in the PTX file
# argv[1] between two cancel polls (ld.volatile.global), before the first, or after
# the last: what code generation left between polls, not what the IR said.
import re
import sys

pattern = re.compile(sys.argv[2])
runs, run = [], 0
for line in open(sys.argv[1]):
    if "ld.volatile.global" in line:
        runs.append(run)
        run = 0
    elif pattern.search(line):
        run += 1
runs.append(run)
print(f"polls {len(runs) - 1} max-between-polls {max(runs)}")
