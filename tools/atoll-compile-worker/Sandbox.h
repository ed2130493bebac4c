// The compile worker's self-confinement (libseccomp).
#pragma once

#include <string>

namespace atoll_worker {

/// Closes every fd >= first (close_range; a /proc/self/fd walk where it is missing).
bool closeFrom(int first);

/// Writes /proc/self/oom_score_adj (raising it needs no privilege): at 1000 the
/// kernel's OOM killer picks this process before any other, never the service.
bool setOomScoreAdj(int value, std::string &why);

/// Installs the allow-list filter: anything else kills the process (SIGSYS). Reads
/// and writes only on `socketFd` (writes also on stderr, which is /dev/null), memory
/// management, futexes, clocks, signal returns and exits: no open, no exec, no
/// socket, no fork.
/// audit: the default action logs (kernel audit log, type 1326) instead of killing;
/// for finding the calls a new library needs (ATOLL_WORKER_SECCOMP_AUDIT=1 in the
/// service's environment), never for production.
bool installSeccomp(int socketFd, std::string &why, bool audit = false);

} // namespace atoll_worker
