// Code generation for confinement. Every rewritten address is an integer
// computation the tenant cannot influence beyond its window:
//   arena, mask-based:   base | zext(trunc32(addr) & mask_A)  (mask_A = (size-1) & ~(A-1))
//   arena, modulo-based: base + (umin((addr - base) % size, size - S) & ~(A-1)),
//                        the remainder computed only when addr - base >= size
//   shared window:       lo + zext(umin(trunc32(addr - lo), bytes - S) & ~(A-1)),
//                        bytes = dynbase + dynsize - lo
//   object (alloca, constant global, byval): obj + zext(umin(trunc32(p - obj), objsize - S) & ~(A-1))
// where S is the access size and A its alignment. Launch-invariant values are
// computed once in the entry block.
//
// Offsets are 32-bit wherever the window is at most 4 GiB: mask-mode arenas are
// (ATOLL_MAX_MASK_ARENA_BYTES), shared memory and every object are. Truncating a
// wild offset only changes which in-window byte it lands on, never the window, and
// 32-bit offsets halve the instructions per access (one LOP3 instead of two, 32-bit
// address arithmetic before it) and the registers they hold.
#include "AtollMemInternal.h"
#include "Preemption.h"
#include "atoll/passes/StraightLine.h"

#include "atoll/abi.h"

#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

namespace Atoll {

Value *freezeForClamp(IRBuilder<> &B, Value *V, const Twine &Name) {
  return isa<ConstantInt>(V) || isa<FreezeInst>(V) ? V : B.CreateFreeze(V, Name);
}

static BasicBlock::iterator entryInsertPoint(Function &F) {
  BasicBlock &EB = F.getEntryBlock();
  auto It = EB.getFirstInsertionPt();
  while (It != EB.end() && isa<AllocaInst>(*It))
    ++It;
  return It;
}

KernelConfiner::KernelConfiner(Function &Kernel, Value *ArenaBase, Value *ArenaSize,
                               ClampingMode Mode, ModuleHelpers &Helpers)
    : F(Kernel), Helpers(Helpers), DL(Kernel.getParent()->getDataLayout()), ArenaBase(ArenaBase),
      ArenaSize(ArenaSize), Mode(Mode),
      Entry(Kernel.getContext()), I32(Type::getInt32Ty(Kernel.getContext())),
      I64(Type::getInt64Ty(Kernel.getContext())) {
  // Setup code lives in the entry block, between the allocas and a branch to the
  // tenant's code, so later rewrites never invalidate the insertion point.
  BasicBlock &EB = Kernel.getEntryBlock();
  Body = EB.splitBasicBlock(entryInsertPoint(Kernel), "atoll.body");
  Entry.SetInsertPoint(EB.getTerminator());
  if (Mode == ClampingMode::MaskBased) {
    // The runtime never gives a mask-mode kernel an arena above 4 GiB; should a
    // raw launch do so, the saturated mask still keeps it inside the arena (in
    // its first 4 GiB).
    Value *Mask = Entry.CreateBinaryIntrinsic(
        Intrinsic::umin, Entry.CreateSub(ArenaSize, ConstantInt::get(I64, 1)),
        ConstantInt::get(I64, ATOLL_MAX_MASK_ARENA_BYTES - 1), nullptr, "atoll.arena.mask");
    ArenaWindow = Entry.CreateAdd(Mask, ConstantInt::get(I64, 1), "atoll.arena.window");
    // The base is aligned to the size (ABI); saying so lets LLVM see that an
    // aligned offset gives an aligned address (and keep vector accesses whole).
    this->ArenaBase = Entry.CreateAnd(ArenaBase, ConstantInt::get(I64, ~(ATOLL_MIN_ARENA_BYTES - 1)),
                                      "atoll.arena.base");
    ArenaMask = Entry.CreateTrunc(Mask, I32, "atoll.arena.mask32");
  } else {
    ArenaWindow = ArenaSize;
  }
}

// V & ~(A-1) where LLVM already knows the low bits are zero, kept visible to
// ptxas, which cannot see through umin: an offset it knows to be 16-aligned lets
// it merge neighbouring shared/local accesses into one 128-bit access, as it does
// for the unhardened kernel (tiled GEMM: LDS.128).
static Value *alignHint(IRBuilder<> &B, Value *V, Align A) {
  auto *Ty = FunctionType::get(V->getType(), {V->getType()}, false);
  std::string Text = llvm::formatv("and.b32 $0, $1, {0:x8};", ~uint32_t(A.value() - 1)).str();
  auto *Asm = InlineAsm::get(Ty, Text, "=r,r", /*hasSideEffects=*/false);
  return B.CreateCall(Ty, Asm, {V}, "atoll.align.hint");
}

// An object clamp's limit is a constant (object size - access size), so a range
// the optimiser believes the offset has (a tenant promise, or a "fact" derived
// from UB such as x / 0 <= x) would fold umin(off, lim) away. The offset passes
// through an identity asm first: nothing after it (IR optimisation, the NVPTX
// DAG) knows anything about it. ptxas, which sees through the mov, reasons on
// PTX semantics, where these operations are defined. Arena and shared-window
// clamps need no such step: their limits and masks are launch values the
// compiler cannot know, so no belief about the input can fold them. The asm
// also keeps an undefined offset (R2-F5, see confine()) from folding the clamp
// away: its result is one register value whatever its input, so object clamps
// need no freeze.
static Value *opaque(IRBuilder<> &B, Value *V) {
  unsigned Bits = V->getType()->getIntegerBitWidth();
  auto *Ty = FunctionType::get(V->getType(), {V->getType()}, false);
  auto *Asm = InlineAsm::get(Ty, Bits == 32 ? "mov.b32 $0, $1;" : "mov.b64 $0, $1;",
                             Bits == 32 ? "=r,r" : "=l,l", /*hasSideEffects=*/false);
  return B.CreateCall(Ty, Asm, {V}, "atoll.opaque");
}

// A 32-bit offset in [0, Lim] (Lim = window - S, at most 4 GiB - 1), aligned down
// to A (to Known, at least A, when the unclamped offset is known to be aligned to
// it), as an i64 to add to the window's base.
static Value *offset32(IRBuilder<> &B, Value *Off64, Value *Lim64, Align A,
                       Align Known = Align(1), bool Opaque = false) {
  Type *I32 = B.getInt32Ty();
  Value *Off = B.CreateTrunc(Off64, I32);
  if (Opaque)
    Off = opaque(B, Off);
  Off = B.CreateBinaryIntrinsic(Intrinsic::umin, Off, B.CreateTrunc(Lim64, I32));
  if (Known > A)
    Off = alignHint(B, Off, Known);
  else if (A.value() > 1)
    Off = B.CreateAnd(Off, ConstantInt::get(I32, ~uint32_t(A.value() - 1)), "atoll.align");
  return B.CreateZExt(Off, B.getInt64Ty(), "atoll.off32");
}

// Alignment (up to 16, the widest access) of an offset that a correct program
// gives: what LLVM can prove about its low bits.
static Align knownOffsetAlign(Value *Off, const DataLayout &DL) {
  unsigned TZ = computeKnownBits(Off, DL).countMinTrailingZeros();
  return Align(uint64_t(1) << std::min(TZ, 4u));
}

Value *KernelConfiner::alignDown(IRBuilder<> &B, Value *V, Align A) {
  if (A.value() == 1)
    return V;
  return B.CreateAnd(V, ConstantInt::get(V->getType(), ~(A.value() - 1)), "atoll.align");
}

// Hoisting helper: a value computed from launch invariants and a constant size can
// live in the entry block; a run-time size (memcpy length) is computed in place.
static IRBuilder<> &builderFor(IRBuilder<> &Here, IRBuilder<> &Entry, Value *Size) {
  return isa<Constant>(Size) ? Entry : Here;
}

Value *KernelConfiner::confineToArena(IRBuilder<> &B, Value *Addr, Value *Size, Align A) {
  auto *CSize = dyn_cast<ConstantInt>(Size);
  Addr = freezeForClamp(B, Addr, "atoll.addr.fr"); // R2-F5 (see confine())
  if (Mode == ClampingMode::MaskBased) {
    Value *&MaskA = MaskByAlign[A.value()];
    if (!MaskA)
      MaskA = A.value() == 1
                  ? ArenaMask
                  : Entry.CreateAnd(ArenaMask, ConstantInt::get(I32, ~uint32_t(A.value() - 1)),
                                    "atoll.arena.mask.a" + Twine(A.value()));
    Value *Off = B.CreateAnd(B.CreateTrunc(Addr, I32), MaskA, "atoll.off");
    // An access wider than its alignment could cross the arena end: clamp it.
    // (S <= window: constant sizes are at most MaxGroupBytes, run-time lengths
    // are cut to the window first.)
    if (!CSize || CSize->getZExtValue() > A.value()) {
      IRBuilder<> &H = builderFor(B, Entry, Size);
      Value *Lim = H.CreateTrunc(alignDown(H, H.CreateSub(ArenaWindow, Size), A), I32);
      Off = B.CreateBinaryIntrinsic(Intrinsic::umin, Off, Lim, nullptr, "atoll.off.clamped");
    }
    // base is aligned to the window, so | is + (and cheaper).
    return B.CreateOr(ArenaBase, B.CreateZExt(Off, I64), "atoll.addr");
  }
  Value *Rel = B.CreateSub(Addr, ArenaBase, "atoll.rel");
  Value *Off = nullptr;
  // The block of the insertion point itself: a builder made before an earlier
  // split of its block still names the head block.
  if (B.GetInsertPoint().getNodeParent() == &F.getEntryBlock()) {
    Off = B.CreateURem(Rel, ArenaSize, "atoll.off"); // launch-invariant: once per kernel
  } else {
    // An address inside the arena is its own remainder: the 64-bit remainder (a
    // long instruction sequence) runs only for a wild address, behind a branch.
    //   rel = addr - base; off = rel < size ? rel : rel % size
    Instruction *SplitBefore = &*B.GetInsertPoint();
    BasicBlock *Head = SplitBefore->getParent();
    Value *Wild = B.CreateICmpUGE(Rel, ArenaSize, "atoll.wild");
    DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Eager);
    Instruction *ThenTerm = SplitBlockAndInsertIfThen(
        Wild, SplitBefore, /*Unreachable=*/false,
        MDBuilder(F.getContext()).createUnlikelyBranchWeights(), DT ? &DTU : nullptr, LI);
    ThenTerm->getParent()->setName("atoll.wrap");
    IRBuilder<> TB(ThenTerm);
    Value *Wrapped = TB.CreateURem(Rel, ArenaSize, "atoll.wrapped");
    B.SetInsertPoint(SplitBefore); // the first instruction of the tail block
    PHINode *Phi = B.CreatePHI(I64, 2, "atoll.off");
    Phi->addIncoming(Rel, Head);
    Phi->addIncoming(Wrapped, ThenTerm->getParent());
    Off = Phi;
  }
  IRBuilder<> &H = builderFor(B, Entry, Size);
  Value *Lim = H.CreateSub(ArenaSize, Size, "atoll.lim");
  Off = B.CreateBinaryIntrinsic(Intrinsic::umin, Off, Lim);
  Off = alignDown(B, Off, A);
  return B.CreateAdd(ArenaBase, Off, "atoll.addr");
}

Value *KernelConfiner::sharedLo() {
  if (!SmemLo) {
    // User shared memory starts after the driver's reserved region (measured on
    // sm_90: %reserved_smem_offset_cap = 1024, first static variable at 1024).
    auto *Ty = FunctionType::get(Entry.getInt32Ty(), false);
    auto *Asm = InlineAsm::get(Ty, "mov.u32 $0, %reserved_smem_offset_cap;", "=r",
                               /*hasSideEffects=*/false);
    SmemLo = Entry.CreateZExt(Entry.CreateCall(Ty, Asm, {}, "atoll.smem.cap"), I64,
                              "atoll.smem.lo");
  }
  return SmemLo;
}

Value *KernelConfiner::sharedBytes() {
  if (!SmemBytes) {
    // The exact end of the CTA's shared memory is the dynamic base (where every
    // `extern __shared__` array starts, right after the static variables) plus
    // %dynamic_smem_size. (%total_smem_size is rounded up to the allocation
    // granularity: the hardware tolerates the slack, compute-sanitizer does not.)
    Value *Lo = sharedLo();
    Module &M = *F.getParent();
    auto *Ty = ArrayType::get(Type::getInt8Ty(M.getContext()), 0);
    GlobalVariable *&Dyn = Helpers.DynSmem; // one per module, shared by its kernels
    if (!Dyn) {
      Dyn = new GlobalVariable(M, Ty, false, GlobalValue::ExternalLinkage, nullptr,
                               "__atoll_dyn_smem", nullptr, GlobalValue::NotThreadLocal,
                               ASShared);
      Dyn->setAlignment(Align(4));
    }
    Value *DynBase = Entry.CreatePtrToInt(Dyn, I64, "atoll.smem.dyn");
    Value *DynSize = Entry.CreateZExt(
        Entry.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_dynamic_smem_size, {}), I64);
    Value *End = Entry.CreateAdd(DynBase, DynSize, "atoll.smem.end");
    SmemBytes = Entry.CreateSub(End, Lo, "atoll.smem.bytes");
  }
  return SmemBytes;
}

Value *KernelConfiner::confineToSharedWindow(IRBuilder<> &B, Value *SharedAddr, Value *Size,
                                             Align A) {
  UsedShared = UsedWindow = true;
  Value *Lo = sharedLo();
  Value *Bytes = sharedBytes();
  IRBuilder<> &H = builderFor(B, Entry, Size);
  // The zero-init pad guarantees Bytes >= every constant access size.
  Value *Lim = H.CreateSub(Bytes, Size, "atoll.smem.lim");
  SharedAddr = freezeForClamp(B, SharedAddr, "atoll.smem.addr.fr"); // R2-F5 (see confine())
  Value *Off = offset32(B, B.CreateSub(SharedAddr, Lo), Lim, A);
  return B.CreateAdd(Lo, Off, "atoll.smem.addr");
}

/// Raises the alignment of an object (alloca, global definition, byval parameter)
/// to at least A: offsets are aligned relative to the object, so the object itself
/// must be that aligned or a forged offset could still be misaligned.
static void raiseObjectAlignment(Value *Object, Align A, const DataLayout &DL) {
  if (Object->getPointerAlignment(DL) >= A)
    return;
  if (auto *AI = dyn_cast<AllocaInst>(Object)) {
    AI->setAlignment(std::max(AI->getAlign(), A));
  } else if (auto *GV = dyn_cast<GlobalVariable>(Object)) {
    GV->setAlignment(std::max(GV->getPointerAlignment(DL), A));
  } else if (auto *Arg = dyn_cast<Argument>(Object)) {
    Function *F = Arg->getParent();
    unsigned No = Arg->getArgNo();
    F->removeParamAttr(No, Attribute::Alignment);
    F->addParamAttr(No, Attribute::getWithAlignment(F->getContext(), A));
  }
}

/// When Ptr is Object plus GEPs (through address-space casts, which keep offsets
/// within an object), its offset from the indices: no round trip of the address
/// through the generic space. Null otherwise. No wrap flags: a tenant's GEP that
/// overflows gives a wrong offset (clamped below), never poison.
static Value *offsetFromGEPs(IRBuilder<> &B, Value *Ptr, Value *Object, Type *IntTy,
                             const DataLayout &DL) {
  SmallVector<GEPOperator *, 4> Chain;
  for (Value *V = Ptr;;) {
    if (V == Object)
      break;
    if (auto *G = dyn_cast<GEPOperator>(V)) {
      Chain.push_back(G);
      V = G->getPointerOperand();
    } else if (auto *C = dyn_cast<AddrSpaceCastOperator>(V)) {
      V = C->getPointerOperand();
    } else if (auto *BC = dyn_cast<BitCastOperator>(V)) {
      V = BC->getOperand(0);
    } else {
      return nullptr;
    }
  }
  if (Chain.empty())
    return nullptr;
  Value *Off = nullptr;
  for (GEPOperator *G : Chain) {
    Value *O = B.CreateZExtOrTrunc(emitGEPOffset(&B, DL, G, /*NoAssumptions=*/true), IntTy);
    Off = Off ? B.CreateAdd(Off, O) : O;
  }
  // A single i8 GEP's offset is its index: the tenant's own value keeps its name.
  bool Own = llvm::any_of(Chain, [&](GEPOperator *G) { return is_contained(G->indices(), Off); });
  if (isa<Instruction>(Off) && !Own)
    Off->setName("atoll.obj.off");
  return Off;
}

Value *KernelConfiner::confineToObject(IRBuilder<> &B, Value *Ptr, Value *Object,
                                       uint64_t ObjectBytes, Value *Size, Align A) {
  auto *PtrTy = cast<PointerType>(Ptr->getType());
  Type *IntPtrTy = DL.getIntPtrType(PtrTy);
  Value *Off = offsetFromGEPs(B, Ptr, Object, IntPtrTy, DL);
  // The alignment a correct program's offset has (the object is raised to it; a
  // byval parameter keeps the access alignment, not to change the parameter layout).
  Align Known = Off && isa<Constant>(Size) && !isa<Argument>(Object)
                    ? std::max(A, knownOffsetAlign(Off, DL))
                    : A;
  raiseObjectAlignment(Object, Known, DL);
  // The object's address in the pointer's address space (launch-invariant).
  Value *Obj = Object;
  if (Obj->getType() != PtrTy)
    Obj = Entry.CreateAddrSpaceCast(Obj, PtrTy, Object->getName() + ".atoll");
  if (!Off)
    Off = B.CreateSub(B.CreatePtrToInt(Ptr, IntPtrTy), B.CreatePtrToInt(Obj, IntPtrTy),
                      "atoll.obj.off");
  IRBuilder<> &H = builderFor(B, Entry, Size);
  Value *Lim = H.CreateSub(ConstantInt::get(IntPtrTy, ObjectBytes),
                           H.CreateZExtOrTrunc(Size, IntPtrTy), "atoll.obj.lim");
  if (IntPtrTy->getIntegerBitWidth() > 32 && ObjectBytes <= UINT32_MAX) {
    Off = offset32(B, Off, Lim, A, Known, /*Opaque=*/true);
  } else {
    Off = B.CreateBinaryIntrinsic(Intrinsic::umin, opaque(B, Off), Lim);
    Off = alignDown(B, Off, A);
  }
  return B.CreateGEP(B.getInt8Ty(), Obj, Off, "atoll.obj.addr");
}

Value *KernelConfiner::confine(IRBuilder<> &B, Value *Ptr, const Confinement &How, Value *Size,
                               Align A) {
  auto *PtrTy = cast<PointerType>(Ptr->getType());
  LLVMContext &Ctx = F.getContext();
  auto *GlobalPtr = PointerType::get(Ctx, ASGlobal);
  auto *SharedPtr = PointerType::get(Ctx, ASShared);
  Size = B.CreateZExtOrTrunc(Size, I64);
  // R2-F5: no clamp ever reads poison or undef. Instruction selection folds an
  // address it finds undefined (`udiv x, 0`, `shl x, 64`, ...) into undef, and
  // the clamp with it: `st.global [%rd1]` with %rd1 never written (measured on
  // lit freeze-undef-address.ll before this rule). A frozen value is one fixed
  // value, which the clamp keeps in the window; freezing a defined value is a
  // register copy, gone after instruction selection. Each clamp freezes the
  // integer it reads (after the casts into its space, which codegen then still
  // folds); the space test's pointer is frozen first, so that the test and both
  // clamps see one value. (Object clamps read their offset through an opaque asm,
  // which does the same: see opaque().)
  if (How.Form == ConfineForm::SpaceTest)
    Ptr = freezeForClamp(B, Ptr, "atoll.ptr.fr");

  auto ToArena = [&]() -> Value * {
    Value *Addr = B.CreatePtrToInt(Ptr, I64);
    Value *NewAddr = confineToArena(B, Addr, Size, A);
    Value *G = B.CreateIntToPtr(NewAddr, GlobalPtr, "atoll.global");
    return PtrTy->getAddressSpace() == ASGlobal ? G : B.CreateAddrSpaceCast(G, PtrTy);
  };
  auto ToSharedWindow = [&]() -> Value * {
    Value *S = PtrTy->getAddressSpace() == ASShared ? Ptr : B.CreateAddrSpaceCast(Ptr, SharedPtr);
    Value *NewAddr = confineToSharedWindow(B, B.CreatePtrToInt(S, I64), Size, A);
    Value *SP = B.CreateIntToPtr(NewAddr, SharedPtr, "atoll.shared");
    return PtrTy->getAddressSpace() == ASShared ? SP : B.CreateAddrSpaceCast(SP, PtrTy);
  };

  switch (How.Form) {
  case ConfineForm::Arena:
    return ToArena();
  case ConfineForm::Object:
    if (How.Space == StateSpace::Shared)
      UsedShared = true;
    return confineToObject(B, Ptr, How.Object, How.ObjectBytes, Size, A);
  case ConfineForm::SharedWindow:
    return ToSharedWindow();
  case ConfineForm::SpaceTest: {
    // Unknown origin: a run-time space test. Shared addresses stay in the shared
    // window; everything else (global, and local/constant addresses smuggled
    // through memory) is confined to the arena.
    Value *IsShared = B.CreateIntrinsic(Intrinsic::nvvm_isspacep_shared, {Ptr}, nullptr,
                                        "atoll.is.shared");
    Value *InShared = ToSharedWindow();
    Value *InArena = ToArena();
    return B.CreateSelect(IsShared, InShared, InArena, "atoll.generic");
  }
  }
  llvm_unreachable("covered switch");
}

BasicBlock *emitZeroInit(Function &F, KernelConfiner &C, bool ZeroShared, Value *Control) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  IRBuilder<> &B = C.entryBuilder();
  // Every static stack object starts as zeros: no residue of an earlier kernel.
  for (Instruction &I : F.getEntryBlock()) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI)
      continue;
    if (std::optional<uint64_t> Bytes = objectSize(AI, DL); Bytes && *Bytes)
      B.CreateMemSet(AI, B.getInt8(0), *Bytes, AI->getAlign());
  }
  if (!ZeroShared)
    return nullptr;

  // Cooperative zeroing of the user shared window by all threads of the CTA, in
  // 16-byte stores (lo is 1024-aligned), then the last < 16 bytes byte by byte
  // (the window ends wherever the launch's dynamic size says: 4093 bytes leave a
  // 13-byte tail, all of it readable), then a barrier, before any tenant code runs:
  //   for (i = tid * 16; i + 16 <= bytes; i += nthreads * 16) shared[lo + i] = 0 (v4)
  //   for (t = (bytes & ~15) + tid; t < bytes; t += nthreads) shared[lo + t] = 0 (i8)
  LLVMContext &Ctx = F.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto Sreg = [&](Intrinsic::ID ID) { return B.CreateIntrinsic(ID, {}); };
  Value *Tx = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_x);
  Value *Ty = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_y);
  Value *Tz = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_z);
  Value *Nx = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  Value *Ny = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_y);
  Value *Nz = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_z);
  Value *Tid = B.CreateAdd(Tx, B.CreateMul(Nx, B.CreateAdd(Ty, B.CreateMul(Ny, Tz))));
  Value *NThreads = B.CreateMul(Nx, B.CreateMul(Ny, Nz));
  Value *Tid64 = B.CreateZExt(Tid, I64, "atoll.zero.tid");
  Value *Start = B.CreateShl(Tid64, 4, "atoll.zero.start");
  Value *Step = B.CreateShl(B.CreateZExt(NThreads, I64), 4, "atoll.zero.step");
  Value *Lo = C.sharedLo();
  Value *Bytes = C.sharedBytes();
  auto *SharedPtr = PointerType::get(Ctx, ASShared);
  auto I64C = [&](uint64_t N) { return ConstantInt::get(I64, N); };

  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Rest = C.body();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "atoll.zero.smem", &F, Rest);
  BasicBlock *Tail = BasicBlock::Create(Ctx, "atoll.zero.tail", &F, Rest);
  BasicBlock *TailStore = BasicBlock::Create(Ctx, "atoll.zero.tail.store", &F, Rest);
  BasicBlock *Done = BasicBlock::Create(Ctx, "atoll.zero.done", &F, Rest);
  Pre->getTerminator()->eraseFromParent();
  IRBuilder<> PB(Pre);
  if (Control) {
    // R7-F1: the launch chooses the window and the block size, so the zeroing can
    // run thousands of stores per thread (227 KiB, one thread) in every block that
    // starts after a cancel. When it is longer than the entry budget's worth of
    // stores (block-uniform: both are the launch's), the block first votes on the
    // cancel word and leaves as a whole; a thread alone must not leave here, or its
    // share of the window would keep the last kernel's data (R7-F11).
    BasicBlock *Vote = BasicBlock::Create(Ctx, "atoll.zero.vote", &F, Loop);
    BasicBlock *Go = BasicBlock::Create(Ctx, "atoll.zero.go", &F, Loop);
    BasicBlock *Out = BasicBlock::Create(Ctx, "atoll.zero.leave", &F, Rest);
    ReturnInst::Create(Ctx, Out);
    const uint64_t MaxStores = DefaultEntryBudget / StraightMemoryWeight;
    PB.CreateCondBr(PB.CreateICmpUGT(Bytes, PB.CreateMul(Step, I64C(MaxStores)), "atoll.zero.long"),
                    Vote, Go);
    IRBuilder<> VB(Vote);
    VB.CreateCondBr(voteCancel(VB, Control), Out, Go);
    Pre = Go;
    PB.SetInsertPoint(Go);
  }
  PB.CreateCondBr(PB.CreateICmpULE(PB.CreateAdd(Start, I64C(16)), Bytes), Loop, Tail);

  IRBuilder<> LB(Loop);
  PHINode *I = LB.CreatePHI(I64, 2, "atoll.zero.i");
  I->addIncoming(Start, Pre);
  Value *Addr = LB.CreateIntToPtr(LB.CreateAdd(Lo, I), SharedPtr);
  LB.CreateAlignedStore(Constant::getNullValue(FixedVectorType::get(I32, 4)), Addr, Align(16));
  Value *Next = LB.CreateAdd(I, Step);
  I->addIncoming(Next, Loop);
  LB.CreateCondBr(LB.CreateICmpULE(LB.CreateAdd(Next, I64C(16)), Bytes), Loop, Tail);

  IRBuilder<> TB(Tail);
  Value *Bulk = TB.CreateAnd(Bytes, I64C(~uint64_t(15)));
  Value *TailOff = TB.CreateAdd(Bulk, Tid64, "atoll.zero.tail.off");
  TB.CreateCondBr(TB.CreateICmpULT(TailOff, Bytes), TailStore, Done);
  IRBuilder<> SB(TailStore);
  PHINode *T = SB.CreatePHI(I64, 2, "atoll.zero.t");
  T->addIncoming(TailOff, Tail);
  SB.CreateStore(ConstantInt::get(Type::getInt8Ty(Ctx), 0),
                 SB.CreateIntToPtr(SB.CreateAdd(Lo, T), SharedPtr));
  Value *TNext = SB.CreateAdd(T, SB.CreateZExt(NThreads, I64));
  T->addIncoming(TNext, TailStore);
  SB.CreateCondBr(SB.CreateICmpULT(TNext, Bytes), TailStore, Done);

  IRBuilder<> DB(Done);
  DB.CreateIntrinsic(Intrinsic::nvvm_barrier_cta_sync_all, {DB.getInt32(0)});
  DB.CreateBr(Rest);
  return Done;
}

} // namespace Atoll
