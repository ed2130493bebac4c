// A stand-in compile worker for the pool's tests: it speaks the protocol (or
// deliberately does not) so that every way a worker can misbehave is exercised
// without hooks in the real worker. Test builds only; the runtime never starts it
// unless a test points PoolConfig::workerPath at it.
//
//   atoll-test-fake-worker --parent=PID --memory=B --cpu=S [--mode=MODE]
// A compile request named "mode:MODE" overrides --mode for that one worker.
#include "Protocol_generated.h"
#include "Sandbox.h"
#include "compile/Protocol.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <vector>

using namespace Atoll::detail::compile;

namespace {
constexpr int kFd = 3;
auto forever() { return Clock::now() + std::chrono::hours(1); }

void send(std::string_view bytes) { (void)writeAll(kFd, bytes, forever()); }

/// A compromised worker's Compiled answer (review R10-F2): one 8 KiB name shared by
/// `kernels` kernels (FlatBuffers lets many tables point at one string).
std::string sharedNameFrame(size_t kernels) {
  flatbuffers::FlatBufferBuilder b(1 << 16);
  auto name = b.CreateString(std::string(8 << 10, 'k'));
  auto kernel = Atoll::wire::CreateKernel(b, name, 0);
  std::vector<flatbuffers::Offset<Atoll::wire::Kernel>> ks(kernels, kernel);
  auto kv = b.CreateVector(ks);
  auto ptx = b.CreateString(".version 7.8\n");
  auto c = Atoll::wire::CreateCompiled(b, ptx, kv, 0);
  b.Finish(Atoll::wire::CreateResponse(b, kProtocolVersion, Atoll::wire::Result::Compiled,
                                       c.Union()));
  uint32_t magic = kFrameMagic, size = b.GetSize();
  std::string out(8, '\0');
  std::memcpy(out.data(), &magic, 4);
  std::memcpy(out.data() + 4, &size, 4);
  out.append(reinterpret_cast<const char *>(b.GetBufferPointer()), size);
  return out;
}

std::string header(uint32_t magic, uint32_t size) {
  std::string h(8, '\0');
  std::memcpy(h.data(), &magic, 4);
  std::memcpy(h.data() + 4, &size, 4);
  return h;
}
} // namespace

int main(int argc, char **argv) {
  std::string mode = "ok";
  unsigned long long memory = 4ull << 30, cpu = 60;
  for (int i = 1; i < argc; ++i) {
    if (!std::strncmp(argv[i], "--mode=", 7))
      mode = argv[i] + 7;
    if (!std::strncmp(argv[i], "--cpu=", 6))
      cpu = std::strtoull(argv[i] + 6, nullptr, 10);
    if (!std::strncmp(argv[i], "--memory=", 9))
      memory = std::strtoull(argv[i] + 9, nullptr, 10);
  }
  if (mode == "no-ready")
    ::_exit(1);
  send(encodeResponse(Ready{true}));
  auto req = readFrame(kFd, 1u << 30, forever());
  if (!req)
    ::_exit(5);
  // A compile request named "mode:X" picks the behaviour for this worker only.
  if (auto r = decodeRequest(*req); r.ok())
    if (const auto *c = std::get_if<CompileJob>(&*r); c && c->name.rfind("mode:", 0) == 0)
      mode = c->name.substr(5);
  // An assemble request (no name to pick a mode by) gets a small cubin.
  if (auto r = decodeRequest(*req); r.ok() && std::holds_alternative<AssembleJob>(*r) &&
                                    mode == "ok") {
    send(encodeResponse(Assembled{std::string("\x7f" "ELF") + std::string(1020, '\0')}));
    ::_exit(0);
  }
  // A 1 MiB compile answer: its header at once, then (after 300 ms) its payload
  // (slow-big), or half of it and an exit (big-truncated): the service holds the
  // answer budget's charge from the header on.
  if (mode == "slow-big" || mode == "big-truncated") {
    std::string full = encodeResponse(Compiled{std::string(1u << 20, '/'), {}, {}});
    send(std::string_view(full).substr(0, kFrameHeaderBytes));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    if (mode == "big-truncated") {
      send(std::string_view(full).substr(kFrameHeaderBytes, full.size() / 2));
      ::_exit(0);
    }
    send(std::string_view(full).substr(kFrameHeaderBytes));
    ::_exit(0);
  }
  if (mode == "cpu") {
    rlimit rl{cpu, cpu + 1};
    ::setrlimit(RLIMIT_CPU, &rl);
    mode = "spin";
  }
  // The real worker's filter (tools/atoll-compile-worker/Sandbox.cpp), then what a
  // compromised worker would try: each must kill it (SIGSYS).
  if (mode.rfind("seccomp-", 0) == 0) {
    std::string why;
    if (!atoll_worker::installSeccomp(kFd, why))
      ::_exit(6);
    if (mode == "seccomp-socket") {
      // Refused with EACCES (not a kill): libcuda tries a daemon's socket.
      int fd = ::socket(AF_INET, SOCK_STREAM, 0);
      send(encodeResponse(Failed{FailureKind::CompileError,
                                 fd < 0 && errno == EACCES ? "socket refused" : "socket succeeded",
                                 ""}));
      ::_exit(0);
    }
    if (mode == "seccomp-open") {
      // Refused with EACCES (not a kill): libraries probing for files go on.
      int fd = ::open("/etc/hostname", O_RDONLY);
      send(encodeResponse(Failed{FailureKind::CompileError,
                                 fd < 0 && errno == EACCES ? "open refused" : "open succeeded",
                                 {}}));
      ::_exit(0);
    }
    if (mode == "seccomp-exec") {
      char *argv[] = {const_cast<char *>("/bin/true"), nullptr};
      ::execv("/bin/true", argv);
    }
    if (mode == "seccomp-fork")
      ::fork();
    if (mode == "seccomp-write-other-fd")
      (void)!::write(1, "x", 1);
    if (mode == "seccomp-mprotect-exec") {
      void *p = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      ::mprotect(p, 4096, PROT_READ | PROT_EXEC);
    }
    if (mode == "seccomp-kill-parent")
      ::kill(::getppid(), SIGKILL);
    // Still alive: the filter let it through. Answer, so the test sees it.
    send(encodeResponse(Failed{FailureKind::CompileError, "survived " + mode, {}}));
    ::_exit(0);
  }
  if (mode == "shared-name-600") {
    send(sharedNameFrame(600));
    ::_exit(0);
  }
  if (mode == "shared-name") {
    send(sharedNameFrame(100));
    ::_exit(0);
  }
  if (mode == "crash")
    std::raise(SIGSEGV);
  if (mode == "abort")
    std::abort();
  if (mode == "hang")
    for (;;)
      ::pause();
  if (mode == "spin") {
    volatile unsigned long x = 0;
    for (;;)
      x = x + 1;
  }
  if (mode == "oom") {
    // As the real worker: RLIMIT_AS, then an allocation failure exits with status 3.
    rlimit rl{memory, memory};
    ::setrlimit(RLIMIT_AS, &rl);
    std::set_new_handler([] { ::_exit(3); });
    std::vector<char *> hog;
    for (;;) {
      char *p = new char[64 << 20];
      std::memset(p, 1, 64 << 20);
      hog.push_back(p);
    }
  }
  if (mode == "garbage") {
    send(header(kFrameMagic, 64) + std::string(64, '\x5a'));
    ::_exit(0);
  }
  if (mode == "bad-magic") {
    send(header(0x12345678, 16) + std::string(16, '\0'));
    ::_exit(0);
  }
  if (mode == "oversize") {
    send(header(kFrameMagic, 0x7fffffff));
    ::_exit(0);
  }
  if (mode == "truncated") {
    std::string full = encodeResponse(Compiled{".version 8.0\n", {}, {}});
    send(full.substr(0, full.size() / 2));
    ::_exit(0);
  }
  if (mode == "silent-exit")
    ::_exit(0);
  if (mode == "ready-again") {
    send(encodeResponse(Ready{true}));
    ::_exit(0);
  }
  if (mode == "pid") {
    // The answer names this process, so tests can see that no worker serves twice.
    Atoll::KernelInfo k;
    k.name = "pid_" + std::to_string(::getpid());
    send(encodeResponse(Compiled{"// fake\n", {k}, {}}));
    ::_exit(0);
  }
  if (mode == "where") {
    // Where it woke for the request (PoolConfig::startOnSender), and, once the
    // service has given it back its own CPU set, how many CPUs that set has.
    int woke = ::sched_getcpu();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cpu_set_t set;
    int allowed = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
    Atoll::KernelInfo cpu, count;
    cpu.name = "cpu_" + std::to_string(woke);
    count.name = "allowed_" + std::to_string(allowed);
    send(encodeResponse(Compiled{"// fake\n", {cpu, count}, {}}));
    ::_exit(0);
  }
  if (mode == "wait-end") {
    // As the real worker: answers, then waits until the service ends it (SIGKILL,
    // or the end of the socket).
    send(encodeResponse(Compiled{"// fake\n", {}, {}}));
    pollfd p{kFd, POLLIN, 0};
    while (::poll(&p, 1, -1) < 0 && errno == EINTR) {
    }
    ::_exit(0);
  }
  if (mode == "slow-ok") {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    send(encodeResponse(Compiled{"// fake\n", {}, {}}));
    ::_exit(0);
  }
  send(encodeResponse(Compiled{"// fake\n", {}, {}}));
  ::_exit(0);
}
