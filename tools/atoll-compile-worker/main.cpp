// atoll-compile-worker: one sandboxed, single-use compilation for the AToLL runtime
// (docs/architecture.md, "The compile worker"). Started by the runtime's compile
// pool with its socket as fd 3; it limits itself before it reads anything, loads
// what it needs, installs a seccomp allow-list, says Ready, serves exactly one
// request and exits. The toolchain lives in libatoll_runtime (no second LLVM here).
//
//   atoll-compile-worker --parent=PID [--memory=BYTES] [--cpu=SECONDS] [--libdevice=PATH]
#include "Sandbox.h"
#include "compile/WorkerEntry.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int kSocketFd = 3;

bool parseU64(const char *s, unsigned long long &out) {
  if (!s || !*s)
    return false;
  char *end = nullptr;
  errno = 0;
  out = std::strtoull(s, &end, 10);
  return errno == 0 && end && *end == '\0';
}

bool setLimit(int resource, rlim_t soft, rlim_t hard) {
  rlimit rl{soft, hard};
  return ::setrlimit(resource, &rl) == 0;
}

[[noreturn]] void usage(const char *why) {
  std::fprintf(stderr, "atoll-compile-worker: %s\n", why);
  ::_exit(ATOLL_WORKER_EXIT_USAGE);
}

} // namespace

int main(int argc, char **argv) {
  unsigned long long parent = 0, memory = 4ull << 30, cpu = 60;
  std::string libdevice;
  bool audit = false;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!std::strncmp(a, "--parent=", 9)) {
      if (!parseU64(a + 9, parent))
        usage("bad --parent");
    } else if (!std::strncmp(a, "--memory=", 9)) {
      if (!parseU64(a + 9, memory))
        usage("bad --memory");
    } else if (!std::strncmp(a, "--cpu=", 6)) {
      if (!parseU64(a + 6, cpu) || cpu == 0)
        usage("bad --cpu");
    } else if (!std::strcmp(a, "--seccomp-audit")) {
      audit = true; // diagnostics only: log forbidden calls instead of killing
    } else if (!std::strncmp(a, "--libdevice=", 12)) {
      libdevice = a + 12;
    } else {
      usage("unknown argument (this program is started by the AToLL runtime)");
    }
  }
  if (parent == 0)
    usage("--parent is required (this program is started by the AToLL runtime)");

  // Die with the service; and if it is already gone, do not serve anyone else.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != pid_t(parent))
    ::_exit(ATOLL_WORKER_EXIT_USAGE);
  // Nothing inherited but stdio (/dev/null from the pool) and the socket.
  if (!atoll_worker::closeFrom(kSocketFd + 1))
    ::_exit(ATOLL_WORKER_EXIT_USAGE);
  // RLIMIT_CPU: SIGXCPU at the soft limit, SIGKILL one second later.
  // RLIMIT_NOFILE: initialisation opens libdevice and dlopens nvJitLink; after the
  // filter, no open is allowed at all.
  if (!setLimit(RLIMIT_AS, memory, memory) || !setLimit(RLIMIT_CPU, cpu, cpu + 1) ||
      !setLimit(RLIMIT_FSIZE, 0, 0) || !setLimit(RLIMIT_CORE, 0, 0) ||
      !setLimit(RLIMIT_NOFILE, 32, 32) ||
      ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    ::_exit(ATOLL_WORKER_EXIT_USAGE);

  // First in line for the OOM killer: many workers near their memory limit must
  // never make the kernel kill the service (one CUDA context, every tenant). A worker
  // that cannot say so does not serve.
  if (std::string why; !atoll_worker::setOomScoreAdj(1000, why)) {
    atoll_compile_worker_fail(kSocketFd, why.c_str());
    ::_exit(ATOLL_WORKER_EXIT_INIT);
  }
  char err[1024] = {};
  if (int rc = atoll_compile_worker_prepare(libdevice.c_str(), err, sizeof err); rc != 0) {
    atoll_compile_worker_fail(kSocketFd, err);
    ::_exit(rc);
  }
  if (std::string why; !atoll_worker::installSeccomp(kSocketFd, why, audit)) {
    atoll_compile_worker_fail(kSocketFd, ("cannot install the seccomp filter: " + why).c_str());
    ::_exit(ATOLL_WORKER_EXIT_INIT);
  }
  // _exit: no static destructors (LLVM's) after the answer; nothing is left to flush.
  ::_exit(atoll_compile_worker_serve(kSocketFd));
}
