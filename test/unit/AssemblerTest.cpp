// PTX -> cubin (toolchain/lib/Assembler.cpp, nvJitLink loaded with dlopen):
// the cubin is an ELF image, compile() assembles only validated PTX, and every
// failure is a typed CompileError carrying the assembler's log. Needs the CUDA
// toolkit's libnvJitLink; skipped (saying why) where loadAssembler() finds none.
#include "atoll/toolchain/Toolchain.h"

#include "TestKernels.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace llvm;
using namespace Atoll::toolchain;

namespace {

struct Failure {
  FailureKind Kind;
  std::string Message;
  std::string Diagnostics;
};

template <typename T> std::optional<Failure> failureOf(Expected<T> V) {
  if (V)
    return std::nullopt;
  std::optional<Failure> F;
  handleAllErrors(V.takeError(), [&](const ToolchainError &TE) {
    F = Failure{TE.kind(), TE.message(), TE.diagnostics()};
  });
  return F;
}

const std::string VecAdd = std::string(atoll_test::NvptxHeader) + atoll_test::VecAddKernel +
                           atoll_test::TidDeclaration;

bool isElf(const std::string &S) { return S.size() > 64 && S.compare(0, 4, "\x7f" "ELF") == 0; }

class Assembler : public ::testing::Test {
protected:
  void SetUp() override {
    if (Error E = loadAssembler())
      GTEST_SKIP() << "no PTX assembler here: " << toString(std::move(E));
    ASSERT_TRUE(assemblerLoaded());
  }
};

} // namespace

TEST_F(Assembler, CompileProducesTheCubinOfTheValidatedPtx) {
  auto C = compile(MemoryBufferRef(VecAdd, "vadd.ll"), {});
  ASSERT_TRUE(!!C) << toString(C.takeError());
  EXPECT_TRUE(isElf(C->cubin));
  EXPECT_NE(C->cubin.find("vadd"), std::string::npos) << "the kernel's symbol";
  // The same PTX assembles to the same cubin (the disk cache relies on it).
  auto Again = assembleCubin(C->ptx, "sm_90");
  ASSERT_TRUE(!!Again) << toString(Again.takeError());
  EXPECT_EQ(*Again, C->cubin);
  // Without Assemble, no cubin (atoll-harden --emit=ptx).
  CompileOptions NoAsm;
  NoAsm.Assemble = false;
  auto P = compile(MemoryBufferRef(VecAdd, "vadd.ll"), NoAsm);
  ASSERT_TRUE(!!P) << toString(P.takeError());
  EXPECT_TRUE(P->cubin.empty());
  EXPECT_EQ(P->ptx, C->ptx);
}

TEST_F(Assembler, PtxThatDoesNotAssembleIsACompileErrorWithTheLog) {
  const std::string Bad = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k()\n{\n\tbogus.instruction %r1;\n\tret;\n}\n";
  auto F = failureOf(assembleCubin(Bad, "sm_90"));
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Kind, FailureKind::CompileError);
  EXPECT_NE(F->Message.find("the PTX assembler (nvJitLink) failed"), std::string::npos)
      << F->Message;
  EXPECT_FALSE(F->Diagnostics.empty()) << "the assembler's error log";
  EXPECT_NE(F->Diagnostics.find("bogus"), std::string::npos) << F->Diagnostics;
}

TEST_F(Assembler, BadInputsAreTypedErrors) {
  auto Empty = failureOf(assembleCubin("", "sm_90"));
  ASSERT_TRUE(Empty);
  EXPECT_EQ(Empty->Message, "cannot assemble empty PTX");
  for (const char *Arch : {"", "sm_", "sm_9", "compute_90", "sm_90 -foo", "sm_90;", "-arch=sm_90",
                           "sm_1000"}) {
    auto F = failureOf(assembleCubin(".version 8.0\n", Arch));
    ASSERT_TRUE(F) << Arch;
    EXPECT_EQ(F->Kind, FailureKind::CompileError);
    EXPECT_EQ(F->Message, "cannot assemble for GPU architecture '" + std::string(Arch) +
                              "' (expected sm_NN)");
  }
  // Text that is not PTX at all (binary bytes, no NUL inside): an error, no crash.
  auto Garbage = failureOf(assembleCubin(std::string(4096, '\xff'), "sm_90"));
  ASSERT_TRUE(Garbage);
  EXPECT_EQ(Garbage->Kind, FailureKind::CompileError);
}

TEST_F(Assembler, ConcurrentAssembliesAgree) {
  auto C = compile(MemoryBufferRef(VecAdd, "vadd.ll"), {});
  ASSERT_TRUE(!!C) << toString(C.takeError());
  std::vector<std::string> Out(4);
  std::vector<std::thread> Threads;
  for (auto &O : Out)
    Threads.emplace_back([&] {
      auto R = assembleCubin(C->ptx, "sm_90");
      O = R ? *R : "error: " + toString(R.takeError());
    });
  for (auto &T : Threads)
    T.join();
  for (auto &O : Out)
    EXPECT_EQ(O, C->cubin);
}

// Every assembly passes nvJitLink -no-cache, so that nvJitLink in the calling process
// (the service, with RuntimeOptions::compileInProcess) neither reads nor writes the
// CUDA driver's JIT cache (~/.nv/ComputeCache, outside AToLL's MAC-checked disk
// cache; the H200 measured nvJitLink answering repeated PTX from it). The toolkit the
// tests run with must have accepted the option (an older library that refuses it
// assembles without it, and this test then says so).
TEST_F(Assembler, AssembliesKeepNvJitLinkOffTheDriversJitCache) {
  auto C = compile(MemoryBufferRef(VecAdd, "vadd.ll"), {});
  ASSERT_TRUE(!!C) << toString(C.takeError());
  auto Off = assemblerBypassesJitCache();
  ASSERT_TRUE(Off.has_value()) << "known after the first assembly";
  EXPECT_TRUE(*Off) << "this nvJitLink refused -no-cache";
  // With it, the same PTX still gives the same cubin (the disk cache relies on it).
  auto Again = assembleCubin(C->ptx, "sm_90");
  ASSERT_TRUE(!!Again) << toString(Again.takeError());
  EXPECT_EQ(*Again, C->cubin);
}
