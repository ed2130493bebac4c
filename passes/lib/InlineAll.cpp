// Device functions are inlined into the kernels, so that every access is hardened
// in the kernel that runs it and device code needs no hidden-parameter plumbing.
// Recursion (unbounded stack) and address-taken functions are refused first; a
// function kept alive by anything but a call (a constant table, llvm.used, an
// alias) is refused, and after hardening only hardened kernels may be left.
#include "AtollMemInternal.h"

#include "atoll/abi.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace Atoll {

static void directCallees(Function &F, SmallVectorImpl<Function *> &Out) {
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction())
        if (!Callee->isDeclaration())
          Out.push_back(Callee);
}

/// Finds a call cycle reachable from Root; returns a function on it or null.
static Function *findRecursion(Function *Root) {
  enum State { Unvisited, Active, Done };
  DenseMap<Function *, State> S;
  SmallVector<std::pair<Function *, SmallVector<Function *, 8>>, 16> Stack;
  auto Push = [&](Function *F) {
    S[F] = Active;
    SmallVector<Function *, 8> Callees;
    directCallees(*F, Callees);
    Stack.push_back({F, std::move(Callees)});
  };
  Push(Root);
  while (!Stack.empty()) {
    auto &[F, Callees] = Stack.back();
    if (Callees.empty()) {
      S[F] = Done;
      Stack.pop_back();
      continue;
    }
    Function *Next = Callees.pop_back_val();
    State St = S.lookup(Next);
    if (St == Active)
      return Next;
    if (St == Unvisited)
      Push(Next);
  }
  return nullptr;
}

/// Instructions a kernel may have after inlining (about 50 MB of IR).
constexpr uint64_t MaxKernelInstructions = 500000;

bool inlineAllCalls(Module &M, ArrayRef<Function *> Kernels, const RefuseFn &Refuse) {
  bool OK = true;
  for (Function *K : Kernels)
    if (Function *R = findRecursion(K)) {
      Instruction *Site = nullptr;
      for (Instruction &I : instructions(*R))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (CB->getCalledFunction() && !CB->getCalledFunction()->isDeclaration())
            Site = CB;
      Refuse(*K, Site, StateSpace::Local, AccessKind::Call,
             "recursion through '" + R->getName() + "' (the stack cannot be bounded)");
      OK = false;
    }
  if (!OK)
    return false;

  // Inline until no call to a defined function is left (bounded: no recursion).
  for (Function *K : Kernels) {
    bool Changed = true;
    unsigned Rounds = 0;
    uint64_t Size = K->getInstructionCount();
    while (Changed && Rounds++ < 10000) {
      Changed = false;
      SmallVector<CallBase *, 16> Calls;
      for (Instruction &I : instructions(*K))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && Callee != K)
              Calls.push_back(CB);
      for (CallBase *CB : Calls) {
        if (isa<InvokeInst>(CB) || isa<CallBrInst>(CB)) {
          Refuse(*K, CB, StateSpace::Unknown, AccessKind::Call, "invoke/callbr is not supported");
          return false;
        }
        // Inlining everything can grow a kernel exponentially (f calls g twice,
        // g calls h twice, ...): past a budget the module is refused instead of
        // exhausting the toolchain's time and memory.
        Size += CB->getCalledFunction()->getInstructionCount();
        if (Size > MaxKernelInstructions) {
          Refuse(*K, CB, StateSpace::Unknown, AccessKind::Call,
                 "kernel exceeds " + Twine(MaxKernelInstructions) +
                     " instructions once its device functions are inlined");
          return false;
        }
        InlineFunctionInfo IFI;
        InlineResult R = InlineFunction(*CB, IFI, /*MergeAttributes=*/false, nullptr,
                                        /*InsertLifetime=*/false);
        if (!R.isSuccess()) {
          Refuse(*K, CB, StateSpace::Unknown, AccessKind::Call,
                 Twine("call could not be inlined: ") + R.getFailureReason());
          return false;
        }
        Changed = true;
      }
    }
  }

  // What is left of the device functions is dead code unless its address escaped.
  SmallPtrSet<Function *, 8> IsKernel(Kernels.begin(), Kernels.end());
  SmallVector<Function *, 8> Dead;
  for (Function &F : M)
    if (!F.isDeclaration() && !IsKernel.count(&F))
      Dead.push_back(&F);
  for (Function *F : Dead) {
    F->removeDeadConstantUsers();
    for (User *U : F->users()) {
      if (auto *I = dyn_cast<Instruction>(U)) {
        Function *Parent = I->getFunction();
        if (IsKernel.count(Parent)) {
          Refuse(*Parent, I, StateSpace::Unknown, AccessKind::Call,
                 "address of function '" + F->getName() + "' is taken (indirect calls are "
                 "not allowed)");
          OK = false;
        }
      }
    }
  }
  if (!OK)
    return false;
  SmallPtrSet<Constant *, 8> DeadSet(Dead.begin(), Dead.end());
  removeFromUsedLists(M, [&](Constant *C) {
    return DeadSet.count(cast<Constant>(C->stripPointerCasts())) != 0;
  });
  // Erase until nothing changes: a device function called only by another dead
  // one becomes unused once its caller is gone.
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (Function *&F : Dead) {
      if (!F)
        continue;
      F->removeDeadConstantUsers();
      if (!F->use_empty()) // used by another dead function: erased in a later round
        continue;
      F->eraseFromParent();
      F = nullptr;
      Erased = true;
    }
  }
  return true;
}

/// Where a constant use of a function ends up, for the message: the global whose
/// initialiser holds it, or the function whose instruction uses it.
static std::string whereUsed(User *U) {
  std::string Expr;
  if (auto *CE = dyn_cast<ConstantExpr>(U))
    Expr = std::string("a '") + CE->getOpcodeName() + "' constant expression ";
  SmallVector<User *, 8> Work{U};
  SmallPtrSet<User *, 16> Seen;
  while (!Work.empty()) {
    User *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (auto *GV = dyn_cast<GlobalVariable>(X))
      return " (" + Expr + "in the initialiser of '" + GV->getName().str() + "')";
    if (auto *I = dyn_cast<Instruction>(X))
      return " (" + Expr + "in '" + I->getFunction()->getName().str() + "')";
    if (isa<Constant>(X) && !isa<GlobalValue>(X))
      append_range(Work, X->users());
  }
  return Expr.empty() ? "" : " (" + Expr.substr(0, Expr.size() - 1) + ")";
}

bool refuseNonCallFunctionUses(Module &M, ArrayRef<Function *> Kernels, const RefuseFn &Refuse) {
  // llvm.used / llvm.compiler.used only keep symbols alive (they would reach the
  // PTX without being called, hence without being hardened): drop them.
  for (const char *Name : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *GV = M.getNamedGlobal(Name))
      GV->eraseFromParent();

  bool OK = true;
  auto RefuseAt = [&](Function *F, const Twine &Why) {
    Function *Where = F ? F : !Kernels.empty() ? Kernels.front() : nullptr;
    if (Where)
      Refuse(*Where, nullptr, StateSpace::Unknown, AccessKind::Call, Why);
    else
      M.getContext().emitError("atoll-mem: refused: " + Why);
    OK = false;
  };
  for (GlobalAlias &A : M.aliases())
    RefuseAt(dyn_cast<Function>(A.getAliaseeObject()),
             "alias '" + A.getName() + "' is not allowed (it could expose unhardened code)");
  for (GlobalIFunc &IF : M.ifuncs())
    RefuseAt(IF.getResolverFunction(),
             "ifunc '" + IF.getName() + "' is not allowed (it could expose unhardened code)");

  for (Function &F : M) {
    if (F.isIntrinsic())
      continue;
    F.removeDeadConstantUsers();
    for (Use &U : F.uses()) {
      User *Usr = U.getUser();
      if (auto *CB = dyn_cast<CallBase>(Usr); CB && CB->isCallee(&U))
        continue;
      // An instruction that takes the address is refused where it ends up (in a
      // kernel after inlining); a constant use keeps the function alive by itself.
      if (isa<Instruction>(Usr))
        continue;
      // Aliases and ifuncs are refused above; a personality (only with invoke,
      // refused) is no use that reaches the PTX, and a definition kept alive by it
      // is refused by checkOnlyHardenedKernelsLeft.
      if (isa<GlobalAlias>(Usr) || isa<GlobalIFunc>(Usr) || isa<Function>(Usr))
        continue;
      RefuseAt(&F, "function '" + F.getName() + "' is used in a constant expression" +
                       whereUsed(Usr) +
                       ": only direct calls may refer to a function (no indirect calls; its code "
                       "would otherwise reach the PTX unhardened)");
      break;
    }
  }
  return OK;
}

bool checkOnlyHardenedKernelsLeft(Module &M, const RefuseFn &Refuse) {
  // Globals that only dead code referred to would still be emitted.
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (GlobalVariable &GV : make_early_inc_range(M.globals())) {
      GV.removeDeadConstantUsers();
      if (GV.use_empty() && GV.hasLocalLinkage()) {
        GV.eraseFromParent();
        Erased = true;
      }
    }
  }
  bool OK = true;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasFnAttribute(ATOLL_HARDENED_ATTR)) {
      Refuse(F, nullptr, StateSpace::Unknown, AccessKind::Call,
             "function '" + F.getName() + "' is still in the module after hardening (only "
             "hardened kernels may reach the PTX)");
      OK = false;
    }
  return OK;
}

} // namespace Atoll
