#!/usr/bin/env python3
"""Checks the host-side rule of docs/architecture.md ("Driver calls that wait") in the
runtime's sources: the driver calls that wait for every running kernel of the shared
context appear only where the design puts them.

- cuModuleUnload, cuMemFree, cuMemFreeHost, cuMemHostUnregister: only inside a task queued on the
  reclaim thread (within a few lines after `reclaim(`);
- cuModuleLoadData*: only in RuntimeState::loadModule (run on the loader thread);
- cuCtxSynchronize, cuStreamSynchronize, cuEventSynchronize,
  cuLibrary*: nowhere.

Usage: check-driver-waits.py <runtime dir>   (exit 1 and one line per violation)
       check-driver-waits.py --self-test     (the checker must catch planted calls)
"""
import pathlib
import re
import sys

CALL = re.compile(r"\b(?:api|api_)\s*(?:->|\.)\s*(cu\w+)\s*\(")
RECLAIMED = {"cuModuleUnload", "cuMemFree", "cuMemFreeHost", "cuMemHostUnregister"}
LOADS = {"cuModuleLoadData", "cuModuleLoadDataEx", "cuModuleLoad", "cuModuleLoadFatBinary"}
FORBIDDEN = {"cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize"}
RECLAIM_WINDOW = 3


def violations(name, text):
    lines = text.splitlines()
    out = []
    function = ""
    for i, line in enumerate(lines):
        m = re.match(r"^[\w:<>,\s*&]*?\b(\w+::\w+)\s*\(", line)
        if m and not line.startswith((" ", "\t")):
            function = m.group(1)
        for call in CALL.findall(line):
            where = f"{name}:{i + 1}: {call}"
            if call in FORBIDDEN or call.startswith("cuLibrary"):
                out.append(f"{where} waits for running kernels and must not be used")
            elif call in RECLAIMED:
                window = lines[max(0, i - RECLAIM_WINDOW):i + 1]
                if not any("reclaim(" in w for w in window):
                    out.append(f"{where} waits for running kernels: only on the reclaim "
                               "thread (RuntimeState::reclaim)")
            elif call in LOADS and function != "RuntimeState::loadModule":
                out.append(f"{where} waits for running kernels: only in "
                           "RuntimeState::loadModule (the loader thread)")
    return out


def check(root):
    out = []
    for path in sorted(pathlib.Path(root).glob("*.cpp")):
        out += violations(path.name, path.read_text())
    return out


def self_test():
    bad = """void ArenaPool::trim() {
  api.cuMemFree(p);
}
Result<X> RuntimeState::loadApplication() {
  api->cuModuleLoadDataEx(&m, ptx, 0, nullptr, nullptr);
}
void f() { api->cuMemFreeHost(p); api->cuStreamSynchronize(s); api->cuLibraryUnload(l); }
"""
    good = """void g() {
  state->reclaim([api] {
    api->cuModuleUnload(m);
  });
}
Result<X> RuntimeState::loadModule(int k) {
  api->cuModuleLoadDataEx(&m, ptx, 0, nullptr, nullptr);
}
"""
    found = violations("bad.cpp", bad)
    expected = ["cuMemFree", "cuModuleLoadDataEx", "cuMemFreeHost", "cuStreamSynchronize",
                "cuLibraryUnload"]
    ok = len(found) == len(expected) and all(e in f for e, f in zip(expected, found))
    ok = ok and violations("good.cpp", good) == []
    print("self-test", "passed" if ok else f"FAILED: {found}")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    print(f"check-driver-waits: {len(problems)} violation(s)")
    sys.exit(1 if problems else 0)
