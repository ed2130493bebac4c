/* The compile worker's entry points, exported by libatoll_runtime (which holds the
 * toolchain) for the small atoll-compile-worker executable, so that the worker
 * carries no second copy of LLVM. Only the worker process calls them. */
#pragma once

#include <stddef.h>

#define ATOLL_EXPORT __attribute__((visibility("default")))

/* Exit statuses of the worker besides 0 (response sent). */
#define ATOLL_WORKER_EXIT_RESOURCES 3 /* out of memory (RLIMIT_AS) */
#define ATOLL_WORKER_EXIT_INIT 4      /* initialisation failed (its Failed frame says why) */
#define ATOLL_WORKER_EXIT_PROTOCOL 5  /* the request could not be read or answered */
#define ATOLL_WORKER_EXIT_USAGE 64

#ifdef __cplusplus
extern "C" {
#endif

/* Before the seccomp filter: reads libdevice into memory (NULL or "" = the
 * configured toolkit's), loads the PTX assembler if there is one, installs the
 * out-of-memory handlers and compiles a small module once so that everything LLVM
 * initialises lazily is initialised. 0 on success; otherwise writes why to err. */
ATOLL_EXPORT int atoll_compile_worker_prepare(const char *libdevice, char *err, size_t errLen);

/* After the filter: sends Ready, serves exactly one request on fd, answers it. 0
 * when the answer was sent, ATOLL_WORKER_EXIT_PROTOCOL otherwise. */
ATOLL_EXPORT int atoll_compile_worker_serve(int fd);

/* Part of prepare, exposed for tests: the process keeps the heap memory it frees
 * (no trimming; blocks below 32 MiB from the heap, not from a fresh mmap each) and
 * faults in ATOLL_WORKER_WARM_HEAP_BYTES of heap now, so that the one request runs on
 * pages already mapped, as a compile in a long-lived process mostly does. */
#define ATOLL_WORKER_WARM_HEAP_BYTES (8u << 20)
ATOLL_EXPORT void atoll_compile_worker_keep_heap(void);

/* Sends a Failed frame (initialisation failed) on fd. */
ATOLL_EXPORT void atoll_compile_worker_fail(int fd, const char *message);

#ifdef __cplusplus
}
#endif
