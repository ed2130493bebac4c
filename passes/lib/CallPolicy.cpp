// What a hardened kernel may call: an explicit allow-list of intrinsics and
// allow-listed inline asm; everything unknown is refused (MinSFI style).
#include "AtollMemInternal.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace Atoll {

static bool hasPointerOperand(const Function &F) {
  for (Type *T : F.getFunctionType()->params())
    if (T->isPtrOrPtrVectorTy())
      return true;
  return false;
}

IntrinsicPolicy classifyIntrinsic(const Function &Callee) {
  StringRef N = Callee.getName();
  // A declaration named "llvm.*" that LLVM does not know: its name would match the
  // prefixes below (a made-up "llvm.nvvm.atomic.x" has no modelled operands).
  if (Callee.getIntrinsicID() == Intrinsic::not_intrinsic)
    return {IntrinsicAction::Refuse, "unknown intrinsic '" + N.str() + "'"};
  switch (Callee.getIntrinsicID()) {
  case Intrinsic::trap:
  case Intrinsic::debugtrap:
  case Intrinsic::ubsantrap:
    return {IntrinsicAction::Refuse,
            "trap: a trap faults the shared CUDA context (use an early return)"};
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
  case Intrinsic::masked_load:
  case Intrinsic::masked_store:
  case Intrinsic::nvvm_ldu_global_i:
  case Intrinsic::nvvm_ldu_global_f:
  case Intrinsic::nvvm_ldu_global_p:
    return {IntrinsicAction::Confine, ""};
  case Intrinsic::masked_gather:
  case Intrinsic::masked_scatter:
  case Intrinsic::masked_expandload:
  case Intrinsic::masked_compressstore:
    return {IntrinsicAction::Refuse,
            "vector-of-pointers memory intrinsic (gather/scatter) is not supported"};
  case Intrinsic::prefetch:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
    return {IntrinsicAction::Drop, ""};
  default:
    break;
  }
  if (N.starts_with("llvm.nvvm.atomic.") || N.starts_with("llvm.nvvm.cp.async.ca.shared.global.") ||
      N.starts_with("llvm.nvvm.cp.async.cg.shared.global.") ||
      N.starts_with("llvm.nvvm.ldmatrix.sync.aligned.m8n8.") ||
      N.starts_with("llvm.nvvm.stmatrix.sync.aligned.m8n8."))
    return {IntrinsicAction::Confine, ""};
  if (N.starts_with("llvm.nvvm.prefetch.") || N.starts_with("llvm.nvvm.cp.async.bulk.prefetch"))
    return {IntrinsicAction::Drop, ""};

  static const char *const TextureSurface[] = {
      "llvm.nvvm.tex.", "llvm.nvvm.tld4.", "llvm.nvvm.suld.", "llvm.nvvm.sust.",
      "llvm.nvvm.txq.", "llvm.nvvm.suq.",  "llvm.nvvm.istypep.", "llvm.nvvm.texsurf.handle"};
  for (const char *P : TextureSurface)
    if (N.starts_with(P))
      return {IntrinsicAction::Refuse, "texture/surface access is not supported"};
  if (N.starts_with("llvm.nvvm.cp.async.bulk") || N.starts_with("llvm.nvvm.cp.async.mbarrier") ||
      N.starts_with("llvm.nvvm.mbarrier.") || N.starts_with("llvm.nvvm.mapa") ||
      N.starts_with("llvm.nvvm.wgmma.mma_async") || N.starts_with("llvm.nvvm.tcgen05.") ||
      N.starts_with("llvm.nvvm.tensormap.") || N.starts_with("llvm.nvvm.wmma."))
    return {IntrinsicAction::Refuse,
            "memory intrinsic '" + N.str() + "' (bulk/TMA copy, mbarrier, wmma, "
            "distributed shared memory) is not supported yet"};

  // Barriers and warp primitives: one rule per intrinsic (SyncPolicy.cpp), decided
  // before the memory-effect rules below (shfl.sync "only accesses inaccessible
  // memory", yet its mask can fault).
  if (std::optional<IntrinsicPolicy> P = classifySyncIntrinsic(Callee))
    return *P;

  // Pure computations are safe even with pointer operands (isspacep, ptrmask).
  MemoryEffects ME = Callee.getMemoryEffects();
  if (ME.doesNotAccessMemory())
    return {IntrinsicAction::Allow, ""};
  if (hasPointerOperand(Callee))
    return {IntrinsicAction::Refuse, "unsupported memory intrinsic '" + N.str() + "'"};
  if (ME.onlyAccessesInaccessibleMem())
    return {IntrinsicAction::Allow, ""};

  // Compiler markers with no effect on the machine code. (Barriers and warp
  // primitives were decided above, one rule each.)
  static const char *const SafePrefixes[] = {
      "llvm.nvvm.read.ptx.sreg.", "llvm.assume", "llvm.experimental.noalias.scope.decl",
      "llvm.sideeffect", "llvm.donothing", "llvm.pseudoprobe", "llvm.fake.use"};
  for (const char *P : SafePrefixes)
    if (N.starts_with(P))
      return {IntrinsicAction::Allow, ""};
  return {IntrinsicAction::Refuse, "intrinsic '" + N.str() + "' may access memory"};
}

// Inline asm: deny by default. An asm is accepted only when its exact template,
// constraint string and function type are on the allow-list: every asm in the
// toolkit's libdevice (generated at build time by passes/gen, which refuses any
// entry that is not register-only) and the few register-only helpers below. No
// text is parsed, so there is nothing to fool: one character off is refused.
// The side-effect and convergent flags are not compared: they only restrict how
// the optimiser may move or delete the asm, never what it writes.
namespace {
struct AsmEntry {
  const char *Template, *Constraints, *Type;
};

const AsmEntry LibdeviceAsm[] = {
#include "LibdeviceAsm.inc"
};

// Reads of special registers, as clang emits them for CUDA's
// asm("mov.u32 %0, %%laneid;" : "=r"(x)): each writes only its one output operand.
const AsmEntry HelperAsm[] = {
    {"mov.u32 $0, %laneid;", "=r", "i32 ()"},
    {"mov.u32 $0, %warpid;", "=r", "i32 ()"},
    {"mov.u32 $0, %nwarpid;", "=r", "i32 ()"},
    {"mov.u32 $0, %smid;", "=r", "i32 ()"},
    {"mov.u32 $0, %nsmid;", "=r", "i32 ()"},
    {"mov.u32 $0, %lanemask_eq;", "=r", "i32 ()"},
    {"mov.u32 $0, %lanemask_le;", "=r", "i32 ()"},
    {"mov.u32 $0, %lanemask_lt;", "=r", "i32 ()"},
    {"mov.u32 $0, %lanemask_ge;", "=r", "i32 ()"},
    {"mov.u32 $0, %lanemask_gt;", "=r", "i32 ()"},
    {"mov.u32 $0, %clock;", "=r", "i32 ()"},
    {"mov.u32 $0, %clock_hi;", "=r", "i32 ()"},
    {"mov.u64 $0, %clock64;", "=l", "i64 ()"},
    {"mov.u64 $0, %globaltimer;", "=l", "i64 ()"},
    {"mov.u32 $0, %globaltimer_lo;", "=r", "i32 ()"},
    {"mov.u32 $0, %globaltimer_hi;", "=r", "i32 ()"},
};

std::string asmKey(StringRef Template, StringRef Constraints, StringRef Type) {
  return (Template + Twine('\0') + Constraints + Twine('\0') + Type).str();
}

const StringSet<> &asmAllowList() {
  static const StringSet<> Set = [] {
    StringSet<> S;
    for (const AsmEntry &E : LibdeviceAsm)
      S.insert(asmKey(E.Template, E.Constraints, E.Type));
    for (const AsmEntry &E : HelperAsm)
      S.insert(asmKey(E.Template, E.Constraints, E.Type));
    return S;
  }();
  return Set;
}

// The asm text on one line, for the diagnostic.
std::string quoted(StringRef S) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << '"';
  printEscapedString(S, OS);
  OS << '"';
  return Out;
}
} // namespace

std::string checkInlineAsm(const InlineAsm &IA) {
  std::string Type;
  raw_string_ostream OS(Type);
  IA.getFunctionType()->print(OS);
  if (!IA.canThrow() && IA.getDialect() == InlineAsm::AD_ATT &&
      asmAllowList().contains(asmKey(IA.getAsmString(), IA.getConstraintString(), Type)))
    return {};
  return "inline asm " + quoted(IA.getAsmString()) + " (constraints " +
         quoted(IA.getConstraintString()) + ", type " + Type +
         ") is not on the inline-asm allow-list (libdevice's asm and the register-only "
         "helpers in docs/passes.md)";
}

} // namespace Atoll
