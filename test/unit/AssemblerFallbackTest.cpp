// The assembler against an nvJitLink that refuses -no-cache (FakeNvJitLink.cpp,
// reached through ATOLL_CUDA_PATH, set by CTest): assembly still works, without the
// option, and toolchain::assemblerBypassesJitCache() says so; a call that fails for
// another reason (an -arch the library does not know) decides nothing. One process
// per library (it is loaded once), hence a binary of its own.
#include "atoll/toolchain/Toolchain.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>

using namespace llvm;
using namespace Atoll::toolchain;

namespace {
int *fakeCounter(const char *name) {
  const char *root = std::getenv("ATOLL_CUDA_PATH");
  if (!root)
    return nullptr;
  std::string path = std::string(root) + "/lib64/libnvJitLink.so.13";
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  return h ? static_cast<int *>(dlsym(h, name)) : nullptr;
}
} // namespace

TEST(AssemblerFallback, AnNvJitLinkThatRefusesNoCacheStillAssembles) {
  const std::string Ptx = ".version 8.0\n.target sm_90\n.address_size 64\n";
  // Not the stand-in: a configuration error, never a skip.
  if (Error E = loadAssembler())
    FAIL() << "the stand-in did not load: " << toString(std::move(E));
  int *creates = fakeCounter("atoll_fake_nvjitlink_creates");
  int *live = fakeCounter("atoll_fake_nvjitlink_live");
  ASSERT_TRUE(creates && live) << "ATOLL_CUDA_PATH must name the stand-in toolkit";
  EXPECT_FALSE(assemblerBypassesJitCache().has_value()) << "nothing asked yet";

  // An -arch the library refuses: an error, and no verdict on -no-cache.
  auto Bad = assembleCubin(Ptx, "sm_100f");
  ASSERT_FALSE(static_cast<bool>(Bad));
  std::string Msg = toString(Bad.takeError());
  EXPECT_NE(Msg.find("the PTX assembler (nvJitLink) failed to start (error 1)"),
            std::string::npos)
      << Msg;
  EXPECT_EQ(*creates, 2) << "with -no-cache, then without";
  EXPECT_FALSE(assemblerBypassesJitCache().has_value());

  // The known arch: refused with -no-cache, assembled without it.
  auto C = assembleCubin(Ptx, "sm_90");
  ASSERT_TRUE(static_cast<bool>(C)) << toString(C.takeError());
  EXPECT_EQ(C->substr(0, 4), "\x7f" "ELF");
  EXPECT_EQ(*creates, 4);
  ASSERT_TRUE(assemblerBypassesJitCache().has_value());
  EXPECT_FALSE(*assemblerBypassesJitCache());
  // From now on without asking again; no handle leaks (the refused ones included).
  auto D = assembleCubin(Ptx, "sm_90");
  ASSERT_TRUE(static_cast<bool>(D)) << toString(D.takeError());
  EXPECT_EQ(*creates, 5);
  EXPECT_EQ(*live, 0);
}
