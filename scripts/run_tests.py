#!/usr/bin/env python3
"""Runs every AToLL test (lit, unit, GPU) and prints one combined summary.

lit and CTest each write JUnit XML; this script reads both, lists failures and
skips (with their reasons), and ends with the line 'N passed, N failed, N skipped'.
Exit status: 0 when nothing failed.
"""
import argparse
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET


def junit_cases(path):
    """(suite, name, status, message) for every testcase in a JUnit file."""
    if not os.path.exists(path):
        return []
    cases = []
    for case in ET.parse(path).getroot().iter("testcase"):
        name = case.get("name", "?")
        suite = case.get("classname", "")
        status, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                status, message = "failed", (child.get("message") or child.text or "")
            elif child.tag == "skipped":
                status, message = "skipped", (child.get("message") or child.text or "")
        if status == "skipped" and (message in ("", "SKIP_REGULAR_EXPRESSION_MATCHED")
                                    or message.startswith("SKIP_RETURN_CODE")):
            # A skip is exit status 77 (never an output pattern); GoogleTest prints the
            # GTEST_SKIP() reason on the line after "Skipped".
            out = case.find("system-out")
            lines = out.text.splitlines() if out is not None and out.text else []
            for i, line in enumerate(lines):
                if line.endswith(": Skipped") and i + 1 < len(lines):
                    message = lines[i + 1]
                    break
                if line.startswith("[  SKIPPED ] ") and not message.startswith("["):
                    message = line  # atoll-attacks --gpu states its reason on this line
        if suite == name:
            suite = ""
        cases.append((suite, name, status, message.strip()))
    return cases


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw).returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--only", choices=["lit", "ctest", "mutants"], help="run one runner only")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    build = os.path.abspath(args.build_dir)
    results = os.path.join(build, "test-results")
    os.makedirs(results, exist_ok=True)
    lit_xml = os.path.join(results, "lit.xml")
    ctest_xml = os.path.join(results, "ctest.xml")
    for f in (lit_xml, ctest_xml):
        if os.path.exists(f):
            os.remove(f)

    rcs = []
    if args.only in (None, "lit"):
        lit = shutil.which("lit", path="/usr/lib/llvm-22/bin:" + os.environ.get("PATH", ""))
        if not lit:
            print("error: lit not found (install llvm-22-tools)", file=sys.stderr)
            return 2
        print("== lit: pass and CLI tests ==", flush=True)
        rcs.append(run([lit, "-q", "-j", str(args.jobs), "--xunit-xml-output", lit_xml,
                        os.path.join(build, "test", "passes")]))
    if args.only in (None, "mutants"):
        # The mutation check itself rebuilds the plugin once per mutant (1.5 to 5
        # minutes each here): too slow for every run. Its cheap half runs always:
        # every mutant must still match the code it mutates (docs/passes.md).
        print("== mutants: every mutant matches passes/lib ==", flush=True)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        mut_rc = run([sys.executable, os.path.join(root, "scripts", "mutate-passes.py"), "--check"])
        rcs.append(mut_rc)
        mutants_case = ("mutants", "", "mutate-passes --check",
                        "passed" if mut_rc == 0 else "failed",
                        "" if mut_rc == 0 else "a mutant no longer matches passes/lib")
    if args.only in (None, "ctest"):
        print("== ctest: unit and GPU tests ==", flush=True)
        rcs.append(run(["ctest", "--test-dir", build, "-j", str(args.jobs),
                        "--output-on-failure", "--output-junit", ctest_xml]))

    cases = [("lit",) + c for c in junit_cases(lit_xml)]
    cases += [("ctest",) + c for c in junit_cases(ctest_xml)]
    if args.only in (None, "mutants"):
        cases.append(mutants_case)
    passed = sum(1 for c in cases if c[3] == "passed")
    failed = [c for c in cases if c[3] == "failed"]
    skipped = [c for c in cases if c[3] == "skipped"]

    print("\n== AToLL test summary ==")
    by_runner = {}
    for runner, _, _, status, _ in cases:
        counts = by_runner.setdefault(runner, {"passed": 0, "failed": 0, "skipped": 0})
        counts[status] += 1
    for runner, counts in by_runner.items():
        print(f"  {runner:6s} {counts['passed']:5d} passed {counts['failed']:4d} failed "
              f"{counts['skipped']:4d} skipped")
    for runner, suite, name, _, msg in skipped:
        print(f"  SKIPPED {runner}: {(suite + '.' if suite else '') + name}: {msg or 'no reason given'}")
    for runner, suite, name, _, msg in failed:
        print(f"  FAILED  {runner}: {(suite + '.' if suite else '') + name}: {msg.splitlines()[0] if msg else ''}")
    runner_failed = any(rc != 0 for rc in rcs)
    if runner_failed and not failed:
        print("  a test runner exited non-zero without a failed test case")
    print(f"{passed} passed, {len(failed)} failed, {len(skipped)} skipped")
    return 1 if failed or runner_failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
