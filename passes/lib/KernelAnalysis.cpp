// atoll-mem, analysis: classifies every instruction of a kernel (memory operands,
// pointer origins, calls) and refuses what cannot be made safe, with the reason.
// docs/passes.md has the rules.
#include "KernelHardener.h"
#include "atoll/passes/Diagnostics.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

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

/// An alignment operand; Align(1) when it is not a power of two.
static Align validAlign(const Value *V) {
  uint64_t A = cast<ConstantInt>(V)->getValue().getLimitedValue();
  return isPowerOf2_64(A) ? Align(A) : Align(1);
}

static Align alignOfParam(const CallBase &CB, unsigned Idx, Align Default) {
  if (MaybeAlign A = CB.getParamAlign(Idx))
    return *A;
  return Default;
}

/// The memory operands of I; false if I touches memory in a way not modelled.
bool KernelHardener::memOperands(Instruction &I, SmallVectorImpl<MemOperand> &Ops) {
  // A scalable vector's size is only known at run time (and NVPTX has none):
  // such an access has no size to confine.
  if (I.getType()->isScalableTy() ||
      any_of(I.operands(), [](const Use &U) { return U->getType()->isScalableTy(); }))
    return false;
  LLVMContext &Ctx = Fn->getContext();
  auto Const = [&](uint64_t N) { return ConstantInt::get(Type::getInt64Ty(Ctx), N); };
  auto StoreSize = [&](Type *T) { return DL.getTypeStoreSize(T).getFixedValue(); };
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Ops.push_back({LI->getPointerOperandIndex(), Const(StoreSize(LI->getType())),
                   LI->getAlign(), false});
    return true;
  }
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Ops.push_back({SI->getPointerOperandIndex(),
                   Const(StoreSize(SI->getValueOperand()->getType())), SI->getAlign(), true});
    return true;
  }
  // NVPTX makes an i8/i16 atomic a 32-bit atomic on the aligned word holding it
  // (review F5): confined as 4 bytes at the same address (the byte keeps its
  // offset in the word), the word lies inside any 4-aligned window.
  auto AtomicSize = [&](Type *T) { return std::max<uint64_t>(StoreSize(T), 4); };
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Ops.push_back({RMW->getPointerOperandIndex(),
                   Const(AtomicSize(RMW->getValOperand()->getType())), RMW->getAlign(), true});
    return true;
  }
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Ops.push_back({CX->getPointerOperandIndex(),
                   Const(AtomicSize(CX->getCompareOperand()->getType())), CX->getAlign(), true});
    return true;
  }
  if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
    Ops.push_back({0, MT->getLength(), MT->getDestAlign().valueOrOne(), true});
    Ops.push_back({1, MT->getLength(), MT->getSourceAlign().valueOrOne(), false});
    return true;
  }
  if (auto *MS = dyn_cast<MemSetInst>(&I)) {
    Ops.push_back({0, MS->getLength(), MS->getDestAlign().valueOrOne(), true});
    return true;
  }
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return false;
  StringRef N = II->getCalledFunction()->getName();
  switch (II->getIntrinsicID()) {
  case Intrinsic::masked_load: {
    Align A = alignOfParam(*II, 0, Align(1));
    if (II->arg_size() == 4) // older form: (ptr, i32 align, mask, passthru)
      A = validAlign(II->getArgOperand(1));
    Ops.push_back({0, Const(StoreSize(II->getType())), A, false});
    return true;
  }
  case Intrinsic::masked_store: {
    Align A = alignOfParam(*II, 1, Align(1));
    if (II->arg_size() == 4) // older form: (val, ptr, i32 align, mask)
      A = validAlign(II->getArgOperand(2));
    Ops.push_back({1, Const(StoreSize(II->getArgOperand(0)->getType())), A, true});
    return true;
  }
  case Intrinsic::nvvm_ldu_global_i:
  case Intrinsic::nvvm_ldu_global_f:
  case Intrinsic::nvvm_ldu_global_p: {
    // ldu is one instruction whatever its alignment operand says: the hardware
    // needs the address aligned to the access size (ldu.global.v4.f32: 16).
    uint64_t S = StoreSize(II->getType());
    uint64_t Arg = cast<ConstantInt>(II->getArgOperand(1))->getValue().getLimitedValue();
    unsigned AS = II->getArgOperand(0)->getType()->getPointerAddressSpace();
    if (!isPowerOf2_64(S) || (AS != ASGeneric && AS != ASGlobal))
      return false;
    Ops.push_back({0, Const(S), Align(isPowerOf2_64(Arg) ? std::max(S, Arg) : S), false});
    return true;
  }
  default:
    break;
  }
  if (N.starts_with("llvm.nvvm.atomic.")) {
    uint64_t S = StoreSize(II->getType());
    if (!isPowerOf2_64(S))
      return false;
    Ops.push_back({0, Const(S), Align(S), true});
    return true;
  }
  if (N.starts_with("llvm.nvvm.cp.async.ca.shared.global.") ||
      N.starts_with("llvm.nvvm.cp.async.cg.shared.global.")) {
    // ...shared.global.{4,8,16}[.s](ptr addrspace(3) dst, ptr addrspace(1) src[, i32])
    StringRef Suffix = N.drop_front(N.find(".global.") + 8);
    uint64_t S = 0;
    Suffix.split('.').first.getAsInteger(10, S);
    if (S != 4 && S != 8 && S != 16)
      return false;
    Ops.push_back({0, Const(S), Align(S), true});
    Ops.push_back({1, Const(S), Align(S), false});
    return true;
  }
  if (N.starts_with("llvm.nvvm.ldmatrix.sync.aligned.m8n8.") ||
      N.starts_with("llvm.nvvm.stmatrix.sync.aligned.m8n8.")) {
    // Each thread names one 16-byte row (8 x b16) of a matrix in shared memory
    // (a generic or shared pointer; NVPTX selects no other overload).
    unsigned AS = II->getArgOperand(0)->getType()->getPointerAddressSpace();
    if (AS != ASGeneric && AS != ASShared)
      return false;
    Ops.push_back({0, Const(16), Align(16), N.contains("stmatrix")});
    return true;
  }
  return false;
}

/// ldmatrix/stmatrix m8n8: one 16-byte row per thread, in shared memory.
static bool isMatrixShared(const IntrinsicInst &II) {
  StringRef N = II.getCalledFunction()->getName();
  return N.starts_with("llvm.nvvm.ldmatrix.sync.aligned.m8n8.") ||
         N.starts_with("llvm.nvvm.stmatrix.sync.aligned.m8n8.");
}

/// Where the memory operand Op of I may point.
PointerOrigin KernelHardener::originOf(Instruction &I, const MemOperand &Op) const {
  PointerOrigin O = tracePointerOrigin(I.getOperand(Op.OpIdx));
  // ldu.global reads the global state space whatever the pointer was computed
  // from: a shared or local address there is an illegal-address fault. Its
  // operand is confined to the arena like any forged global address.
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_ldu_global_i:
    case Intrinsic::nvvm_ldu_global_f:
    case Intrinsic::nvvm_ldu_global_p:
      O.Space = StateSpace::Global;
      O.Object = nullptr;
      break;
    default:
      // ldmatrix/stmatrix address shared memory only (a generic operand must fall
      // in the shared window): whatever else the pointer may be, it is confined to
      // the shared window, so that it cannot name global or local memory.
      if (isMatrixShared(*II) && O.Space != StateSpace::Shared) {
        O.Space = StateSpace::Shared;
        O.Object = nullptr;
      }
      break;
    }
  return O;
}

bool KernelHardener::provenSafe(Value *Ptr, const PointerOrigin &O, const MemOperand &Op) const {
  auto *CSize = dyn_cast<ConstantInt>(Op.Size);
  std::optional<uint64_t> Bytes = objectSize(O.Object, DL);
  if (!CSize || !Bytes || O.Space == StateSpace::Unknown || O.Space == StateSpace::Global)
    return false;
  // Ptr = Object + C with a constant C: safe when [C, C + S) lies in the object and
  // C keeps the alignment the instruction promises.
  unsigned IdxWidth = DL.getIndexTypeSizeInBits(Ptr->getType());
  APInt Offset(IdxWidth, 0);
  Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true);
  if (Base->stripPointerCasts() != O.Object)
    return false;
  if (Offset.isNegative())
    return false;
  uint64_t C = Offset.getZExtValue(), S = CSize->getValue().getLimitedValue();
  Align ObjAlign = O.Object->getPointerAlignment(DL);
  return C + S <= *Bytes && C % Op.Alignment.value() == 0 && ObjAlign >= Op.Alignment;
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

bool KernelHardener::checkAccess(Instruction &I, const MemOperand &Op, const PointerOrigin &O) {
  AccessKind K = kindOf(I);
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
  bool IsAtomic = isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I);
  if (auto *CB = dyn_cast<CallBase>(&I))
    if (Function *Callee = CB->getCalledFunction())
      IsAtomic |= Callee->getName().starts_with("llvm.nvvm.atomic.");
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

bool KernelHardener::checkCall(CallBase &CB) {
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
  IntrinsicPolicy P = classifyIntrinsic(*Callee);
  if (P.Action == IntrinsicAction::Refuse) {
    refuse(&CB, StateSpace::Unknown, AccessKind::Intrinsic, P.Reason);
    return false;
  }
  if (std::string Why = checkSyncOperands(CB); !Why.empty()) {
    refuse(&CB, StateSpace::Unknown, AccessKind::Intrinsic, Why);
    return false;
  }
  return true;
}

/// Whether analyze() will look at the memory operands of I.
static bool hasMemOperands(Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    Function *Callee = CB->getCalledFunction();
    return !CB->isInlineAsm() && Callee && Callee->isIntrinsic() &&
           classifyIntrinsic(*Callee).Action == IntrinsicAction::Confine;
  }
  return !isa<FenceInst>(I) && !isa<AllocaInst>(I) && I.mayReadOrWriteMemory();
}

void KernelHardener::mergeAmbiguousLocals() {
  // A local pointer that may point into several allocas (phi/select) has no single
  // object: those allocas become one frame object, which it is confined to.
  SmallSetVector<AllocaInst *, 8> Members;
  for (Instruction &I : instructions(*Fn)) {
    if (!hasMemOperands(I))
      continue;
    SmallVector<MemOperand, 2> Ops;
    if (!memOperands(I, Ops))
      continue;
    for (const MemOperand &Op : Ops) {
      PointerOrigin O = originOf(I, Op);
      if (O.Space == StateSpace::Local && !O.Object)
        addToLocalFrame(I.getOperand(Op.OpIdx), Members);
    }
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
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (!checkCall(*CB))
        continue;
      if (CB->isInlineAsm())
        continue;
      IntrinsicPolicy P = classifyIntrinsic(*CB->getCalledFunction());
      if (P.Action != IntrinsicAction::Confine)
        continue;
    } else if (isa<FenceInst>(I) || !I.mayReadOrWriteMemory()) {
      continue;
    }
    SmallVector<MemOperand, 2> Ops;
    if (!memOperands(I, Ops)) {
      refuse(&I, StateSpace::Unknown, kindOf(I), "memory access of an unsupported form");
      continue;
    }
    for (const MemOperand &Op : Ops) {
      PointerOrigin O = originOf(I, Op);
      if (O.Space == StateSpace::Shared || O.Space == StateSpace::Unknown)
        TouchesShared = true;
      checkAccess(I, Op, O);
    }
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
