// Traces a pointer to where it may point: the state space and, when unique, the
// object (alloca, shared/constant global, byval parameter). Sound by construction:
// anything the trace cannot see through (loads, int-to-ptr, calls, mixed phis) is
// "unknown", which the confiner handles with a run-time space test.
#include "AtollMemInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace Atoll {

static StateSpace spaceOfAddressSpace(unsigned AS) {
  switch (AS) {
  case ASGlobal: return StateSpace::Global;
  case ASShared: return StateSpace::Shared;
  case ASConstant: return StateSpace::Constant;
  case ASLocal: return StateSpace::Local;
  case ASParam: return StateSpace::Param;
  default: return StateSpace::Unknown;
  }
}

namespace {
struct Tracer {
  SmallPtrSet<Value *, 16> Visited;
  bool First = true;
  PointerOrigin Result;

  void merge(StateSpace S, Value *Obj) {
    if (First) {
      Result.Space = S;
      Result.Object = Obj;
      First = false;
      return;
    }
    if (Result.Space != S) {
      Result.Space = StateSpace::Unknown;
      Result.Object = nullptr;
    } else if (Result.Object != Obj) {
      Result.Object = nullptr;
    }
  }

  void trace(Value *V) {
    if (!Visited.insert(V).second)
      return;
    auto *PtrTy = dyn_cast<PointerType>(V->getType());
    unsigned AS = PtrTy ? PtrTy->getAddressSpace() : ASGeneric;

    if (auto *GV = dyn_cast<GlobalVariable>(V)) {
      if (AS == ASShared)
        return merge(StateSpace::Shared, GV);
      if (AS == ASConstant)
        return merge(StateSpace::Constant, GV);
      Result.ModuleStorage = GV;
      return merge(StateSpace::Unknown, nullptr);
    }
    if (auto *AI = dyn_cast<AllocaInst>(V))
      return merge(StateSpace::Local, AI);
    if (auto *A = dyn_cast<Argument>(V)) {
      if (A->hasByValAttr())
        return merge(StateSpace::Param, A);
      // Kernel pointer parameters carry tenant buffers: global, confined to the arena.
      if (AS == ASGeneric || AS == ASGlobal)
        return merge(StateSpace::Global, nullptr);
      return merge(spaceOfAddressSpace(AS), nullptr);
    }
    if (auto *GEP = dyn_cast<GEPOperator>(V))
      return trace(GEP->getPointerOperand());
    if (auto *ASC = dyn_cast<AddrSpaceCastOperator>(V)) {
      unsigned SrcAS = ASC->getSrcAddressSpace();
      if (SrcAS != ASGeneric) {
        // A cast from a named space fixes the space; keep tracing for the object.
        Tracer Inner;
        Inner.trace(ASC->getPointerOperand());
        StateSpace S = spaceOfAddressSpace(SrcAS);
        Value *Obj = Inner.Result.Space == S ? Inner.Result.Object : nullptr;
        if (Inner.Result.ModuleStorage)
          Result.ModuleStorage = Inner.Result.ModuleStorage;
        return merge(S, Obj);
      }
      return trace(ASC->getPointerOperand());
    }
    if (auto *BC = dyn_cast<BitCastOperator>(V))
      return trace(BC->getOperand(0));
    if (auto *Fr = dyn_cast<FreezeInst>(V))
      return trace(Fr->getOperand(0));
    if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (Value *In : Phi->incoming_values())
        trace(In);
      return;
    }
    if (auto *Sel = dyn_cast<SelectInst>(V)) {
      trace(Sel->getTrueValue());
      trace(Sel->getFalseValue());
      return;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(V)) {
      if (II->getIntrinsicID() == Intrinsic::ptrmask)
        return trace(II->getArgOperand(0));
    }
    // Loads, int-to-ptr, calls, null, undef, constant expressions we do not model:
    // a pointer in a named space stays in that space; a generic one is unknown.
    if (AS != ASGeneric)
      return merge(spaceOfAddressSpace(AS), nullptr);
    return merge(StateSpace::Unknown, nullptr);
  }
};
} // namespace

PointerOrigin tracePointerOrigin(Value *Ptr) {
  Tracer T;
  T.trace(Ptr);
  // A pointer typed in a named space can only be in that space, whatever it was
  // computed from (an addrspacecast of a forged generic address, say).
  unsigned AS = cast<PointerType>(Ptr->getType()->getScalarType())->getAddressSpace();
  if (AS != ASGeneric) {
    StateSpace S = spaceOfAddressSpace(AS);
    if (T.Result.Space != S) {
      T.Result.Space = S;
      T.Result.Object = nullptr;
    }
  }
  return T.Result;
}

std::optional<uint64_t> objectSize(const Value *Object, const DataLayout &DL) {
  if (!Object)
    return std::nullopt;
  if (auto *AI = dyn_cast<AllocaInst>(Object)) {
    if (std::optional<TypeSize> S = AI->getAllocationSize(DL); S && !S->isScalable())
      return S->getFixedValue();
    return std::nullopt;
  }
  if (auto *GV = dyn_cast<GlobalVariable>(Object)) {
    if (GV->isDeclaration())
      return std::nullopt; // extern __shared__: sized at launch
    TypeSize S = DL.getTypeAllocSize(GV->getValueType());
    return S.isScalable() || !S.getFixedValue() ? std::nullopt
                                                : std::optional<uint64_t>(S.getFixedValue());
  }
  if (auto *A = dyn_cast<Argument>(Object))
    if (Type *T = A->getParamByValType()) {
      // A scalable byval type has no fixed size (converting it would abort).
      TypeSize S = DL.getTypeAllocSize(T);
      return S.isScalable() ? std::nullopt : std::optional<uint64_t>(S.getFixedValue());
    }
  return std::nullopt;
}

} // namespace Atoll
