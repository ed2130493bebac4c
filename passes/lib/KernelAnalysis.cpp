// atoll-mem, analysis: classifies every instruction of a kernel (memory operands,
// pointer origins, calls) and refuses what cannot be made safe, with the reason.
// docs/passes.md has the rules.
#include "AtomicPolicy.h"
#include "KernelHardener.h"
#include "atoll/passes/Diagnostics.h"
#include "atoll/passes/StraightLine.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

namespace Atoll {

void KernelHardener::refuse(Instruction *I, StateSpace S, AccessKind K, const Twine &Why) {
  Refused = true;
  std::string Reason = Why.str();
  AtollDiagnostic D(AtollMemPass::name(), *Fn, I, Reason);
  record(I, S, K, Outcome::Refused, Reason);
  Fn->getContext().diagnose(D);
}

void KernelHardener::record(Instruction *I, StateSpace S, AccessKind K, Outcome O,
                            const Twine &Detail, std::string Text) {
  Report.add({AtollMemPass::name().str(), Fn->getName().str(),
              Text.empty() ? instructionText(I) : std::move(Text),
              sourceLocation(I), S, K, O, Detail.str()});
}

/// Review R7-F6: integer arithmetic wider than NVPTX has instructions for, that
/// code generation would not turn into straight-line code. The scalar width of a
/// value (a vector's elements).
static unsigned intBits(Type *T) {
  Type *S = T->getScalarType();
  return S->isIntegerTy() ? S->getIntegerBitWidth() : 0;
}

/// True when V is a scalar constant power of two (in absolute value when Signed):
/// the divisors code generation lowers to shifts, whatever the width
/// (ExpandLargeDivRem leaves them alone; it expands every vector division, a
/// splat of a power of two included, into loops).
static bool powerOfTwoDivisor(Value *V, bool Signed) {
  auto *CI = dyn_cast<ConstantInt>(V);
  if (!CI)
    return false;
  APInt X = CI->getValue();
  if (Signed && X.isNegative())
    X.negate();
  return X.isPowerOf2();
}

/// Why I is refused for its integer width, or "": NVPTX's widest integer division,
/// remainder and conversion to or from floating point is 64 bits. A wider division
/// or remainder (i128 from __int128, i65, ...) is expanded by code generation into
/// a loop of shifts and subtractions (ExpandLargeDivRem), after the preemption
/// checks were placed: a loop no cancel reaches (so only with the checks on). A
/// wider conversion would be a library call, and the GPU has none.
static std::string wideIntegerRefusal(const Instruction &I, bool Preempt) {
  switch (I.getOpcode()) {
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::URem:
  case Instruction::SRem: {
    unsigned Bits = intBits(I.getType());
    unsigned Op = I.getOpcode();
    bool Signed = Op == Instruction::SDiv || Op == Instruction::SRem;
    if (!Preempt || Bits <= 64 || powerOfTwoDivisor(I.getOperand(1), Signed))
      return "";
    bool Div = Op == Instruction::UDiv || Op == Instruction::SDiv;
    return ("integer " + Twine(Div ? "division" : "remainder") + " of " + Twine(Bits) +
            "-bit values is not supported: the GPU has no integer division wider than 64 bits, "
            "and code generation would make a loop of it that no cancel check reaches "
            "(divide 64-bit parts, or a scalar by a constant power of two)")
        .str();
  }
  case Instruction::FPToUI:
  case Instruction::FPToSI:
  case Instruction::UIToFP:
  case Instruction::SIToFP: {
    bool ToInt = I.getOpcode() == Instruction::FPToUI || I.getOpcode() == Instruction::FPToSI;
    unsigned Bits = intBits(ToInt ? I.getType() : I.getOperand(0)->getType());
    if (Bits <= 64)
      return "";
    return ("conversion between floating point and " + Twine(Bits) +
            "-bit integers is not supported: the GPU has no such conversion wider than 64 "
            "bits (code generation would need a library call, and there is none)")
        .str();
  }
  default:
    return "";
  }
}

/// Why the synchronisation scope of an atomic or fence is refused, or "": NVPTX
/// knows the system scope, "device", "block", "cluster" and "singlethread". The
/// cluster scope is refused (kernels are never launched in clusters; the PTX
/// validator refuses it too, but only after code generation and naming a PTX
/// line), "singlethread" has no NVPTX form for atomics, and any other name made
/// the backend end the process with a fatal error (found in session 9).
static std::string syncScopeRefusal(const Instruction &I) {
  std::optional<SyncScope::ID> ID;
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    ID = RMW->getSyncScopeID();
  else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    ID = CX->getSyncScopeID();
  else if (auto *F = dyn_cast<FenceInst>(&I))
    ID = F->getSyncScopeID();
  else if (auto *L = dyn_cast<LoadInst>(&I); L && L->isAtomic())
    ID = L->getSyncScopeID();
  else if (auto *S = dyn_cast<StoreInst>(&I); S && S->isAtomic())
    ID = S->getSyncScopeID();
  if (!ID || *ID == SyncScope::System)
    return "";
  SmallVector<StringRef, 8> Names;
  I.getContext().getSyncScopeNames(Names);
  StringRef Name = *ID < Names.size() ? Names[*ID] : StringRef("?");
  if (Name == "block" || Name == "device")
    return "";
  std::string Why = "synchronisation scope syncscope(\"" + Name.str() + "\") is not supported";
  if (Name == "cluster")
    return Why + " (kernels are never launched in clusters)";
  return Why + " (supported: the system scope, \"device\" and \"block\")";
}

AccessKind KernelHardener::kindOf(const Instruction &I) const {
  if (isa<LoadInst>(I))
    return AccessKind::Load;
  if (isa<StoreInst>(I))
    return AccessKind::Store;
  if (isa<AtomicRMWInst>(I))
    return AccessKind::AtomicRMW;
  if (isa<AtomicCmpXchgInst>(I))
    return AccessKind::CmpXchg;
  if (isa<MemTransferInst>(I))
    return AccessKind::MemTransfer;
  if (isa<MemSetInst>(I))
    return AccessKind::MemSet;
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->isInlineAsm())
      return AccessKind::InlineAsm;
    if (Function *Callee = CB->getCalledFunction(); Callee && Callee->isIntrinsic())
      return AccessKind::Intrinsic;
    return AccessKind::Call;
  }
  return AccessKind::Load;
}

/// A byval kernel parameter the backend reads in place (the "nvvm.grid_constant"
/// attribute, or a "grid_constant" entry in !nvvm.annotations: 1-based indices).
static bool isGridConstant(const Argument &A) {
  if (A.hasAttribute("nvvm.grid_constant"))
    return true;
  const Function *F = A.getParent();
  NamedMDNode *Ann = F->getParent()->getNamedMetadata("nvvm.annotations");
  if (!Ann)
    return false;
  for (const MDNode *N : Ann->operands()) {
    // {ptr @kernel, !"grid_constant", !{i32 1, i32 3, ...}} (pairs may repeat)
    if (N->getNumOperands() < 3 || mdconst::dyn_extract_or_null<Function>(N->getOperand(0)) != F)
      continue;
    for (unsigned I = 1; I + 1 < N->getNumOperands(); I += 2) {
      auto *Key = dyn_cast_or_null<MDString>(N->getOperand(I));
      auto *Idx = dyn_cast_or_null<MDNode>(N->getOperand(I + 1));
      if (!Key || Key->getString() != "grid_constant" || !Idx)
        continue;
      for (const MDOperand &Op : Idx->operands())
        if (auto *C = mdconst::dyn_extract_or_null<ConstantInt>(Op);
            C && C->getZExtValue() == A.getArgNo() + 1)
          return true;
    }
  }
  return false;
}

bool KernelHardener::checkAccess(const AccessSite &Site, const MemAccess &Op) {
  Instruction &I = *Site.I;
  const PointerOrigin &O = Op.Origin;
  AccessKind K = Site.Kind;
  // Other NVPTX spaces (shared::cluster, tensor memory, ...) have no window to
  // confine into, and the run-time space test only takes generic pointers.
  unsigned AS = I.getOperand(Op.OpIdx)->getType()->getPointerAddressSpace();
  if (AS != ASGeneric && AS != ASGlobal && AS != ASShared && AS != ASConstant &&
      AS != ASLocal && AS != ASParam) {
    refuse(&I, StateSpace::Unknown, K,
           "access through address space " + Twine(AS) +
               " (only generic, global, shared, constant, local and param are supported)");
    return false;
  }
  if (O.ModuleStorage) {
    refuse(&I, StateSpace::Global, K,
           "access to module-scope storage '" + O.ModuleStorage->getName() +
               "' (writable module globals are refused; run promote-ptx-constant-globals)");
    return false;
  }
  bool IsAtomic = Site.Policy.Atomic;
  if (O.Space == StateSpace::Constant && Op.Writes) {
    refuse(&I, O.Space, K, "write to read-only " + toString(O.Space) + " memory");
    return false;
  }
  // Kernel parameter space is read-only (PTX ISA: "kernel parameters ... are
  // read-only"): a store through an addrspace(101) pointer has no PTX form (it
  // crashes instruction selection), and a grid_constant parameter is read in place
  // (no local copy), so a write to it would be a write to parameter space. Only a
  // plain byval parameter may be written: NVPTX then gives it a local copy, which
  // is what the write changes.
  if (O.Space == StateSpace::Param && Op.Writes) {
    if (AS == ASParam) {
      refuse(&I, O.Space, K, "write through a param-space (addrspace 101) pointer");
      return false;
    }
    // (An unknown object is refused below: "whose object cannot be determined".)
    if (auto *A = dyn_cast_or_null<Argument>(O.Object); A && isGridConstant(*A)) {
      refuse(&I, O.Space, K,
             "write to a grid_constant kernel parameter (parameter space is read-only)");
      return false;
    }
    if (IsAtomic) {
      refuse(&I, O.Space, K, "atomic on a byval kernel parameter (its copy is local memory)");
      return false;
    }
  }
  if (IsAtomic && O.Space == StateSpace::Local) {
    refuse(&I, O.Space, K, "atomic on local memory (undefined in PTX)");
    return false;
  }
  if (O.Space == StateSpace::Local || O.Space == StateSpace::Constant ||
      O.Space == StateSpace::Param) {
    if (!O.Object) {
      refuse(&I, O.Space, K,
             "pointer into " + toString(O.Space) + " memory whose object cannot be determined");
      return false;
    }
    std::optional<uint64_t> Bytes = objectSize(O.Object, DL);
    if (!Bytes) {
      refuse(&I, O.Space, K, "object of unknown size (dynamic alloca?)");
      return false;
    }
    if (auto *CS = dyn_cast<ConstantInt>(Op.Size);
        CS && CS->getValue().getLimitedValue() > *Bytes) {
      refuse(&I, O.Space, K,
             "access of " + Twine(CS->getValue().getLimitedValue()) +
                 " bytes is larger than its object (" + Twine(*Bytes) + " bytes)");
      return false;
    }
  }
  // A static __shared__ object: a single access wider than the object would make
  // the clamp limit (size - S) wrap (memcpy/memset lengths are clamped instead).
  if (O.Space == StateSpace::Shared && !isa<MemIntrinsic>(I))
    if (std::optional<uint64_t> Bytes = objectSize(O.Object, DL))
      if (auto *CS = dyn_cast<ConstantInt>(Op.Size);
          CS && CS->getValue().getLimitedValue() > *Bytes) {
        refuse(&I, O.Space, K,
               "access of " + Twine(CS->getValue().getLimitedValue()) +
                   " bytes is larger than its object (" + Twine(*Bytes) + " bytes)");
        return false;
      }
  if (auto *CS = dyn_cast<ConstantInt>(Op.Size);
      CS && CS->getValue().getLimitedValue() > MaxAccessBytes && !isa<MemIntrinsic>(I)) {
    refuse(&I, O.Space, K,
           "access of " + Twine(CS->getValue().getLimitedValue()) + " bytes is too large");
    return false;
  }
  if (Op.Alignment.value() > 256 && O.Space != StateSpace::Local &&
      O.Space != StateSpace::Constant && O.Space != StateSpace::Param) {
    refuse(&I, O.Space, K, "alignment above 256 bytes is not supported");
    return false;
  }
  return true;
}

/// Refuses a call that is not allowed; for an intrinsic, *Policy is its table row.
bool KernelHardener::checkCall(CallBase &CB, IntrinsicPolicy *Policy) {
  if (CB.isInlineAsm()) {
    std::string Why = checkInlineAsm(*cast<InlineAsm>(CB.getCalledOperand()));
    if (!Why.empty()) {
      refuse(&CB, StateSpace::Unknown, AccessKind::InlineAsm, Why);
      return false;
    }
    record(&CB, StateSpace::Unknown, AccessKind::InlineAsm, Outcome::ProvenSafe,
           "inline asm on the allow-list");
    return true;
  }
  Function *Callee = CB.getCalledFunction();
  if (!Callee) {
    refuse(&CB, StateSpace::Unknown, AccessKind::Call, "indirect call");
    return false;
  }
  if (!Callee->isIntrinsic()) {
    StringRef N = Callee->getName();
    std::string Why;
    if (N == "malloc" || N == "free" || N == "__nv_malloc" || N == "__nv_free")
      Why = "device heap allocation (malloc/free) is not supported";
    else if (N == "vprintf")
      Why = "printf is not supported (its buffer is shared by every tenant)";
    else if (N == "__assertfail" || N == "__assert_fail")
      Why = "assert: __assertfail traps, which faults the shared CUDA context";
    else if (N.starts_with("__nv_"))
      Why = "call to libdevice function '" + N.str() + "' that was not linked";
    else if (N.starts_with("cudaLaunch") || N.starts_with("cudaGetParameterBuffer"))
      Why = "device-side kernel launch is not supported";
    else if (Callee->isDeclaration())
      Why = "call to external function '" + N.str() + "'";
    else
      Why = "call to '" + N.str() + "' that was not inlined";
    refuse(&CB, StateSpace::Unknown, AccessKind::Call, Why);
    return false;
  }
  IntrinsicPolicy &P = *Policy = classifyIntrinsic(*Callee);
  if (P.Action == IntrinsicAction::Refuse) {
    refuse(&CB, StateSpace::Unknown, AccessKind::Intrinsic, P.Reason);
    return false;
  }
  if (std::string Why = checkSyncOperands(CB, P.Sync); !Why.empty()) {
    refuse(&CB, StateSpace::Unknown, AccessKind::Intrinsic, Why);
    return false;
  }
  return true;
}

/// The table row of an intrinsic call whose memory operands analyze() reads;
/// for other instructions, whether they may touch memory.
static bool hasMemOperands(Instruction &I, std::optional<IntrinsicPolicy> &P) {
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    Function *Callee = CB->getCalledFunction();
    if (CB->isInlineAsm() || !Callee || !Callee->isIntrinsic())
      return false;
    P = classifyIntrinsic(*Callee);
    return P->Action == IntrinsicAction::Confine;
  }
  return !isa<FenceInst>(I) && !isa<AllocaInst>(I) && I.mayReadOrWriteMemory();
}

void KernelHardener::mergeAmbiguousLocals() {
  // A local pointer that may point into several allocas (phi/select) has no single
  // object: those allocas become one frame object, which it is confined to.
  SmallSetVector<AllocaInst *, 8> Members;
  for (Instruction &I : instructions(*Fn)) {
    std::optional<IntrinsicPolicy> P;
    AccessSite Site;
    if (!hasMemOperands(I, P) || !collect(I, P ? &*P : nullptr, Site))
      continue;
    for (const MemAccess &Op : Site.Ops)
      if (Op.Origin.Space == StateSpace::Local && !Op.Origin.Object)
        addToLocalFrame(I.getOperand(Op.OpIdx), Members);
  }
  if (AllocaInst *Frame = mergeIntoFrame(*Fn, Members.getArrayRef()))
    record(Frame, StateSpace::Local, AccessKind::Load, Outcome::Confined,
           "allocas reached by one pointer merged into a frame object (" +
               Twine(Members.size()) + " allocas)");
}

/// A scalar or vector of byte-multiple power-of-two integers or floats (or a
/// scalar i1), pointers, and aggregates of those: PTX lays it out like memory.
static bool isPlainParamType(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return !VT->getElementType()->isIntegerTy(1) && isPlainParamType(VT->getElementType());
  if (auto *IT = dyn_cast<IntegerType>(T)) {
    unsigned W = IT->getBitWidth();
    return W == 1 || (W >= 8 && W <= 128 && isPowerOf2_32(W));
  }
  if (auto *ST = dyn_cast<StructType>(T))
    return !ST->isOpaque() && all_of(ST->elements(), isPlainParamType);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return isPlainParamType(AT->getElementType());
  return T->isPointerTy() || T->isHalfTy() || T->isBFloatTy() || T->isFloatTy() ||
         T->isDoubleTy();
}

static std::string typeText(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS, false, /*NoDetails=*/true);
  return S;
}

bool KernelHardener::analyze() {
  mergeAmbiguousLocals();
  // Tenant arguments are buffers of the arena. A pointer parameter typed in another
  // space cannot be confined the way the runtime fills it (and the driver's JIT
  // rejects `.ptr .shared` kernel parameters outright, measured on driver 580).
  for (Argument &A : Fn->args())
    if (auto *PT = dyn_cast<PointerType>(A.getType()); PT && !A.hasByValAttr() &&
                                                       PT->getAddressSpace() != ASGeneric &&
                                                       PT->getAddressSpace() != ASGlobal)
      refuse(nullptr, StateSpace::Unknown, AccessKind::Load,
             "kernel parameter " + Twine(A.getArgNo()) + " is a pointer into address space " +
                 Twine(PT->getAddressSpace()) +
                 " (kernel pointer parameters must be generic or global)");
  // The runtime packs each parameter in the bytes the signature records (the
  // allocation size); a type whose PTX parameter is laid out otherwise (sub-byte
  // or odd-width integers, <N x i1>: LLVM reads <5 x i4> at +8 of a 4-byte
  // .param) would be read past the caller's bytes.
  for (Argument &A : Fn->args())
    if (!A.hasByValAttr() && !isPlainParamType(A.getType()))
      refuse(nullptr, StateSpace::Param, AccessKind::Load,
             "kernel parameter " + Twine(A.getArgNo()) + " has type " +
                 typeText(A.getType()) +
                 " (parameters must be pointers, byval, or scalars/vectors of i1 (scalar "
                 "only), i8-i128 or floating point)");
  // R5-F4: the frame is bounded. The driver reserves local memory for every
  // resident thread of the device, outside every arena and budget, and a launch
  // that needs more grows the reservation (measured on the H200: 409,600 bytes
  // per thread took 103 GiB and waited 1.9 s for another tenant's kernel).
  uint64_t FrameBytes = 0;
  for (Instruction &I : instructions(*Fn))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (std::optional<TypeSize> S = AI->getAllocationSize(DL); S && !S->isScalable())
        FrameBytes = alignTo(FrameBytes, AI->getAlign()) + std::min<uint64_t>(S->getFixedValue(), UINT64_MAX / 4);
  if (FrameBytes > Opts.MaxLocalBytes)
    refuse(nullptr, StateSpace::Local, AccessKind::Load,
           "the kernel's stack frame is " + Twine(FrameBytes) + " bytes per thread (at most " +
               Twine(Opts.MaxLocalBytes) +
               ": local memory is reserved for every resident thread of the device, outside "
               "every arena)");
  for (Instruction &I : instructions(*Fn)) {
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
      // An alloca in another space is not in the frame: its zero-init and its
      // accesses would go through an unconfined global/shared/cluster pointer.
      if (AI->getAddressSpace() != DL.getAllocaAddrSpace()) {
        refuse(AI, StateSpace::Local, AccessKind::Load,
               "alloca in address space " + Twine(AI->getAddressSpace()) +
                   " (only the data layout's alloca address space " +
                   Twine(DL.getAllocaAddrSpace()) + " is supported)");
        continue;
      }
      if (!AI->isStaticAlloca() && !isa<ConstantInt>(AI->getArraySize()))
        refuse(AI, StateSpace::Local, AccessKind::Load,
               "dynamic stack allocation (alloca with a run-time size)");
      continue;
    }
    if (isa<VAArgInst>(I)) {
      refuse(&I, StateSpace::Local, AccessKind::Load, "va_arg is not supported");
      continue;
    }
    if (auto *U = dyn_cast<UnreachableInst>(&I)) {
      Unreachables.push_back(U);
      continue;
    }
    if (std::string Why = wideIntegerRefusal(I, Opts.Preempt); !Why.empty()) {
      refuse(&I, StateSpace::Unknown, kindOf(I), Why);
      continue;
    }
    if (std::string Why = syncScopeRefusal(I); !Why.empty()) {
      refuse(&I, StateSpace::Unknown, kindOf(I), Why);
      continue;
    }
    IntrinsicPolicy P;
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (!checkCall(*CB, &P) || CB->isInlineAsm())
        continue;
      if (P.Action == IntrinsicAction::Drop)
        Drops.push_back(CB);
      if (P.Action == IntrinsicAction::Allow && P.Sync != SyncOperands::None)
        SyncCalls.push_back({CB, P.Sync});
      if (P.Action != IntrinsicAction::Confine)
        continue;
    } else if (isa<FenceInst>(I) || !I.mayReadOrWriteMemory()) {
      continue;
    }
    AccessSite Site;
    if (!collect(I, &P, Site)) {
      refuse(&I, StateSpace::Unknown, kindOf(I), "memory access of an unsupported form");
      continue;
    }
    bool OK = true;
    for (const MemAccess &Op : Site.Ops) {
      if (Op.Origin.Space == StateSpace::Shared || Op.Origin.Space == StateSpace::Unknown)
        TouchesShared = true;
      OK &= checkAccess(Site, Op);
    }
    if (!OK)
      continue;
    // An atomic that is neither native nor expandable into a checked loop
    // (AtomicPolicy.cpp): it would be a loop without a preemption check.
    if (std::string Why = atomicRefusal(I, DL); !Why.empty()) {
      refuse(&I, StateSpace::Unknown, kindOf(I), Why);
      continue;
    }
    // Review R8-F5: a masked load or store becomes one conditional access per
    // element (ScalarizeMaskedMemIntrin), with no place for a cancel poll between
    // them: one heavier than the work allowed between two polls is refused here,
    // not after code generation as a pass bug.
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && (II->getIntrinsicID() == Intrinsic::masked_load ||
               II->getIntrinsicID() == Intrinsic::masked_store) &&
        straightWeight(I) > DefaultStraightBudget) {
      Type *VT = II->getIntrinsicID() == Intrinsic::masked_load
                     ? II->getType()
                     : II->getArgOperand(0)->getType();
      uint64_t N = isa<FixedVectorType>(VT) ? cast<FixedVectorType>(VT)->getNumElements() : 0;
      refuse(&I, StateSpace::Unknown, kindOf(I),
             ("a masked " +
              Twine(II->getIntrinsicID() == Intrinsic::masked_load ? "load" : "store") +
              " of " + Twine(N) + " elements becomes " + Twine(N) +
              " conditional accesses with no cancel poll between them, more work than is "
              "allowed between two polls (split it into smaller masked accesses)")
                 .str());
      continue;
    }
    decide(Site);
    Sites.push_back(std::move(Site));
  }
  // Referencing any shared variable, even without a confined access, makes its
  // residue observable: zero the window.
  for (Instruction &I : instructions(*Fn))
    for (Value *V : I.operands())
      if (auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts()))
        if (GV->getAddressSpace() == ASShared)
          TouchesShared = true;
  return !Refused;
}

} // namespace Atoll
