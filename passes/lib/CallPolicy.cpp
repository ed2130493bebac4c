// What a hardened kernel may call: an explicit allow-list of intrinsics and
// register-only inline asm; everything unknown is refused (MinSFI style).
#include "AtollMemInternal.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

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

  // Pure computations are safe even with pointer operands (isspacep, ptrmask).
  MemoryEffects ME = Callee.getMemoryEffects();
  if (ME.doesNotAccessMemory())
    return {IntrinsicAction::Allow, ""};
  if (hasPointerOperand(Callee))
    return {IntrinsicAction::Refuse, "unsupported memory intrinsic '" + N.str() + "'"};
  if (ME.onlyAccessesInaccessibleMem())
    return {IntrinsicAction::Allow, ""};

  // Synchronisation and warp primitives: no address operand, nothing to confine.
  static const char *const SafePrefixes[] = {
      "llvm.nvvm.barrier",  "llvm.nvvm.bar.",   "llvm.nvvm.fence.",  "llvm.nvvm.membar",
      "llvm.nvvm.vote.",    "llvm.nvvm.shfl.",  "llvm.nvvm.match.",  "llvm.nvvm.redux.",
      "llvm.nvvm.activemask", "llvm.nvvm.nanosleep", "llvm.nvvm.read.ptx.sreg.",
      "llvm.nvvm.cp.async.commit.group", "llvm.nvvm.cp.async.wait.", "llvm.nvvm.elect.sync",
      "llvm.nvvm.exit", "llvm.assume", "llvm.experimental.noalias.scope.decl",
      "llvm.sideeffect", "llvm.donothing", "llvm.pseudoprobe", "llvm.fake.use"};
  for (const char *P : SafePrefixes)
    if (N.starts_with(P))
      return {IntrinsicAction::Allow, ""};
  return {IntrinsicAction::Refuse, "intrinsic '" + N.str() + "' may access memory"};
}

/// PTX opcodes that only read and write registers (the first '.'-separated part).
static const StringSet<> &registerOnlyOpcodes() {
  static const StringSet<> Ops = {
      "add",  "addc", "sub",   "subc", "mul",   "mad",   "madc", "mul24", "mad24", "sad",
      "div",  "rem",  "abs",   "neg",  "min",   "max",   "fma",  "rcp",   "sqrt",  "rsqrt",
      "sin",  "cos",  "lg2",   "ex2",  "tanh",  "copysign", "and", "or",  "xor",   "not",
      "cnot", "lop3", "shl",   "shr",  "shf",   "bfe",   "bfi",  "bfind", "brev",  "popc",
      "clz",  "fns",  "prmt",  "dp4a", "dp2a",  "setp",  "selp", "set",   "slct",  "testp",
      "cvt",  "mov",  "cvt.pack", "szext", "bmsk", "activemask", "mul.wide"};
  return Ops;
}

std::string checkInlineAsm(const InlineAsm &IA) {
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints()) {
    if (C.isIndirect)
      return "inline asm with a memory operand";
    for (const std::string &Code : C.Codes)
      if (Code == "m" || Code == "o" || Code == "V")
        return "inline asm with a memory operand";
  }
  // Statements are separated by ';' or new lines; a '{' or '}' at the start or end
  // of a statement opens or closes a register scope (inside a statement, braces
  // are vector operands: "mov.b64 {lo,hi}, $2").
  std::string Text = IA.getAsmString().str();
  for (char &Ch : Text)
    if (Ch == '\n')
      Ch = ';';
  SmallVector<StringRef, 16> Parts;
  StringRef(Text).split(Parts, ';', -1, false);
  for (StringRef S : Parts) {
    S = S.trim();
    while (S.consume_front("{") || S.consume_back("}"))
      S = S.trim();
    if (S.empty() || S.starts_with("//"))
      continue;
    if (S.starts_with("@")) { // guard predicate: "@p add.s32 ..."
      S = S.drop_until([](char Ch) { return Ch == ' ' || Ch == '\t'; }).trim();
    }
    if (S.starts_with(".reg"))
      continue;
    StringRef Opcode = S.take_until([](char Ch) { return Ch == ' ' || Ch == '\t'; });
    StringRef Base = Opcode.split('.').first;
    if (!registerOnlyOpcodes().contains(Base))
      return "inline asm instruction '" + Opcode.str() +
             "' is not register-only (allowed: arithmetic, logic, compare, convert, move)";
    // Special registers that reveal addresses or other tenants' state stay allowed
    // (%clock, %smid); memory is the only thing confined.
  }
  return {};
}

} // namespace Atoll
