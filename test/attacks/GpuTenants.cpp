// GPU mode of atoll-attacks: the attacker and victim pipelines (see GpuSuite.h).
#include "GpuSuite.h"

namespace AtollAttacks::gpu {

/// Allocates `first` sizes, then fills the rest of the arena with buffers (largest
/// first), so that every byte of the arena belongs to a buffer the harness can read.
std::vector<Buffer> fillArena(Pipeline &p, std::vector<uint64_t> first, std::string &error) {
  std::vector<Buffer> out;
  for (uint64_t bytes : first) {
    auto b = p.allocate(bytes);
    if (!b) {
      error = describe(b.error());
      return {};
    }
    out.push_back(*b);
  }
  auto freeBytes = [&]() {
    uint64_t used = p.stats().bytesAllocated;
    return p.arenaBytes() > used ? p.arenaBytes() - used : 0;
  };
  uint64_t want = freeBytes() / ATOLL_BUFFER_ALIGNMENT * ATOLL_BUFFER_ALIGNMENT;
  for (int guard = 0; guard < 1024 && want >= ATOLL_BUFFER_ALIGNMENT; ++guard) {
    if (auto b = p.allocate(want)) {
      out.push_back(*b);
      want = freeBytes() / ATOLL_BUFFER_ALIGNMENT * ATOLL_BUFFER_ALIGNMENT;
    } else {
      want = want / 2 / ATOLL_BUFFER_ALIGNMENT * ATOLL_BUFFER_ALIGNMENT;
    }
  }
  return out;
}

std::optional<AttackerPipe> makeAttacker(Runtime &rt, uint64_t arenaBytes, const std::string &name,
                                         milliseconds timeout, std::string &error) {
  PipelineOptions po;
  po.arenaBytes = arenaBytes;
  po.name = name;
  po.timeout = timeout;
  auto p = rt.createPipeline(po);
  if (!p) {
    error = describe(p.error());
    return std::nullopt;
  }
  AttackerPipe a;
  a.p = std::move(*p);
  a.bufs = fillArena(*a.p, {kMiB, kMiB}, error);
  if (a.bufs.size() < 2)
    return std::nullopt;
  a.tail = a.bufs.back();
  for (const Buffer &b : a.bufs)
    if (b.offset() + b.size() > a.tail.offset() + a.tail.size())
      a.tail = b;
  return a;
}

Status initAttacker(AttackerPipe &a) {
  std::vector<uint32_t> iota(a.bufs[0].size() / 4);
  for (size_t i = 0; i < iota.size(); ++i)
    iota[i] = uint32_t(i);
  if (Status s = a.p->copyToDevice(a.bufs[0], iota); !s)
    return s;
  for (size_t i = 1; i < a.bufs.size(); ++i)
    if (Status s = a.p->fill(a.bufs[i], 0, a.bufs[i].size(), 0); !s)
      return s;
  return {};
}

/// Copies every attacker buffer to the host; reports victim words found in it.
bool scanAttacker(AttackerPipe &a, std::vector<std::vector<uint32_t>> &host,
                  std::vector<std::string> &details) {
  host.assign(a.bufs.size(), {});
  uint64_t hits = 0;
  std::string first;
  for (size_t i = 0; i < a.bufs.size(); ++i) {
    host[i].resize(a.bufs[i].size() / 4);
    if (Status s = a.p->copyToHost(host[i], a.bufs[i]); !s) {
      details.push_back("cannot read the attacker's buffer " + std::to_string(i) + ": " +
                        describe(s.error()));
      return false;
    }
    for (size_t w = 0; w < host[i].size(); ++w)
      if (looksSecret(host[i][w])) {
        if (hits < 3)
          first += std::string(hits ? ", " : "") + (i == 0 ? "A" : i == 1 ? "B" : "buf" + std::to_string(i)) +
                   "[" + std::to_string(w) + "] = " + hex(host[i][w]);
        ++hits;
      }
  }
  if (hits) {
    details.push_back("LEAK: " + std::to_string(hits) +
                      " victim word(s) (secret 0x5ECxxxxx or canary 0xdeadbeef) in the "
                      "attacker's arena: " + first);
    return false;
  }
  return true;
}

static std::vector<uint32_t> canaryWords(uint64_t bytes) { return std::vector<uint32_t>(bytes / 4, kCanary); }

/// [4 KiB canary][data][4 KiB canary]
static std::vector<uint32_t> framed(const std::vector<uint32_t> &data) {
  std::vector<uint32_t> v = canaryWords(kCanaryBytes);
  v.insert(v.end(), data.begin(), data.end());
  auto tail = canaryWords(kCanaryBytes);
  v.insert(v.end(), tail.begin(), tail.end());
  return v;
}

std::optional<Victim> makeVictim(Runtime &rt, const Application &controlsApp,
                                 const std::string &name, milliseconds timeout,
                                 std::string &error) {
  PipelineOptions po;
  po.arenaBytes = kVictimArena;
  po.name = name;
  po.timeout = timeout;
  auto p = rt.createPipeline(po);
  if (!p) {
    error = describe(p.error());
    return std::nullopt;
  }
  Victim v;
  v.p = std::move(*p);
  auto k = controlsApp.kernel("vadd_u32");
  if (!k) {
    error = describe(k.error());
    return std::nullopt;
  }
  v.vadd = *k;

  auto add = [&](const std::string &nm, std::vector<uint32_t> image) -> bool {
    auto b = v.p->allocate(image.size() * 4);
    if (!b) {
      error = describe(b.error());
      return false;
    }
    v.regions.push_back({nm, *b, std::move(image)});
    return true;
  };
  // Filler first so that the secret sits in the middle of the arena (+-2 MiB sprays
  // stay inside the canaried arena).
  if (!add("filler-low", canaryWords(6 * kMiB)))
    return std::nullopt;
  std::vector<uint32_t> secret(kSecretWords);
  for (uint32_t i = 0; i < kSecretWords; ++i)
    secret[i] = (i % 64 == 63) ? kCanary : secretWord(i);
  v.secret = v.regions.size();
  if (!add("secret", framed(secret)))
    return std::nullopt;
  std::vector<uint32_t> a(kHealthWords), bb(kHealthWords), c(kHealthWords);
  for (uint32_t i = 0; i < kHealthWords; ++i) {
    a[i] = 0x5EC00000u | (i & 0xFFFFu);
    bb[i] = (i * 7u) & 0xFFFu;
    c[i] = a[i] + bb[i];
  }
  v.va = v.regions.size();
  if (!add("health-a", framed(a)))
    return std::nullopt;
  v.vb = v.regions.size();
  if (!add("health-b", framed(bb)))
    return std::nullopt;
  v.vc = v.regions.size();
  if (!add("health-c", framed(c)))
    return std::nullopt;
  // The rest of the arena: canaries.
  std::string fillError;
  std::vector<Buffer> rest = fillArena(*v.p, {}, fillError);
  for (size_t i = 0; i < rest.size(); ++i)
    v.regions.push_back({"filler-" + std::to_string(i), rest[i], canaryWords(rest[i].size())});
  for (Region &r : v.regions)
    if (Status s = v.p->copyToDevice(r.buf, r.image); !s) {
      error = describe(s.error());
      return std::nullopt;
    }
  if (Status s = v.p->synchronize(); !s) {
    error = describe(s.error());
    return std::nullopt;
  }
  auto addr = v.p->deviceAddress(v.regions[v.secret].buf, kCanaryBytes);
  if (!addr) {
    error = describe(addr.error());
    return std::nullopt;
  }
  v.secretAddr = *addr;
  return v;
}

uint64_t victimCoverage(const Victim &v) {
  uint64_t n = 0;
  for (const Region &r : v.regions)
    n += r.buf.size();
  return n;
}

/// Compares the victim's whole arena with its image. Changed regions are restored
/// from the image afterwards, so that the next attack is judged on its own.
bool checkVictim(Victim &v, std::vector<std::string> &details) {
  uint64_t changed = 0;
  std::string first;
  std::vector<Region *> dirty;
  for (Region &r : v.regions) {
    std::vector<uint32_t> now(r.image.size());
    if (Status s = v.p->copyToHost(now, r.buf); !s) {
      details.push_back("cannot read the victim's " + r.name + ": " + describe(s.error()));
      return false;
    }
    bool regionChanged = false;
    for (size_t i = 0; i < now.size(); ++i)
      if (now[i] != r.image[i]) {
        if (changed < 4)
          first += std::string(changed ? "; " : "") + r.name + "+" + hex(4 * i) + ": " +
                   hex(r.image[i]) + " -> " + hex(now[i]) +
                   (r.image[i] == kCanary ? " (canary)" : " (data)");
        ++changed;
        regionChanged = true;
      }
    if (regionChanged)
      dirty.push_back(&r);
  }
  if (changed) {
    details.push_back("BREACH: " + std::to_string(changed) +
                      " word(s) of the victim's arena changed: " + first);
    bool restored = true;
    for (Region *r : dirty)
      restored = restored && v.p->copyToDevice(r->buf, r->image).ok();
    details.push_back(restored ? "(the victim's arena was restored from its image)"
                               : "the victim's arena could NOT be restored: later results "
                                 "may repeat this breach");
    return false;
  }
  return true;
}

/// The victim's benign kernel: recompute c = a + b and compare (with c's canaries).
bool victimHealth(Victim &v, std::vector<std::string> &details) {
  Region &rc = v.regions[v.vc];
  if (Status s = v.p->fill(rc.buf, kCanaryBytes, kHealthWords * 4, 0); !s) {
    details.push_back("UNHEALTHY: victim fill failed: " + describe(s.error()));
    return false;
  }
  Status s = v.p->launch(v.vadd, LaunchConfig{Dim3(kHealthWords / 256), Dim3(256)},
                         Arg::buffer(v.regions[v.va].buf, kCanaryBytes),
                         Arg::buffer(v.regions[v.vb].buf, kCanaryBytes),
                         Arg::buffer(rc.buf, kCanaryBytes), Arg::u32(kHealthWords));
  if (s)
    s = v.p->synchronize();
  if (!s) {
    details.push_back("UNHEALTHY: the victim's vadd failed: " + describe(s.error()));
    return false;
  }
  std::vector<uint32_t> now(rc.image.size());
  if (Status c = v.p->copyToHost(now, rc.buf); !c) {
    details.push_back("UNHEALTHY: cannot read the victim's result: " + describe(c.error()));
    return false;
  }
  for (size_t i = 0; i < now.size(); ++i)
    if (now[i] != rc.image[i]) {
      details.push_back("UNHEALTHY: the victim's vadd result differs at health-c+" + hex(4 * i) +
                        ": " + hex(now[i]) + ", expected " + hex(rc.image[i]));
      return false;
    }
  return true;
}

} // namespace AtollAttacks::gpu
