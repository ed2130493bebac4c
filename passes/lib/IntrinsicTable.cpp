// The intrinsic policy table (IntrinsicTable.h): one row per intrinsic (an
// Intrinsic::ID) or per name family (a prefix, for families of hundreds of IDs
// such as the texture intrinsics). The rows are looked up in this order, and the
// first that matches decides: ID rows, family rows, then the generic
// deny-by-default rules. docs/passes.md, "The intrinsic table", lists them.
#include "IntrinsicTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

namespace Atoll {

namespace {

/// A row's decision; Reason may name the intrinsic with "{}".
struct Rule {
  IntrinsicAction Action = IntrinsicAction::Refuse;
  AccessForm Form = AccessForm::None;
  SpaceRule Space = SpaceRule::AsTraced;
  SyncOperands Sync = SyncOperands::None;
  uint8_t Bytes = 0;
  bool Writes = false;
  bool Atomic = false;
  bool IsSync = false;
  const char *Reason = "";
  bool AlignedWarpCollective = false;
};

constexpr Rule allow() { return {IntrinsicAction::Allow}; }
constexpr Rule drop() { return {IntrinsicAction::Drop}; }
constexpr Rule refuse(const char *Why) {
  return {IntrinsicAction::Refuse, AccessForm::None, SpaceRule::AsTraced, SyncOperands::None,
          0, false, false, false, Why};
}
constexpr Rule confine(AccessForm Form, SpaceRule Space = SpaceRule::AsTraced, uint8_t Bytes = 0,
                       bool Writes = false, bool Atomic = false) {
  return {IntrinsicAction::Confine, Form, Space, SyncOperands::None, Bytes, Writes, Atomic};
}
// ldmatrix/stmatrix m8n8: each thread names one 16-byte row in shared memory, and
// the instruction is `.sync.aligned` (the whole warp executes it together).
constexpr Rule matrix(bool Writes) {
  Rule R = confine(AccessForm::Matrix, SpaceRule::Shared, 16, Writes);
  R.AlignedWarpCollective = true;
  return R;
}
constexpr Rule sync(SyncOperands Ops) {
  return {IntrinsicAction::Allow, AccessForm::None, SpaceRule::AsTraced, Ops, 0, false, false,
          true};
}
constexpr Rule syncRefuse(const char *Why) {
  return {IntrinsicAction::Refuse, AccessForm::None, SpaceRule::AsTraced, SyncOperands::None,
          0, false, false, true, Why};
}

struct IdRow {
  Intrinsic::ID ID;
  Rule R;
};
struct FamilyRow {
  const char *Prefix; // every intrinsic whose name starts with it
  Rule R;
};

constexpr const char *WhyTrap = "trap: a trap faults the shared CUDA context (use an early return)";
constexpr const char *WhyGather =
    "vector-of-pointers memory intrinsic (gather/scatter) is not supported";
constexpr const char *WhyTexture = "texture/surface access is not supported";
constexpr const char *WhyBulk =
    "memory intrinsic '{}' (bulk/TMA copy, mbarrier, wmma, distributed shared memory) is not "
    "supported yet";
constexpr const char *WhyBarrierReduction =
    "'{}': barrier reductions (__syncthreads_count/_and/_or, bar.red) are not supported (mixed with bar.sync on one barrier the result is unpredictable, PTX ISA)";
constexpr const char *WhyNoMemberMask =
    "'{}': warp primitive without a member mask (shfl/vote without .sync is not supported on sm_70 and later)";
constexpr const char *WhyFloatRedux =
    "'{}': floating-point redux.sync needs sm_100a (the target is sm_90)";
constexpr const char *WhyCluster =
    "'{}': cluster primitive (kernels are launched without a cluster)";
constexpr const char *WhyGridDep =
    "'{}': griddepcontrol (programmatic dependent launch) is not supported";
constexpr const char *WhySetMaxNReg =
    "'{}': setmaxnreg is not supported";
constexpr const char *WhyProxyFence =
    "'{}': proxy fence (async proxy) is not supported";
constexpr const char *WhyElectSync =
    "'{}': elect.sync is not supported";
constexpr const char *WhyPmEvent =
    "'{}': performance-monitor event (pmevent) is not supported";
constexpr const char *WhyClusterSreg =
    "'{}': cluster special register (kernels are launched without a cluster)";

using namespace Intrinsic;

// clang-format off
const IdRow IdRows[] = {
    // Traps fault the shared context.
    {trap, refuse(WhyTrap)},
    {debugtrap, refuse(WhyTrap)},
    {ubsantrap, refuse(WhyTrap)},
    // Memory intrinsics with modelled operands (AccessForm): confined.
    {Intrinsic::memcpy, confine(AccessForm::MemTransfer)},
    {memcpy_inline, confine(AccessForm::MemTransfer)},
    {Intrinsic::memmove, confine(AccessForm::MemTransfer)},
    {Intrinsic::memset, confine(AccessForm::MemSet)},
    {memset_inline, confine(AccessForm::MemSet)},
    {masked_load, confine(AccessForm::MaskedLoad)},
    {masked_store, confine(AccessForm::MaskedStore, SpaceRule::AsTraced, 0, true)},
    // ldu.global reads the global state space whatever the pointer was computed
    // from: a shared or local address there is an illegal-address fault.
    {nvvm_ldu_global_i, confine(AccessForm::Ldu, SpaceRule::Global)},
    {nvvm_ldu_global_f, confine(AccessForm::Ldu, SpaceRule::Global)},
    {nvvm_ldu_global_p, confine(AccessForm::Ldu, SpaceRule::Global)},
    // Scoped atomics on a generic pointer (atomicAdd_block, ..._system).
    {nvvm_atomic_add_gen_f_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_add_gen_f_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_add_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_add_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_and_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_and_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_cas_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_cas_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_dec_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_dec_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_exch_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_exch_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_inc_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_inc_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_max_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_max_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_min_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_min_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_or_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_or_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_xor_gen_i_cta, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    {nvvm_atomic_xor_gen_i_sys, confine(AccessForm::NvvmAtomic, SpaceRule::AsTraced, 0, true, true)},
    // cp.async.{ca,cg}.shared.global.{4,8,16}[.s]: Bytes from shared to global.
    {nvvm_cp_async_ca_shared_global_4, confine(AccessForm::CpAsync, SpaceRule::AsTraced, 4)},
    {nvvm_cp_async_ca_shared_global_4_s, confine(AccessForm::CpAsync, SpaceRule::AsTraced, 4)},
    {nvvm_cp_async_ca_shared_global_8, confine(AccessForm::CpAsync, SpaceRule::AsTraced, 8)},
    {nvvm_cp_async_ca_shared_global_8_s, confine(AccessForm::CpAsync, SpaceRule::AsTraced, 8)},
    {nvvm_cp_async_ca_shared_global_16, confine(AccessForm::CpAsync, SpaceRule::AsTraced, 16)},
    {nvvm_cp_async_ca_shared_global_16_s, confine(AccessForm::CpAsync, SpaceRule::AsTraced, 16)},
    {nvvm_cp_async_cg_shared_global_16, confine(AccessForm::CpAsync, SpaceRule::AsTraced, 16)},
    {nvvm_cp_async_cg_shared_global_16_s, confine(AccessForm::CpAsync, SpaceRule::AsTraced, 16)},
    // ldmatrix/stmatrix m8n8: each thread names one 16-byte row of a matrix in
    // shared memory; whatever else the pointer may be, it is confined to shared
    // memory, so that it cannot name global or local memory. They are `.aligned`
    // warp collectives: guarded to run only with the whole warp (SyncPolicy.cpp).
    {nvvm_ldmatrix_sync_aligned_m8n8_x1_b16, matrix(false)},
    {nvvm_ldmatrix_sync_aligned_m8n8_x1_trans_b16, matrix(false)},
    {nvvm_ldmatrix_sync_aligned_m8n8_x2_b16, matrix(false)},
    {nvvm_ldmatrix_sync_aligned_m8n8_x2_trans_b16, matrix(false)},
    {nvvm_ldmatrix_sync_aligned_m8n8_x4_b16, matrix(false)},
    {nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16, matrix(false)},
    {nvvm_stmatrix_sync_aligned_m8n8_x1_b16, matrix(true)},
    {nvvm_stmatrix_sync_aligned_m8n8_x1_trans_b16, matrix(true)},
    {nvvm_stmatrix_sync_aligned_m8n8_x2_b16, matrix(true)},
    {nvvm_stmatrix_sync_aligned_m8n8_x2_trans_b16, matrix(true)},
    {nvvm_stmatrix_sync_aligned_m8n8_x4_b16, matrix(true)},
    {nvvm_stmatrix_sync_aligned_m8n8_x4_trans_b16, matrix(true)},
    {masked_gather, refuse(WhyGather)},
    {masked_scatter, refuse(WhyGather)},
    {masked_expandload, refuse(WhyGather)},
    {masked_compressstore, refuse(WhyGather)},
    {prefetch, drop()},
    {lifetime_start, drop()},
    {lifetime_end, drop()},

    // Synchronisation and warp primitives (docs/passes.md, "Synchronisation
    // primitives"): an explicit rule per intrinsic, decided before the generic
    // memory-effect rules (shfl.sync "only accesses inaccessible memory", yet its
    // mask can fault). Allowed ones have their faulting operands confined
    // (SyncPolicy.cpp).
    // barrier{.cta}.{sync,arrive,red}: 16 barriers per CTA, id 0..15; a thread count
    // must be a multiple of the warp size (PTX ISA, "bar, barrier").
    {nvvm_barrier_cta_sync_aligned_all, sync(SyncOperands::Barrier)},
    {nvvm_barrier_cta_sync_aligned_count, sync(SyncOperands::BarrierCount)},
    {nvvm_barrier_cta_sync_all, sync(SyncOperands::Barrier)},
    {nvvm_barrier_cta_sync_count, sync(SyncOperands::BarrierCount)},
    {nvvm_barrier_cta_arrive_aligned_count, sync(SyncOperands::BarrierCount)},
    {nvvm_barrier_cta_arrive_count, sync(SyncOperands::BarrierCount)},
    // Barrier reductions (__syncthreads_count/and/or): every barrier becomes barrier
    // 0 (see confineSyncOperands), and the PTX ISA calls bar.red intermixed with
    // bar.sync on one barrier unpredictable (found by review).
    {nvvm_barrier_cta_red_and_aligned_all, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_and_aligned_count, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_and_all, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_and_count, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_or_aligned_all, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_or_aligned_count, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_or_all, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_or_count, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_popc_aligned_all, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_popc_aligned_count, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_popc_all, syncRefuse(WhyBarrierReduction)},
    {nvvm_barrier_cta_red_popc_count, syncRefuse(WhyBarrierReduction)},
    // Warp primitives: "the behavior is undefined if the executing thread is not in
    // the membermask" (PTX ISA: shfl.sync, vote.sync, match.sync, redux.sync,
    // bar.warp.sync, elect.sync); it faults on sm_90.
    {nvvm_bar_warp_sync, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_bfly_f32, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_bfly_f32p, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_bfly_i32, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_bfly_i32p, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_down_f32, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_down_f32p, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_down_i32, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_down_i32p, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_idx_f32, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_idx_f32p, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_idx_i32, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_idx_i32p, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_up_f32, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_up_f32p, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_up_i32, sync(SyncOperands::MaskArg0)},
    {nvvm_shfl_sync_up_i32p, sync(SyncOperands::MaskArg0)},
    {nvvm_vote_all_sync, sync(SyncOperands::MaskArg0)},
    {nvvm_vote_any_sync, sync(SyncOperands::MaskArg0)},
    {nvvm_vote_uni_sync, sync(SyncOperands::MaskArg0)},
    {nvvm_vote_ballot_sync, sync(SyncOperands::MaskArg0)},
    {nvvm_match_any_sync_i32, sync(SyncOperands::MaskArg0)},
    {nvvm_match_any_sync_i64, sync(SyncOperands::MaskArg0)},
    {nvvm_match_all_sync_i32p, sync(SyncOperands::MaskArg0)},
    {nvvm_match_all_sync_i64p, sync(SyncOperands::MaskArg0)},
    {nvvm_redux_sync_add, sync(SyncOperands::MaskArg1)},
    {nvvm_redux_sync_and, sync(SyncOperands::MaskArg1)},
    {nvvm_redux_sync_or, sync(SyncOperands::MaskArg1)},
    {nvvm_redux_sync_xor, sync(SyncOperands::MaskArg1)},
    {nvvm_redux_sync_min, sync(SyncOperands::MaskArg1)},
    {nvvm_redux_sync_max, sync(SyncOperands::MaskArg1)},
    {nvvm_redux_sync_umin, sync(SyncOperands::MaskArg1)},
    {nvvm_redux_sync_umax, sync(SyncOperands::MaskArg1)},
    // No operand, or one whose every value is defined: nanosleep sleeps at most
    // 1 ms whatever t is (PTX ISA: nanosleep); membar/activemask/exit/cp.async
    // group waits (immediate operand) cannot fault.
    {nvvm_activemask, sync(SyncOperands::None)},
    {nvvm_nanosleep, sync(SyncOperands::None)},
    {nvvm_membar_cta, sync(SyncOperands::None)},
    {nvvm_membar_gl, sync(SyncOperands::None)},
    {nvvm_membar_sys, sync(SyncOperands::None)},
    {nvvm_exit, sync(SyncOperands::None)},
    {nvvm_cp_async_commit_group, sync(SyncOperands::None)},
    {nvvm_cp_async_wait_group, sync(SyncOperands::None)},
    {nvvm_cp_async_wait_all, sync(SyncOperands::None)},
    // Warp-synchronous forms without a member mask: not defined on sm_70+.
    {nvvm_shfl_bfly_f32, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_bfly_f32p, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_bfly_i32, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_bfly_i32p, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_down_f32, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_down_f32p, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_down_i32, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_down_i32p, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_idx_f32, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_idx_f32p, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_idx_i32, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_idx_i32p, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_up_f32, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_up_f32p, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_up_i32, syncRefuse(WhyNoMemberMask)},
    {nvvm_shfl_up_i32p, syncRefuse(WhyNoMemberMask)},
    {nvvm_vote_all, syncRefuse(WhyNoMemberMask)},
    {nvvm_vote_any, syncRefuse(WhyNoMemberMask)},
    {nvvm_vote_uni, syncRefuse(WhyNoMemberMask)},
    {nvvm_vote_ballot, syncRefuse(WhyNoMemberMask)},
    {nvvm_redux_sync_fmin, syncRefuse(WhyFloatRedux)},
    {nvvm_redux_sync_fmin_abs, syncRefuse(WhyFloatRedux)},
    {nvvm_redux_sync_fmin_NaN, syncRefuse(WhyFloatRedux)},
    {nvvm_redux_sync_fmin_abs_NaN, syncRefuse(WhyFloatRedux)},
    {nvvm_redux_sync_fmax, syncRefuse(WhyFloatRedux)},
    {nvvm_redux_sync_fmax_abs, syncRefuse(WhyFloatRedux)},
    {nvvm_redux_sync_fmax_NaN, syncRefuse(WhyFloatRedux)},
    {nvvm_redux_sync_fmax_abs_NaN, syncRefuse(WhyFloatRedux)},
    // Clusters: kernels are launched without a cluster; distributed shared memory
    // and cluster barriers have no window to confine into.
    {nvvm_barrier_cluster_arrive, syncRefuse(WhyCluster)},
    {nvvm_barrier_cluster_arrive_aligned, syncRefuse(WhyCluster)},
    {nvvm_barrier_cluster_arrive_relaxed, syncRefuse(WhyCluster)},
    {nvvm_barrier_cluster_arrive_relaxed_aligned, syncRefuse(WhyCluster)},
    {nvvm_barrier_cluster_wait, syncRefuse(WhyCluster)},
    {nvvm_barrier_cluster_wait_aligned, syncRefuse(WhyCluster)},
    {nvvm_getctarank, syncRefuse(WhyCluster)},
    {nvvm_getctarank_shared_cluster, syncRefuse(WhyCluster)},
    {nvvm_fence_sc_cluster, syncRefuse(WhyCluster)},
    {nvvm_fence_acquire_sync_restrict_space_cluster_scope_cluster, syncRefuse(WhyCluster)},
    {nvvm_fence_release_sync_restrict_space_cta_scope_cluster, syncRefuse(WhyCluster)},
    {nvvm_fence_mbarrier_init_release_cluster, syncRefuse(WhyCluster)},
    {nvvm_clusterlaunchcontrol_try_cancel_async_shared, syncRefuse(WhyCluster)},
    {nvvm_clusterlaunchcontrol_try_cancel_async_multicast_shared, syncRefuse(WhyCluster)},
    {nvvm_clusterlaunchcontrol_query_cancel_is_canceled, syncRefuse(WhyCluster)},
    {nvvm_clusterlaunchcontrol_query_cancel_get_first_ctaid_x, syncRefuse(WhyCluster)},
    {nvvm_clusterlaunchcontrol_query_cancel_get_first_ctaid_y, syncRefuse(WhyCluster)},
    {nvvm_clusterlaunchcontrol_query_cancel_get_first_ctaid_z, syncRefuse(WhyCluster)},
    // Programmatic dependent launch orders this grid against other launches, which
    // belong to other tenants.
    {nvvm_griddepcontrol_launch_dependents, syncRefuse(WhyGridDep)},
    {nvvm_griddepcontrol_wait, syncRefuse(WhyGridDep)},
    // setmaxnreg needs sm_90a and a warpgroup-uniform immediate in [24, 256].
    {nvvm_setmaxnreg_inc_sync_aligned_u32, syncRefuse(WhySetMaxNReg)},
    {nvvm_setmaxnreg_dec_sync_aligned_u32, syncRefuse(WhySetMaxNReg)},
    // The async proxy is only used by the bulk/TMA copies, which are refused.
    {nvvm_fence_proxy_alias, syncRefuse(WhyProxyFence)},
    {nvvm_fence_proxy_async, syncRefuse(WhyProxyFence)},
    {nvvm_fence_proxy_async_global, syncRefuse(WhyProxyFence)},
    {nvvm_fence_proxy_async_shared_cluster, syncRefuse(WhyProxyFence)},
    {nvvm_fence_proxy_async_shared_cta, syncRefuse(WhyProxyFence)},
    {nvvm_fence_proxy_async_generic_acquire_sync_restrict_space_cluster_scope_cluster, syncRefuse(WhyProxyFence)},
    {nvvm_fence_proxy_async_generic_release_sync_restrict_space_cta_scope_cluster, syncRefuse(WhyProxyFence)},
    // elect.sync needs PTX ISA 8.0 and no benign kernel of ours uses it; the PTX
    // validator refuses it too.
    {nvvm_elect_sync, syncRefuse(WhyElectSync)},
    {nvvm_pm_event_mask, syncRefuse(WhyPmEvent)},
    // Reading them without a cluster launch does not fault (measured), but kernels
    // are never launched in clusters, and the PTX validator refuses every cluster
    // special register: one rule on both sides.
    {nvvm_read_ptx_sreg_cluster_ctaid_w, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_ctaid_x, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_ctaid_y, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_ctaid_z, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_ctarank, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_nctaid_w, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_nctaid_x, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_nctaid_y, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_nctaid_z, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_cluster_nctarank, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_clusterid_w, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_clusterid_x, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_clusterid_y, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_clusterid_z, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_nclusterid_w, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_nclusterid_x, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_nclusterid_y, syncRefuse(WhyClusterSreg)},
    {nvvm_read_ptx_sreg_nclusterid_z, syncRefuse(WhyClusterSreg)},
    {nvvm_is_explicit_cluster, syncRefuse(WhyClusterSreg)},
};

// Families, by name prefix, in this order.
const FamilyRow FamilyRows[] = {
    {"llvm.nvvm.prefetch.", drop()},
    {"llvm.nvvm.cp.async.bulk.prefetch", drop()},
    {"llvm.nvvm.tex.", refuse(WhyTexture)},
    {"llvm.nvvm.tld4.", refuse(WhyTexture)},
    {"llvm.nvvm.suld.", refuse(WhyTexture)},
    {"llvm.nvvm.sust.", refuse(WhyTexture)},
    {"llvm.nvvm.txq.", refuse(WhyTexture)},
    {"llvm.nvvm.suq.", refuse(WhyTexture)},
    {"llvm.nvvm.istypep.", refuse(WhyTexture)},
    {"llvm.nvvm.texsurf.handle", refuse(WhyTexture)},
    {"llvm.nvvm.cp.async.bulk", refuse(WhyBulk)},
    {"llvm.nvvm.cp.async.mbarrier", refuse(WhyBulk)},
    {"llvm.nvvm.mbarrier.", refuse(WhyBulk)},
    {"llvm.nvvm.mapa", refuse(WhyBulk)},
    {"llvm.nvvm.wgmma.mma_async", refuse(WhyBulk)},
    {"llvm.nvvm.tcgen05.", refuse(WhyBulk)},
    {"llvm.nvvm.tensormap.", refuse(WhyBulk)},
    {"llvm.nvvm.wmma.", refuse(WhyBulk)},
};

// Compiler markers with no effect on the machine code, allowed after the
// memory-effect rules. (Barriers and warp primitives have ID rows above.)
const char *const SafeMarkers[] = {
    "llvm.nvvm.read.ptx.sreg.", "llvm.assume", "llvm.experimental.noalias.scope.decl",
    "llvm.sideeffect", "llvm.donothing", "llvm.pseudoprobe", "llvm.fake.use"};

// Other tensor-core and matrix primitives keep the rows above (or the generic
// rules), not the convergent default.
const char *const MatrixFamilies[] = {"llvm.nvvm.mma.",      "llvm.nvvm.wmma.",
                                      "llvm.nvvm.wgmma.",    "llvm.nvvm.ldmatrix.",
                                      "llvm.nvvm.stmatrix.", "llvm.nvvm.tcgen05."};
// clang-format on

const DenseMap<unsigned, const Rule *> &idIndex() {
  static const DenseMap<unsigned, const Rule *> Index = [] {
    DenseMap<unsigned, const Rule *> M;
    for (const IdRow &R : IdRows) {
      [[maybe_unused]] bool New = M.try_emplace(R.ID, &R.R).second;
      assert(New && "an intrinsic with two rows");
    }
    return M;
  }();
  return Index;
}

std::string fill(const char *Reason, StringRef Name) {
  std::string S = Reason;
  for (size_t P; (P = S.find("{}")) != std::string::npos;)
    S.replace(P, 2, Name.str());
  return S;
}

IntrinsicPolicy policy(const Rule &R, StringRef Name) {
  IntrinsicPolicy P;
  P.Action = R.Action;
  P.Reason = R.Action == IntrinsicAction::Refuse ? fill(R.Reason, Name) : std::string();
  P.Form = R.Form;
  P.Space = R.Space;
  P.Sync = R.Sync;
  P.Bytes = R.Bytes;
  P.Writes = R.Writes;
  P.Atomic = R.Atomic;
  P.IsSync = R.IsSync;
  P.AlignedWarpCollective = R.AlignedWarpCollective;
  return P;
}

IntrinsicPolicy refusal(std::string Why, bool IsSync = false) {
  IntrinsicPolicy P;
  P.Action = IntrinsicAction::Refuse;
  P.Reason = std::move(Why);
  P.IsSync = IsSync;
  return P;
}

bool hasPointerOperand(const Function &F) {
  for (Type *T : F.getFunctionType()->params())
    if (T->isPtrOrPtrVectorTy())
      return true;
  return false;
}

bool startsWithAny(StringRef N, ArrayRef<const char *> Prefixes) {
  return any_of(Prefixes, [&](const char *P) { return N.starts_with(P); });
}

} // namespace

IntrinsicPolicy classifyIntrinsic(const Function &Callee) {
  StringRef N = Callee.getName();
  // A declaration named "llvm.*" that LLVM does not know: its name would match a
  // family (a made-up "llvm.nvvm.tex.x" has no modelled operands).
  if (Callee.getIntrinsicID() == Intrinsic::not_intrinsic)
    return refusal("unknown intrinsic '" + N.str() + "'");
  if (auto It = idIndex().find(Callee.getIntrinsicID()); It != idIndex().end())
    return policy(*It->second, N);
  for (const FamilyRow &R : FamilyRows)
    if (N.starts_with(R.Prefix))
      return policy(R.R, N);
  // Deny by default: a convergent NVVM intrinsic synchronises threads, and one
  // without a row has no rule for its operands.
  if (N.starts_with("llvm.nvvm.") && Callee.hasFnAttribute(Attribute::Convergent) &&
      !startsWithAny(N, MatrixFamilies))
    return refusal("synchronisation intrinsic '" + N.str() +
                       "' has no rule for its operands (not on the allow-list)",
                   /*IsSync=*/true);
  // The generic rules. Pure computations are safe even with pointer operands
  // (isspacep, ptrmask).
  MemoryEffects ME = Callee.getMemoryEffects();
  if (ME.doesNotAccessMemory())
    return policy(allow(), N);
  if (hasPointerOperand(Callee))
    return refusal("unsupported memory intrinsic '" + N.str() + "'");
  if (ME.onlyAccessesInaccessibleMem())
    return policy(allow(), N);
  if (startsWithAny(N, SafeMarkers))
    return policy(allow(), N);
  return refusal("intrinsic '" + N.str() + "' may access memory");
}

std::optional<IntrinsicPolicy> classifySyncIntrinsic(const Function &Callee) {
  IntrinsicPolicy P = classifyIntrinsic(Callee);
  if (P.IsSync)
    return P;
  return std::nullopt;
}

} // namespace Atoll
