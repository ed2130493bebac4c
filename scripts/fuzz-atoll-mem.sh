#!/usr/bin/env bash
# Robustness run of the atoll-mem pass (issue 3): the pass must never crash, hang or
# emit IR that does not verify or compile, whatever module it is given.
#
#   scripts/fuzz-atoll-mem.sh [-n STRESS] [-m MUTANTS] [-j JOBS] [-s SEED] [-o OUTDIR]
#                             [-b BUILD_DIR] [--ptxas]
#
# (a) STRESS modules from `llvm-stress -seed=i -size=...`, retargeted to
#     nvptx64-nvidia-cuda (triple, datalayout, the function made a ptx_kernel; every
#     other seed also widens the allocas so that more modules get past the
#     "larger than its object" refusal and are really hardened; every fourth seed
#     uses scalable vectors);
# (b) MUTANTS of the inputs of the lit suite (test/passes/atoll-mem/*.ll, and the .cu
#     files compiled with clang; each module of a split-file test): random
#     address-space, type, alignment, constant, operand, flag, intrinsic-name and
#     deletion mutations at the text level, kept only when `llvm-as` accepts them
#     (valid IR).
# Each module goes through `opt -passes=atoll-mem<mode>` (mask or modulo, at random)
# and is classified:
#   refused   exit 1 with an "atoll-mem: refused" diagnostic (a clean refusal)
#   hardened  exit 0, the output verifies, and `llc -mcpu=sm_90` compiles it
#             (with --ptxas, ptxas assembles the PTX too)
#   crash     a signal, an assertion, "PLEASE submit a bug report", a hang, exit 0
#             with output llc rejects while it compiles the unhardened input, or any
#             other exit
#   skipped   llc rejects the unhardened input too (an LLVM limitation, not ours)
#   ptxas-rejected (--ptxas only) llc compiles the output but ptxas rejects it: a
#             clean load-time error, kept apart and saved under OUTDIR
# Every crash is kept under OUTDIR with the command that reproduces it. The run
# exits 1 when there is at least one crash.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
stress=500
mutants=500
jobs=2
seed=1
out=""
build="$src/build"
ptxas=0
while [ $# -gt 0 ]; do
  case "$1" in
    -n) stress=$2; shift 2 ;;
    -m) mutants=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -s) seed=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    -b) build=$2; shift 2 ;;
    --ptxas) ptxas=1; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "fuzz-atoll-mem.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out=$(mktemp -d /tmp/atoll-fuzz.XXXXXX)
mkdir -p "$out"
bin=${LLVM_TOOLS_DIR:-/usr/lib/llvm-22/bin}
plugin="$build/lib/libAtollPasses.so"
[ -f "$plugin" ] || { echo "fuzz-atoll-mem.sh: $plugin not built" >&2; exit 2; }
for t in opt llc llvm-as llvm-stress clang; do
  [ -x "$bin/$t" ] || { echo "fuzz-atoll-mem.sh: $bin/$t missing" >&2; exit 2; }
done

# A private copy: the build tree may be relinked by a concurrent build mid-run.
cp "$plugin" "$out/libAtollPasses.so"
plugin="$out/libAtollPasses.so"
export FUZZ_SRC="$src" FUZZ_BIN="$bin" FUZZ_PLUGIN="$plugin" FUZZ_OUT="$out" \
  FUZZ_STRESS="$stress" FUZZ_MUTANTS="$mutants" FUZZ_JOBS="$jobs" FUZZ_SEED="$seed" \
  FUZZ_PTXAS="$ptxas" FUZZ_CUDA="${CUDA_PATH:-/usr/local/cuda}"
exec python3 - <<'PYEOF'
import concurrent.futures as cf
import glob
import os
import random
import re
import subprocess
import sys
import tempfile
import time

SRC = os.environ["FUZZ_SRC"]
BIN = os.environ["FUZZ_BIN"]
PLUGIN = os.environ["FUZZ_PLUGIN"]
OUT = os.environ["FUZZ_OUT"]
N_STRESS = int(os.environ["FUZZ_STRESS"])
N_MUT = int(os.environ["FUZZ_MUTANTS"])
JOBS = int(os.environ["FUZZ_JOBS"])
SEED = int(os.environ["FUZZ_SEED"])
PTXAS = os.environ["FUZZ_PTXAS"] == "1"
CUDA = os.environ["FUZZ_CUDA"]
TRIPLE = "nvptx64-nvidia-cuda"
LAYOUT = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
TIMEOUT = 60


def tool(name):
    return os.path.join(BIN, name)


def run(cmd, stdin=None, timeout=TIMEOUT):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", b"", "timeout after %ds" % timeout


CRASH_MARKS = ("PLEASE submit a bug report", "Assertion", "Stack dump", "LLVM ERROR",
               "UNREACHABLE executed", "Segmentation fault")


def crashed(rc, err):
    return rc == "timeout" or (isinstance(rc, int) and rc < 0) or \
        any(m in err for m in CRASH_MARKS)


def llc_ok(ir_text):
    rc, ptx, err = run([tool("llc"), "-mtriple=" + TRIPLE, "-mcpu=sm_90", "-o", "-", "-"],
                       stdin=ir_text)
    if rc != 0:
        return False, "llc: " + err[-2000:]
    if PTXAS:
        # One file per call: the jobs are threads of one process.
        with tempfile.NamedTemporaryFile(dir=OUT, suffix=".ptx", delete=False) as f:
            f.write(ptx)
            path = f.name
        rc, _, err = run([os.path.join(CUDA, "bin", "ptxas"), "-arch=sm_90", "-o", "/dev/null",
                          path])
        os.unlink(path)
        if rc != 0:
            return False, "ptxas: " + err[-2000:]
    return True, ""


def check(name, ir_text, mode):
    """Runs the pass on one module; returns (category, detail)."""
    passes = "atoll-mem<clamping-mode=%s>" % mode
    cmd = [tool("opt"), "-load-pass-plugin=" + PLUGIN, "-passes=" + passes, "-S", "-o", "-", "-"]
    rc, outp, err = run(cmd, stdin=ir_text)
    if crashed(rc, err):
        return "crash", "opt: rc=%s\n%s" % (rc, err[-4000:])
    if rc == 1 and "atoll-mem: refused" in err:
        first = next(l for l in err.splitlines() if "atoll-mem: refused" in l)
        m = re.search(r"refused in '[^']*': (.*?)(: |$)", first)
        reason = m.group(1) if m else first
        return "refused", re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'...'", reason))
    if rc != 0:
        return "crash", "opt: unexpected exit %s\n%s" % (rc, err[-4000:])
    ok, why = llc_ok(outp)
    if ok:
        return "hardened", ""
    if why.startswith("ptxas:"):
        # llc compiled it; ptxas refusing the PTX (say, tenant asm naming an
        # undefined symbol that LLVM dropped as dead in the unhardened input) is
        # a clean load-time error, not a crash. Counted and kept apart.
        return "ptxas-rejected", why
    # Does LLVM compile the tenant's module without our pass? If not, the input is
    # beyond the backend (say, an <8 x i1> atomic) and proves nothing about the pass.
    ok_in, _ = llc_ok(ir_text)
    if not ok_in:
        return "skipped", why
    return "crash", "hardened output does not compile, the input does\n" + why


def save(name, ir_text, mode, detail):
    path = os.path.join(OUT, name + ".ll")
    with open(path, "wb") as f:
        f.write(ir_text)
    with open(os.path.join(OUT, name + ".txt"), "w") as f:
        f.write("%s -load-pass-plugin=%s -passes='atoll-mem<clamping-mode=%s>' %s -S -o -\n\n%s\n"
                % (tool("opt"), PLUGIN, mode, path, detail))


# ---- (a) llvm-stress modules, retargeted ------------------------------------------

def retarget(text, widen):
    lines = []
    for line in text.splitlines():
        if line.startswith("target triple") or line.startswith("target datalayout"):
            continue
        m = re.match(r"^define (\w+ )?(void|[^@]*) @(\w+)\((.*)\) (.*)$", line) or \
            re.match(r"^define (\w+ )?(void|[^@]*) @(\w+)\((.*)\)(.*)$", line)
        if m and line.startswith("define "):
            line = "define ptx_kernel void @%s(%s)%s" % (
                m.group(3), m.group(4), (" " + m.group(5).strip()) if m.group(5).strip() else "")
            if not line.rstrip().endswith("{"):
                line += " {"
        if widen:
            # alloca T, align N -> alloca [1024 x i8], align 16: more accesses fit.
            line = re.sub(r"= alloca [^,]+, align \d+", "= alloca [1024 x i8], align 16", line)
        lines.append(line)
    body = "\n".join(lines)
    # A non-void function: its returns become `ret void`.
    body = re.sub(r"^(\s*)ret (?!void)[^\n]*$", r"\1ret void", body, flags=re.M)
    return ('target datalayout = "%s"\ntarget triple = "%s"\n' % (LAYOUT, TRIPLE) + body + "\n")


def stress_job(i):
    rnd = random.Random(SEED * 1000003 + i)
    size = rnd.choice([10, 25, 50, 100, 200, 400])
    cmd = [tool("llvm-stress"), "-seed=%d" % (SEED * 100003 + i), "-size=%d" % size, "-o", "-"]
    if i % 4 == 3:  # scalable vectors: NVPTX has none, the pass must refuse them
        cmd.insert(1, "-enable-scalable-vectors")
    rc, ir, err = run(cmd)
    if rc != 0:
        return "stress-%d" % i, "skipped", "llvm-stress failed: " + err[-500:], b"", "mask-based"
    # llvm-stress writes bitcode to a file and text to stdout with -o -? It writes text.
    text = ir.decode("utf-8", "replace")
    mod = retarget(text, widen=(i % 2 == 1)).encode()
    rc, _, err = run([tool("llvm-as"), "-o", "/dev/null", "-"], stdin=mod)
    if rc != 0:
        return "stress-%d" % i, "invalid", err[-500:], mod, "mask-based"
    mode = rnd.choice(["mask-based", "modulo-based"])
    cat, detail = check("stress-%d" % i, mod, mode)
    return "stress-%d" % i, cat, detail, mod, mode


# ---- (b) mutants of the lit inputs -------------------------------------------------

def lit_inputs():
    files = sorted(glob.glob(os.path.join(SRC, "test/passes/atoll-mem/*.ll")))
    seeds = []
    for f in files:
        with open(f, "rb") as h:
            text = h.read()
        # split-file tests hold several modules after ";--- name" lines.
        parts = re.split(rb"^;--- (\S+)\n", text, flags=re.M)
        if len(parts) == 1:
            seeds.append((os.path.basename(f), text))
        else:
            for k in range(1, len(parts) - 1, 2):
                seeds.append((os.path.basename(f) + ":" + parts[k].decode(), parts[k + 1]))
    cc = os.path.join(BIN, "clang")
    for f in sorted(glob.glob(os.path.join(SRC, "test/passes/atoll-mem/*.cu"))):
        rc, ir, err = run([cc, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
                           "--cuda-path=" + CUDA, "-O2", "-S", "-emit-llvm",
                           "-Wno-unknown-cuda-version", "-o", "-", f], timeout=120)
        if rc == 0:
            seeds.append((os.path.basename(f), ir))
    # Keep only the modules llvm-as accepts as they are (a few tests feed broken input).
    good = []
    for name, text in seeds:
        rc, _, _ = run([tool("llvm-as"), "-o", "/dev/null", "-"], stdin=text)
        if rc == 0:
            good.append((name, text))
    return good


INTERESTING = ["0", "1", "-1", "2", "3", "4", "7", "8", "15", "16", "17", "31", "64", "255",
               "256", "257", "4095", "4096", "4097", "65536", "1048576", "2147483647",
               "-2147483648", "4294967295", "9223372036854775807", "-4096"]
TYPES = ["i1", "i8", "i16", "i32", "i64", "i128", "half", "float", "double", "<2 x i32>",
         "<4 x float>", "<8 x i16>", "<4 x i64>", "[2 x i32]", "{ i32, i64 }", "ptr",
         "ptr addrspace(1)", "ptr addrspace(3)", "<3 x float>", "<16 x i8>", "<vscale x 4 x i32>", "{ <vscale x 2 x i64> }"]
SPACES = ["", " addrspace(1)", " addrspace(3)", " addrspace(4)", " addrspace(5)",
          " addrspace(101)", " addrspace(2)", " addrspace(7)"]


def mutate_once(lines, rnd):
    body = [i for i, l in enumerate(lines)
            if l.startswith("  ") and not l.lstrip().startswith(";")]
    if not body:
        return lines
    i = rnd.choice(body)
    l = lines[i]
    op = rnd.randrange(10)
    if op == 9:  # rename an intrinsic everywhere (declaration included): a
        # made-up "llvm.*" name must be refused, never trusted by its prefix
        names = sorted(set(re.findall(r"@(llvm\.[\w.]+)", "\n".join(lines))))
        if names:
            old = rnd.choice(names)
            parts = old.split(".")
            k = rnd.randrange(1, len(parts))
            parts[k] = rnd.choice(["x", "4", "16", "s", "p0", "p3", "gen", "cta", "i64", parts[k] + "z"])
            new = ".".join(parts)
            return [l.replace("@" + old + "(", "@" + new + "(") for l in lines]
        return lines
    if op == 0:  # address space of one pointer type
        spots = [m.start() for m in re.finditer(r"\bptr( addrspace\(\d+\))?", l)]
        if spots:
            s = rnd.choice(spots)
            m = re.compile(r"ptr( addrspace\(\d+\))?").match(l, s)
            l = l[:s] + "ptr" + rnd.choice(SPACES) + l[m.end():]
    elif op == 1:  # a constant
        spots = list(re.finditer(r"(?<![%@\w.])-?\d+\b", l))
        if spots:
            m = rnd.choice(spots)
            l = l[:m.start()] + rnd.choice(INTERESTING) + l[m.end():]
    elif op == 2:  # an alignment
        l = re.sub(r"align \d+", "align " + rnd.choice(["1", "2", "4", "8", "16", "32", "64",
                                                         "256", "512", "4096"]), l, count=1)
    elif op == 3:  # a type
        spots = list(re.finditer(r"\b(i\d+|float|double|half|<\d+ x [a-z0-9]+>)\b", l))
        if spots:
            m = rnd.choice(spots)
            l = l[:m.start()] + rnd.choice(TYPES) + l[m.end():]
    elif op == 4:  # delete the instruction (its uses will not parse unless unused)
        l = ""
    elif op == 5:  # swap an operand for another value of the function
        names = re.findall(r"%[\w.]+", "\n".join(lines))
        uses = list(re.finditer(r"%[\w.]+", l))
        if names and len(uses) > 1:
            m = rnd.choice(uses[1:] if "=" in l else uses)
            l = l[:m.start()] + rnd.choice(names) + l[m.end():]
    elif op == 6:  # flip a flag / ordering / volatility
        swaps = [("load ", "load volatile "), ("store ", "store volatile "),
                 ("monotonic", "seq_cst"), ("seq_cst", "monotonic"), ("inbounds ", ""),
                 ("load ", "load atomic "), ("i1 false)", "i1 true)"), ("add ", "sub "),
                 ("atomicrmw add", "atomicrmw xchg"), ("atomicrmw add", "atomicrmw fadd")]
        a, b = rnd.choice(swaps)
        l = l.replace(a, b, 1)
    elif op == 7:  # duplicate a line that defines nothing
        if "=" not in l.split(";")[0]:
            lines = lines[:i] + [l] + lines[i:]
    else:  # replace an operand with a forged pointer / undef / null
        uses = list(re.finditer(r"%[\w.]+", l))
        if len(uses) > 1:
            m = rnd.choice(uses[1:] if "=" in l else uses)
            l = l[:m.start()] + rnd.choice(["null", "undef", "poison",
                                            "inttoptr (i64 7 to ptr)"]) + l[m.end():]
    lines = list(lines)
    lines[i] = l
    return lines


def mutant_job(args):
    k, name, text = args
    rnd = random.Random(SEED * 7919 + k)
    src_lines = text.decode("utf-8", "replace").splitlines()
    # Drop RUN/CHECK comments: they carry no IR and would bloat the repros.
    src_lines = [l for l in src_lines if not l.startswith(";")]
    for attempt in range(40):
        lines = src_lines
        for _ in range(rnd.randint(1, 6)):
            lines = mutate_once(lines, rnd)
        mod = ("\n".join(lines) + "\n").encode()
        rc, _, _ = run([tool("llvm-as"), "-o", "/dev/null", "-"], stdin=mod)
        if rc == 0:
            mode = rnd.choice(["mask-based", "modulo-based"])
            tag = "mut-%d-%s" % (k, re.sub(r"\W", "_", name))
            cat, detail = check(tag, mod, mode)
            return tag, cat, detail, mod, mode
    return "mut-%d" % k, "invalid", "no valid mutant in 40 attempts", b"", "mask-based"


def main():
    start = time.time()
    counts = {}
    crashes = []
    reasons = {}

    def tally(kind, res):
        tag, cat, detail, mod, mode = res
        counts.setdefault(kind, {}).setdefault(cat, 0)
        counts[kind][cat] += 1
        if cat == "refused":
            reasons[detail] = reasons.get(detail, 0) + 1
        if cat == "crash":
            crashes.append(tag)
            save(tag, mod, mode, detail)
        if cat == "ptxas-rejected":
            save(tag, mod, mode, detail)

    with cf.ThreadPoolExecutor(max_workers=JOBS) as ex:
        for res in ex.map(stress_job, range(N_STRESS)):
            tally("stress", res)
        seeds = lit_inputs()
        if not seeds and N_MUT:
            print("no lit inputs found under test/passes/atoll-mem", file=sys.stderr)
        if seeds:
            work = [(k, *seeds[k % len(seeds)]) for k in range(N_MUT)]
            for res in ex.map(mutant_job, work):
                tally("mutant", res)
    print("atoll-mem robustness run (seed %d, %.0f s, outputs in %s)" % (SEED, time.time() - start, OUT))
    for kind in ("stress", "mutant"):
        c = counts.get(kind, {})
        total = sum(v for k, v in c.items() if k != "invalid")
        print("  %-7s modules run %5d: refused %5d, hardened+compiled %5d, skipped %4d, "
              "crashes %d%s%s" % (kind, total, c.get("refused", 0), c.get("hardened", 0),
                                  c.get("skipped", 0), c.get("crash", 0),
                                  (", ptxas-rejected %d" % c["ptxas-rejected"])
                                  if c.get("ptxas-rejected") else "",
                                  (", not valid IR %d" % c["invalid"]) if c.get("invalid") else ""))
    print("  refusal reasons (first diagnostic of each refused module):")
    for r, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        print("    %5d  %s" % (n, r))
    for t in crashes:
        print("  CRASH: %s (see %s/%s.txt)" % (t, OUT, t))
    sys.exit(1 if crashes else 0)


main()
PYEOF
