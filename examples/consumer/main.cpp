// Links the installed libatoll_runtime, creates a Runtime and prints the device it
// found, or the typed error that says why there is none. Exit 0 either way; 1 on any
// other error.
#include <atoll/atoll.h>

#include <cstdio>

int main() {
  std::printf("AToLL ABI version %u, %u hidden kernel parameters\n", ATOLL_ABI_VERSION,
              ATOLL_HIDDEN_PARAM_COUNT);
  auto runtime = Atoll::Runtime::create();
  if (!runtime) {
    const Atoll::Error &e = runtime.error();
    std::printf("no CUDA device (%s): %s\n", std::string(Atoll::to_string(e.code())).c_str(),
                e.message().c_str());
    const bool noGpu = e.code() == Atoll::ErrorCode::NoDriver ||
                       e.code() == Atoll::ErrorCode::NoDevice;
    return noGpu ? 0 : 1;
  }
  const Atoll::DeviceInfo &d = (*runtime)->device();
  std::printf("CUDA device %d: %s (%s)\n", d.ordinal, d.name.c_str(), d.targetArch.c_str());
  return 0;
}
