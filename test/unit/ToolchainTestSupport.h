// Helpers shared by the toolchain unit tests (ToolchainTest.cpp, ToolchainFinalTest.cpp).
#pragma once

#include "atoll/toolchain/Toolchain.h"
#include "ToolchainInternal.h"
#include "ptx/PtxValidator.h"
#include "atoll/abi.h"
#include "atoll/passes/StraightLine.h"
#include "atoll/passes/HardeningReport.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "TestKernels.h"
#include <gtest/gtest.h>
#include <optional>
#include <regex>
#include <thread>


using namespace llvm;
using namespace Atoll::toolchain;
using Atoll::KernelInfo;
using Atoll::ParamInfo;
using Atoll::ParamKind;


namespace toolchain_test {


struct Failure {
  FailureKind Kind;
  std::string Message;
  std::string Diagnostics;
};

/// The ToolchainError inside E (fails the test if E is success or another type).
inline std::optional<Failure> failureOf(Error E) {
  std::optional<Failure> F;
  handleAllErrors(std::move(E), [&](const ToolchainError &TE) {
    F = Failure{TE.kind(), TE.message(), TE.diagnostics()};
  });
  return F;
}

template <typename T> std::optional<Failure> failureOf(Expected<T> V) {
  if (V)
    return std::nullopt;
  return failureOf(V.takeError());
}

inline const char *Header = atoll_test::NvptxHeader;

inline std::string withHeader(StringRef Body) { return std::string(Header) + Body.str(); }

const std::string VecAdd = withHeader(std::string(atoll_test::VecAddKernel) +
                                      atoll_test::TidDeclaration);

inline Expected<std::unique_ptr<Module>> parse(StringRef IR, LLVMContext &Ctx) {
  return parseModule(MemoryBufferRef(IR, "test.ll"), Ctx);
}

inline Expected<CompiledModule> compileIR(StringRef IR, const CompileOptions &Opts = {}) {
  return compile(MemoryBufferRef(IR, "test.ll"), Opts);
}

inline std::string bitcodeOf(StringRef IR) {
  LLVMContext Ctx;
  auto M = parse(IR, Ctx);
  EXPECT_TRUE(!!M) << toString(M.takeError());
  std::string Bytes;
  raw_string_ostream OS(Bytes);
  WriteBitcodeToFile(**M, OS);
  return Bytes;
}

} // namespace toolchain_test
