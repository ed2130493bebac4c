#include "atoll/passes/Registration.h"

#include "atoll/passes/AtollMem.h"
#include "atoll/passes/PromotePtxConstantGlobals.h"
#include "atoll/passes/StripFacts.h"

#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace Atoll {

void registerAtollPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == StripFactsPass::name()) {
          MPM.addPass(StripFactsPass());
          return true;
        }
        if (Name == PromotePtxConstantGlobalsPass::name()) {
          MPM.addPass(PromotePtxConstantGlobalsPass());
          return true;
        }
        if (PassBuilder::checkParametrizedPassName(Name, AtollMemPass::name())) {
          auto Opts = PassBuilder::parsePassParameters(parseAtollMemOptions, Name,
                                                       AtollMemPass::name());
          if (!Opts) {
            // The pipeline parser cannot carry our error; report it like opt does.
            errs() << toString(Opts.takeError()) << "\n";
            return false;
          }
          MPM.addPass(AtollMemPass(*Opts));
          return true;
        }
        return false;
      });
}

void addHardeningPasses(ModulePassManager &MPM, const AtollMemOptions &Opts) {
  PromoteOptions P;
  P.Report = Opts.Report;
  MPM.addPass(PromotePtxConstantGlobalsPass(P));
  MPM.addPass(AtollMemPass(Opts));
}

} // namespace Atoll
