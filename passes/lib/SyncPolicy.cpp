// Synchronisation and warp primitives: an explicit rule per intrinsic (docs/passes.md,
// "Synchronisation primitives"). On sm_90 a barrier thread count that is not a
// multiple of 32, or a warp member mask without the executing thread, raises an
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

using namespace llvm;

namespace Atoll {

namespace {
enum class Operands {
  None,      // no operand that can fault
  Barrier,   // arg 0: barrier id; arg 1 (the ".count" forms): thread count
  MaskArg0,  // arg 0: warp member mask
  MaskArg1,  // arg 1: warp member mask (redux.sync)
};

struct SyncRule {
  bool Refuse;
  Operands Ops;
  const char *Why; // for Refuse
};
} // namespace

/// The rule for a synchronisation or warp primitive; nullopt if ID is not one.
static std::optional<SyncRule> syncRule(Intrinsic::ID ID) {
  using namespace Intrinsic;
  auto Allow = [](Operands O) { return SyncRule{false, O, ""}; };
  auto Refuse = [](const char *Why) { return SyncRule{true, Operands::None, Why}; };
  switch (ID) {
  // barrier{.cta}.{sync,arrive,red}: 16 barriers per CTA, id 0..15; a thread count
  // must be a multiple of the warp size (PTX ISA, "bar, barrier").
  case nvvm_barrier_cta_sync_aligned_all:
  case nvvm_barrier_cta_sync_aligned_count:
  case nvvm_barrier_cta_sync_all:
  case nvvm_barrier_cta_sync_count:
  case nvvm_barrier_cta_arrive_aligned_count:
  case nvvm_barrier_cta_arrive_count:
    return Allow(Operands::Barrier);
  // Barrier reductions (__syncthreads_count/and/or): every barrier becomes barrier
  // 0 (see confineSyncOperands), and the PTX ISA calls bar.red intermixed with
  // bar.sync on one barrier unpredictable (found by review).
  case nvvm_barrier_cta_red_and_aligned_all:
  case nvvm_barrier_cta_red_and_aligned_count:
  case nvvm_barrier_cta_red_and_all:
  case nvvm_barrier_cta_red_and_count:
  case nvvm_barrier_cta_red_or_aligned_all:
  case nvvm_barrier_cta_red_or_aligned_count:
  case nvvm_barrier_cta_red_or_all:
  case nvvm_barrier_cta_red_or_count:
  case nvvm_barrier_cta_red_popc_aligned_all:
  case nvvm_barrier_cta_red_popc_aligned_count:
  case nvvm_barrier_cta_red_popc_all:
  case nvvm_barrier_cta_red_popc_count:
    return Refuse("barrier reductions (__syncthreads_count/_and/_or, bar.red) are not "
                  "supported (mixed with bar.sync on one barrier the result is "
                  "unpredictable, PTX ISA)");
  // Warp primitives: "the behavior is undefined if the executing thread is not in
  // the membermask" (PTX ISA: shfl.sync, vote.sync, match.sync, redux.sync,
  // bar.warp.sync, elect.sync); it faults on sm_90.
  case nvvm_bar_warp_sync:
  case nvvm_shfl_sync_bfly_f32:
  case nvvm_shfl_sync_bfly_f32p:
  case nvvm_shfl_sync_bfly_i32:
  case nvvm_shfl_sync_bfly_i32p:
  case nvvm_shfl_sync_down_f32:
  case nvvm_shfl_sync_down_f32p:
  case nvvm_shfl_sync_down_i32:
  case nvvm_shfl_sync_down_i32p:
  case nvvm_shfl_sync_idx_f32:
  case nvvm_shfl_sync_idx_f32p:
  case nvvm_shfl_sync_idx_i32:
  case nvvm_shfl_sync_idx_i32p:
  case nvvm_shfl_sync_up_f32:
  case nvvm_shfl_sync_up_f32p:
  case nvvm_shfl_sync_up_i32:
  case nvvm_shfl_sync_up_i32p:
  case nvvm_vote_all_sync:
  case nvvm_vote_any_sync:
  case nvvm_vote_uni_sync:
  case nvvm_vote_ballot_sync:
  case nvvm_match_any_sync_i32:
  case nvvm_match_any_sync_i64:
  case nvvm_match_all_sync_i32p:
  case nvvm_match_all_sync_i64p:
    return Allow(Operands::MaskArg0);
  case nvvm_redux_sync_add:
  case nvvm_redux_sync_and:
  case nvvm_redux_sync_or:
  case nvvm_redux_sync_xor:
  case nvvm_redux_sync_min:
  case nvvm_redux_sync_max:
  case nvvm_redux_sync_umin:
  case nvvm_redux_sync_umax:
    return Allow(Operands::MaskArg1);
  // No operand, or one whose every value is defined: nanosleep sleeps at most
  // 1 ms whatever t is (PTX ISA: nanosleep); membar/activemask/exit/cp.async
  // group waits (immediate operand) cannot fault.
  case nvvm_activemask:
  case nvvm_nanosleep:
  case nvvm_membar_cta:
  case nvvm_membar_gl:
  case nvvm_membar_sys:
  case nvvm_exit:
  case nvvm_cp_async_commit_group:
  case nvvm_cp_async_wait_group:
  case nvvm_cp_async_wait_all:
    return Allow(Operands::None);
  // Warp-synchronous forms without a member mask: not defined on sm_70+.
  case nvvm_shfl_bfly_f32:
  case nvvm_shfl_bfly_f32p:
  case nvvm_shfl_bfly_i32:
  case nvvm_shfl_bfly_i32p:
  case nvvm_shfl_down_f32:
  case nvvm_shfl_down_f32p:
  case nvvm_shfl_down_i32:
  case nvvm_shfl_down_i32p:
  case nvvm_shfl_idx_f32:
  case nvvm_shfl_idx_f32p:
  case nvvm_shfl_idx_i32:
  case nvvm_shfl_idx_i32p:
  case nvvm_shfl_up_f32:
  case nvvm_shfl_up_f32p:
  case nvvm_shfl_up_i32:
  case nvvm_shfl_up_i32p:
  case nvvm_vote_all:
  case nvvm_vote_any:
  case nvvm_vote_uni:
  case nvvm_vote_ballot:
    return Refuse("warp primitive without a member mask (shfl/vote without .sync is not "
                  "supported on sm_70 and later)");
  case nvvm_redux_sync_fmin:
  case nvvm_redux_sync_fmin_abs:
  case nvvm_redux_sync_fmin_NaN:
  case nvvm_redux_sync_fmin_abs_NaN:
  case nvvm_redux_sync_fmax:
  case nvvm_redux_sync_fmax_abs:
  case nvvm_redux_sync_fmax_NaN:
  case nvvm_redux_sync_fmax_abs_NaN:
    return Refuse("floating-point redux.sync needs sm_100a (the target is sm_90)");
  // Clusters: kernels are launched without a cluster; distributed shared memory
  // and cluster barriers have no window to confine into.
  case nvvm_barrier_cluster_arrive:
  case nvvm_barrier_cluster_arrive_aligned:
  case nvvm_barrier_cluster_arrive_relaxed:
  case nvvm_barrier_cluster_arrive_relaxed_aligned:
  case nvvm_barrier_cluster_wait:
  case nvvm_barrier_cluster_wait_aligned:
  case nvvm_getctarank:
  case nvvm_getctarank_shared_cluster:
  case nvvm_fence_sc_cluster:
  case nvvm_fence_acquire_sync_restrict_space_cluster_scope_cluster:
  case nvvm_fence_release_sync_restrict_space_cta_scope_cluster:
  case nvvm_fence_mbarrier_init_release_cluster:
  case nvvm_clusterlaunchcontrol_try_cancel_async_shared:
  case nvvm_clusterlaunchcontrol_try_cancel_async_multicast_shared:
  case nvvm_clusterlaunchcontrol_query_cancel_is_canceled:
  case nvvm_clusterlaunchcontrol_query_cancel_get_first_ctaid_x:
  case nvvm_clusterlaunchcontrol_query_cancel_get_first_ctaid_y:
  case nvvm_clusterlaunchcontrol_query_cancel_get_first_ctaid_z:
    return Refuse("cluster primitive (kernels are launched without a cluster)");
  // Programmatic dependent launch orders this grid against other launches, which
  // belong to other tenants.
  case nvvm_griddepcontrol_launch_dependents:
  case nvvm_griddepcontrol_wait:
    return Refuse("griddepcontrol (programmatic dependent launch) is not supported");
  // setmaxnreg needs sm_90a and a warpgroup-uniform immediate in [24, 256].
  case nvvm_setmaxnreg_inc_sync_aligned_u32:
  case nvvm_setmaxnreg_dec_sync_aligned_u32:
    return Refuse("setmaxnreg is not supported");
  // The async proxy is only used by the bulk/TMA copies, which are refused.
  case nvvm_fence_proxy_alias:
  case nvvm_fence_proxy_async:
  case nvvm_fence_proxy_async_global:
  case nvvm_fence_proxy_async_shared_cluster:
  case nvvm_fence_proxy_async_shared_cta:
  case nvvm_fence_proxy_async_generic_acquire_sync_restrict_space_cluster_scope_cluster:
  case nvvm_fence_proxy_async_generic_release_sync_restrict_space_cta_scope_cluster:
    return Refuse("proxy fence (async proxy) is not supported");
  // elect.sync needs PTX ISA 8.0 and no benign kernel of ours uses it; the PTX
  // validator refuses it too.
  case nvvm_elect_sync:
    return Refuse("elect.sync is not supported");
  case nvvm_pm_event_mask:
    return Refuse("performance-monitor event (pmevent) is not supported");
  // Reading them without a cluster launch does not fault (measured), but kernels
  // are never launched in clusters, and the PTX validator refuses every cluster
  // special register: one rule on both sides.
  case nvvm_read_ptx_sreg_cluster_ctaid_w:
  case nvvm_read_ptx_sreg_cluster_ctaid_x:
  case nvvm_read_ptx_sreg_cluster_ctaid_y:
  case nvvm_read_ptx_sreg_cluster_ctaid_z:
  case nvvm_read_ptx_sreg_cluster_ctarank:
  case nvvm_read_ptx_sreg_cluster_nctaid_w:
  case nvvm_read_ptx_sreg_cluster_nctaid_x:
  case nvvm_read_ptx_sreg_cluster_nctaid_y:
  case nvvm_read_ptx_sreg_cluster_nctaid_z:
  case nvvm_read_ptx_sreg_cluster_nctarank:
  case nvvm_read_ptx_sreg_clusterid_w:
  case nvvm_read_ptx_sreg_clusterid_x:
  case nvvm_read_ptx_sreg_clusterid_y:
  case nvvm_read_ptx_sreg_clusterid_z:
  case nvvm_read_ptx_sreg_nclusterid_w:
  case nvvm_read_ptx_sreg_nclusterid_x:
  case nvvm_read_ptx_sreg_nclusterid_y:
  case nvvm_read_ptx_sreg_nclusterid_z:
  case nvvm_is_explicit_cluster:
    return Refuse("cluster special register (kernels are launched without a cluster)");
  default:
    return std::nullopt;
  }
}

/// Other tensor-core and matrix primitives keep their own rules in classifyIntrinsic.
static bool isMatrixPrimitive(StringRef N) {
  return N.starts_with("llvm.nvvm.mma.") || N.starts_with("llvm.nvvm.wmma.") ||
         N.starts_with("llvm.nvvm.wgmma.") || N.starts_with("llvm.nvvm.ldmatrix.") ||
         N.starts_with("llvm.nvvm.stmatrix.") || N.starts_with("llvm.nvvm.tcgen05.");
}

std::optional<IntrinsicPolicy> classifySyncIntrinsic(const Function &Callee) {
  if (std::optional<SyncRule> R = syncRule(Callee.getIntrinsicID())) {
    if (R->Refuse)
      return IntrinsicPolicy{IntrinsicAction::Refuse,
                             "'" + Callee.getName().str() + "': " + R->Why};
    return IntrinsicPolicy{IntrinsicAction::Allow, ""};
  }
  // Deny by default: a convergent NVVM intrinsic synchronises threads, and one
  // not listed above has no rule for its operands.
  StringRef N = Callee.getName();
  if (N.starts_with("llvm.nvvm.") && Callee.hasFnAttribute(Attribute::Convergent) &&
      !isMatrixPrimitive(N))
    return IntrinsicPolicy{IntrinsicAction::Refuse,
                           "synchronisation intrinsic '" + N.str() +
                               "' has no rule for its operands (not on the allow-list)"};
  return std::nullopt;
}

static Operands operandsOf(const CallBase &CB) {
  if (const Function *F = CB.getCalledFunction())
    if (std::optional<SyncRule> R = syncRule(F->getIntrinsicID()); R && !R->Refuse)
      return R->Ops;
  return Operands::None;
}

static bool hasCount(const CallBase &CB) {
  return CB.getCalledFunction()->getName().contains(".count");
}

std::string checkSyncOperands(const CallBase &CB) {
  if (operandsOf(CB) != Operands::Barrier)
    return {};
  if (auto *Id = dyn_cast<ConstantInt>(CB.getArgOperand(0)); Id && Id->getZExtValue() > 15)
    return "barrier id " + std::to_string(Id->getZExtValue()) +
           " is out of range (a CTA has barriers 0..15)";
  if (!hasCount(CB))
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

bool confineSyncOperands(CallBase &CB) {
  Operands O = operandsOf(CB);
  if (O == Operands::None)
    return false;
  IRBuilder<> B(&CB);
  // Operands are frozen first: `or poison, x` is poison, which instruction
  // selection may turn into any register. (Constant expressions, undef and poison
  // are not ConstantInts: they are confined like run-time values.)
  if (O == Operands::Barrier) {
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
  unsigned Idx = O == Operands::MaskArg0 ? 0 : 1;
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
  const Function *F = CB.getCalledFunction();
  if (!F)
    return false;
  StringRef N = F->getName();
  // mma/wmma are refused as unknown intrinsics (CallPolicy.cpp); should they be
  // allowed one day, they belong here too.
  return N.starts_with("llvm.nvvm.ldmatrix.") || N.starts_with("llvm.nvvm.stmatrix.");
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
