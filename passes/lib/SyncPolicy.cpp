// Synchronisation and warp primitives: the operand rules of the rows of
// IntrinsicTable.cpp (docs/passes.md, "Synchronisation primitives"). On sm_90 a
// barrier thread count that is not a multiple of 32, or a warp member mask without the executing thread, raises an
// illegal-instruction fault that kills every tenant of the context (measured:
// test/attacks/results/sync_probe_h200.txt). Every operand that can fault is a
// constant proven in range or confined at run time; anything sync-like that is
// not listed here is refused.
#include "AtollMemInternal.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

namespace Atoll {

std::string checkSyncOperands(const CallBase &CB, SyncOperands Ops) {
  if (Ops != SyncOperands::Barrier && Ops != SyncOperands::BarrierCount)
    return {};
  if (auto *Id = dyn_cast<ConstantInt>(CB.getArgOperand(0)); Id && Id->getZExtValue() > 15)
    return "barrier id " + std::to_string(Id->getZExtValue()) +
           " is out of range (a CTA has barriers 0..15)";
  if (Ops == SyncOperands::Barrier)
    return {};
  // A count that is not a multiple of 32 faults; one larger than the CTA hangs;
  // and even a valid constant count never completes once a thread it counts has
  // left the kernel (an early return, or a cancelled kernel: measured on the H200),
  // while the threads waiting at the barrier cannot see a cancel. Only whole-CTA
  // barriers, which count the threads still running, keep cancellation sound.
  return "a barrier with an explicit thread count is not supported (it never completes "
         "once a thread it counts has exited, and waiting threads cannot be cancelled; "
         "use a whole-CTA barrier such as __syncthreads)";
}

bool confineSyncOperands(CallBase &CB, SyncOperands O) {
  if (O == SyncOperands::None)
    return false;
  IRBuilder<> B(&CB);
  // Operands are frozen first: `or poison, x` is poison, which instruction
  // selection may turn into any register. (Constant expressions, undef and poison
  // are not ConstantInts: they are confined like run-time values.)
  if (O == SyncOperands::Barrier || O == SyncOperands::BarrierCount) {
    // Every barrier becomes the whole-CTA barrier 0, in its non-.aligned form. A
    // barrier without a thread count waits for every live thread of the CTA, so in
    // any execution that does not deadlock the ids are interchangeable; with one id,
    // warps at barriers of different ids can no longer wait for each other forever
    // (no thread at a barrier can see a cancel). The non-.aligned form keeps a warp
    // whose threads reach different barrier instructions defined (PTX ISA: .aligned
    // requires every thread of the warp to execute the same instruction). Found by
    // review.
    Function *Sync = Intrinsic::getOrInsertDeclaration(CB.getModule(),
                                                       Intrinsic::nvvm_barrier_cta_sync_all);
    bool Same = CB.getCalledFunction() == Sync;
    if (auto *Id = dyn_cast<ConstantInt>(CB.getArgOperand(0)); Same && Id && Id->isZero())
      return false;
    // Explicit counts are refused (checkSyncOperands): only the one-operand forms.
    CB.setCalledFunction(Sync);
    CB.setArgOperand(0, B.getInt32(0));
    return true;
  }
  // A warp primitive waits, inside the instruction where no cancel reaches it,
  // until every lane its mask names executes it with the same mask. So the mask
  // becomes the set of active lanes whose confined mask equals the caller's:
  //   M = (mask | %lanemask_eq) & %activemask;  mask' = match.any.sync(%activemask, M)
  // It always names the caller (a mask without it is an illegal-instruction fault
  // on the H200), only lanes executing this instruction with it (&activemask), and
  // every lane it names gets the very same mask (match.any partitions the active
  // lanes), so no lane waits for one that is elsewhere or disagrees. Measured
  // hangs without this: sync_probe_h200.txt cases 14, 15, 19; found by review,
  // R3-F1. A correct program's masks already partition the lanes that reach the
  // primitive together, so mask' == mask and its behaviour is unchanged. The full
  // mask needs no match: %activemask is the same in every lane that reads it.
  unsigned Idx = O == SyncOperands::MaskArg0 ? 0 : 1;
  Value *Mask = CB.getArgOperand(Idx);
  Value *Active = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {});
  Value *Named = Active;
  if (auto *C = dyn_cast<ConstantInt>(Mask); !C || !C->isAllOnesValue()) {
    Value *Self = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_lanemask_eq, {});
    Value *Mine = B.CreateAnd(B.CreateOr(B.CreateFreeze(Mask), Self), Active);
    Named = B.CreateIntrinsic(Intrinsic::nvvm_match_any_sync_i32, {}, {Active, Mine});
  }
  Named->setName("atoll.warp.mask");
  CB.setArgOperand(Idx, Named);
  return true;
}

bool isAlignedWarpCollective(const CallBase &CB) {
  // The table's column, so that a new collective row is guarded without a second
  // list here (mma/wmma are refused today; allowed one day, their rows set it).
  const Function *F = CB.getCalledFunction();
  return F && F->isIntrinsic() && classifyIntrinsic(*F).AlignedWarpCollective;
}

// ldmatrix/stmatrix (like mma) are `.sync.aligned`: every thread of the warp must execute
// the same instruction (PTX ISA). Two halves of a warp at two different mma
// instructions wait for each other forever, inside the instruction, where no
// preemption check runs (measured: test/attacks/probes/warp_probe.cu case 24).
// Guarded by %activemask == all lanes, the call runs only when the whole warp is
// here together; a correct program always is (a partial warp at such an
// instruction is undefined), so its behaviour is unchanged.
void guardAlignedWarpCollective(CallBase &CB) {
  IRBuilder<> B(&CB);
  Value *Active = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {});
  Value *Whole = B.CreateICmpEQ(Active, B.getInt32(-1), "atoll.warp.whole");
  Instruction *Then = SplitBlockAndInsertIfThen(Whole, &CB, /*Unreachable=*/false);
  BasicBlock *Join = CB.getParent();
  CB.moveBefore(Then->getIterator());
  Then->getParent()->setName("atoll.warp.collective");
  Join->setName("atoll.warp.join");
  if (CB.getType()->isVoidTy() || CB.use_empty())
    return;
  PHINode *Phi = PHINode::Create(CB.getType(), 2, CB.getName() + ".or.zero");
  Phi->insertBefore(Join->begin());
  CB.replaceAllUsesWith(Phi);
  Phi->addIncoming(&CB, Then->getParent());
  Phi->addIncoming(Constant::getNullValue(CB.getType()), cast<Instruction>(Whole)->getParent());
}

} // namespace Atoll
