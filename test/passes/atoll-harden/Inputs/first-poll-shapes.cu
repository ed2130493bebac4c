// The usual shapes of counted polls, compiled in first-poll-flag.test: each must
// compile (its first-poll flag proven set after code generation), and each must be
// refused when the pass never sets the flag (-atoll-test-polled-stays-false).
typedef unsigned int u32;

// One loop: a dependent chase until a value from the table says stop.
extern "C" __global__ void one_loop(const u32 *t, u32 *out, u32 stop) {
  u32 v = 1, n = 0;
  do {
    v ^= t[v & 1023];
    ++n;
  } while (v != stop);
  out[threadIdx.x] = n;
}

// Two loops one after the other: the flag set in the first is still set in the second.
extern "C" __global__ void two_loops(const u32 *t, u32 *out, u32 stop) {
  u32 v = 1, n = 0;
  do {
    v ^= t[v & 1023];
    ++n;
  } while (v != stop);
  u32 w = n;
  do {
    w += t[w & 511];
    n *= 3;
  } while (w != stop);
  out[threadIdx.x] = n;
}

// Nested loops: an inner register loop inside an outer loop on a flag.
extern "C" __global__ void nested(const u32 *flag, u32 *out, u32 n) {
  u32 acc = 1;
  while (*(volatile const u32 *)flag == 0)
    for (u32 i = 0; i < n; ++i)
      acc = acc * 3u + i;
  out[threadIdx.x] = acc;
}

// A sleep in the loop (an eager poll every edge, and the counted check).
extern "C" __global__ void sleep_spin(const u32 *flag, u32 *out) {
  u32 n = 0;
  while (*(volatile const u32 *)flag == 0) {
    __nvvm_nanosleep(1000);
    ++n;
  }
  out[threadIdx.x] = n;
}

// A charged inner loop whose charge can pass half the entry budget (a heavy body),
// inside an outer loop: its entry check runs on every outer iteration.
extern "C" __global__ void charged_in_loop(const u32 *t, const u32 *flag, u32 *out, u32 m) {
  u32 v = 1;
  while (*(volatile const u32 *)flag == 0)
    for (u32 j = 0; j < (m & 1023); ++j) {
      v = t[v & 1023];
      v = t[v & 1023];
      v = t[v & 1023];
      v = t[v & 1023];
      v = t[v & 1023];
      v = t[v & 1023];
      v = t[v & 1023];
      v = t[v & 1023];
    }
  out[threadIdx.x] = v;
}

// A loop whose body is longer than the entry budget: an entry check inside the body,
// taken on every iteration.
#define HOP v = t[v & 1023];
#define HOP8 HOP HOP HOP HOP HOP HOP HOP HOP
#define HOP64 HOP8 HOP8 HOP8 HOP8 HOP8 HOP8 HOP8 HOP8
extern "C" __global__ void long_body(const u32 *t, u32 *out, u32 stop) {
  u32 v = 1, n = 0;
  do {
    HOP64 HOP64
    ++n;
  } while (v != stop);
  out[threadIdx.x] = n;
}
