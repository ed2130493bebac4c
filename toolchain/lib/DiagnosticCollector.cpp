#include "ToolchainInternal.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace Atoll::toolchain::detail {

struct DiagnosticCollector::Handler : DiagnosticHandler {
  explicit Handler(DiagnosticCollector &C) : Collector(C) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    Collector.record(DI);
    // Handled: LLVM must neither print nor exit(1) on an error.
    return true;
  }
  DiagnosticCollector &Collector;
};

DiagnosticCollector::DiagnosticCollector(LLVMContext &Ctx)
    : Ctx(Ctx), Previous(Ctx.getDiagnosticHandler()) {
  Ctx.setDiagnosticHandler(std::make_unique<Handler>(*this));
}

DiagnosticCollector::~DiagnosticCollector() {
  Ctx.setDiagnosticHandler(std::move(Previous));
}

void DiagnosticCollector::record(const DiagnosticInfo &DI) {
  // Warnings and remarks (for example the linker's notes about libdevice) are not
  // the tenant's business; only errors fail a step.
  if (DI.getSeverity() != DS_Error)
    return;
  std::string Text;
  raw_string_ostream OS(Text);
  DiagnosticPrinterRawOStream DP(OS);
  DI.print(DP);
  // One diagnostic per line, whatever the diagnostic printed.
  for (char &C : Text)
    if (C == '\n')
      C = ' ';
  Errors += LLVMContext::getDiagnosticMessagePrefix(DI.getSeverity());
  Errors += ": ";
  Errors += StringRef(Text).trim();
  Errors += '\n';
  ++NumErrors;
}

} // namespace Atoll::toolchain::detail
