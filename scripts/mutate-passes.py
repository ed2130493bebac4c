#!/usr/bin/env python3
"""Mutation check of the hardening passes against the lit suite.

Each mutant is one exact text replacement in passes/lib (drop a clamp form, a
zero-init, a length cut; loosen a proof; skip a table action...). For each, the
script applies it, rebuilds the plugin and atoll-harden, runs lit on
build/test/passes, and restores the source. A mutant is killed when at least
--min-failures (default 3) lit tests fail; the script exits 1 if any mutant
survives, or if a mutant's text no longer matches the source (update the mutant
with the code). A mutant listed in EQUIVALENT (another rule gives the same IR, so
no test can tell it apart) that survives is reported "equivalent", with why.

  scripts/mutate-passes.py --build-dir build                  # every mutant
  scripts/mutate-passes.py --only arena-mask,proof-end        # some
  scripts/mutate-passes.py --list
  scripts/mutate-passes.py --check    # only: every mutant still matches the code (CI)
  scripts/mutate-passes.py --output test/passes/mutation-results.txt

The source is restored even on Ctrl-C (and `git diff passes/` shows nothing
afterwards). Each mutant costs one compile of the mutated file, two links and one
lit run; see docs/passes.md ("Mutation check") for the measured time.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, file under passes/lib, exact text, replacement, what it breaks)
MUTANTS = [
    # Clamp forms (Confinement.cpp).
    ("arena-mask", "Confinement.cpp",
     'Value *Off = B.CreateAnd(B.CreateTrunc(Addr, I32), MaskA, "atoll.off");',
     'Value *Off = B.CreateTrunc(Addr, I32);',
     "mask mode: the arena mask is not applied"),
    ("arena-mask-span", "Confinement.cpp",
     "if (!CSize || CSize->getZExtValue() > A.value()) {",
     "if (false) {",
     "mask mode: an access wider than its alignment may cross the arena end"),
    ("arena-modulo-limit", "Confinement.cpp",
     "  Off = B.CreateBinaryIntrinsic(Intrinsic::umin, Off, Lim);\n  Off = alignDown(B, Off, A);\n  return B.CreateAdd(ArenaBase, Off, \"atoll.addr\");",
     "  (void)Lim;\n  Off = alignDown(B, Off, A);\n  return B.CreateAdd(ArenaBase, Off, \"atoll.addr\");",
     "modulo mode: the offset is not limited to size - S"),
    ("arena-modulo-wrap", "Confinement.cpp",
     "Phi->addIncoming(Wrapped, ThenTerm->getParent());",
     "Phi->addIncoming(Rel, ThenTerm->getParent()); (void)Wrapped;",
     "modulo mode: a wild offset is not reduced modulo the size"),
    ("shared-window", "Confinement.cpp",
     'return B.CreateAdd(Lo, Off, "atoll.smem.addr");',
     "(void)Off; return SharedAddr;",
     "the shared-window clamp is dropped"),
    ("object", "Confinement.cpp",
     'return B.CreateGEP(B.getInt8Ty(), Obj, Off, "atoll.obj.addr");',
     "(void)Off; return Ptr;",
     "the object clamp (alloca, shared/constant object, byval) is dropped"),
    ("offset-limit", "Confinement.cpp",
     "Off = B.CreateBinaryIntrinsic(Intrinsic::umin, Off, B.CreateTrunc(Lim64, I32));",
     "(void)Lim64;",
     "32-bit object/window offsets are not limited to size - S"),
    ("space-test", "Confinement.cpp",
     'return B.CreateSelect(IsShared, InShared, InArena, "atoll.generic");',
     "(void)IsShared; (void)InShared; (void)InArena; return Ptr;",
     "unknown-origin pointers are not confined"),
    ("align-down", "Confinement.cpp",
     '  if (A.value() == 1)\n    return V;\n  return B.CreateAnd(V, ConstantInt::get(V->getType(), ~(A.value() - 1)), "atoll.align");',
     "  (void)A;\n  return V;",
     "arena/64-bit offsets are not aligned down"),
    ("align-offset32", "Confinement.cpp",
     "  else if (A.value() > 1)\n    Off = B.CreateAnd(Off, ConstantInt::get(I32, ~uint32_t(A.value() - 1)), \"atoll.align\");",
     "",
     "32-bit offsets are not aligned down"),
    # Zero-initialisation (Confinement.cpp).
    ("zero-allocas", "Confinement.cpp",
     "B.CreateMemSet(AI, B.getInt8(0), *Bytes, AI->getAlign());",
     ";",
     "stack objects are not zeroed"),
    ("zero-shared-bulk", "Confinement.cpp",
     "LB.CreateAlignedStore(Constant::getNullValue(FixedVectorType::get(I32, 4)), Addr, Align(16));",
     "(void)Addr;",
     "the 16-byte zeroing of the shared window is dropped"),
    ("zero-shared-tail", "Confinement.cpp",
     "SB.CreateStore(ConstantInt::get(Type::getInt8Ty(Ctx), 0),\n                 SB.CreateIntToPtr(SB.CreateAdd(Lo, T), SharedPtr));",
     ";",
     "the byte tail of the shared window is not zeroed"),
    ("zero-shared-barrier", "Confinement.cpp",
     "DB.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_all, {DB.getInt32(0)});",
     ";",
     "no barrier between the shared zeroing and the tenant's code"),
    # Length cuts (KernelRewrite.cpp, AccessCollection.cpp).
    ("length-cut", "KernelRewrite.cpp",
     'Len = B.CreateBinaryIntrinsic(Intrinsic::umin, Len, Window, nullptr, "atoll.len");',
     "(void)Window;",
     "memcpy/memset lengths are not cut to the window"),
    ("length-cut-const", "AccessCollection.cpp",
     "Site.CutLength = !CL || CL->getValue().getLimitedValue() > MaxAccessBytes;",
     "Site.CutLength = !CL;",
     "long constant memcpy/memset lengths are not cut"),
    ("length-cut-object", "AccessCollection.cpp",
     "Site.CutLength |= CL && CL->getValue().getLimitedValue() > Op.How.ObjectBytes;",
     ";",
     "constant lengths longer than their object are not cut"),
    ("cp-async-src-size", "KernelRewrite.cpp",
     "II->setArgOperand(2, SrcSize);",
     ";",
     "cp.async src-size is not cut to the copy size"),
    # Proofs (AccessCollection.cpp).
    ("proof-end", "AccessCollection.cpp",
     "return C + S <= *Bytes && C % Op.Alignment.value() == 0 && ObjAlign >= Op.Alignment;",
     "return C <= *Bytes && C % Op.Alignment.value() == 0 && ObjAlign >= Op.Alignment;",
     "a proof ignores the access's end"),
    ("proof-align", "AccessCollection.cpp",
     "return C + S <= *Bytes && C % Op.Alignment.value() == 0 && ObjAlign >= Op.Alignment;",
     "return C + S <= *Bytes;",
     "a proof ignores alignment"),
    ("proof-negative", "AccessCollection.cpp",
     "  if (Offset.isNegative())\n    return false;\n  uint64_t C",
     "  uint64_t C",
     "a proof accepts negative offsets"),
    ("proof-object", "AccessCollection.cpp",
     "  if (Base->stripPointerCasts() != O.Object)\n    return false;",
     "",
     "a proof accepts an offset from another base"),
    ("group-span", "AccessCollection.cpp",
     "if (C % A != 0 || End > Bytes)",
     "if (C % A != 0)",
     "a group may reach past its object"),
    ("group-end", "AccessCollection.cpp",
     "G.MaxEnd = std::max(G.MaxEnd, End);",
     "G.MaxEnd = std::max(G.MaxEnd, C);",
     "a group's clamp ignores its members' sizes"),
    ("subword-atomic", "AccessCollection.cpp",
     "return std::max<uint64_t>(StoreSize(T), 4);",
     "return StoreSize(T);",
     "i8/i16 atomics are confined as their own size, not the 32-bit word"),
    ("ldu-space", "AccessCollection.cpp",
     "    if (Site.Policy.Space == SpaceRule::Global) {\n      O.Space = StateSpace::Global;",
     "    if (false) {\n      O.Space = StateSpace::Global;",
     "ldu.global operands keep their traced space"),
    ("matrix-space", "AccessCollection.cpp",
     "} else if (Site.Policy.Space == SpaceRule::Shared && O.Space != StateSpace::Shared) {",
     "} else if (false) {",
     "ldmatrix/stmatrix operands keep their traced space"),
    # The intrinsic table and the checks.
    ("table-confine", "KernelAnalysis.cpp",
     "      if (P.Action != IntrinsicAction::Confine)\n        continue;",
     "      continue;",
     "the table's Confine rows are not confined"),
    ("table-deny", "IntrinsicTable.cpp",
     "  return refusal(\"intrinsic '\" + N.str() + \"' may access memory\");",
     "  return policy(allow(), N);",
     "an intrinsic without a row that may access memory is allowed"),
    ("table-pointer-deny", "IntrinsicTable.cpp",
     "  if (hasPointerOperand(Callee))\n    return refusal(",
     "  if (false)\n    return refusal(",
     "an unknown intrinsic with pointer operands is allowed"),
    ("sync-mask", "SyncPolicy.cpp",
     "CB.setArgOperand(Idx, Named);",
     "(void)Named;",
     "warp member masks are not confined"),
    ("sync-mask-self", "SyncPolicy.cpp",
     "Value *Mine = B.CreateAnd(B.CreateOr(B.CreateFreeze(Mask), Self), Active);",
     "Value *Mine = B.CreateAnd(B.CreateFreeze(Mask), Active); (void)Self;",
     "a warp member mask may leave out the executing lane (R3-F1)"),
    ("sync-mask-active", "SyncPolicy.cpp",
     "Value *Mine = B.CreateAnd(B.CreateOr(B.CreateFreeze(Mask), Self), Active);",
     "Value *Mine = B.CreateOr(B.CreateFreeze(Mask), Self);",
     "a warp member mask may name lanes that are not active (R3-F1)"),
    ("sync-mask-match", "SyncPolicy.cpp",
     "Named = B.CreateIntrinsic(Intrinsic::nvvm_match_any_sync_i32, {}, {Active, Mine});",
     "Named = Mine;",
     "lanes may disagree on the mask (no match.any partition, R3-F1)"),
    ("sync-mask-freeze", "SyncPolicy.cpp",
     "B.CreateOr(B.CreateFreeze(Mask), Self)",
     "B.CreateOr(Mask, Self)",
     "an undef/poison warp mask reaches the confinement unfrozen"),
    # Warp-collective .aligned instructions (R3-F1b): the table column and the guard.
    ("collective-column", "IntrinsicTable.cpp",
     "  R.AlignedWarpCollective = true;\n",
     "",
     "ldmatrix/stmatrix lose the table's AlignedWarpCollective column (no guard)"),
    ("collective-guard", "SyncPolicy.cpp",
     'Value *Whole = B.CreateICmpEQ(Active, B.getInt32(-1), "atoll.warp.whole");',
     'Value *Whole = B.CreateICmpEQ(Active, Active, "atoll.warp.whole");',
     "a warp collective runs with part of the warp (R3-F1b)"),
    ("collective-zero", "SyncPolicy.cpp",
     "Phi->addIncoming(Constant::getNullValue(CB.getType()), cast<Instruction>(Whole)->getParent());",
     "Phi->addIncoming(PoisonValue::get(CB.getType()), cast<Instruction>(Whole)->getParent());",
     "a skipped ldmatrix gives poison, not zeros"),
    # R2-F5: every clamp reads a frozen value.
    ("freeze-arena", "Confinement.cpp",
     'Addr = freezeForClamp(B, Addr, "atoll.addr.fr");',
     ";",
     "arena clamps read an unfrozen (maybe undef) address"),
    ("freeze-shared-window", "Confinement.cpp",
     'SharedAddr = freezeForClamp(B, SharedAddr, "atoll.smem.addr.fr");',
     ";",
     "shared-window clamps read an unfrozen (maybe undef) address"),
    ("freeze-space-test", "Confinement.cpp",
     'Ptr = freezeForClamp(B, Ptr, "atoll.ptr.fr");',
     ";",
     "the space test and its two clamps may see different values of an undef pointer"),
    ("freeze-len", "KernelRewrite.cpp",
     'Len = freezeForClamp(B, B.CreateZExtOrTrunc(MI->getLength(), I64), "atoll.len.fr");',
     "Len = B.CreateZExtOrTrunc(MI->getLength(), I64);",
     "memcpy/memset length cuts read an unfrozen (maybe undef) length"),
    ("freeze-window-test", "KernelRewrite.cpp",
     "        I.setOperand(Op.OpIdx, P);\n",
     "",
     "a copy's window test and its confinement read two freezes of one pointer"),
    # The frame limit (R5-F4).
    ("local-frame-limit", "KernelAnalysis.cpp",
     "  if (FrameBytes > Opts.MaxLocalBytes)",
     "  if (false)",
     "a kernel's stack frame is not bounded"),
    # Facts a tenant promises (StripFacts.cpp, R4-F1).
    ("strip-willreturn-fn", "StripFacts.cpp",
     "          F.removeFnAttr(K);",
     "          (void)K;",
     "willreturn/mustprogress stay on functions"),
    ("strip-willreturn-call", "StripFacts.cpp",
     "              CB->removeFnAttr(K);",
     "              (void)K;",
     "willreturn/mustprogress stay on call sites"),
    ("strip-assume", "StripFacts.cpp",
     "        II->eraseFromParent(); // and its operand bundles",
     "        continue; // and its operand bundles",
     "llvm.assume (and its bundles) stays"),
    # Rules that mirror the PTX validator's refusals.
    ("refuse-cluster-sreg", "IntrinsicTable.cpp",
     "{nvvm_read_ptx_sreg_clusterid_x, syncRefuse(WhyClusterSreg)},",
     "{nvvm_read_ptx_sreg_clusterid_x, sync(SyncOperands::None)},",
     "%clusterid.x is allowed (the PTX validator refuses it)"),
    ("refuse-elect-sync", "IntrinsicTable.cpp",
     "{nvvm_elect_sync, syncRefuse(WhyElectSync)},",
     "{nvvm_elect_sync, sync(SyncOperands::MaskArg0)},",
     "elect.sync is allowed (the PTX validator refuses it)"),
    # Preemption (Preemption.cpp). Helper code there changes often: re-run these
    # after a change to Preemption*.cpp, and update their text with the code.
    ("preempt-sleep-poll", "Preemption.cpp",
     "    if (isNanosleep(I) && !TestSkipSleepPolls)\n      Sleeps.push_back(&I);",
     "    if (false)\n      Sleeps.push_back(&I);",
     "no cancel poll before a nanosleep (R3-F5)"),
    ("preempt-sleep-selfcheck", "Preemption.cpp",
     "      if (&*BB->getFirstNonPHIOrDbg() != &I || !Pred || !isCheckBlock(*Pred, Control)) {",
     "      if (false) {",
     "the self-check accepts a nanosleep without a poll"),
    ("preempt-cycle-selfcheck", "Preemption.cpp",
     "    if (!Checked && !isChargedCycle(C)) {",
     "    if (false) {",
     "the self-check accepts a cycle without a preemption check"),
    ("preempt-backedge", "Preemption.cpp",
     "    CountedCheck(Term, ConstantInt::get(I32, 1));\n  }",
     "    (void)Term;\n  }",
     "back edges are not counted (no periodic check)"),
    ("preempt-eager", "Preemption.cpp",
     "    if (S.Eager) {",
     "    if (false) {",
     "wait loops (sleep, volatile polls) lose their poll on every iteration"),
    ("preempt-fast-nounroll", "PreemptionLoops.cpp",
     "  Fast->setLoopAlreadyUnrolled();",
     "  (void)Fast;",
     "ptxas may unroll the copy without checks of a versioned loop (pointer_chase 1.13x)"),
    ("sync-barrier", "SyncPolicy.cpp",
     "    CB.setCalledFunction(Sync);\n    CB.setArgOperand(0, B.getInt32(0));",
     "    (void)Sync;",
     "barrier ids are not made barrier 0"),
    ("write-constant", "KernelAnalysis.cpp",
     "if (O.Space == StateSpace::Constant && Op.Writes) {",
     "if (false) {",
     "writes to constant memory are accepted"),
    ("max-access", "KernelAnalysis.cpp",
     "CS && CS->getValue().getLimitedValue() > MaxAccessBytes && !isa<MemIntrinsic>(I)) {",
     "false) {",
     "accesses wider than every window are accepted"),
    ("unreachable", "KernelRewrite.cpp",
     "    B.CreateRetVoid();\n    U->eraseFromParent();",
     "    (void)B;",
     "unreachable is left to become a trap"),
    ("shared-pad", "AtollMem.cpp",
     "C.entryBuilder().CreateStore(C.entryBuilder().getInt8(0), sharedPad(M, Helpers), /*isVolatile=*/true);",
     ";",
     "the shared pad is not referenced (an empty window)"),
]

# Equivalent mutants: no program can tell them from the code (another rule gives
# the same IR). They run like the others; one that survives is reported
# "equivalent", not a survivor. One that is killed is reported "killed" (and its
# entry here is stale).
EQUIVALENT = {
    "collective-zero": "defineUndefinedOperands (DefinedValues.cpp) runs last and replaces "
                       "the poison incoming value by zero, the same IR as without the mutant",
}


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, text=True, capture_output=True, **kw)


def lit_command(build_dir):
    # lit from LLVM 22: Debian's lit-22, a pip lit, or a source tree's lit.py.
    for name in ("lit-22", "lit", "llvm-lit"):
        if shutil.which(name):
            return [shutil.which(name)]
    return [sys.executable, "/usr/lib/llvm-22/build/utils/lit/lit.py"]


def failing_tests(build_dir, jobs, plugin_only=False):
    cmd = lit_command(build_dir) + ["-q", "-j", str(jobs), os.path.join(build_dir, "test", "passes")]
    if plugin_only:
        # atoll-harden links the passes statically: without its relink its tests
        # run unmutated code and cannot fail.
        cmd += ["--filter-out", "atoll-harden/"]
    p = run(cmd)
    out = p.stdout + p.stderr
    failed = sorted(set(re.findall(r"^\s+AToLL :: (\S+)$", out, re.M)))
    return failed, out


def build(build_dir, plugin_only=False):
    targets = ["AtollPasses"] + ([] if plugin_only else ["atoll-harden"])
    p = run(["cmake", "--build", build_dir, "--target", *targets])
    return p.returncode == 0, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--only", help="comma-separated mutant names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true",
                    help="only check that every mutant's text occurs once in passes/lib (no build)")
    ap.add_argument("--min-failures", type=int, default=3)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--output", help="also write the results here")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the lit run without a mutant (when it is known to pass)")
    ap.add_argument("--plugin-only", action="store_true",
                    help="rebuild only the plugin (the atoll-harden tests then run unmutated code)")
    args = ap.parse_args()

    mutants = MUTANTS
    if args.only:
        names = set(args.only.split(","))
        unknown = names - {m[0] for m in MUTANTS}
        if unknown:
            sys.exit(f"unknown mutants: {', '.join(sorted(unknown))}")
        order = args.only.split(",")  # in the order given
        mutants = sorted((m for m in MUTANTS if m[0] in names), key=lambda m: order.index(m[0]))
    if args.list:
        for name, f, _, _, why in mutants:
            print(f"{name:24} {f:22} {why}" + (" [equivalent]" if name in EQUIVALENT else ""))
        return 0

    # Every mutant must still match the code exactly once.
    stale = []
    for name, f, old, _, _ in mutants:
        n = open(os.path.join(ROOT, "passes", "lib", f)).read().count(old)
        if n != 1:
            stale.append(f"mutant {name}: its text occurs {n} times in passes/lib/{f} (update the mutant)")
    if stale:
        sys.exit("\n".join(stale))
    if args.check:
        print(f"{len(mutants)} mutants, each matching passes/lib exactly once")
        return 0

    build_dir = os.path.abspath(os.path.join(ROOT, args.build_dir))
    ok, log = build(build_dir, args.plugin_only)
    if not ok:
        sys.exit("the unmutated build fails:\n" + log)
    base_failed, _ = failing_tests(build_dir, args.jobs, args.plugin_only) if not args.no_baseline else ([], "")
    if base_failed:
        sys.exit("lit fails without a mutant: " + ", ".join(base_failed))

    lines, survivors, equivalents, start = [], [], [], time.time()
    for name, f, old, new, why in mutants:
        path = os.path.join(ROOT, "passes", "lib", f)
        original = open(path).read()
        t0 = time.time()
        t_lit = t0
        try:
            with open(path, "w") as fh:
                fh.write(original.replace(old, new, 1))
            ok, log = build(build_dir, args.plugin_only)
            t_lit = time.time()
            failed, _ = failing_tests(build_dir, args.jobs, args.plugin_only) if ok else ([], "")
        finally:
            with open(path, "w") as fh:
                fh.write(original)
        if not ok:
            verdict = "BUILD-FAILED"
            survivors.append(name)
        elif len(failed) >= args.min_failures:
            verdict = "killed"
        elif name in EQUIVALENT:
            verdict = "equivalent"
            equivalents.append(name)
        else:
            verdict = "SURVIVED"
            survivors.append(name)
        t1 = time.time()
        line = (f"{name:24} {verdict:12} {len(failed):3} failing  {t1 - t0:4.0f} s "
                f"(build {t_lit - t0:3.0f} s, lit {t1 - t_lit:3.0f} s)  ({why}"
                f"{'; equivalent: ' + EQUIVALENT[name] if verdict == 'equivalent' else ''}): "
                f"{' '.join(failed[:8])}{' ...' if len(failed) > 8 else ''}")
        print(line, flush=True)
        lines.append(line)
        if args.output:  # written as it goes: a long run keeps what it measured
            write_results(args, lines, f"{len(lines)} of {len(mutants)} mutants run so far")
    build(build_dir, args.plugin_only)  # leave the unmutated plugin built
    total = time.time() - start
    killed = len(mutants) - len(survivors) - len(equivalents)
    summary = (f"{killed} of {len(mutants)} mutants killed by >= {args.min_failures} lit tests"
               + (f", {len(equivalents)} equivalent ({' '.join(equivalents)})" if equivalents else "")
               + (f"; SURVIVED: {' '.join(survivors)}" if survivors else "")
               + f"; {total / 60:.1f} min")
    print(summary)
    if args.output:
        write_results(args, lines, summary)
    return 1 if survivors else 0


def write_results(args, lines, summary):
    path = args.output if os.path.isabs(args.output) else os.path.join(ROOT, args.output)
    with open(path, "w") as fh:
        fh.write("# scripts/mutate-passes.py results (mutant, verdict, failing lit tests, time)\n")
        fh.write(f"# {time.strftime('%Y-%m-%d', time.gmtime())}, "
                 f"{'--plugin-only (atoll-harden tests not run)' if args.plugin_only else 'plugin and atoll-harden rebuilt'}\n")
        fh.write("\n".join(lines) + "\n" + summary + "\n")


if __name__ == "__main__":
    sys.exit(main())
