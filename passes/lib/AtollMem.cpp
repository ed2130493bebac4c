// atoll-mem: confines every memory access of every kernel to its legal window
// (arena, shared window, frame object, constant object, byval parameter), keeps
// alignment, zero-initialises local and shared memory at entry, appends the hidden
// ABI parameters, and refuses whatever it cannot prove safe. docs/passes.md has
// the rules; include/atoll/abi.h the contract with the runtime.
#include "atoll/passes/AtollMem.h"

#include "AtollMemInternal.h"
#include "atoll/abi.h"
#include "atoll/passes/Diagnostics.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace Atoll {

Expected<AtollMemOptions> parseAtollMemOptions(StringRef Params) {
  AtollMemOptions Opts;
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
    } else {
      return createStringError(inconvertibleErrorCode(),
                               "atoll-mem: unknown parameter '%s' (expected "
                               "clamping-mode=..., verbose or summarize)",
                               Param.str().c_str());
    }
  }
  return Opts;
}

static bool isKernel(const Function &F) {
  if (F.getCallingConv() == CallingConv::PTX_Kernel)
    return true;
  if (NamedMDNode *MD = F.getParent()->getNamedMetadata("nvvm.annotations"))
    for (const MDNode *Op : MD->operands())
      if (Op->getNumOperands() >= 3)
        if (auto *VM = dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0).get()))
          if (VM->getValue() == &F)
            if (auto *S = dyn_cast<MDString>(Op->getOperand(1)))
              if (S->getString() == "kernel")
                return true;
  return false;
}

namespace {

/// One memory operand of an instruction: which operand, how many bytes, alignment.
struct MemOperand {
  unsigned OpIdx;
  Value *Size; // ConstantInt or an i64 run-time length
  Align Alignment;
  bool Writes;
};

// Widest single access (not memcpy/memset, whose lengths are clamped at run time).
// Every window is at least this large: arenas are >= 2 MiB and the shared pad
// makes the shared window at least SharedPadBytes.
constexpr uint64_t MaxAccessBytes = 256;
constexpr uint64_t SharedPadBytes = 256;
// Widest span (max(C + S)) of a group of global accesses sharing one clamp.
constexpr uint64_t MaxGroupBytes = 4096;
static_assert(MaxGroupBytes <= ATOLL_MIN_ARENA_BYTES, "every arena must hold a group");
static_assert(MaxAccessBytes <= SharedPadBytes, "the shared window must fit every access");

class KernelHardener {
public:
  KernelHardener(Function &F, const AtollMemOptions &Opts, HardeningReport &Report)
      : Fn(&F), DL(Fn->getParent()->getDataLayout()), Opts(Opts), Report(Report) {}

  /// Checks every instruction; returns false (after reporting) if any is refused.
  bool analyze();
  /// Rewrites the kernel (after analyze() succeeded) with the hidden parameters.
  void harden(Function &NewF, KernelConfiner &C);
  bool mayTouchShared() const { return TouchesShared; }

private:
  void refuse(Instruction *I, StateSpace S, AccessKind K, const Twine &Why);
  void record(Instruction *I, StateSpace S, AccessKind K, Outcome O, const Twine &Detail,
              std::string Text = {});
  AccessKind kindOf(const Instruction &I) const;
  bool memOperands(Instruction &I, SmallVectorImpl<MemOperand> &Ops);
  bool checkAccess(Instruction &I, const MemOperand &Op, const PointerOrigin &O);
  bool provenSafe(Value *Ptr, const PointerOrigin &O, const MemOperand &Op) const;
  PointerOrigin originOf(Instruction &I, const MemOperand &Op) const;
  bool checkCall(CallBase &CB);
  void rewrite(Instruction &I, KernelConfiner &C);
  void planGroups(ArrayRef<Instruction *> Work);

  // Accesses Base + C (C a constant) into the same object, in the same basic
  // block, share one clamp of Base: the block runs all of them or none, so
  // clamping Base to [obj, obj + size - max(C + S)] keeps every one in its object,
  // changes none that was in bounds, and leaves C as an immediate. Each member's
  // C is a multiple of its alignment A, so Base is max(A)-aligned in a correct
  // program and the clamp keeps that alignment: the members of a split float4
  // (align 16, 4, 8, 4) stay one vector access for the backend.
  using GroupKey = std::tuple<Value *, Value *, BasicBlock *>;
  struct AccessGroup {
    uint64_t Align = 1; // max over members of A
    uint64_t MaxEnd = 0;
    unsigned Members = 0;
    bool Offsets = false; // some member has C != 0: only then is sharing worth it
    Value *Clamped = nullptr;
  };
  DenseMap<GroupKey, AccessGroup> Groups;
  // Loops of the kernel being rewritten: a clamp of a loop-invariant pointer is
  // computed once, where the pointer is defined, not on every iteration.
  std::unique_ptr<DominatorTree> DT;
  std::unique_ptr<LoopInfo> LI;
  BasicBlock::iterator clampPoint(Instruction &Access, Value *Ptr, KernelConfiner &C);
  DenseMap<std::pair<Instruction *, unsigned>, std::pair<GroupKey, uint64_t>> GroupOf;

  Function *Fn;
  const DataLayout &DL;
  const AtollMemOptions &Opts;
  HardeningReport &Report;
  bool Refused = false;
  bool TouchesShared = false;
};

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
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Ops.push_back({RMW->getPointerOperandIndex(),
                   Const(StoreSize(RMW->getValOperand()->getType())), RMW->getAlign(), true});
    return true;
  }
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Ops.push_back({CX->getPointerOperandIndex(),
                   Const(StoreSize(CX->getCompareOperand()->getType())), CX->getAlign(), true});
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
  if ((O.Space == StateSpace::Constant || O.Space == StateSpace::Param) && Op.Writes &&
      !(O.Space == StateSpace::Param && !IsAtomic)) {
    refuse(&I, O.Space, K, "write to read-only " + toString(O.Space) + " memory");
    return false;
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
           "register-only inline asm");
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
  return true;
}

bool KernelHardener::analyze() {
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
  for (Instruction &I : instructions(*Fn)) {
    if (auto *AI = dyn_cast<AllocaInst>(&I)) {
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

void KernelHardener::rewrite(Instruction &I, KernelConfiner &C) {
  SmallVector<MemOperand, 2> Ops;
  memOperands(I, Ops);
  AccessKind K = kindOf(I);
  std::string Original = instructionText(&I); // reported as the tenant wrote it
  IRBuilder<> B(&I);
  Type *I64 = B.getInt64Ty();
  // cp.async ...{4,8,16}.s: the source size operand (bytes read, the rest of the
  // destination zero-filled) must not exceed the copy size; PTX leaves a larger
  // one undefined, so it is cut to the copy size.
  if (auto *II = dyn_cast<IntrinsicInst>(&I);
      II && II->getCalledFunction()->getName().starts_with("llvm.nvvm.cp.async.") &&
      II->arg_size() == 3 && II->getArgOperand(2)->getType()->isIntegerTy() && !Ops.empty()) {
    Value *SrcSize = II->getArgOperand(2);
    uint64_t CpSize = cast<ConstantInt>(Ops[0].Size)->getZExtValue();
    if (auto *CS = dyn_cast<ConstantInt>(SrcSize))
      SrcSize = ConstantInt::get(CS->getType(), std::min(CS->getValue().getLimitedValue(), CpSize));
    else
      SrcSize = B.CreateBinaryIntrinsic(Intrinsic::umin, SrcSize,
                                        ConstantInt::get(SrcSize->getType(), CpSize), nullptr,
                                        "atoll.src.size");
    II->setArgOperand(2, SrcSize);
  }
  // A memcpy/memset length is first cut to the smallest window involved: every
  // run-time length, and every constant one that might not fit a window (longer
  // than MaxAccessBytes, which every arena and shared window holds, or than a
  // static object), since the clamp limit (window - length) would wrap around.
  // Shorter constants stay constants: a constant-length copy is unrolled into a
  // few wide loads and stores, a run-time one becomes a byte loop.
  Value *Len = nullptr;
  bool CutLength = false;
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    auto *CL = dyn_cast<ConstantInt>(MI->getLength());
    CutLength = !CL || CL->getValue().getLimitedValue() > MaxAccessBytes;
    for (const MemOperand &Op : Ops)
      if (std::optional<uint64_t> Bytes = objectSize(originOf(I, Op).Object, DL))
        CutLength |= CL && CL->getValue().getLimitedValue() > *Bytes;
  }
  if (auto *MI = dyn_cast<MemIntrinsic>(&I); MI && CutLength) {
    Len = B.CreateZExtOrTrunc(MI->getLength(), I64);
    for (const MemOperand &Op : Ops) {
      PointerOrigin O = originOf(I, Op);
      Value *Window = nullptr;
      if (O.Space == StateSpace::Global)
        Window = C.arenaWindow();
      else if (O.Space == StateSpace::Unknown)
        // The window of the space the pointer is in at run time (the confinement
        // below takes the same branch): a global copy keeps its full length.
        Window = B.CreateSelect(
            B.CreateIntrinsic(Intrinsic::nvvm_isspacep_shared, {I.getOperand(Op.OpIdx)}),
            C.sharedBytes(), C.arenaWindow(), "atoll.window");
      else if (O.Space == StateSpace::Shared && !objectSize(O.Object, DL))
        Window = C.sharedBytes();
      else if (std::optional<uint64_t> Bytes = objectSize(O.Object, DL))
        Window = ConstantInt::get(I64, *Bytes);
      if (Window)
        Len = B.CreateBinaryIntrinsic(Intrinsic::umin, Len, Window, nullptr, "atoll.len");
    }
    MI->setLength(B.CreateZExtOrTrunc(Len, MI->getLength()->getType()));
  }
  for (const MemOperand &Op : Ops) {
    Value *Ptr = I.getOperand(Op.OpIdx);
    PointerOrigin O = originOf(I, Op);
    if (provenSafe(Ptr, O, Op)) {
      record(&I, O.Space, K, Outcome::ProvenSafe, "constant offset inside its object", Original);
      continue;
    }
    Value *Size = Len ? Len : Op.Size;
    Value *NewPtr = nullptr;
    if (auto It = GroupOf.find({&I, Op.OpIdx}); It != GroupOf.end()) {
      auto &[Key, Offset] = It->second;
      AccessGroup &G = Groups[Key];
      if (G.Members > 1 && G.Offsets) {
        if (!G.Clamped) { // the group's first access in the block: clamp Base once
          IRBuilder<> HB(I.getContext());
          HB.SetInsertPoint(clampPoint(I, std::get<0>(Key), C));
          G.Clamped =
              O.Space == StateSpace::Global
                  ? C.confine(HB, std::get<0>(Key), O, ConstantInt::get(I64, G.MaxEnd),
                              Align(G.Align))
                  : C.confineToObject(HB, std::get<0>(Key), O.Object, *objectSize(O.Object, DL),
                                      ConstantInt::get(I64, G.MaxEnd), Align(G.Align));
        }
        NewPtr = B.CreateConstGEP1_64(B.getInt8Ty(), G.Clamped, Offset, "atoll.grp.addr");
      }
    }
    if (!NewPtr && isa<Constant>(Size)) {
      IRBuilder<> HB(I.getContext());
      HB.SetInsertPoint(clampPoint(I, Ptr, C));
      NewPtr = C.confine(HB, Ptr, O, Size, Op.Alignment);
    }
    if (!NewPtr)
      NewPtr = C.confine(B, Ptr, O, Size, Op.Alignment);
    I.setOperand(Op.OpIdx, NewPtr);
    StringRef How;
    switch (O.Space) {
    case StateSpace::Global:
      How = Opts.Mode == ClampingMode::MaskBased ? "into the arena (mask)"
                                                 : "into the arena (modulo)";
      break;
    case StateSpace::Shared:
      How = objectSize(O.Object, DL) ? "into its shared object" : "into the shared window";
      break;
    case StateSpace::Local: How = "into its stack object"; break;
    case StateSpace::Constant: How = "into its constant object"; break;
    case StateSpace::Param: How = "into its byval parameter"; break;
    default: How = "run-time space test: shared window or arena"; break;
    }
    record(&I, O.Space, K, Outcome::Confined, How, Original);
  }
}

BasicBlock::iterator KernelHardener::clampPoint(Instruction &Access, Value *Ptr,
                                                KernelConfiner &C) {
  Loop *L = LI ? LI->getLoopFor(Access.getParent()) : nullptr;
  if (!L)
    return Access.getIterator();
  auto *Def = dyn_cast<Instruction>(Ptr);
  if (Def && !isa<AllocaInst>(Def) && Def->getParent() != &Fn->getEntryBlock()) {
    if (L->contains(Def->getParent()))
      return Access.getIterator(); // varies per iteration
    if (isa<PHINode>(Def))
      return Def->getParent()->getFirstInsertionPt();
    return std::next(Def->getIterator());
  }
  // Arguments, constants, globals, allocas: with the other launch invariants.
  return C.entryBuilder().GetInsertPoint();
}

void KernelHardener::planGroups(ArrayRef<Instruction *> Work) {
  for (Instruction *I : Work) {
    if (isa<MemIntrinsic>(I))
      continue;
    SmallVector<MemOperand, 2> Ops;
    if (!memOperands(*I, Ops))
      continue;
    for (const MemOperand &Op : Ops) {
      auto *CSize = dyn_cast<ConstantInt>(Op.Size);
      PointerOrigin O = originOf(*I, Op);
      bool ObjectSpace = O.Space == StateSpace::Shared || O.Space == StateSpace::Local ||
                         O.Space == StateSpace::Constant || O.Space == StateSpace::Param;
      std::optional<uint64_t> Bytes = objectSize(O.Object, DL);
      // The arena counts as the object of global accesses: every arena holds
      // MaxGroupBytes, so the group's limit (size - max(C + S)) never wraps.
      if (O.Space == StateSpace::Global && !O.ModuleStorage)
        Bytes = MaxGroupBytes;
      else if (!ObjectSpace)
        continue;
      Value *Ptr = I->getOperand(Op.OpIdx);
      if (!CSize || !Bytes || provenSafe(Ptr, O, Op))
        continue;
      APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
      Value *Base = Ptr->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
      if (Base->getType() != Ptr->getType() || Off.isNegative() ||
          (O.Object && Base->stripPointerCasts() == O.Object))
        continue;
      uint64_t C = Off.getZExtValue(), A = Op.Alignment.value();
      uint64_t End = C + CSize->getZExtValue();
      if (C % A != 0 || End > *Bytes)
        continue;
      GroupKey Key{Base, O.Object, I->getParent()};
      AccessGroup &G = Groups[Key];
      G.Align = std::max(G.Align, A);
      G.MaxEnd = std::max(G.MaxEnd, End);
      ++G.Members;
      G.Offsets |= C != 0;
      GroupOf[{I, Op.OpIdx}] = {Key, C};
    }
  }
}

void KernelHardener::harden(Function &NewF, KernelConfiner &C) {
  Fn = &NewF; // the old function is gone
  SmallVector<Instruction *, 64> Work;
  SmallVector<Instruction *, 8> Drop;
  SmallVector<UnreachableInst *, 4> Unreachables;
  for (Instruction &I : instructions(NewF)) {
    if (auto *U = dyn_cast<UnreachableInst>(&I)) {
      Unreachables.push_back(U);
      continue;
    }
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (CB->isInlineAsm())
        continue;
      IntrinsicPolicy P = classifyIntrinsic(*CB->getCalledFunction());
      if (P.Action == IntrinsicAction::Drop)
        Drop.push_back(CB);
      else if (P.Action == IntrinsicAction::Confine)
        Work.push_back(CB);
      continue;
    }
    if (isa<FenceInst>(I) || isa<AllocaInst>(I) || !I.mayReadOrWriteMemory())
      continue;
    Work.push_back(&I);
  }
  planGroups(Work);
  DT = std::make_unique<DominatorTree>(NewF);
  LI = std::make_unique<LoopInfo>(*DT);
  C.setAnalyses(DT.get(), LI.get()); // kept up to date when a clamp splits a block
  for (Instruction *I : Work)
    rewrite(*I, C);
  C.setAnalyses(nullptr, nullptr);
  LI.reset();
  DT.reset();
  for (Instruction *I : Drop)
    I->eraseFromParent();
  // `unreachable` would become a PTX trap: neutralise it as an early exit.
  for (UnreachableInst *U : Unreachables) {
    IRBuilder<> B(U);
    B.CreateRetVoid();
    U->eraseFromParent();
  }
}

/// Replaces kernel F by a copy with the hidden ABI parameters appended.
Function *addHiddenParameters(Function &F) {
  LLVMContext &Ctx = F.getContext();
  SmallVector<Type *, 8> Params(F.getFunctionType()->params());
  Type *I64 = Type::getInt64Ty(Ctx);
  Params.push_back(I64); // ATOLL_HIDDEN_ARENA_BASE_INDEX
  Params.push_back(I64); // ATOLL_HIDDEN_ARENA_SIZE_INDEX
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
  NewF->takeName(&F);
  F.replaceAllUsesWith(NewF);
  F.eraseFromParent();
  return NewF;
}

/// One module-wide shared pad: referenced by every kernel that can reach shared
/// memory, so its window is never smaller than the widest access (no fault even
/// when the tenant declared no shared memory).
GlobalVariable *sharedPad(Module &M) {
  const char *Name = "__atoll_smem_pad";
  if (GlobalVariable *GV = M.getGlobalVariable(Name, true))
    return GV;
  auto *Ty = ArrayType::get(Type::getInt8Ty(M.getContext()), SharedPadBytes);
  auto *GV = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage, UndefValue::get(Ty),
                                Name, nullptr, GlobalValue::NotThreadLocal, ASShared);
  GV->setAlignment(Align(16));
  return GV;
}

} // namespace

PreservedAnalyses AtollMemPass::run(Module &M, ModuleAnalysisManager &) {
  HardeningReport LocalReport;
  HardeningReport &Report = Opts.Report ? *Opts.Report : LocalReport;
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
  // Module-level inline asm is pasted into the PTX unchecked: it can define
  // unhardened kernels and writable .global storage next to the hardened ones.
  if (!M.getModuleInlineAsm().empty()) {
    const char *Why = "module-level inline asm is not supported (it is copied into the "
                      "PTX unchecked)";
    Function *Named = !Kernels.empty() ? Kernels.front() : M.empty() ? nullptr : &*M.begin();
    if (Named) {
      AtollDiagnostic D(name(), *Named, nullptr, Why);
      M.getContext().diagnose(D);
    } else {
      M.getContext().emitError(Twine(name()) + ": refused: " + Why);
    }
    Finish();
    return PreservedAnalyses::all();
  }
  for (Function *K : Kernels)
    if (K->hasFnAttribute(ATOLL_HARDENED_ATTR)) {
      AtollDiagnostic D(name(), *K, nullptr, "kernel is already hardened");
      M.getContext().diagnose(D);
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
  if (!inlineAllCalls(M, Kernels, Refuse)) {
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

  const char *ModeName = Opts.Mode == ClampingMode::MaskBased ? ATOLL_MODE_MASK : ATOLL_MODE_MODULO;
  for (auto [K, H] : zip(Kernels, Hardeners)) {
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
    bool ZeroShared = H->mayTouchShared();
    Function *NewF = addHiddenParameters(*K);
    unsigned N = NewF->arg_size();
    KernelConfiner C(*NewF, NewF->getArg(N - ATOLL_HIDDEN_PARAM_COUNT + ATOLL_HIDDEN_ARENA_BASE_INDEX),
                     NewF->getArg(N - ATOLL_HIDDEN_PARAM_COUNT + ATOLL_HIDDEN_ARENA_SIZE_INDEX),
                     Opts.Mode);
    H->harden(*NewF, C);
    ZeroShared |= C.usedShared();
    if (C.usedSharedWindow()) {
      // Reference the pad so ptxas allocates it for this kernel.
      C.entryBuilder().CreateStore(C.entryBuilder().getInt8(0), sharedPad(M), /*isVolatile=*/true);
    }
    emitZeroInit(*NewF, C, ZeroShared);
    NewF->addFnAttr(ATOLL_HARDENED_ATTR, ModeName);
  }
  Finish();
  return PreservedAnalyses::none();
}

} // namespace Atoll
