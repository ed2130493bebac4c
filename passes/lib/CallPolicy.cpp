// What a hardened kernel may call: an explicit allow-list of intrinsics and
// register-only inline asm; everything unknown is refused (MinSFI style).
#include "AtollMemInternal.h"

#include "llvm/ADT/StringExtras.h"
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

/// PTX special registers (read-only) an asm statement may name: "%tid.x" etc.
static bool isSpecialRegister(StringRef Name) {
  static const StringSet<> Exact = {
      "tid", "ntid", "laneid", "warpid", "nwarpid", "ctaid", "nctaid", "smid", "nsmid",
      "gridid", "lanemask_eq", "lanemask_le", "lanemask_lt", "lanemask_ge", "lanemask_gt",
      "clock", "clock_hi", "clock64", "globaltimer", "globaltimer_lo", "globaltimer_hi",
      "total_smem_size", "aggr_smem_size", "dynamic_smem_size", "reserved_smem_offset_begin",
      "reserved_smem_offset_end", "reserved_smem_offset_cap", "reserved_smem_offset_2",
      "is_explicit_cluster", "clusterid", "nclusterid", "cluster_ctaid", "cluster_nctaid",
      "cluster_ctarank", "cluster_nctarank", "current_graph_exec"};
  if (Exact.contains(Name))
    return true;
  // %pm0..%pm7 (and _64 forms), %envreg0..%envreg31.
  for (StringRef Prefix : {"pm", "envreg"})
    if (Name.starts_with(Prefix)) {
      StringRef Rest = Name.drop_front(Prefix.size());
      Rest.consume_back("_64");
      unsigned N;
      if (!Rest.empty() && !Rest.getAsInteger(10, N))
        return true;
    }
  return false;
}

static bool isIdentChar(char Ch) {
  return isAlnum(Ch) || Ch == '_' || Ch == '$';
}

/// Names a ".reg .type a, b<4>, %c" statement declares (a "<N>" suffix: a prefix
/// that names N registers "b0".."b{N-1}", kept as "b<").
static void declaredRegisters(StringRef S, SmallVectorImpl<std::string> &Out) {
  S = S.drop_front(4); // ".reg"
  // Skip the type and vector qualifiers (".u32", ".v2 .b32").
  for (S = S.trim(); S.starts_with("."); S = S.trim())
    S = S.drop_until([](char Ch) { return Ch == ' ' || Ch == '\t'; });
  SmallVector<StringRef, 8> Names;
  S.split(Names, ',', -1, false);
  for (StringRef N : Names) {
    N = N.trim();
    if (size_t Lt = N.find('<'); Lt != StringRef::npos)
      Out.push_back(N.take_front(Lt).str() + "<");
    else
      Out.push_back(N.str());
  }
}

std::string checkInlineAsm(const InlineAsm &IA) {
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints()) {
    if (C.isIndirect)
      return "inline asm with a memory operand";
    for (const std::string &Code : C.Codes)
      if (Code == "m" || Code == "o" || Code == "V")
        return "inline asm with a memory operand";
  }
  // Every operand reference ($N, ${N:mod}) must name an operand: a dangling one
  // is a fatal error in the NVPTX asm printer, which would abort the process
  // that compiles the module (the runtime compiles in-process).
  unsigned NumOperands = 0;
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints())
    if (C.Type != InlineAsm::isClobber)
      ++NumOperands;
  StringRef AsmText = IA.getAsmString();
  for (size_t I = AsmText.find('$'); I != StringRef::npos; I = AsmText.find('$', I + 1)) {
    StringRef Rest = AsmText.drop_front(I + 1);
    if (Rest.consume_front("$") || Rest.consume_front("(") || Rest.consume_front("|") ||
        Rest.consume_front(")")) {
      ++I; // "$$" is a literal '$'; "$(", "$|", "$)" select a dialect variant
      continue;
    }
    bool Braced = Rest.consume_front("{");
    StringRef Digits = Rest.take_while(isDigit);
    StringRef After = Rest.drop_front(Digits.size());
    unsigned N;
    bool Malformed = Digits.empty() || Digits.getAsInteger(10, N);
    // ${N} or ${N:modifier}, closed by a '}'.
    if (Braced)
      Malformed |= !(After.starts_with("}") || After.starts_with(":")) || !After.contains('}');
    if (Malformed)
      return "inline asm with a malformed operand reference";
    if (N >= NumOperands)
      return "inline asm refers to operand $" + Digits.str() + ", which does not exist";
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
  // Registers declared by the asm itself, per open brace scope. The statement text
  // is pasted into the kernel's PTX, where the compiler's own registers (%rd1, %r2,
  // %SP, ...) hold confined addresses, masks and the arena base: a "register-only"
  // asm that names one of them could overwrite it. Every %-register an asm names
  // must therefore be a special register or one it declared in an open scope.
  SmallVector<SmallVector<std::string, 8>, 4> Scopes(1);
  auto Declared = [&](StringRef Name) {
    for (const auto &Scope : Scopes)
      for (const std::string &D : Scope) {
        if (D == Name)
          return true;
        if (StringRef(D).ends_with("<")) {
          StringRef Prefix = StringRef(D).drop_back();
          unsigned N;
          if (Name.starts_with(Prefix) && !Name.drop_front(Prefix.size()).getAsInteger(10, N))
            return true;
        }
      }
    return false;
  };
  for (StringRef S : Parts) {
    S = S.trim();
    unsigned Closes = 0;
    for (;;) {
      if (S.consume_front("{")) {
        Scopes.emplace_back();
      } else if (S.ends_with("}") && S.drop_back().count('{') == S.drop_back().count('}')) {
        S = S.drop_back();
        ++Closes;
      } else {
        break;
      }
      S = S.trim();
    }
    auto CloseScopes = [&]() {
      for (; Closes && Scopes.size() > 1; --Closes)
        Scopes.pop_back();
    };
    if (S.empty() || S.starts_with("//")) {
      CloseScopes();
      continue;
    }
    if (S.starts_with(".reg")) {
      // Only a declaration inside a brace scope is the asm's own: one at function
      // level could collide with (or, were it accepted, alias) a compiler register.
      if (Scopes.size() > 1)
        declaredRegisters(S, Scopes.back());
      CloseScopes();
      continue;
    }
    for (size_t I = S.find('%'); I != StringRef::npos; I = S.find('%', I + 1)) {
      StringRef Name = S.drop_front(I + 1).take_while(isIdentChar);
      if (Name.empty() || isSpecialRegister(Name) || Declared(("%" + Name).str()))
        continue;
      return "inline asm names register '%" + Name.str() +
             "', which it does not declare (only its operands, its own registers and "
             "special registers are allowed)";
    }
    if (S.starts_with("@")) { // guard predicate: "@p add.s32 ..."
      S = S.drop_until([](char Ch) { return Ch == ' ' || Ch == '\t'; }).trim();
    }
    StringRef Opcode = S.take_until([](char Ch) { return Ch == ' ' || Ch == '\t'; });
    StringRef Base = Opcode.split('.').first;
    if (!registerOnlyOpcodes().contains(Base))
      return "inline asm instruction '" + Opcode.str() +
             "' is not register-only (allowed: arithmetic, logic, compare, convert, move)";
    CloseScopes();
  }
  return {};
}

} // namespace Atoll
