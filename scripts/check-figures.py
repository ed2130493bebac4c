#!/usr/bin/env python3
"""Checks that every measured figure in README.md and docs/ is backed by a committed
result file (docs/results-index.md).

Each row of the index's tables reads

    | `figure text` | doc[, doc...] | result file | `evidence text` |

and passes when `figure text` appears in every named document and `evidence text`
in the result file (both verbatim; runs of white space, line breaks included, count
as one space). A figure that drifted from its result file, or a result file that
was replaced without updating the documents, fails the check.

usage: check-figures.py [--root DIR] [--self-test]
"""
import argparse
import os
import re
import sys
import tempfile

CODE = re.compile(r"^(`+)\s?(.*?)\s?\1$")


def parse_row(line):
    """(figure, [docs], file, evidence) of a table row, else None. Cells split at
    unescaped pipes; a code span's `\\|` is a literal pipe (as in GitHub's tables)."""
    line = line.strip()
    if not line.startswith("|") or not line.endswith("|"):
        return None
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", line[1:-1])]
    if len(cells) != 4:
        return None
    fig, ev = CODE.match(cells[0]), CODE.match(cells[3])
    if not fig or not ev:
        return None
    unescape = lambda t: t.replace("\\|", "|")
    return (unescape(fig.group(2)), [d.strip() for d in cells[1].split(",")],
            cells[2].strip("` "), unescape(ev.group(2)))


def squash(text):
    return re.sub(r"\s+", " ", text)


def check(root, index="docs/results-index.md"):
    problems, rows = [], 0
    cache = {}

    def read(path):
        if path not in cache:
            full = os.path.join(root, path)
            try:
                with open(full, encoding="utf-8", errors="replace") as f:
                    cache[path] = squash(f.read())
            except OSError as e:
                cache[path] = None
                problems.append(f"{path}: cannot read ({e.strerror})")
        return cache[path]

    text = read(index)
    if text is None:
        return problems, 0
    with open(os.path.join(root, index), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            row = parse_row(line)
            if not row:
                continue
            rows += 1
            fig, docs, result, ev = row
            fig, ev = squash(fig), squash(ev)
            for doc in docs:
                body = read(doc)
                if body is not None and fig not in body:
                    problems.append(f"{index}:{n}: {doc} no longer says '{fig}'")
            body = read(result)
            if body is not None and ev not in body:
                problems.append(f"{index}:{n}: {result} does not contain '{ev}' "
                                f"(the evidence for '{fig}')")
    if rows == 0:
        problems.append(f"{index}: no figure rows found")
    return problems, rows


def self_test():
    """The checker must catch a drifted figure and a missing evidence line."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "docs"))
        def put(p, s):
            with open(os.path.join(d, p), "w") as f:
                f.write(s)
        put("README.md", "a new tenant in 3.9 us\ninstead of ~113 ms\n")
        put("r.log", "pooled 3.9 us, cuCtxCreate 112.9 ms\n")
        put("docs/results-index.md",
            "| `3.9 us` | README.md | r.log | `pooled 3.9 us` |\n"
            "| `~113 ms` | README.md | r.log | `cuCtxCreate 112.9 ms` |\n")
        ok, rows = check(d)
        assert not ok and rows == 2, ok
        # Pipes in code spans, double backticks, line breaks in the document.
        put("docs/results-index.md",
            "| `3.9 us` | README.md | r.log | `pooled 3.9 us` |\n"
            "| ``a `x` \\| b`` | README.md | r.log | `1 \\| 2` |\n")
        put("README.md", "a new tenant in 3.9\n us; a `x` | b\n")
        put("r.log", "pooled 3.9 us, 1   |  2\n")
        ok, rows = check(d)
        assert not ok and rows == 2, ok
        put("docs/results-index.md",
            "| `3.9 us` | README.md | r.log | `pooled 3.9 us` |\n"
            "| `~113 ms` | README.md | r.log | `cuCtxCreate 112.9 ms` |\n")
        put("r.log", "pooled 3.9 us, cuCtxCreate 112.9 ms\n")
        put("README.md", "a new tenant in 4.2 us\ninstead of ~113 ms\n")
        bad, _ = check(d)
        assert len(bad) == 1 and "no longer says '3.9 us'" in bad[0], bad
        put("README.md", "a new tenant in 3.9 us\ninstead of ~113 ms\n")
        put("r.log", "pooled 4.2 us, cuCtxCreate 112.9 ms\n")
        bad, _ = check(d)
        assert len(bad) == 1 and "does not contain 'pooled 3.9 us'" in bad[0], bad
    print("check-figures self-test: passed")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    problems, rows = check(os.path.abspath(args.root))
    for p in problems:
        print("check-figures: " + p)
    print(f"check-figures: {rows} figures, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
