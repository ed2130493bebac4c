// A stand-in libnvJitLink.so.13 for AssemblerFallbackTest: an nvJitLink too old to
// know -no-cache. nvJitLinkCreate refuses any option it does not know with
// NVJITLINK_ERROR_UNRECOGNIZED_OPTION (1) and, like the real library, hands back a
// handle all the same; it knows -arch=sm_90 only. The "cubin" is an ELF header.
// Test builds only, in a directory of its own (lib64/ under a fake toolkit root).
#include <cstdint>
#include <cstring>
#include <string>

extern "C" {
__attribute__((visibility("default"))) int atoll_fake_nvjitlink_creates = 0;
__attribute__((visibility("default"))) int atoll_fake_nvjitlink_live = 0;

__attribute__((visibility("default"))) int nvJitLinkCreate(void **handle, uint32_t n,
                                                           const char **opts) {
  atoll_fake_nvjitlink_creates++;
  *handle = new int(0);
  atoll_fake_nvjitlink_live++;
  for (uint32_t i = 0; i < n; ++i)
    if (std::string(opts[i]) != "-arch=sm_90")
      return 1;
  return 0;
}
__attribute__((visibility("default"))) int nvJitLinkDestroy(void **handle) {
  delete static_cast<int *>(*handle);
  *handle = nullptr;
  atoll_fake_nvjitlink_live--;
  return 0;
}
__attribute__((visibility("default"))) int nvJitLinkAddData(void *, int, const void *, size_t,
                                                            const char *) {
  return 0;
}
__attribute__((visibility("default"))) int nvJitLinkComplete(void *) { return 0; }
__attribute__((visibility("default"))) int nvJitLinkGetLinkedCubinSize(void *, size_t *size) {
  *size = 64;
  return 0;
}
__attribute__((visibility("default"))) int nvJitLinkGetLinkedCubin(void *, void *out) {
  std::memset(out, 0, 64);
  std::memcpy(out, "\x7f" "ELF", 4);
  return 0;
}
__attribute__((visibility("default"))) int nvJitLinkGetErrorLogSize(void *, size_t *size) {
  *size = 0;
  return 0;
}
__attribute__((visibility("default"))) int nvJitLinkGetErrorLog(void *, char *) { return 0; }
}
