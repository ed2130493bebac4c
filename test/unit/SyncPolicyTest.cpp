// atoll-mem's rules for synchronisation primitives (passes/lib/SyncPolicy.cpp),
// checked against LLVM's whole NVVM intrinsic table: every convergent NVVM
// intrinsic has an explicit decision, and one that LLVM might add without a rule
// is refused (deny by default).
#include "../../passes/lib/AtollMemInternal.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

using namespace llvm;

namespace {

struct SyncPolicyTest : ::testing::Test {
  LLVMContext Ctx;
  Module M{"sync", Ctx};
  Function *decl(Intrinsic::ID ID) { return Intrinsic::getOrInsertDeclaration(&M, ID); }
};

// Matrix primitives and the memory intrinsics that CallPolicy.cpp confines or
// refuses by name keep their own rules.
bool ownRule(StringRef N) {
  for (const char *P : {"llvm.nvvm.mma.", "llvm.nvvm.wmma.", "llvm.nvvm.wgmma.", "llvm.nvvm.ldmatrix.",
                        "llvm.nvvm.stmatrix.", "llvm.nvvm.tcgen05.", "llvm.nvvm.cp.async.bulk",
                        "llvm.nvvm.cp.async.mbarrier", "llvm.nvvm.mbarrier."})
    if (N.starts_with(P))
      return true;
  return false;
}

TEST_F(SyncPolicyTest, EveryConvergentNvvmIntrinsicHasADecision) {
  unsigned Seen = 0;
  for (unsigned I = 1; I < Intrinsic::num_intrinsics; ++I) {
    auto ID = Intrinsic::ID(I);
    StringRef Base = Intrinsic::getBaseName(ID);
    if (!Base.starts_with("llvm.nvvm.") || Intrinsic::isOverloaded(ID))
      continue;
    Function *F = decl(ID);
    if (!F->hasFnAttribute(Attribute::Convergent) || ownRule(Base))
      continue;
    ++Seen;
    std::optional<Atoll::IntrinsicPolicy> P = Atoll::classifySyncIntrinsic(*F);
    ASSERT_TRUE(P.has_value()) << Base.str();
    // Allowed ones are exactly the listed barriers and warp primitives.
    if (P->Action == Atoll::IntrinsicAction::Allow)
      EXPECT_TRUE(Base.contains("barrier.cta") || Base.contains(".sync") ||
                  Base == "llvm.nvvm.activemask" || Base == "llvm.nvvm.nanosleep" ||
                  Base == "llvm.nvvm.exit")
          << Base.str();
    else
      EXPECT_EQ(P->Action, Atoll::IntrinsicAction::Refuse) << Base.str();
  }
  EXPECT_GT(Seen, 60u); // barriers, shfl, vote, match, redux, ...
}

TEST_F(SyncPolicyTest, AConvergentIntrinsicWithoutARuleIsRefused) {
  // laneid is not convergent; were LLVM to make a new intrinsic like it
  // convergent, it would have no rule for its operands here.
  Function *F = decl(Intrinsic::nvvm_read_ptx_sreg_laneid);
  EXPECT_FALSE(Atoll::classifySyncIntrinsic(*F).has_value());
  F->addFnAttr(Attribute::Convergent);
  std::optional<Atoll::IntrinsicPolicy> P = Atoll::classifySyncIntrinsic(*F);
  ASSERT_TRUE(P.has_value());
  EXPECT_EQ(P->Action, Atoll::IntrinsicAction::Refuse);
  EXPECT_EQ(P->Reason, "synchronisation intrinsic 'llvm.nvvm.read.ptx.sreg.laneid' has no rule "
                       "for its operands (not on the allow-list)");
  EXPECT_EQ(Atoll::classifyIntrinsic(*F).Action, Atoll::IntrinsicAction::Refuse);
}

TEST_F(SyncPolicyTest, ShuffleIsNotAllowedByItsMemoryEffects) {
  // shfl.sync "only accesses inaccessible memory"; its rule must still be the
  // sync rule (an allowed call whose mask is confined), decided first.
  Function *F = decl(Intrinsic::nvvm_shfl_sync_idx_i32);
  std::optional<Atoll::IntrinsicPolicy> P = Atoll::classifySyncIntrinsic(*F);
  ASSERT_TRUE(P.has_value());
  EXPECT_EQ(P->Action, Atoll::IntrinsicAction::Allow);
  Function *G = decl(Intrinsic::nvvm_griddepcontrol_wait);
  EXPECT_EQ(Atoll::classifyIntrinsic(*G).Action, Atoll::IntrinsicAction::Refuse);
}

// The intrinsic table (IntrinsicTable.cpp): every Confine row says how its
// operands are read, and a few rows carry what the rewrite needs.
TEST_F(SyncPolicyTest, EveryConfineRowHasAnAccessForm) {
  unsigned Confined = 0;
  for (unsigned I = 1; I < Intrinsic::num_intrinsics; ++I) {
    auto ID = Intrinsic::ID(I);
    if (Intrinsic::isOverloaded(ID))
      continue;
    Atoll::IntrinsicPolicy P = Atoll::classifyIntrinsic(*decl(ID));
    if (P.Action != Atoll::IntrinsicAction::Confine)
      continue;
    ++Confined;
    EXPECT_NE(P.Form, Atoll::AccessForm::None) << Intrinsic::getBaseName(ID).str();
    if (P.Form == Atoll::AccessForm::CpAsync || P.Form == Atoll::AccessForm::Matrix)
      EXPECT_TRUE(P.Bytes == 4 || P.Bytes == 8 || P.Bytes == 16)
          << Intrinsic::getBaseName(ID).str();
  }
  // Only cp.async's 8 rows are not overloaded; the overloaded rows (memcpy, ldu,
  // nvvm.atomic, ld/stmatrix, ...) are looked up by name below and in lit.
  EXPECT_EQ(Confined, 8u);
}

// `.aligned` instructions need the whole warp at the same instruction (R3-F1b):
// an allowed one is either a barrier (made the non-.aligned barrier 0) or carries
// the table's AlignedWarpCollective column (guarded by %activemask == all lanes).
TEST_F(SyncPolicyTest, EveryAllowedAlignedIntrinsicIsGuardedOrMadeNonAligned) {
  using namespace Atoll;
  unsigned Allowed = 0;
  for (unsigned I = 1; I < Intrinsic::num_intrinsics; ++I) {
    auto ID = Intrinsic::ID(I);
    StringRef Base = Intrinsic::getBaseName(ID);
    if (!Base.starts_with("llvm.nvvm.") || !Base.contains(".aligned") || Intrinsic::isOverloaded(ID))
      continue;
    IntrinsicPolicy P = classifyIntrinsic(*decl(ID));
    if (P.Action == IntrinsicAction::Refuse)
      continue;
    ++Allowed;
    EXPECT_TRUE(P.Sync == SyncOperands::Barrier || P.Sync == SyncOperands::BarrierCount ||
                P.AlignedWarpCollective)
        << Base.str();
  }
  EXPECT_GE(Allowed, 3u); // barrier.cta.sync.aligned.{all,count}, arrive.aligned.count
  auto named = [&](StringRef Name) {
    return Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                            GlobalValue::ExternalLinkage, Name, M);
  };
  EXPECT_TRUE(classifyIntrinsic(*named("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3"))
                  .AlignedWarpCollective);
  EXPECT_TRUE(classifyIntrinsic(*named("llvm.nvvm.stmatrix.sync.aligned.m8n8.x1.trans.b16.p3"))
                  .AlignedWarpCollective);
  EXPECT_FALSE(classifyIntrinsic(*decl(Intrinsic::nvvm_shfl_sync_idx_i32)).AlignedWarpCollective);
  EXPECT_FALSE(
      classifyIntrinsic(*decl(Intrinsic::nvvm_barrier_cta_sync_aligned_all)).AlignedWarpCollective);
  EXPECT_FALSE(classifyIntrinsic(*named("llvm.memcpy.p0.p0.i64")).AlignedWarpCollective);
}

TEST_F(SyncPolicyTest, TableRowsCarryTheRewriteFacts) {
  using namespace Atoll;
  // An overloaded intrinsic by its mangled name (the ID is looked up from it).
  auto named = [&](StringRef Name) {
    return Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                            GlobalValue::ExternalLinkage, Name, M);
  };
  IntrinsicPolicy Ldu = classifyIntrinsic(*named("llvm.nvvm.ldu.global.i.i32.p1"));
  EXPECT_EQ(Ldu.Form, AccessForm::Ldu);
  EXPECT_EQ(Ldu.Space, SpaceRule::Global);
  IntrinsicPolicy St = classifyIntrinsic(*named("llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.b16.p3"));
  EXPECT_EQ(St.Space, SpaceRule::Shared);
  EXPECT_TRUE(St.Writes);
  EXPECT_EQ(St.Bytes, 16);
  IntrinsicPolicy Cp = classifyIntrinsic(*decl(Intrinsic::nvvm_cp_async_ca_shared_global_8_s));
  EXPECT_EQ(Cp.Form, AccessForm::CpAsync);
  EXPECT_EQ(Cp.Bytes, 8);
  EXPECT_TRUE(classifyIntrinsic(*named("llvm.nvvm.atomic.cas.gen.i.cta.i32.p0")).Atomic);
  EXPECT_EQ(classifyIntrinsic(*decl(Intrinsic::nvvm_barrier_cta_sync_count)).Sync,
            SyncOperands::BarrierCount);
  EXPECT_EQ(classifyIntrinsic(*decl(Intrinsic::nvvm_redux_sync_add)).Sync,
            SyncOperands::MaskArg1);
  IntrinsicPolicy Copy = classifyIntrinsic(*named("llvm.memcpy.p0.p0.i64"));
  EXPECT_EQ(Copy.Action, IntrinsicAction::Confine);
  EXPECT_EQ(Copy.Form, AccessForm::MemTransfer);
  EXPECT_EQ(classifyIntrinsic(*named("llvm.nvvm.prefetch.global.L1")).Action,
            IntrinsicAction::Drop);
  IntrinsicPolicy Tex = classifyIntrinsic(*named("llvm.nvvm.tex.1d.v4f32.s32"));
  EXPECT_EQ(Tex.Action, IntrinsicAction::Refuse);
  EXPECT_EQ(Tex.Reason, "texture/surface access is not supported");
  IntrinsicPolicy Trap = classifyIntrinsic(*decl(Intrinsic::trap));
  EXPECT_EQ(Trap.Action, IntrinsicAction::Refuse);
  EXPECT_EQ(Trap.Reason, "trap: a trap faults the shared CUDA context (use an early return)");
  // An unknown "llvm.*" declaration is refused, even with a family's prefix.
  FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx), false);
  Function *Fake = Function::Create(FT, GlobalValue::ExternalLinkage, "llvm.nvvm.prefetch.fake", M);
  IntrinsicPolicy P = classifyIntrinsic(*Fake);
  EXPECT_EQ(P.Action, IntrinsicAction::Refuse);
  EXPECT_EQ(P.Reason, "unknown intrinsic 'llvm.nvvm.prefetch.fake'");
}

} // namespace
