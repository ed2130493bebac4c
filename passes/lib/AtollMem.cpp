// atoll-mem: confines every memory access of every kernel to its legal window
// (arena, shared window, frame object, constant object, byval parameter), keeps
// alignment, zero-initialises local and shared memory at entry, appends the hidden
// ABI parameters, and refuses whatever it cannot prove safe. docs/passes.md has
// the rules; include/atoll/abi.h the contract with the runtime. This file is the
// pass driver; KernelAnalysis.cpp, KernelRewrite.cpp and Confinement.cpp do the work.
#include "atoll/passes/AtollMem.h"

#include "AtomicPolicy.h"
#include "DefinedValues.h"
#include "KernelHardener.h"
#include "Preemption.h"
#include "Statistics.h"

#include "atoll/abi.h"
#include "atoll/passes/Diagnostics.h"
#include "atoll/passes/StraightLine.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

ATOLL_STATISTIC(NumAssumesDropped,
                "llvm.assume calls dropped before hardening (R9-F1: -O2 makes them again)");
ATOLL_STATISTIC(NumVolatileAtomicsRelaxed,
                "Atomics that lost 'volatile' (R10-F3: NVPTX would emit .mmio for them)");

namespace Atoll {

// Defaults of the pass options for opt and clang -fpass-plugin (-mllvm), which
// cannot pass atoll-mem<...> parameters to the OptimizerLast instance. The
// runtime and atoll-harden pass explicit AtollMemOptions and ignore them.
static cl::opt<ClampingMode> ClampingModeFlag(
    "atoll-clamping-mode", cl::desc("atoll-mem: default clamping mode"),
    cl::init(ClampingMode::MaskBased),
    cl::values(clEnumValN(ClampingMode::MaskBased, ATOLL_MODE_MASK, "base | (addr & mask)"),
               clEnumValN(ClampingMode::ModuloBased, ATOLL_MODE_MODULO,
                          "base + (addr - base) % size")));
static cl::opt<bool> PreemptFlag("atoll-preempt", cl::init(true),
                                 cl::desc("atoll-mem: insert the preemption checks (default on)"));
static cl::opt<unsigned> PollShiftFlag(
    "atoll-poll-shift", cl::init(ATOLL_DEFAULT_POLL_SHIFT),
    cl::desc("atoll-mem: the cancel word is read every 2^K edges (0..20)"));
static cl::opt<unsigned> MaxLocalBytesFlag(
    "atoll-max-local-bytes", cl::init(ATOLL_DEFAULT_MAX_LOCAL_BYTES),
    cl::desc("atoll-mem: largest stack frame per thread in bytes (1..524288)"));
static cl::opt<bool> VerboseFlag("atoll-verbose", cl::init(false),
                                 cl::desc("atoll-mem: print one line per memory access"));
static cl::opt<bool> SummarizeFlag("atoll-summarize", cl::init(false),
                                   cl::desc("atoll-mem: print the summary table"));

/// sm_90's per-thread local memory.
constexpr uint64_t MaxLocalBytesLimit = 512 * 1024;

const char *clampingModeName(ClampingMode Mode) {
  return Mode == ClampingMode::MaskBased ? ATOLL_MODE_MASK : ATOLL_MODE_MODULO;
}

Expected<AtollMemOptions> defaultAtollMemOptions() {
  AtollMemOptions Opts;
  if (PollShiftFlag > 20)
    return createStringError(inconvertibleErrorCode(),
                             "atoll-mem: invalid -atoll-poll-shift %u (expected 0..20)",
                             unsigned(PollShiftFlag));
  Opts.Mode = ClampingModeFlag;
  Opts.Preempt = PreemptFlag;
  Opts.PollShift = PollShiftFlag;
  if (MaxLocalBytesFlag < 1 || MaxLocalBytesFlag > MaxLocalBytesLimit)
    return createStringError(inconvertibleErrorCode(),
                             "atoll-mem: invalid -atoll-max-local-bytes %u (expected 1..524288)",
                             unsigned(MaxLocalBytesFlag));
  Opts.MaxLocalBytes = MaxLocalBytesFlag;
  Opts.Verbose = VerboseFlag;
  Opts.Summarize = SummarizeFlag;
  return Opts;
}

void AtollMemPass::printPipeline(raw_ostream &OS,
                                 function_ref<StringRef(StringRef)> MapClassName2PassName) {
  OS << MapClassName2PassName(name()) << "<clamping-mode=" << clampingModeName(Opts.Mode)
     << ";preempt=" << (Opts.Preempt ? "on" : "off") << ";poll-shift=" << Opts.PollShift
     << ";max-local-bytes=" << Opts.MaxLocalBytes;
  if (Opts.Verbose)
    OS << ";verbose";
  if (Opts.Summarize)
    OS << ";summarize";
  OS << '>';
}

Expected<AtollMemOptions> parseAtollMemOptions(StringRef Params) {
  Expected<AtollMemOptions> Defaults = defaultAtollMemOptions();
  if (!Defaults)
    return Defaults.takeError();
  AtollMemOptions Opts = *Defaults;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    if (Param == "verbose") {
      Opts.Verbose = true;
    } else if (Param == "summarize") {
      Opts.Summarize = true;
    } else if (Param.consume_front("clamping-mode=")) {
      if (Param == ATOLL_MODE_MASK)
        Opts.Mode = ClampingMode::MaskBased;
      else if (Param == ATOLL_MODE_MODULO)
        Opts.Mode = ClampingMode::ModuloBased;
      else
        return createStringError(inconvertibleErrorCode(),
                                 "atoll-mem: invalid clamping-mode '%s' (expected "
                                 "mask-based or modulo-based)",
                                 Param.str().c_str());
    } else if (Param.consume_front("preempt=")) {
      if (Param != "on" && Param != "off")
        return createStringError(inconvertibleErrorCode(),
                                 "atoll-mem: invalid preempt '%s' (expected on or off)",
                                 Param.str().c_str());
      Opts.Preempt = Param == "on";
    } else if (Param.consume_front("max-local-bytes=")) {
      uint64_t N;
      if (Param.getAsInteger(10, N) || N < 1 || N > MaxLocalBytesLimit)
        return createStringError(inconvertibleErrorCode(),
                                 "atoll-mem: invalid max-local-bytes '%s' (expected 1..524288)",
                                 Param.str().c_str());
      Opts.MaxLocalBytes = N;
    } else if (Param.consume_front("poll-shift=")) {
      unsigned K;
      if (Param.getAsInteger(10, K) || K > 20)
        return createStringError(inconvertibleErrorCode(),
                                 "atoll-mem: invalid poll-shift '%s' (expected 0..20)",
                                 Param.str().c_str());
      Opts.PollShift = K;
    } else {
      return createStringError(inconvertibleErrorCode(),
                               "atoll-mem: unknown parameter '%s' (expected "
                               "clamping-mode=..., preempt=..., poll-shift=..., "
                               "max-local-bytes=..., verbose or "
                               "summarize)",
                               Param.str().c_str());
    }
  }
  return Opts;
}

namespace {

/// Replaces kernel F by a copy with the hidden ABI parameters appended.
Function *addHiddenParameters(Function &F) {
  LLVMContext &Ctx = F.getContext();
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  Type *I64 = Type::getInt64Ty(Ctx);
  Params.push_back(I64); // ATOLL_HIDDEN_ARENA_BASE_INDEX
  Params.push_back(I64); // ATOLL_HIDDEN_ARENA_SIZE_INDEX
  Params.push_back(I64); // ATOLL_HIDDEN_CONTROL_INDEX
  auto *FTy = FunctionType::get(F.getReturnType(), Params, false);
  Function *NewF = Function::Create(FTy, F.getLinkage(), F.getAddressSpace(), "", F.getParent());
  NewF->copyAttributesFrom(&F);
  NewF->copyMetadata(&F, 0);
  NewF->setCallingConv(F.getCallingConv());
  NewF->setSubprogram(F.getSubprogram());
  NewF->splice(NewF->begin(), &F);
  for (auto [Old, New] : zip(F.args(), NewF->args())) {
    New.takeName(&Old);
    Old.replaceAllUsesWith(&New);
  }
  NewF->getArg(F.arg_size() + ATOLL_HIDDEN_ARENA_BASE_INDEX)->setName(ATOLL_HIDDEN_ARENA_BASE_NAME);
  NewF->getArg(F.arg_size() + ATOLL_HIDDEN_ARENA_SIZE_INDEX)->setName(ATOLL_HIDDEN_ARENA_SIZE_NAME);
  NewF->getArg(F.arg_size() + ATOLL_HIDDEN_CONTROL_INDEX)->setName(ATOLL_HIDDEN_CONTROL_NAME);
  NewF->takeName(&F);
  F.replaceAllUsesWith(NewF);
  F.eraseFromParent();
  return NewF;
}

/// One module-wide shared pad: referenced by every kernel that can reach shared
/// memory, so its window is never smaller than the widest access (no fault even
/// when the tenant declared no shared memory).
GlobalVariable *sharedPad(Module &M, ModuleHelpers &Helpers) {
  if (Helpers.SmemPad)
    return Helpers.SmemPad;
  const char *Name = "__atoll_smem_pad";
  auto *Ty = ArrayType::get(Type::getInt8Ty(M.getContext()), SharedPadBytes);
  auto *GV = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage, UndefValue::get(Ty),
                                Name, nullptr, GlobalValue::NotThreadLocal, ASShared);
  GV->setAlignment(Align(16));
  return Helpers.SmemPad = GV;
}

} // namespace

/// R10-F3 (found by review): NVPTX lowers a volatile monotonic or unordered atomic
/// load or store in the global space to `ld.mmio.relaxed.sys.global` /
/// `st.mmio.relaxed.sys.global` whenever the PTX ISA is 8.2 or later (sm_70+;
/// LLVM's default for sm_100 is 8.6, and RuntimeOptions::ptxVersion selects one
/// for sm_90): memory-mapped I/O semantics, which the PTX ISA defines for I/O
/// devices, not for ordinary device memory, where a fault would be sticky for every
/// tenant of the context. `volatile` on an atomic adds nothing that isolates
/// tenants: an atomic is already performed (NVPTX: `.relaxed`/`.acquire`/`.release`
/// at the atomic's own scope, where the volatile form only widened the scope to
/// `.sys`), and nothing runs after this pass but code generation. So every atomic
/// of a hardened kernel loses `volatile`; no mmio form can be emitted, whatever the
/// target and PTX version (the PTX validator refuses `.mmio` too). Last, after the
/// preemption checks: a volatile access still makes its cycle a wait (polled on
/// every edge), as it did before this rule.
static void dropVolatileFromAtomics(Function &F) {
  for (Instruction &I : instructions(F)) {
    bool Was = false;
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isAtomic()) {
      Was = LI->isVolatile();
      LI->setVolatile(false);
    } else if (auto *SI = dyn_cast<StoreInst>(&I); SI && SI->isAtomic()) {
      Was = SI->isVolatile();
      SI->setVolatile(false);
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      Was = RMW->isVolatile();
      RMW->setVolatile(false);
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      Was = CX->isVolatile();
      CX->setVolatile(false);
    }
    NumVolatileAtomicsRelaxed += Was;
  }
}

PreservedAnalyses AtollMemPass::run(Module &M, ModuleAnalysisManager &) {
  HardeningReport LocalReport;
  HardeningReport &Report = Opts.Report ? *Opts.Report : LocalReport;
  enableStatisticsOutput();
  auto Finish = [&]() {
    if (Opts.Verbose)
      Report.printVerbose(errs());
    if (Opts.Summarize)
      Report.printSummary(errs());
  };

  if (!Triple(M.getTargetTriple()).isNVPTX()) {
    if (!M.empty()) {
      AtollDiagnostic D(name(), *M.begin(), nullptr,
                        "module target '" + M.getTargetTriple().str() +
                            "' is not nvptx64-nvidia-cuda");
      M.getContext().diagnose(D);
    }
    return PreservedAnalyses::all();
  }

  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && isKernel(F))
      Kernels.push_back(&F);
  // A whole-module refusal, reported against the first kernel (or function) so the
  // diagnostic names one.
  auto RefuseModule = [&](const Twine &Why) {
    Function *Named = !Kernels.empty() ? Kernels.front() : M.empty() ? nullptr : &*M.begin();
    if (Named) {
      AtollDiagnostic D(name(), *Named, nullptr, Why);
      M.getContext().diagnose(D);
    } else {
      M.getContext().emitError(Twine(name()) + ": refused: " + Why);
    }
    Finish();
  };
  // Every size, alignment and offset the pass computes (and the runtime's kernel
  // signatures) must be the ones codegen uses, which is the NVPTX layout whatever
  // the module says: any other layout (or none) is refused, not guessed.
  if (std::string Want = M.getTargetTriple().computeDataLayout();
      M.getDataLayoutStr() != Want) {
    RefuseModule("module data layout '" + M.getDataLayoutStr() +
                 "' is not the NVPTX target's '" + Want + "'");
    return PreservedAnalyses::all();
  }
  // Module-level inline asm is pasted into the PTX unchecked: it can define
  // unhardened kernels and writable .global storage next to the hardened ones.
  if (!M.getModuleInlineAsm().empty()) {
    RefuseModule("module-level inline asm is not supported (it is copied into the PTX "
                 "unchecked)");
    return PreservedAnalyses::all();
  }
  for (Function *K : Kernels)
    if (K->hasFnAttribute(ATOLL_HARDENED_ATTR)) {
      AtollDiagnostic D(name(), *K, nullptr, "kernel is already hardened");
      M.getContext().diagnose(D);
      return PreservedAnalyses::all();
    }

  // Before anything is analysed (a hardened module is refused above, for what it is): the pass's own helpers and hidden parameters are named
  // in the reserved namespace, and no tenant name may be there.
  if (!refuseReservedNames(M, name(), &Report)) {
    Finish();
    return PreservedAnalyses::all();
  }

  RefuseFn Refuse = [&](Function &F, Instruction *I, StateSpace S, AccessKind K,
                        const Twine &Why) {
    std::string Reason = Why.str();
    Report.add({name().str(), F.getName().str(), instructionText(I), sourceLocation(I), S, K,
                Outcome::Refused, Reason});
    AtollDiagnostic D(name(), F, I, Reason);
    M.getContext().diagnose(D);
  };
  // The marks of the pass's own bounded loops, charged work, repeatable entry checks
  // and first-poll flags (abi.h, StraightLine.h) are never the tenant's to set.
  {
    bool Marked = false;
    for (const char *Name : {ATOLL_BOUNDED_LOOP_MD, ATOLL_CHARGED_WORK_MD, ATOLL_ENTRY_CHECK_MD,
                              ATOLL_FIRST_POLL_MD}) {
      unsigned Kind = M.getContext().getMDKindID(Name);
      for (Function &F : M)
        for (Instruction &I : instructions(F))
          if (I.getMetadata(Kind)) {
            Refuse(F, &I, StateSpace::Unknown, AccessKind::Call,
                   "metadata !" + Twine(Name) + " is reserved for the passes");
            Marked = true;
          }
    }
    if (Marked) {
      Finish();
      return PreservedAnalyses::none();
    }
  }
  // R9-F1 (found by review): the toolchain's -O2 runs after atoll-strip-facts and
  // turns a tenant's branch to `unreachable` back into an llvm.assume, which the
  // loop counts' ScalarEvolution believed: a copy without checks that never ended,
  // a constant charge of 99 for 2^32 iterations. An assumption generates no code;
  // every one goes before anything here reads the module.
  for (Function &F : M)
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::assume) {
        II->eraseFromParent();
        ++NumAssumesDropped;
      }
  if (!refuseNonCallFunctionUses(M, Kernels, Refuse) || !inlineAllCalls(M, Kernels, Refuse)) {
    Finish();
    return PreservedAnalyses::none();
  }

  // Analyse everything before changing anything: a refused module is reported whole.
  bool AllOK = true;
  SmallVector<std::unique_ptr<KernelHardener>, 8> Hardeners;
  for (Function *K : Kernels) {
    if (!K->getReturnType()->isVoidTy()) {
      Refuse(*K, nullptr, StateSpace::Unknown, AccessKind::Call, "kernel does not return void");
      AllOK = false;
      continue;
    }
    auto H = std::make_unique<KernelHardener>(*K, Opts, Report);
    AllOK &= H->analyze();
    Hardeners.push_back(std::move(H));
  }
  if (!AllOK) {
    Finish();
    return PreservedAnalyses::none();
  }

  ModuleHelpers Helpers;
  const char *ModeName = clampingModeName(Opts.Mode);
  for (auto [K, H] : zip(Kernels, Hardeners)) {
    // Before the allocas are gathered and zeroed; its accesses join the list.
    SmallVector<Instruction *, 8> Created;
    lowerVariableVectorIndexing(*K, Created);
    H->addCreatedAccesses(Created);
    // Static allocas outside the entry block would grow the stack per iteration;
    // every fixed-size alloca joins the leading run of the entry block, where the
    // zero-init finds it (one placed after other entry code would be missed).
    SmallVector<AllocaInst *, 8> Late;
    bool Leading = true;
    for (BasicBlock &BB : *K)
      for (Instruction &I : BB) {
        auto *AI = dyn_cast<AllocaInst>(&I);
        if (!AI) {
          Leading &= isa<PHINode>(I) || I.isDebugOrPseudoInst();
          continue;
        }
        if (!Leading && isa<ConstantInt>(AI->getArraySize()))
          Late.push_back(AI);
      }
    for (AllocaInst *AI : Late)
      AI->moveBefore(K->getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
    H->plan();
    bool ZeroShared = H->mayTouchShared();
    Function *NewF = addHiddenParameters(*K);
    unsigned N = NewF->arg_size();
    KernelConfiner C(*NewF, NewF->getArg(N - ATOLL_HIDDEN_PARAM_COUNT + ATOLL_HIDDEN_ARENA_BASE_INDEX),
                     NewF->getArg(N - ATOLL_HIDDEN_PARAM_COUNT + ATOLL_HIDDEN_ARENA_SIZE_INDEX),
                     Opts.Mode, Helpers);
    H->harden(*NewF, C);
    ZeroShared |= C.usedShared();
    if (C.usedSharedWindow()) {
      // Reference the pad so ptxas allocates it for this kernel.
      C.entryBuilder().CreateStore(C.entryBuilder().getInt8(0), sharedPad(M, Helpers), /*isVolatile=*/true);
    }
    // After confinement: the checks' own control-block accesses are never confined.
    // Before zero-init: its loops are bounded and need no check.
    // Memory intrinsics become IR loops first (over the confined pointers and cut
    // length), so that their loops take checks like any other; so do the atomics
    // that the target would make a compare-and-swap loop of (AtomicPolicy.cpp:
    // the loop ptxas makes has no check), as loops on the same confined pointers.
    Value *Control = NewF->getArg(N - ATOLL_HIDDEN_PARAM_COUNT + ATOLL_HIDDEN_CONTROL_INDEX);
    // The frame the zero-init will clear (R5-F2: a big one makes the kernel poll at entry).
    uint64_t FrameBytes = 0;
    for (Instruction &I : NewF->getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (auto Size = AI->getAllocationSize(M.getDataLayout()); Size && !Size->isScalable())
          FrameBytes += Size->getFixedValue();
    if (Opts.Preempt &&
        (!expandNonNativeAtomics(*NewF, Refuse) || !expandMemIntrinsicLoops(*NewF, Refuse) ||
         !insertPreemptionChecks(*NewF, Control,
                                 PreemptOptions{Opts.Preempt, Opts.PollShift, FrameBytes,
                                                ZeroShared, C.body()},
                                 Refuse) ||
         !verifyPreemptionChecks(*NewF, Control, Refuse, FrameBytes)))
      continue;
    // The entry poll split the entry block: re-anchor the entry builder on its
    // terminator's (new) block for the zero-init.
    C.entryBuilder().SetInsertPoint(&*C.entryBuilder().GetInsertPoint());
    BasicBlock *ZeroDone = emitZeroInit(*NewF, C, ZeroShared, Opts.Preempt ? Control : nullptr);
    if (Opts.Preempt && !verifyZeroedBeforeLeaving(*NewF, Control, ZeroDone, Refuse))
      continue;
    // The zero-init's memsets of frame objects longer than the codegen bound become
    // IR loops too (bounded by the object's size), marked with the shared zeroing.
    if (Opts.Preempt) {
      if (!expandMemIntrinsicLoops(*NewF, Refuse))
        continue;
      markBoundedCycles(*NewF, Control);
    }
    dropVolatileFromAtomics(*NewF);
    defineUndefinedOperands(*NewF); // last: also what the rewrite created
    NewF->addFnAttr(ATOLL_HARDENED_ATTR, ModeName);
  }
  // What is emitted must be what was checked: nothing but hardened kernels.
  checkOnlyHardenedKernelsLeft(M, Refuse);
  Finish();
  return PreservedAnalyses::none();
}

} // namespace Atoll
