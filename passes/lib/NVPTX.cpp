// The NVPTX vocabulary shared by the passes and the toolchain (NVPTX.h).
#include "atoll/passes/NVPTX.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace Atoll {

bool isKernel(const Function &F) {
  if (F.getCallingConv() == CallingConv::PTX_Kernel)
    return true;
  const NamedMDNode *Ann = F.getParent()->getNamedMetadata("nvvm.annotations");
  if (!Ann)
    return false;
  for (const MDNode *N : Ann->operands()) {
    if (N->getNumOperands() < 3)
      continue;
    auto *V = dyn_cast_or_null<ValueAsMetadata>(N->getOperand(0).get());
    if (!V || V->getValue() != &F)
      continue;
    for (unsigned I = 1; I + 1 < N->getNumOperands(); I += 2) {
      auto *Key = dyn_cast_or_null<MDString>(N->getOperand(I).get());
      auto *Val = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I + 1));
      if (Key && Key->getString() == "kernel" && Val && !Val->isZero())
        return true;
    }
  }
  return false;
}

} // namespace Atoll
