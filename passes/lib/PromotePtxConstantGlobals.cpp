// promote-ptx-constant-globals: see docs/passes.md.
//
// Hardened modules are cached and shared by every pipeline that runs them, so they
// must keep no writable module-scope storage. The pass proves each module global
// read-only, moves it into PTX constant memory (address space 4, one 64 KiB bank,
// read-only in hardware), and refuses what it cannot prove.
#include "atoll/passes/PromotePtxConstantGlobals.h"

#include "atoll/abi.h"
#include "atoll/passes/Diagnostics.h"
#include "atoll/passes/HardeningReport.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <limits>
#include <numeric>

using namespace llvm;

namespace Atoll {
namespace {

constexpr StringLiteral PassName = "promote-ptx-constant-globals";

// NVPTX address spaces.
enum : unsigned { ASGeneric = 0, ASGlobal = 1, ASShared = 3, ASConst = 4 };

// Pointer tables (a constant array of string pointers) are followed this many
// loads deep; deeper nesting counts as an escape.
constexpr unsigned MaxDepth = 3;

StateSpace spaceOf(unsigned AS) {
  switch (AS) {
  case ASGeneric: return StateSpace::Generic;
  case ASGlobal: return StateSpace::Global;
  case ASShared: return StateSpace::Shared;
  case ASConst: return StateSpace::Constant;
  default: return StateSpace::Unknown;
  }
}

/// One use that writes a global, lets its address escape, or cannot be expressed in
/// constant memory. It sits in an instruction, or (for constant expressions no
/// instruction uses) in the initializer of another global.
struct Finding {
  enum KindT { None, Write, Escape, NoRewrite } Kind = None;
  const Instruction *I = nullptr;
  const GlobalVariable *Init = nullptr;
  std::string Why;

  explicit operator bool() const { return Kind != None; }

  /// "written by '<inst>' in '<fn>' at <loc>" and the like.
  std::string describe() const {
    std::string S;
    raw_string_ostream OS(S);
    if (Kind == Write)
      OS << "written by ";
    else
      OS << Why << (I || Init ? ": " : "");
    if (I) {
      OS << "'" << instructionText(I) << "' in '" << I->getFunction()->getName() << "'";
      if (std::string Loc = sourceLocation(I); !Loc.empty())
        OS << " at " << Loc;
    } else if (Init) {
      OS << "in the initializer of '" << Init->getName() << "'";
    }
    return S;
  }
};

/// The first instruction that uses C, directly or through other constants, or else
/// the global whose initializer holds it: where to point a refusal.
Finding locate(const Constant *C, Finding::KindT Kind, const Twine &Why) {
  Finding F{Kind, nullptr, nullptr, Why.str()};
  SmallVector<const Value *, 8> Work{C};
  SmallPtrSet<const Value *, 8> Seen{C};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (auto *I = dyn_cast<Instruction>(U)) {
        F.I = I;
        return F;
      }
      if (auto *GV = dyn_cast<GlobalVariable>(U))
        F.Init = GV;
      else if (isa<Constant>(U) && Seen.insert(U).second)
        Work.push_back(U);
    }
  }
  return F;
}

/// clang lowers printf to vprintf(format, buffer), storing the arguments into a local
/// buffer that only vprintf reads. A string address stored there does not escape.
bool isPrintfBuffer(const Value *Ptr) {
  auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
  if (!A)
    return false;
  SmallVector<const Value *, 8> Work{A};
  SmallPtrSet<const Value *, 8> Seen{A};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (isa<GetElementPtrInst>(Usr)) {
        if (Seen.insert(Usr).second)
          Work.push_back(Usr);
        continue;
      }
      if (auto *SI = dyn_cast<StoreInst>(Usr);
          SI && U.getOperandNo() == SI->getPointerOperandIndex())
        continue;
      auto *CB = dyn_cast<CallBase>(Usr);
      if (!CB)
        return false;
      if (CB->isLifetimeStartOrEnd())
        continue;
      const Function *Callee = CB->getCalledFunction();
      if (!Callee || Callee->getName() != "vprintf" || !CB->isArgOperand(&U) ||
          CB->getArgOperandNo(&U) != 1)
        return false;
    }
  }
  return true;
}

bool referencesGlobal(const Constant *C) {
  SmallVector<const Constant *, 8> Work{C};
  SmallPtrSet<const Constant *, 8> Seen{C};
  while (!Work.empty()) {
    const Constant *V = Work.pop_back_val();
    if (isa<GlobalValue>(V))
      return true;
    for (const Use &Op : V->operands())
      if (auto *OpC = dyn_cast<Constant>(Op); OpC && Seen.insert(OpC).second)
        Work.push_back(OpC);
  }
  return false;
}

/// Walks every value derived from a global's address, transitively through constant
/// expressions, casts, GEPs, phi/select, calls into defined functions, and loads from
/// tables that hold the address, and reports the first write or escape. Loads and
/// read-only, non-capturing calls are fine.
class UseWalker {
public:
  UseWalker(const GlobalVariable &G, const DataLayout &DL) : G(G), DL(DL) {}

  Finding run() {
    push(&G, 0, nullptr);
    while (!Work.empty()) {
      Item It = Work.pop_back_val();
      for (const Use &U : It.V->uses()) {
        if (It.Depth == 0 && !NoRewrite && !rewritable(U))
          NoRewrite = noRewrite(U);
        if (Finding F = visit(U, It))
          return F;
      }
    }
    return {};
  }

  /// The first use that the move to constant memory could not express (a
  /// global-space pointer into the global flowing into a phi, a call, ...).
  Finding NoRewrite;

private:
  // Depth 0: V points into G. Depth N > 0: V points to memory that holds depth N-1
  // pointers; Holder is that memory's global when V is known to point into it.
  struct Item {
    const Value *V;
    unsigned Depth;
    const GlobalVariable *Holder;
  };

  void push(const Value *V, unsigned Depth, const GlobalVariable *Holder) {
    if (Seen.insert({V, Depth}).second)
      Work.push_back({V, Depth, Holder});
  }

  static Finding at(const Instruction *I, Finding::KindT Kind, const Twine &Why = "") {
    return Finding{Kind, I, nullptr, Why.str()};
  }

  Finding visit(const Use &U, const Item &It);
  Finding visitCall(const CallBase &CB, const Use &U, const Item &It);
  bool rewritable(const Use &U) const;
  Finding noRewrite(const Use &U) const;
  bool loadsOnlyData(const LoadInst &LI, const GlobalVariable *Holder) const;

  const GlobalVariable &G;
  const DataLayout &DL;
  SmallVector<Item, 16> Work;
  DenseSet<std::pair<const Value *, unsigned>> Seen;
};

Finding UseWalker::visit(const Use &U, const Item &It) {
  const User *Usr = U.getUser();
  unsigned D = It.Depth;

  if (auto *CE = dyn_cast<ConstantExpr>(Usr)) {
    switch (CE->getOpcode()) {
    case Instruction::GetElementPtr:
    case Instruction::BitCast:
    case Instruction::AddrSpaceCast:
      push(CE, D, It.Holder);
      return {};
    case Instruction::PtrToInt:
    case Instruction::PtrToAddr:
      return locate(CE, Finding::Escape, "address escapes, converted to an integer");
    default:
      return locate(CE, Finding::Escape, "address escapes, used in a constant expression");
    }
  }
  // An array or struct constant carries the address to wherever it is used.
  if (isa<ConstantAggregate>(Usr)) {
    push(Usr, D, It.Holder);
    return {};
  }
  // Another global's initializer holds the address: follow loads from that global.
  if (auto *H = dyn_cast<GlobalVariable>(Usr)) {
    if (H->getName().starts_with("llvm.")) // llvm.used and friends: no runtime pointer
      return {};
    if (D == MaxDepth) {
      Finding F{Finding::Escape, nullptr, H, "address escapes, pointer tables nest too deep"};
      return F;
    }
    push(H, D + 1, H);
    return {};
  }
  auto *I = dyn_cast<Instruction>(Usr);
  if (!I)
    return Finding{Finding::Escape, nullptr, nullptr,
                   ("address escapes, used by '" + Usr->getName() + "'").str()};

  switch (I->getOpcode()) {
  case Instruction::Load:
    if (D == 0)
      return {};
    // Reading a pointer table yields pointers one level closer to the global.
    if (I->getType()->isPtrOrPtrVectorTy()) {
      push(I, D - 1, nullptr);
      return {};
    }
    if (loadsOnlyData(*cast<LoadInst>(I), It.Holder))
      return {};
    return at(I, Finding::Escape, "address escapes, a pointer table is read as data");
  case Instruction::Store:
    if (U.getOperandNo() == cast<StoreInst>(I)->getPointerOperandIndex())
      return D == 0 ? at(I, Finding::Write) : Finding{}; // overwriting a table leaks nothing
    if (D == 0 && isPrintfBuffer(cast<StoreInst>(I)->getPointerOperand()))
      return {};
    return at(I, Finding::Escape, "address escapes, stored to memory");
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg:
    if (D == 0 && U.getOperandNo() == 0)
      return at(I, Finding::Write);
    return at(I, Finding::Escape, "address escapes, used by an atomic operation");
  case Instruction::GetElementPtr:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PHI:
  case Instruction::Select:
  case Instruction::Freeze:
  case Instruction::ExtractElement:
  case Instruction::InsertElement:
  case Instruction::ShuffleVector:
  case Instruction::ExtractValue:
  case Instruction::InsertValue:
    push(I, D, It.Holder);
    return {};
  case Instruction::ICmp:
    return {};
  case Instruction::PtrToInt:
  case Instruction::PtrToAddr:
    return at(I, Finding::Escape, "address escapes, converted to an integer");
  case Instruction::Ret:
    return at(I, Finding::Escape, "address escapes, returned from the function");
  case Instruction::Call:
  case Instruction::Invoke:
  case Instruction::CallBr:
    return visitCall(*cast<CallBase>(I), U, It);
  default:
    return at(I, Finding::Escape, "address escapes, used by an unsupported instruction");
  }
}

Finding UseWalker::visitCall(const CallBase &CB, const Use &U, const Item &It) {
  unsigned D = It.Depth;
  if (CB.isInlineAsm())
    return at(&CB, Finding::Escape, "address escapes, passed to inline asm");
  // Assumptions (an "align" bundle) and object sizes touch no memory.
  if (auto *II = dyn_cast<IntrinsicInst>(&CB);
      II && (II->getIntrinsicID() == Intrinsic::assume ||
             II->getIntrinsicID() == Intrinsic::objectsize))
    return {};
  if (!CB.isArgOperand(&U))
    return at(&CB, Finding::Escape,
              CB.isCallee(&U) ? "address escapes, called as a function"
                              : "address escapes, used in an operand bundle");
  unsigned ArgNo = CB.getArgOperandNo(&U);
  if (auto *MI = dyn_cast<MemIntrinsic>(&CB)) {
    if (ArgNo == 0) // destination
      return D == 0 ? at(&CB, Finding::Write) : Finding{};
    if (ArgNo == 1 && isa<MemTransferInst>(MI) && D > 0)
      return at(&CB, Finding::Escape, "address escapes, a pointer table is copied");
    return {};
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&CB)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::ptrmask:
    case Intrinsic::launder_invariant_group:
    case Intrinsic::strip_invariant_group:
      push(II, D, It.Holder);
      return {};
    default:
      break;
    }
  }
  if (D == 0 && (CB.onlyReadsMemory() || CB.onlyReadsMemory(ArgNo)) &&
      CB.doesNotCapture(ArgNo))
    return {};
  const Function *Callee = CB.getCalledFunction();
  if (Callee && !Callee->isDeclaration() && ArgNo < Callee->arg_size()) {
    push(Callee->getArg(ArgNo), D, It.Holder);
    return {};
  }
  // Known device-library entry points that only read the string they are given.
  if (D == 0 && Callee && ArgNo == 0 &&
      (Callee->getName() == "vprintf" || Callee->getName() == "__nvvm_reflect"))
    return {};
  if (!Callee)
    return at(&CB, Finding::Escape, "address escapes, passed to an indirect call");
  return at(&CB, Finding::Escape,
            "address escapes, passed to '" + Callee->getName() +
                "', which may write or keep it");
}

/// A load from a pointer table that returns something other than a pointer is fine
/// when it is too small to hold an address (the bits can only come back as a
/// pointer through inttoptr, which atoll-mem treats as untrusted), or when none of
/// the offsets it can read holds an address: the load address is decomposed into
/// Holder + C + sum(k_i * s_i), so it reads offsets congruent to C modulo
/// gcd(s_i), e.g. field `b` of every element of an array of structs.
bool UseWalker::loadsOnlyData(const LoadInst &LI, const GlobalVariable *Holder) const {
  Type *Ty = LI.getType();
  if (Ty->isScalableTy())
    return false;
  uint64_t Size = DL.getTypeStoreSize(Ty).getFixedValue();
  if (Size < DL.getPointerSize())
    return true;
  if (!Holder || !Holder->hasDefinitiveInitializer())
    return false;
  unsigned BW = DL.getIndexTypeSizeInBits(Holder->getType());
  APInt C(BW, 0);
  uint64_t Stride = 0;
  const Value *V = LI.getPointerOperand();
  while (V != Holder) {
    if (DL.getIndexTypeSizeInBits(V->getType()) != BW)
      return false;
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      SmallMapVector<Value *, APInt, 4> Vars;
      APInt Off(BW, 0);
      if (!GEP->collectOffset(DL, BW, Vars, Off))
        return false;
      C += Off;
      for (auto &Var : Vars)
        Stride = std::gcd(Stride, Var.second.abs().getLimitedValue());
      V = GEP->getPointerOperand();
    } else if (isa<BitCastOperator>(V) || isa<AddrSpaceCastOperator>(V)) {
      V = cast<Operator>(V)->getOperand(0);
    } else {
      return false;
    }
  }
  // Offsets outside [0, size - Size] would read outside the table (UB).
  uint64_t TableSize = DL.getTypeAllocSize(Holder->getValueType()).getFixedValue();
  if (TableSize < Size)
    return true;
  int64_t First = C.getSExtValue();
  uint64_t Last = TableSize - Size, Start;
  if (Stride == 0) {
    if (First < 0 || uint64_t(First) > Last)
      return true;
    Start = First;
    Stride = Last + 1; // one candidate
  } else {
    int64_t S = int64_t(Stride);
    Start = uint64_t(((First % S) + S) % S);
  }
  auto *Init = const_cast<Constant *>(Holder->getInitializer());
  unsigned Candidates = 0;
  for (uint64_t O = Start; O <= Last; O += Stride) {
    if (++Candidates > 4096)
      return false;
    Constant *Val = ConstantFoldLoadFromConst(Init, Ty, APInt(64, O), DL);
    if (!Val || referencesGlobal(Val))
      return false;
  }
  return true;
}

/// The move to constant memory keeps generic pointers (they now point into the
/// constant window). A pointer in a specific space (global) must change type, which
/// is expressible only for loads, GEPs, casts to generic or constant, and memcpy
/// sources; and a generic pointer may be cast to global only directly on the global.
bool UseWalker::rewritable(const Use &U) const {
  const Value *V = U.get();
  const User *Usr = U.getUser();
  if (auto *Op = dyn_cast<Operator>(Usr); Op && Op->getOpcode() == Instruction::AddrSpaceCast) {
    unsigned To = Usr->getType()->getPointerAddressSpace();
    unsigned From = V->getType()->getPointerAddressSpace();
    if (To == ASGeneric || To == ASConst)
      return true;
    return V == &G && From == ASGeneric && To == ASGlobal;
  }
  Type *T = V->getType();
  if (!T->isPtrOrPtrVectorTy())
    return true; // aggregates were checked where the address entered them
  unsigned AS = T->getPointerAddressSpace();
  if (AS == ASGeneric || AS == ASConst)
    return true;
  if (T->isVectorTy())
    return false;
  if (isa<GEPOperator>(Usr))
    return U.getOperandNo() == 0;
  if (isa<LoadInst>(Usr))
    return true;
  if (isa<MemTransferInst>(Usr))
    return U.getOperandNo() == 1;
  return false;
}

Finding UseWalker::noRewrite(const Use &U) const {
  const char *Why = "its global-space address is used where constant memory cannot be";
  if (auto *I = dyn_cast<Instruction>(U.getUser()))
    return at(I, Finding::NoRewrite, Why);
  if (auto *GV = dyn_cast<GlobalVariable>(U.getUser()))
    return Finding{Finding::NoRewrite, nullptr, GV, Why};
  return locate(cast<Constant>(U.getUser()), Finding::NoRewrite, Why);
}

/// Replaces Old, a pointer into the promoted global typed in a specific address
/// space, by New, the same address in constant memory. UseWalker::rewritable has
/// admitted every use.
void rewriteSpecific(Module &M, Value *Old, Value *New) {
  if (Old->getType() == New->getType()) {
    Old->replaceAllUsesWith(New);
    return;
  }
  for (Use &U : make_early_inc_range(Old->uses())) {
    User *Usr = U.getUser();
    if (auto *CE = dyn_cast<ConstantExpr>(Usr)) {
      auto *C = cast<Constant>(New);
      if (CE->getOpcode() == Instruction::AddrSpaceCast) {
        CE->replaceAllUsesWith(ConstantExpr::getAddrSpaceCast(C, CE->getType()));
        continue;
      }
      auto *GEP = cast<GEPOperator>(CE);
      SmallVector<Constant *, 4> Idx;
      for (Use &Op : drop_begin(CE->operands()))
        Idx.push_back(cast<Constant>(Op));
      rewriteSpecific(M, CE,
                      ConstantExpr::getGetElementPtr(GEP->getSourceElementType(), C, Idx,
                                                     GEP->getNoWrapFlags(),
                                                     GEP->getInRange()));
      continue;
    }
    auto *I = cast<Instruction>(Usr);
    if (isa<LoadInst>(I)) {
      U.set(New);
    } else if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
      SmallVector<Value *, 4> Idx(GEP->indices());
      auto *N = GetElementPtrInst::Create(GEP->getSourceElementType(), New, Idx, "",
                                          GEP->getIterator());
      N->setNoWrapFlags(GEP->getNoWrapFlags());
      N->setDebugLoc(GEP->getDebugLoc());
      N->takeName(GEP);
      rewriteSpecific(M, GEP, N);
      GEP->eraseFromParent();
    } else if (auto *ASC = dyn_cast<AddrSpaceCastInst>(I)) {
      Value *N = New; // a cast to constant space is the new pointer itself
      if (ASC->getType() != New->getType()) {
        auto *Cast = new AddrSpaceCastInst(New, ASC->getType(), "", ASC->getIterator());
        Cast->setDebugLoc(ASC->getDebugLoc());
        Cast->takeName(ASC);
        N = Cast;
      }
      ASC->replaceAllUsesWith(N);
      ASC->eraseFromParent();
    } else {
      // The source of memcpy/memmove: the intrinsic is overloaded on it.
      auto *MT = cast<MemTransferInst>(I);
      U.set(New);
      MT->setCalledFunction(Intrinsic::getOrInsertDeclaration(
          &M, MT->getIntrinsicID(),
          {MT->getRawDest()->getType(), New->getType(), MT->getLength()->getType()}));
    }
  }
}

/// Moves G into address space 4 and rewrites every use; the new global takes G's
/// name, initializer, alignment, linkage and attributes.
GlobalVariable *promote(Module &M, GlobalVariable &G, bool InUsed, bool InCompilerUsed) {
  auto *New = new GlobalVariable(M, G.getValueType(), /*isConstant=*/!G.hasCommonLinkage(),
                                 G.getLinkage(), G.getInitializer(), G.getName() + ".const",
                                 &G, G.getThreadLocalMode(), ASConst,
                                 G.isExternallyInitialized());
  New->copyAttributesFrom(&G);
  New->copyMetadata(&G, 0);

  if (InUsed || InCompilerUsed)
    removeFromUsedLists(M, [&](Constant *C) { return C->stripPointerCasts() == &G; });
  G.removeDeadConstantUsers();

  if (G.getAddressSpace() == ASGeneric) {
    // Direct casts to global space become constant-space pointers; everything else
    // keeps a generic pointer, now into the constant window.
    for (Use &U : make_early_inc_range(G.uses())) {
      User *Usr = U.getUser();
      if (!isa<Operator>(Usr) ||
          cast<Operator>(Usr)->getOpcode() != Instruction::AddrSpaceCast)
        continue;
      rewriteSpecific(M, Usr, New);
      if (auto *I = dyn_cast<Instruction>(Usr))
        I->eraseFromParent();
    }
    G.removeDeadConstantUsers();
    G.replaceAllUsesWith(ConstantExpr::getAddrSpaceCast(New, G.getType()));
  } else {
    rewriteSpecific(M, &G, New);
    G.removeDeadConstantUsers();
  }
  assert(G.use_empty() && "promoted global still used");
  New->takeName(&G);
  G.eraseFromParent();
  New->removeDeadConstantUsers();
  if (InUsed)
    appendToUsed(M, {New});
  if (InCompilerUsed)
    appendToCompilerUsed(M, {New});
  return New;
}

/// Bytes of the constant bank a global takes, saturated at UINT64_MAX (a tenant
/// type can be 2^64 - 1 bytes: alignTo, and any sum, must not wrap).
uint64_t constantBytes(const GlobalVariable &GV, const DataLayout &DL) {
  uint64_t Size = DL.getTypeAllocSize(GV.getValueType()).getFixedValue();
  uint64_t A = GV.getAlign().valueOrOne().value();
  if (Size > std::numeric_limits<uint64_t>::max() - A)
    return std::numeric_limits<uint64_t>::max();
  return alignTo(Size, A);
}

class Promoter {
public:
  Promoter(Module &M, const PromoteOptions &Opts)
      : M(M), DL(M.getDataLayout()), Opts(Opts) {}
  bool run();

private:
  void refuse(const GlobalVariable &GV, const Twine &Reason, const Instruction *I = nullptr);
  void record(const GlobalVariable &GV, unsigned AS, Outcome O, const Twine &Detail);
  void refuseOverCapacity(uint64_t Existing, uint64_t Promoted);

  Module &M;
  const DataLayout &DL;
  const PromoteOptions &Opts;
  // Every global that will sit in the constant bank, with its size.
  SmallVector<std::pair<const GlobalVariable *, uint64_t>, 16> BankUsers;
};

void Promoter::record(const GlobalVariable &GV, unsigned AS, Outcome O,
                      const Twine &Detail) {
  if (!Opts.Report)
    return;
  AccessRecord R;
  R.Pass = PassName.str();
  R.Function = GV.getName().str();
  R.Space = spaceOf(AS);
  R.Kind = AccessKind::Global;
  R.Result = O;
  R.Detail = Detail.str();
  Opts.Report->add(std::move(R));
}

void Promoter::refuse(const GlobalVariable &GV, const Twine &Reason, const Instruction *I) {
  AtollDiagnostic Diag(PassName, GV, Reason);
  if (Opts.Report) {
    AccessRecord R;
    R.Pass = PassName.str();
    R.Function = GV.getName().str();
    R.Instruction = instructionText(I);
    R.Location = sourceLocation(I);
    R.Space = spaceOf(GV.getAddressSpace());
    R.Kind = AccessKind::Global;
    R.Result = Outcome::Refused;
    R.Detail = Reason.str();
    Opts.Report->add(std::move(R));
  }
  // With the default handler this prints the error and exits (opt).
  M.getContext().diagnose(Diag);
}

void Promoter::refuseOverCapacity(uint64_t Existing, uint64_t Promoted) {
  std::stable_sort(BankUsers.begin(), BankUsers.end(),
                   [](const auto &A, const auto &B) { return A.second > B.second; });
  std::string S;
  raw_string_ostream OS(S);
  OS << "constant memory over capacity: " << SaturatingAdd(Existing, Promoted) << " bytes (" << Existing
     << " already constant, " << Promoted << " to promote) exceed the "
     << ATOLL_CONSTANT_BANK_BYTES << "-byte constant bank; largest:";
  for (unsigned I = 0, E = std::min<size_t>(3, BankUsers.size()); I != E; ++I)
    OS << (I ? ", '" : " '") << BankUsers[I].first->getName() << "' (" << BankUsers[I].second
       << " bytes)";
  refuse(*BankUsers.front().first, S);
}

bool Promoter::run() {
  bool Changed = false;

  // Device constructors run at every module load and initialise module state.
  for (StringRef Name : {"llvm.global_ctors", "llvm.global_dtors"})
    if (GlobalVariable *GV = M.getNamedGlobal(Name);
        GV && GV->hasInitializer() && !GV->getInitializer()->isNullValue())
      refuse(*GV, "module constructors and destructors are not supported: they run at "
                  "every module load and write module state");

  SmallVector<GlobalValue *, 8> Used, CompilerUsed;
  collectUsedGlobalVariables(M, Used, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, CompilerUsed, /*CompilerUsed=*/true);
  SmallPtrSet<GlobalValue *, 8> UsedSet(Used.begin(), Used.end());
  SmallPtrSet<GlobalValue *, 8> CompilerUsedSet(CompilerUsed.begin(), CompilerUsed.end());

  SmallVector<GlobalVariable *, 16> ToPromote;
  uint64_t Existing = 0, Promoted = 0;
  for (GlobalVariable &GV : make_early_inc_range(M.globals())) {
    if (GV.getName().starts_with("llvm."))
      continue;
    unsigned AS = GV.getAddressSpace();
    if (AS == ASShared) // per-CTA, not module storage (atoll-mem zeroes it)
      continue;
    if (AS != ASGeneric && AS != ASGlobal && AS != ASConst) {
      refuse(GV, "module-scope storage in unsupported address space " + Twine(AS));
      continue;
    }
    if (GV.isDeclaration()) {
      refuse(GV, "declared but not defined: a module must define all of its storage");
      continue;
    }
    GV.removeDeadConstantUsers();
    if (AS != ASConst && GV.use_empty() && GV.hasLocalLinkage()) {
      record(GV, AS, Outcome::ProvenSafe, "unused; removed");
      GV.eraseFromParent();
      Changed = true;
      continue;
    }

    UseWalker Walker(GV, DL);
    Finding F = Walker.run();
    uint64_t Bytes = constantBytes(GV, DL);
    // One object larger than the bank can never fit (and its size must not take
    // part in a sum): refused on its own, before any total is formed.
    if (Bytes > ATOLL_CONSTANT_BANK_BYTES) {
      refuse(GV, "object of " + Twine(Bytes) + " bytes is larger than the " +
                     Twine(ATOLL_CONSTANT_BANK_BYTES) + "-byte constant bank");
      continue;
    }
    if (AS == ASConst) {
      // Hardware-read-only already: only a direct write is a (faulting) mistake.
      if (F.Kind == Finding::Write) {
        refuse(GV, "constant memory is read-only (" + F.describe() + ")", F.I);
        continue;
      }
      Existing = SaturatingAdd(Existing, Bytes);
      BankUsers.push_back({&GV, Bytes});
      record(GV, AS, Outcome::ProvenSafe,
             "already in constant memory (" + Twine(Bytes) + " bytes)");
      continue;
    }
    if (F) {
      refuse(GV, "writable module-scope storage (" + F.describe() + ")", F.I);
      continue;
    }
    if (Walker.NoRewrite) {
      refuse(GV, "cannot be moved to constant memory (" + Walker.NoRewrite.describe() + ")",
             Walker.NoRewrite.I);
      continue;
    }
    ToPromote.push_back(&GV);
    Promoted = SaturatingAdd(Promoted, Bytes);
    BankUsers.push_back({&GV, Bytes});
  }

  if (SaturatingAdd(Existing, Promoted) > ATOLL_CONSTANT_BANK_BYTES) {
    // No partial promotion: the module stays as it was.
    refuseOverCapacity(Existing, Promoted);
    return Changed;
  }
  for (GlobalVariable *GV : ToPromote) {
    unsigned AS = GV->getAddressSpace();
    uint64_t Bytes = constantBytes(*GV, DL);
    GlobalVariable *New = promote(M, *GV, UsedSet.contains(GV), CompilerUsedSet.contains(GV));
    record(*New, AS, Outcome::Confined,
           "promoted to constant memory (" + Twine(Bytes) + " bytes)");
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses PromotePtxConstantGlobalsPass::run(Module &M, ModuleAnalysisManager &) {
  return Promoter(M, Opts).run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace Atoll
