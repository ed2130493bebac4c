#include "Sandbox.h"

#include <seccomp.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace atoll_worker {

bool closeFrom(int first) {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, unsigned(first), ~0u, 0u) == 0)
    return true;
#endif
  DIR *d = ::opendir("/proc/self/fd");
  if (!d)
    return false;
  std::vector<int> fds;
  while (dirent *e = ::readdir(d)) {
    int fd = std::atoi(e->d_name);
    if (fd >= first && fd != ::dirfd(d))
      fds.push_back(fd);
  }
  ::closedir(d);
  for (int fd : fds)
    ::close(fd);
  return true;
}

bool setOomScoreAdj(int value, std::string &why) {
  int fd = ::open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    why = std::string("cannot open /proc/self/oom_score_adj: ") + std::strerror(errno);
    return false;
  }
  std::string text = std::to_string(value) + "\n";
  bool ok = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  if (!ok)
    why = std::string("cannot write /proc/self/oom_score_adj: ") + std::strerror(errno);
  ::close(fd);
  return ok;
}

bool installSeccomp(int socketFd, std::string &why, bool audit) {
  // Default: kill the whole process (SIGSYS); the runtime reports a crashed worker.
  scmp_filter_ctx ctx = seccomp_init(audit ? SCMP_ACT_LOG : SCMP_ACT_KILL_PROCESS);
  if (!ctx) {
    why = "seccomp_init failed";
    return false;
  }
  int rc = 0;
  auto allow = [&](int nr) {
    if (rc == 0)
      rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
  };
  auto allowFd = [&](int nr, int fd) {
    if (rc == 0)
      rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1, SCMP_A0(SCMP_CMP_EQ, unsigned(fd)));
  };
  // I/O: the socket only (stderr is /dev/null: LLVM may print there).
  // Measured (strace -f over the unit tests and the hostile corpus): after the
  // filter a worker calls recvfrom/sendto/poll on its socket, memory management,
  // futex, and on a crash the signal calls of LLVM's handlers and abort().
  for (int nr : {SCMP_SYS(read), SCMP_SYS(recvfrom)})
    allowFd(nr, socketFd);
  for (int nr : {SCMP_SYS(write), SCMP_SYS(sendto)}) {
    allowFd(nr, socketFd);
    allowFd(nr, 2);
  }
  allow(SCMP_SYS(poll)); // reads nothing but the pollfd array it is given
  // Memory: never executable (nothing here generates code to run).
  if (rc == 0)
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
                          SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
  if (rc == 0)
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
                          SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
  for (int nr : {SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(brk), SCMP_SYS(madvise)})
    allow(nr);
  // Threads' synchronisation, time, signals (LLVM's crash recovery), exit.
  for (int nr : {SCMP_SYS(futex), SCMP_SYS(clock_gettime), SCMP_SYS(getpid), SCMP_SYS(gettid),
                 SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigaction),
                 SCMP_SYS(exit), SCMP_SYS(exit_group)})
    allow(nr);
  // glibc's qsort (llvm::array_pod_sort) asks sysinfo for the physical memory size
  // before sorting a large array (measured: modulo-based compiles of the benchmark
  // kernels were killed for it). It only reports memory and load figures.
  allow(SCMP_SYS(sysinfo));
  // Identity and CPU queries that report and change nothing: where the driver is
  // installed (the GPU host), nvJitLink's libcuda asks geteuid at assembly time
  // (measured on the H200: every assemble was killed for syscall 107).
  for (int nr : {SCMP_SYS(geteuid), SCMP_SYS(getuid), SCMP_SYS(getegid), SCMP_SYS(getgid),
                 SCMP_SYS(getppid), SCMP_SYS(uname), SCMP_SYS(sched_getaffinity),
                 SCMP_SYS(sched_yield), SCMP_SYS(getrandom), SCMP_SYS(fstat)})
    allow(nr);
  // Closing its own descriptors changes nothing outside the worker.
  allow(SCMP_SYS(close));
  // Where the driver is installed, nvJitLink's libcuda also tries to make device
  // nodes and to reach a daemon over a socket (measured on the H200 in audit mode:
  // mknodat, socket, connect, setsockopt): each fails with an error, as it does
  // when the daemon is not running; the worker has no business with either.
  for (int nr : {SCMP_SYS(mknodat), SCMP_SYS(mknod)})
    if (rc == 0)
      rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
  for (int nr : {SCMP_SYS(socket), SCMP_SYS(connect), SCMP_SYS(setsockopt)})
    if (rc == 0)
      rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 0);
  // With no socket, libcuda then asks ioctl of a descriptor it has (measured); the
  // worker's only descriptors are /dev/null and its socket, and no device file can
  // be opened, so every ioctl is answered "not a terminal".
  if (rc == 0)
    rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 0);
  // Looking a path up fails like opening one (below): a library probing for an
  // optional file must fail the lookup, not the compilation.
  for (int nr : {SCMP_SYS(stat), SCMP_SYS(lstat), SCMP_SYS(newfstatat), SCMP_SYS(statx),
                 SCMP_SYS(access), SCMP_SYS(faccessat), SCMP_SYS(faccessat2),
                 SCMP_SYS(readlink), SCMP_SYS(readlinkat)})
    if (rc == 0)
      rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 0);
  // Opening files is refused with EACCES rather than killing: nvJitLink probes for
  // libcuda.so.1 at assembly time where the driver is missing (measured: openat of
  // /etc/ld.so.cache), and a library that looks for an optional file must fail
  // the lookup, not the compilation. Nothing can be opened either way.
  for (int nr : {SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(openat2)})
    if (rc == 0)
      rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 0);
  // abort() and LLVM's crash handlers re-raise the signal at themselves only.
  if (rc == 0)
    rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
                          SCMP_A0(SCMP_CMP_EQ, unsigned(::getpid())));
  if (rc == 0)
    rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc != 0) {
    why = std::strerror(-rc);
    return false;
  }
  return true;
}

} // namespace atoll_worker
