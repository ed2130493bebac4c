#!/usr/bin/env python3
"""Does nvJitLink answer a PTX -> cubin assembly from a cache? (issue 14, the
compile bench's fairness.)

Assembles the same PTX and copies of it made unique by a trailing comment, in
alternation, in one process, through the toolkit's libnvJitLink (as the runtime
does, in process or in a compile worker), and lists what appeared under
~/.nv (the driver's JIT cache directory). If a cache keyed on the PTX answered,
the repeated PTX would assemble faster than the unique copies.

  scripts/nvjitlink-cache-probe.py FILE.ptx [--arch sm_90] [--rounds 10]
  (FILE.ptx: e.g. `atoll-harden K.bc --emit=ptx -o K.ptx`)
"""
import argparse
import ctypes
import os
import statistics
import time

ap = argparse.ArgumentParser()
ap.add_argument("ptx")
ap.add_argument("--arch", default="sm_90")
ap.add_argument("--rounds", type=int, default=10)
ap.add_argument("--cuda", default=os.environ.get("ATOLL_CUDA_PATH", "/usr/local/cuda"))
a = ap.parse_args()

lib = None
for name in ("libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"):
    try:
        lib = ctypes.CDLL(os.path.join(a.cuda, "lib64", name))
        break
    except OSError:
        pass
if lib is None:
    raise SystemExit("no libnvJitLink under " + a.cuda)
text = open(a.ptx).read()
cache = os.path.expanduser("~/.nv")


def listing():
    out = []
    for root, _, files in os.walk(cache):
        out += [os.path.join(root, f) for f in files]
    return sorted(out)


def assemble(ptx):
    h = ctypes.c_void_p()
    opts = (ctypes.c_char_p * 1)(("-arch=" + a.arch).encode())
    if lib.nvJitLinkCreate(ctypes.byref(h), 1, opts) != 0:
        raise SystemExit("nvJitLinkCreate failed")
    b = ptx.encode()
    t = time.perf_counter()
    ok = lib.nvJitLinkAddData(h, 2, b, len(b), b"probe") == 0 and lib.nvJitLinkComplete(h) == 0
    ms = (time.perf_counter() - t) * 1000
    size = ctypes.c_size_t()
    lib.nvJitLinkGetLinkedCubinSize(h, ctypes.byref(size))
    lib.nvJitLinkDestroy(ctypes.byref(h))
    if not ok:
        raise SystemExit("assembly failed")
    return ms, size.value


before = listing()
first, cubin = assemble(text)  # the process's first use (lazy initialisation)
same, unique = [], []
for r in range(a.rounds):
    same.append(assemble(text)[0])
    unique.append(assemble(text + "\n// probe %d %d\n" % (os.getpid(), time.time_ns()))[0])
after = listing()
print("nvJitLink %s, %s, %d-byte PTX -> %d-byte cubin, CUDA_CACHE_DISABLE=%s"
      % (lib._name, a.arch, len(text), cubin, os.environ.get("CUDA_CACHE_DISABLE", "(unset)")))
print("first assembly in the process: %.2f ms" % first)
print("same PTX again:   median %.2f ms (min %.2f, max %.2f) over %d"
      % (statistics.median(same), min(same), max(same), len(same)))
print("unique PTX:       median %.2f ms (min %.2f, max %.2f) over %d"
      % (statistics.median(unique), min(unique), max(unique), len(unique)))
print("same / unique: %.2f" % (statistics.median(same) / statistics.median(unique)))
new = [f for f in after if f not in before]
print("files under ~/.nv: %d before, %d after, %d new%s"
      % (len(before), len(after), len(new), (": " + ", ".join(new[:5])) if new else ""))
