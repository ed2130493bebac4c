// What a hardened kernel may call besides intrinsics (IntrinsicTable.cpp):
// allow-listed inline asm; everything unknown is refused (MinSFI style).
#include "AtollMemInternal.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "atoll-mem"

using namespace llvm;

namespace Atoll {

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
