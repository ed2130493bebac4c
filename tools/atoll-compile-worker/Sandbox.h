// The compile worker's self-confinement (libseccomp).
#pragma once

#include <string>

namespace atoll_worker {

/// Closes every fd >= first (close_range; a /proc/self/fd walk where it is missing).
bool closeFrom(int first);

/// Installs the allow-list filter: anything else kills the process (SIGSYS). Reads
/// and writes only on `socketFd` (writes also on stderr, which is /dev/null), memory
/// management, futexes, clocks, signal returns and exits: no open, no exec, no
/// socket, no fork.
bool installSeccomp(int socketFd, std::string &why);

} // namespace atoll_worker
