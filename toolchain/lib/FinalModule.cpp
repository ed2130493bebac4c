// "What is checked is what is emitted": after hardening and code generation the
// kernel signatures are read from the final module (not from the tenant's input,
// which -O2 may have changed), every function definition left must be a kernel
// hardened by atoll-mem with the hidden ABI parameters, and the emitted PTX is
// checked by the independent validator (ptx/PtxValidator.h) against that list.
#include "ToolchainInternal.h"

#include "atoll/abi.h"
#include "atoll/passes/Cycles.h"
#include "atoll/passes/StraightLine.h"
#include "ptx/PtxValidator.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace Atoll::toolchain {

using namespace detail;

Expected<std::vector<KernelInfo>> finalKernelSignatures(const Module &M, bool Hardened) {
  std::vector<KernelInfo> All = kernelSignatures(M);
  if (!Hardened)
    return All;
  std::vector<KernelInfo> Out;
  for (const Function &F : M.functions()) {
    if (F.isDeclaration())
      continue;
    if (!isKernel(F))
      return makeError(FailureKind::CompileError,
                       "function '" + F.getName() +
                           "' is still defined after hardening: only hardened kernels may "
                           "reach the PTX");
    if (!F.hasFnAttribute(ATOLL_HARDENED_ATTR))
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "' was not hardened by atoll-mem");
    size_t N = F.arg_size();
    if (N < ATOLL_HIDDEN_PARAM_COUNT)
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "' lacks the hidden ABI parameters");
    for (size_t I = N - ATOLL_HIDDEN_PARAM_COUNT; I < N; ++I)
      if (Type *T = F.getArg(I)->getType();
          !T->isIntegerTy(64) && !(T->isPointerTy() && M.getDataLayout().getTypeSizeInBits(T) == 64))
        return makeError(FailureKind::CompileError,
                         "kernel '" + F.getName() + "': hidden parameter " +
                             Twine(I - (N - ATOLL_HIDDEN_PARAM_COUNT)) +
                             " is not 64-bit (i64 or a pointer)");
    auto It = find_if(All, [&](const KernelInfo &S) { return S.name == F.getName(); });
    KernelInfo S = std::move(*It);
    S.params.resize(N - ATOLL_HIDDEN_PARAM_COUNT);
    Out.push_back(std::move(S));
  }
  if (Out.empty())
    return makeError(FailureKind::InvalidInput,
                     "no kernels left after optimisation (a kernel that is not externally "
                     "visible is deleted)");
  return Out;
}

Error validateEmittedPTX(StringRef PTX, const Module &M,
                         const std::vector<KernelInfo> &Kernels) {
  ptx::Expectation Exp;
  Exp.hiddenParams = ATOLL_HIDDEN_PARAM_COUNT;
  for (const KernelInfo &S : Kernels)
    Exp.entries.push_back({S.name, uint32_t(S.params.size())});
  std::vector<ptx::ExpectedGlobal> Globals;
  for (const GlobalVariable &GV : M.globals()) {
    unsigned AS = GV.getAddressSpace();
    if (AS == 3)
      Globals.push_back({GV.getName().str(), ptx::Space::Shared});
    else if (AS == 4)
      Globals.push_back({GV.getName().str(), ptx::Space::Const});
  }
  Exp.globals = std::move(Globals);
  if (auto V = ptx::validate(std::string_view(PTX.data(), PTX.size()), Exp))
    return makeError(FailureKind::Refused, "refused by the PTX validator: " + V->describe(),
                     "error: " + V->describe() + "\n");
  return Error::success();
}

namespace {

/// A volatile load whose address is computed from the control parameter only
/// (casts and constant offsets of it): a read of the control block.
bool readsControl(const Instruction &I, const Argument *Control) {
  auto *LI = dyn_cast<LoadInst>(&I);
  return LI && LI->isVolatile() &&
         addressesControl(LI->getPointerOperand(), Control, /*ConstantOffsets=*/true);
}

/// R9-R2-F2: a thread's first counted poll may take the entry read (read once at
/// the kernel's start) instead of a fresh read of the cancel word; its arm sets the
/// flag %atoll.polled, so every later poll of the thread reads fresh. The cycle check
/// below only asks that a cycle contain a fresh read, and the fresh read sits behind
/// that flag: a flag left false for ever would pass it, and a running thread would
/// never see a cancel. This check proves the flag on the final IR.
///
/// Arm edges: the false edge of a flag branch (ATOLL_FIRST_POLL_MD), and every edge
/// into a block that branches on the entry read (isEntryCheck) and is not marked a
/// repeatable entry check (ATOLL_ENTRY_CHECK_MD): unmarked means arm, so a lost mark
/// refuses rather than passes. The rule: no path takes an arm edge after it has
/// taken one. The CFG is doubled, one bit "an arm was taken": every arm edge leads
/// to the copy with the bit set. Over the feasible nodes and edges of that product,
/// from the entry in the copy without the bit, a constant propagation of i1 values
/// (phi, select, and, or, xor, freeze, equality compares of i1) decides the
/// conditional branches it can (optimistic, like SCCP: a cycle of phis fed only
/// true is true). A block with phis is evaluated per edge into it. A use of a value
/// defined in another block, in the copy with the bit, sees the definition made in
/// that copy, and also the one made in the other copy when the product can go from
/// there to the use without passing the definition's block again. Deny by default:
/// a flag branch whose condition is not proven true in the copy with the bit keeps
/// both edges, and its arm edge is then taken again.
/// Returns the block that can take an arm edge again (nullptr: none).
const BasicBlock *takesEntryReadAgain(Function &F, const Argument *Control) {
  const unsigned EntryCheckKind = F.getContext().getMDKindID(ATOLL_ENTRY_CHECK_MD);
  DenseMap<const BasicBlock *, unsigned> Index;
  SmallVector<const BasicBlock *, 64> Blocks;
  for (const BasicBlock &BB : F) {
    Index[&BB] = Blocks.size();
    Blocks.push_back(&BB);
  }
  const unsigned N = Blocks.size();
  const unsigned FirstPollKind = F.getContext().getMDKindID(ATOLL_FIRST_POLL_MD);
  // Arm blocks (unmarked entry checks), and flag branches (marked by the pass: their
  // false edge is the arm's, also where the compiler folded the arm's own branch on
  // the entry read away, below an entry check that already tested it).
  BitVector Arm(N), Flag(N);
  for (unsigned B = 0; B < N; ++B)
    if (const Instruction *T = Blocks[B]->getTerminator()) {
      if (isEntryCheck(*T, Control) && !T->getMetadata(EntryCheckKind))
        Arm.set(B);
      if (auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional() &&
                                               T->getMetadata(FirstPollKind))
        Flag.set(B);
    }
  if (Arm.none() && Flag.none())
    return nullptr;
  // Whether the edge from block B through its terminator's successor K is an arm's.
  auto ArmEdge = [&](const BasicBlock *B, unsigned K) {
    return Arm[Index[B->getTerminator()->getSuccessor(K)]] || (Flag[Index[B]] && K == 1);
  };
  // A node is Block * 2 + Bit; the node an edge leads to.
  auto To = [&](unsigned Bit, const BasicBlock *B, unsigned K) {
    return Index[B->getTerminator()->getSuccessor(K)] * 2 + (ArmEdge(B, K) ? 1 : Bit);
  };

  // Blocks whose copy with the bit the product reaches from D's copy without it,
  // not passing D (any edge: a superset of the feasible ones).
  DenseMap<const BasicBlock *, BitVector> FromOtherCopy;
  auto ReachesWithBit = [&](const BasicBlock *D, const BasicBlock *U) {
    auto [It, New] = FromOtherCopy.try_emplace(D, BitVector(N));
    if (New) {
      BitVector Seen(2 * N);
      SmallVector<unsigned, 32> Work;
      auto Push = [&](unsigned Node) {
        if (Node / 2 != Index[D] && !Seen.test(Node)) {
          Seen.set(Node);
          Work.push_back(Node);
        }
      };
      for (unsigned K = 0; K < D->getTerminator()->getNumSuccessors(); ++K)
        Push(To(0, D, K));
      while (!Work.empty()) {
        unsigned Node = Work.pop_back_val();
        if (Node & 1)
          It->second.set(Node / 2);
        const BasicBlock *B = Blocks[Node / 2];
        for (unsigned K = 0; K < B->getTerminator()->getNumSuccessors(); ++K)
          Push(To(Node & 1, B, K));
      }
    }
    return It->second.test(Index[U]);
  };

  enum Truth : uint8_t { None, True, False, Any }; // None: no value yet
  auto Meet = [](Truth A, Truth B) { return A == None ? B : B == None ? A : A == B ? A : Any; };
  DenseMap<std::pair<const Value *, unsigned>, Truth> Val;
  BitVector Feasible(2 * N);
  DenseSet<std::pair<unsigned, unsigned>> Edges;
  // V as used at the end of (or in) block At, in copy Bit.
  auto Eval = [&](const Value *V, const BasicBlock *At, unsigned Bit) -> Truth {
    if (auto *C = dyn_cast<ConstantInt>(V); C && C->getType()->isIntegerTy(1))
      return C->isOne() ? True : False;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !I->getType()->isIntegerTy(1))
      return Any;
    Truth T = Val.lookup({I, Bit});
    if (Bit == 0 || I->getParent() == At || T == Any)
      return T;
    Truth Other = Val.lookup({I, 0});
    return Meet(T, Other) != T && ReachesWithBit(I->getParent(), At) ? Meet(T, Other) : T;
  };
  // The web's operators on their operands' values (Op); anything else is Any.
  auto Apply = [&](const Instruction &I, function_ref<Truth(unsigned)> Op) -> Truth {
    if (isa<SelectInst>(I)) {
      Truth C = Op(0);
      return C == None ? None : C == True ? Op(1) : C == False ? Op(2) : Meet(Op(1), Op(2));
    }
    if (isa<FreezeInst>(I))
      return Op(0);
    auto *Cmp = dyn_cast<ICmpInst>(&I);
    if (Cmp && (!Cmp->getOperand(0)->getType()->isIntegerTy(1) || !Cmp->isEquality()))
      return Any;
    const unsigned Opc = I.getOpcode();
    if (!Cmp && Opc != Instruction::And && Opc != Instruction::Or && Opc != Instruction::Xor)
      return Any;
    Truth A = Op(0), C = Op(1);
    if (Opc == Instruction::And && (A == False || C == False))
      return False;
    if (Opc == Instruction::Or && (A == True || C == True))
      return True;
    if (A == None || C == None)
      return None;
    if (A == Any || C == Any)
      return Any;
    bool X = A == True, Y = C == True;
    bool R = Opc == Instruction::And  ? X && Y
             : Opc == Instruction::Or ? X || Y
             : Opc == Instruction::Xor ? X != Y
                                       : (X == Y) == (Cmp->getPredicate() == CmpInst::ICMP_EQ);
    return R ? True : False;
  };
  // The i1 values of block BB in copy Bit. A block with phis is evaluated once per
  // feasible edge into it, its phis taking that edge's values and the values from
  // other blocks taken at the edge's source, then met: an `or` or `select` of the
  // flag and of "came through the arm" keeps what the edge knows.
  auto Evaluate = [&](const BasicBlock &BB, unsigned Bit,
                      DenseMap<const Instruction *, Truth> &Out) {
    const unsigned Node = Index[&BB] * 2 + Bit;
    SmallVector<unsigned, 4> In;
    if (isa<PHINode>(BB.front())) {
      SmallPtrSet<const BasicBlock *, 4> Seen;
      for (const BasicBlock *P : predecessors(&BB))
        if (Seen.insert(P).second)
          for (unsigned PBit : {0u, 1u})
            if (Edges.contains({Index[P] * 2 + PBit, Node}))
              In.push_back(Index[P] * 2 + PBit);
    }
    if (In.empty()) { // no phis (or no edge in yet: the phis get None)
      for (const Instruction &I : BB)
        if (I.getType()->isIntegerTy(1)) {
          Truth T = isa<PHINode>(I) ? None : Apply(I, [&](unsigned K) {
            const Value *V = I.getOperand(K);
            auto *OI = dyn_cast<Instruction>(V);
            return OI && OI->getParent() == &BB ? Out.lookup(OI) : Eval(V, &BB, Bit);
          });
          Out[&I] = T;
        }
      return;
    }
    for (unsigned From : In) {
      const BasicBlock *P = Blocks[From / 2];
      const unsigned PBit = From & 1;
      DenseMap<const Instruction *, Truth> E;
      for (const Instruction &I : BB) {
        if (!I.getType()->isIntegerTy(1))
          continue;
        Truth T;
        if (auto *Phi = dyn_cast<PHINode>(&I))
          T = Eval(Phi->getIncomingValueForBlock(P), P, PBit);
        else
          T = Apply(I, [&](unsigned K) {
            const Value *V = I.getOperand(K);
            auto *OI = dyn_cast<Instruction>(V);
            return OI && OI->getParent() == &BB ? E.lookup(OI) : Eval(V, P, PBit);
          });
        E[&I] = T;
        auto [It, New] = Out.try_emplace(&I, T);
        if (!New)
          It->second = Meet(It->second, T);
      }
    }
  };

  // A worklist of nodes: a node is evaluated again when a value it uses changed or an
  // edge into it became feasible (each value changes at most twice per copy).
  SmallVector<unsigned, 64> Work;
  BitVector Queued(2 * N);
  auto Push = [&](unsigned Node) {
    if (Feasible.test(Node) && !Queued.test(Node)) {
      Queued.set(Node);
      Work.push_back(Node);
    }
  };
  Feasible.set(Index[&F.getEntryBlock()] * 2);
  Push(Index[&F.getEntryBlock()] * 2);
  while (!Work.empty()) {
    const unsigned Node = Work.pop_back_val();
    Queued.reset(Node);
    const BasicBlock *BB = Blocks[Node / 2];
    const unsigned Bit = Node & 1;
    DenseMap<const Instruction *, Truth> Now;
    Evaluate(*BB, Bit, Now);
    for (auto [I, T] : Now) {
      Truth &Slot = Val[{I, Bit}];
      Truth New = Meet(Slot, T); // only ever down: None, then True or False, then Any
      if (New == Slot)
        continue;
      Slot = New;
      for (const User *U : I->users())
        if (auto *UI = dyn_cast<Instruction>(U)) {
          Push(Index[UI->getParent()] * 2 + Bit);
          Push(Index[UI->getParent()] * 2 + 1); // a use after an arm sees either copy
        }
    }
    const Instruction *T = BB->getTerminator();
    auto *Br = dyn_cast<BranchInst>(T);
    Truth C = Br && Br->isConditional() ? Eval(Br->getCondition(), BB, Bit) : Any;
    for (unsigned K = 0; K < T->getNumSuccessors(); ++K) {
      if (Br && Br->isConditional() && C != Any && C != (K == 0 ? True : False))
        continue;
      const unsigned Next = To(Bit, BB, K);
      if (Edges.insert({Node, Next}).second) {
        Feasible.set(Next);
        Push(Next);
      }
    }
  }
  // An arm entered from the copy with the bit; or (never expected: a definition
  // dominates its uses) a feasible branch whose condition got no value, which would
  // hide the edges after it.
  for (unsigned B = 0; B < N; ++B) {
    for (unsigned Bit : {0u, 1u})
      if (auto *Br = dyn_cast<BranchInst>(Blocks[B]->getTerminator());
          Feasible.test(B * 2 + Bit) && Br && Br->isConditional() &&
          Eval(Br->getCondition(), Blocks[B], Bit) == None)
        return Blocks[B];
    if (!Feasible.test(B * 2 + 1))
      continue;
    for (unsigned K = 0; K < Blocks[B]->getTerminator()->getNumSuccessors(); ++K)
      if (ArmEdge(Blocks[B], K) && Edges.contains({B * 2 + 1, To(1, Blocks[B], K)}))
        return Blocks[B];
  }
  return nullptr;
}

std::string blockName(const BasicBlock &BB) {
  if (BB.hasName())
    return BB.getName().str();
  std::string S;
  raw_string_ostream OS(S);
  BB.printAsOperand(OS, /*PrintType=*/false);
  return S;
}

} // namespace

Error checkCyclesPolled(Module &M) {
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(ATOLL_HARDENED_ATTR) ||
        F.arg_size() < ATOLL_HIDDEN_PARAM_COUNT)
      continue;
    const Argument *Control =
        F.getArg(F.arg_size() - ATOLL_HIDDEN_PARAM_COUNT + ATOLL_HIDDEN_CONTROL_INDEX);
    // First: with the flag stuck at false, the fresh read behind it may be gone too
    // (a branch on a constant), and the cycle check would name the wrong cause.
    if (const BasicBlock *Again = takesEntryReadAgain(F, Control))
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "': block '" + blockName(*Again) +
                           "' can take the entry read again after the thread's first poll "
                           "(its first-poll flag is not proven set) after code generation (a "
                           "bug in the AToLL passes)");
    const BasicBlock *Unpolled = nullptr;
    forEachCycle(F, [&](const CycleInfo::CycleT &C) {
      bool Polls = any_of(C.blocks(), [&](BasicBlock *BB) {
        return any_of(*BB, [&](Instruction &I) { return readsControl(I, Control); });
      });
      bool CanLeave = any_of(C.blocks(), [&](BasicBlock *BB) {
        auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
        return Br && Br->isConditional() &&
               any_of(successors(BB), [&](BasicBlock *S) { return !C.contains(S); });
      });
      // The pass's own bounded loops (zero-init, charged loops): marked on every block,
      // so on the header. By the header only: a checked outer loop around a charged
      // inner one contains marked blocks and must still poll.
      bool Bounded = C.getHeader()->getTerminator()->getMetadata(ATOLL_BOUNDED_LOOP_MD) != nullptr;
      if (!Bounded && (!Polls || !CanLeave))
        Unpolled = C.getHeader();
      return !Unpolled;
    });
    if (Unpolled)
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "': a cycle (header '" + Unpolled->getName() +
                           "') has no preemption check after code generation (a bug in "
                           "the AToLL passes)");
    // The straight-line budget (R3-F5): atoll-mem polls at least every
    // DefaultStraightBudget units; twice that leaves room for the backend's IR passes
    // moving an access across a poll, and still refuses a path the pass left unpolled.
    // From the entry: twice the entry budget, plus the zero-init that atoll-mem emits
    // after its own check (a frame of up to 256 bytes cleared before the first check,
    // R5-F2; local stores, not the dependent loads the entry budget is about).
    constexpr uint64_t MaxFreshAfterCodegen = 2 * DefaultEntryBudget + DefaultStraightBudget;
    const Instruction *Over = nullptr;
    uint64_t Longest = walkStraightRuns(
        F, [&](const Instruction &I) { return readsControl(I, Control) && feedsBranchOrVote(I); },
        [&](Instruction &I, uint64_t Run, uint64_t FreshRun) {
          if ((Run > 2 * DefaultStraightBudget || FreshRun > MaxFreshAfterCodegen) && !Over)
            Over = &I;
          return false;
        },
        [&](const Instruction &I) { return isEntryCheck(I, Control); },
      [&](const Instruction &I) { return isEntryReadOrCompare(I, Control); });
    if (Over || Longest > 2 * DefaultStraightBudget)
      return makeError(FailureKind::CompileError,
                       "kernel '" + F.getName() + "': a path without loops (block '" +
                           (Over ? Over->getParent() : &F.getEntryBlock())->getName() +
                           "') runs more than " +
                           Twine(2 * DefaultStraightBudget) + " units of work (" +
                           Twine(MaxFreshAfterCodegen) +
                           " from the kernel's entry) without a cancel poll after code "
                           "generation (a bug in the AToLL passes)");
  }
  return Error::success();
}

} // namespace Atoll::toolchain
