// Entry point of libAtollPasses.so for opt -load-pass-plugin and clang -fpass-plugin.
#include "atoll/passes/AtollMem.h"
#include "atoll/passes/Registration.h"
#include "atoll/passes/StripFacts.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace {
// clang -fpass-plugin loads the plugin for the host compile of a .cu file too;
// only the NVPTX device module is hardened.
struct HardenDeviceModule : PassInfoMixin<HardenDeviceModule> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM) {
    if (!Triple(M.getTargetTriple()).isNVPTX())
      return PreservedAnalyses::all();
    // Options from -mllvm -atoll-* (clang loads the plugin before it parses them).
    Expected<Atoll::AtollMemOptions> Opts = Atoll::defaultAtollMemOptions();
    if (!Opts) {
      M.getContext().emitError(toString(Opts.takeError()));
      return PreservedAnalyses::all();
    }
    ModulePassManager MPM;
    Atoll::addHardeningPasses(MPM, *Opts);
    return MPM.run(M, AM);
  }
  static bool isRequired() { return true; }
};
// Before clang's optimisation pipeline: the tenant's facts go first.
struct StripDeviceFacts : PassInfoMixin<StripDeviceFacts> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM) {
    if (!Triple(M.getTargetTriple()).isNVPTX())
      return PreservedAnalyses::all();
    return Atoll::StripFactsPass().run(M, AM);
  }
  static bool isRequired() { return true; }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AtollPasses", "0.1.0", [](PassBuilder &PB) {
            Atoll::registerAtollPasses(PB);
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(StripDeviceFacts()); });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
                  MPM.addPass(HardenDeviceModule());
                });
          }};
}
