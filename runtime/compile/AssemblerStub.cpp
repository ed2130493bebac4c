// Stand-in for the PTX assembler until toolchain/Assembler.cpp exists (the build
// picks this file only then): no assembler, so assemble requests fail cleanly.
#include "toolchain/Toolchain.h"
#include "toolchain/ToolchainInternal.h"

namespace Atoll::toolchain {

llvm::Error loadAssembler() {
  return detail::makeError(FailureKind::CompileError,
                           "no PTX assembler in this build (toolchain/Assembler.cpp)");
}
bool assemblerLoaded() { return false; }
llvm::Expected<std::string> assembleCubin(llvm::StringRef, llvm::StringRef) {
  return loadAssembler();
}

} // namespace Atoll::toolchain
