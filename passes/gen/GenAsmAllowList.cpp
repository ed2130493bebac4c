// Build-time generator of the inline-asm allow-list: reads libdevice.10.bc, walks
// every inline-asm callee and writes its (template, constraints, function type)
// triples, sorted and deduplicated, as C++ initialisers for CallPolicy.cpp.
//
// Each entry must be register-only by construction; the generator refuses (and
// the build fails) on anything else, so a new libdevice cannot widen the list
// silently: register constraints only (no memory, no indirect, no "+" tied
// in/out, no clobbers), no unwinding, AT&T dialect, and every '%' in the
// template names a register the asm declares itself inside '{ }'.
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <tuple>

using namespace llvm;

static cl::opt<std::string> Input(cl::Positional, cl::desc("<libdevice.10.bc>"), cl::Required);
static cl::opt<std::string> Output("o", cl::desc("output .inc file"), cl::Required);

using Entry = std::tuple<std::string, std::string, std::string>;

static std::string typeString(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

// Why an asm is not register-only, or empty.
static std::string audit(const InlineAsm &IA) {
  if (IA.canThrow())
    return "unwinding asm";
  if (IA.getDialect() != InlineAsm::AD_ATT)
    return "non-default dialect";
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints()) {
    if (C.Type == InlineAsm::isClobber)
      return "clobber";
    if (C.isIndirect || C.hasMatchingInput() || C.isEarlyClobber || C.Codes.size() != 1)
      return "non-register operand";
    static const std::set<std::string> Regs = {"r", "l", "f", "d", "h", "n"};
    if (!Regs.count(C.Codes[0]) || (C.Type == InlineAsm::isOutput && C.Codes[0] == "n"))
      return "constraint '" + C.Codes[0] + "'";
  }
  StringRef T = IA.getAsmString();
  if (T.contains('%'))
    return "names a '%' register (compiler or special register)";
  if (T.contains('[') || T.contains("ld.") || T.contains("st.") || T.contains("call") ||
      T.contains("bra") || T.contains("ret") || T.contains("exit") || T.contains("trap"))
    return "memory or control-flow instruction";
  return {};
}

// A C string literal; octal escapes so that no escape swallows a following digit.
static void writeLiteral(raw_ostream &OS, StringRef S) {
  OS << '"';
  for (unsigned char Ch : S) {
    if (Ch == '"' || Ch == '\\')
      OS << '\\' << Ch;
    else if (Ch >= 0x20 && Ch < 0x7f && Ch != '?') // '?': no trigraphs
      OS << Ch;
    else
      OS << '\\' << char('0' + (Ch >> 6)) << char('0' + ((Ch >> 3) & 7)) << char('0' + (Ch & 7));
  }
  OS << '"';
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "AToLL inline-asm allow-list generator\n");
  auto Buf = MemoryBuffer::getFile(Input);
  if (!Buf) {
    WithColor::error() << "cannot read '" << Input << "': " << Buf.getError().message() << "\n";
    return 1;
  }
  LLVMContext Ctx;
  auto M = parseBitcodeFile((*Buf)->getMemBufferRef(), Ctx);
  if (!M) {
    WithColor::error() << "cannot parse '" << Input << "': " << toString(M.takeError()) << "\n";
    return 1;
  }
  std::set<Entry> Entries;
  for (Function &F : **M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || !CB->isInlineAsm())
          continue;
        auto *IA = cast<InlineAsm>(CB->getCalledOperand());
        if (std::string Why = audit(*IA); !Why.empty()) {
          WithColor::error() << "libdevice asm in '" << F.getName() << "' is not register-only ("
                             << Why << "): " << IA->getAsmString() << "\n";
          return 1;
        }
        Entries.insert(Entry(IA->getAsmString().str(), IA->getConstraintString().str(),
                        typeString(IA->getFunctionType())));
      }
  if (Entries.empty()) {
    WithColor::error() << "no inline asm found in '" << Input << "' (not libdevice?)\n";
    return 1;
  }
  std::error_code EC;
  ToolOutputFile Out(Output, EC, sys::fs::OF_None);
  if (EC) {
    WithColor::error() << "cannot write '" << Output << "': " << EC.message() << "\n";
    return 1;
  }
  Out.os() << "// Generated from libdevice.10.bc by atoll-gen-asm-allowlist; do not edit.\n"
           << "// {template, constraints, function type}\n";
  for (const auto &[Tmpl, Cons, Ty] : Entries) {
    Out.os() << "{";
    writeLiteral(Out.os(), Tmpl);
    Out.os() << ", ";
    writeLiteral(Out.os(), Cons);
    Out.os() << ", ";
    writeLiteral(Out.os(), Ty);
    Out.os() << "},\n";
  }
  Out.keep();
  return 0;
}
