// The compile worker's protocol: what a (possibly compromised) worker sends is
// untrusted. Malformed, truncated, oversize and wrong-version frames are typed
// errors, never crashes.
#include "compile/Protocol.h"

#include "Protocol_generated.h"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <new>
#include <random>
#include <thread>

using namespace Atoll;
using namespace Atoll::detail::compile;

namespace {

std::string payloadOf(const std::string &frame) { return frame.substr(kFrameHeaderBytes); }

Compiled sampleCompiled() {
  Compiled c;
  c.ptx = ".version 8.0\n.target sm_90\n";
  KernelInfo k;
  k.name = "vadd";
  ParamInfo p;
  p.kind = ParamKind::Pointer;
  p.size = 8;
  p.align = 8;
  p.type = "ptr";
  k.params = {p, p};
  c.kernels = {k};
  c.report = "{}";
  return c;
}

struct SocketPair {
  int fd[2];
  SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fd), 0); }
  ~SocketPair() {
    for (int f : fd)
      if (f >= 0)
        ::close(f);
  }
  void closeWriter() {
    ::close(fd[1]);
    fd[1] = -1;
  }
};

std::string versioned(uint32_t version) {
  flatbuffers::FlatBufferBuilder b;
  auto ready = Atoll::wire::CreateReady(b, true);
  b.Finish(Atoll::wire::CreateResponse(b, version, Atoll::wire::Result::Ready, ready.Union()));
  return std::string(reinterpret_cast<const char *>(b.GetBufferPointer()), b.GetSize());
}

} // namespace

TEST(CompileProtocol, RoundTripsEveryMessage) {
  auto c = decodeResponse(payloadOf(encodeResponse(sampleCompiled())));
  ASSERT_TRUE(c.ok()) << c.error().describe();
  const auto &got = std::get<Compiled>(*c);
  EXPECT_EQ(got.ptx, sampleCompiled().ptx);
  ASSERT_EQ(got.kernels.size(), 1u);
  EXPECT_EQ(got.kernels[0].name, "vadd");
  EXPECT_EQ(got.kernels[0].params.size(), 2u);
  EXPECT_EQ(got.kernels[0].params[1].kind, ParamKind::Pointer);
  EXPECT_EQ(got.report, "{}");

  auto a = decodeResponse(payloadOf(encodeResponse(Assembled{std::string("\x7f" "ELF\0\1", 6)})));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(std::get<Assembled>(*a).cubin.size(), 6u);

  auto f = decodeResponse(payloadOf(encodeResponse(Failed{FailureKind::Refused, "no", "d"})));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(std::get<Failed>(*f).kind, FailureKind::Refused);
  EXPECT_EQ(std::get<Failed>(*f).diagnostics, "d");

  CompileJob job;
  job.bitcode = std::string("BC\xc0\xde\0\x01", 6);
  job.clamping = Clamping::ModuloBased;
  job.optLevel = 3;
  job.abiVersion = 7;
  auto r = decodeRequest(payloadOf(encodeRequest(job)));
  ASSERT_TRUE(r.ok());
  const auto &j = std::get<CompileJob>(*r);
  EXPECT_EQ(j.bitcode, job.bitcode);
  EXPECT_EQ(j.clamping, Clamping::ModuloBased);
  EXPECT_EQ(j.optLevel, 3u);
  EXPECT_EQ(j.abiVersion, 7u);
  auto as = decodeRequest(payloadOf(encodeRequest(AssembleJob{"ptx", "sm_90"})));
  ASSERT_TRUE(as.ok());
  EXPECT_EQ(std::get<AssembleJob>(*as).arch, "sm_90");
}

TEST(CompileProtocol, EveryTruncationIsAnError) {
  std::string payload = payloadOf(encodeResponse(sampleCompiled()));
  for (size_t n = 0; n < payload.size(); ++n) {
    auto r = decodeResponse(payload.substr(0, n));
    EXPECT_FALSE(r.ok()) << "prefix of " << n << " bytes decoded";
    if (!r.ok())
      EXPECT_EQ(r.error().code(), ErrorCode::CompileError);
  }
}

TEST(CompileProtocol, MutatedPayloadsNeverCrash) {
  std::string payload = payloadOf(encodeResponse(sampleCompiled()));
  std::mt19937 rng(14);
  int rejected = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string m = payload;
    for (int k = 0, flips = 1 + int(rng() % 4); k < flips; ++k)
      m[rng() % m.size()] = char(rng());
    auto r = decodeResponse(m);
    if (!r.ok()) {
      ++rejected;
      EXPECT_EQ(r.error().code(), ErrorCode::CompileError);
      EXPECT_NE(r.error().message().find("compile worker"), std::string::npos);
    }
  }
  EXPECT_GT(rejected, 0); // the mutations do reach the checks
}

TEST(CompileProtocol, WrongVersionIsATypedError) {
  auto ok = decodeResponse(versioned(kProtocolVersion));
  ASSERT_TRUE(ok.ok());
  auto r = decodeResponse(versioned(kProtocolVersion + 1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code(), ErrorCode::CompileError);
  EXPECT_NE(r.error().message().find("protocol version 2"), std::string::npos)
      << r.error().message();
}

TEST(CompileProtocol, SemanticChecks) {
  Compiled noName = sampleCompiled();
  noName.kernels[0].name.clear();
  auto r = decodeResponse(payloadOf(encodeResponse(noName)));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("without a name"), std::string::npos);

  Compiled badKind = sampleCompiled();
  badKind.kernels[0].params[0].kind = ParamKind(7);
  r = decodeResponse(payloadOf(encodeResponse(badKind)));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("parameter kind 7"), std::string::npos);

  Compiled noPtx = sampleCompiled();
  noPtx.ptx.clear();
  r = decodeResponse(payloadOf(encodeResponse(noPtx)));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("no PTX"), std::string::npos);

  r = decodeResponse(payloadOf(encodeResponse(Failed{FailureKind(9), "x", ""})));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("failure kind 9"), std::string::npos);

  r = decodeResponse(payloadOf(encodeResponse(Assembled{""})));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("empty cubin"), std::string::npos);

  Compiled many = sampleCompiled();
  many.kernels[0].params.resize(kMaxParams + 1);
  r = decodeResponse(payloadOf(encodeResponse(many)));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("too many parameters"), std::string::npos);
}

TEST(CompileProtocol, FrameHeaderChecks) {
  std::string frame = encodeResponse(sampleCompiled());
  auto ok = parseFrameHeader(std::string_view(frame).substr(0, 8), 1 << 20);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, frame.size() - 8);
  auto small = parseFrameHeader(std::string_view(frame).substr(0, 8), 16);
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.error().code(), ErrorCode::CompileResources);
  EXPECT_NE(small.error().message().find("output limit of 16 bytes"), std::string::npos);
  std::string bad = frame.substr(0, 8);
  bad[0] = 'X';
  auto magic = parseFrameHeader(bad, 1 << 20);
  ASSERT_FALSE(magic.ok());
  EXPECT_EQ(magic.error().code(), ErrorCode::CompileError);
  EXPECT_NE(magic.error().message().find("bad frame magic"), std::string::npos);
  EXPECT_FALSE(parseFrameHeader("1234", 1 << 20).ok());
}

TEST(CompileProtocol, ReadFrameOverASocket) {
  auto soon = [] { return Clock::now() + std::chrono::seconds(5); };
  {
    SocketPair s;
    std::string frame = encodeResponse(sampleCompiled());
    ASSERT_TRUE(writeAll(s.fd[1], frame, soon()).ok());
    auto got = readFrame(s.fd[0], 1 << 20, soon());
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(decodeResponse(*got).ok());
  }
  { // truncated: the writer goes away mid-frame
    SocketPair s;
    std::string frame = encodeResponse(sampleCompiled());
    ASSERT_TRUE(writeAll(s.fd[1], frame.substr(0, frame.size() - 3), soon()).ok());
    s.closeWriter();
    auto got = readFrame(s.fd[0], 1 << 20, soon());
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().code(), ErrorCode::CompileError);
    EXPECT_NE(got.error().message().find("truncated frame"), std::string::npos);
  }
  { // oversize: refused from the header, before reading the body
    SocketPair s;
    std::string frame = encodeResponse(sampleCompiled());
    ASSERT_TRUE(writeAll(s.fd[1], frame, soon()).ok());
    auto got = readFrame(s.fd[0], 8, soon());
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().code(), ErrorCode::CompileResources);
  }
  { // silence: the deadline holds
    SocketPair s;
    auto start = Clock::now();
    auto got = readFrame(s.fd[0], 1 << 20, Clock::now() + std::chrono::milliseconds(100));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().code(), ErrorCode::CompileTimeout);
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
  }
  { // a dead peer is an error, not SIGPIPE
    SocketPair s;
    ::close(s.fd[0]);
    s.fd[0] = -1;
    auto sent = writeAll(s.fd[1], std::string(1 << 20, 'x'), soon());
    ASSERT_FALSE(sent.ok());
    EXPECT_EQ(sent.error().code(), ErrorCode::CompileError);
  }
}

// R4-F2: a worker's answer is decoded in place. The PTX (or cubin) handed on is the
// frame's own allocation, not a copy, and decodes to what the copying decoder gives;
// the mutations that the copying decoder refuses are refused in place too.
TEST(CompileProtocol, DecodesAnswersInPlace) {
  Compiled big = sampleCompiled();
  big.ptx = std::string(1 << 20, 'p');
  std::string payload = payloadOf(encodeResponse(big));
  auto copied = decodeResponse(std::string_view(payload));
  ASSERT_TRUE(copied.ok());
  const char *frameBuffer = payload.data();
  auto inPlace = decodeResponse(std::move(payload));
  ASSERT_TRUE(inPlace.ok()) << inPlace.error().describe();
  const auto &a = std::get<Compiled>(*copied), &b = std::get<Compiled>(*inPlace);
  EXPECT_EQ(b.ptx, big.ptx);
  EXPECT_EQ(b.ptx.data(), frameBuffer) << "the PTX was copied out of the frame";
  EXPECT_EQ(b.report, a.report);
  ASSERT_EQ(b.kernels.size(), 1u);
  EXPECT_EQ(b.kernels[0].name, "vadd");
  EXPECT_EQ(b.kernels[0].params.size(), 2u);

  std::string cubin = "\x7f" "ELF" + std::string(4096, 'c');
  std::string asmPayload = payloadOf(encodeResponse(Assembled{cubin}));
  const char *asmBuffer = asmPayload.data();
  auto assembled = decodeResponse(std::move(asmPayload));
  ASSERT_TRUE(assembled.ok());
  EXPECT_EQ(std::get<Assembled>(*assembled).cubin, cubin);
  EXPECT_EQ(std::get<Assembled>(*assembled).cubin.data(), asmBuffer);

  std::string small = payloadOf(encodeResponse(sampleCompiled()));
  std::mt19937 rng(41);
  for (int i = 0; i < 2000; ++i) {
    std::string m = small;
    for (int k = 0, flips = 1 + int(rng() % 4); k < flips; ++k)
      m[rng() % m.size()] = char(rng());
    auto viaView = decodeResponse(std::string_view(m));
    auto viaMove = decodeResponse(std::string(m));
    ASSERT_EQ(viaView.ok(), viaMove.ok()) << "mutation " << i;
    if (viaView.ok() && std::holds_alternative<Compiled>(*viaView))
      EXPECT_EQ(std::get<Compiled>(*viaView).ptx, std::get<Compiled>(*viaMove).ptx);
  }
}

// --- R10-F2: what a decode builds is bounded by the frame ------------------------------

namespace {
// The bytes this thread allocates while counting, and an allocation size past which
// operator new fails (to test the decode's bad_alloc path). Replacing the global
// operator new is program-wide; it only counts on a thread that asked to.
thread_local bool tCounting = false;
thread_local uint64_t tAllocated = 0;
thread_local uint64_t tFailAbove = 0;

struct CountAllocations {
  explicit CountAllocations(uint64_t failAbove = 0) {
    tAllocated = 0;
    tFailAbove = failAbove;
    tCounting = true;
  }
  ~CountAllocations() {
    tCounting = false;
    tFailAbove = 0;
  }
  uint64_t bytes() const { return tAllocated; }
};

/// R10-F2's first frame (fatnames): one name of `nameBytes` shared by `kernels`
/// kernels. The payload, without the frame header.
std::string sharedNameAnswer(size_t kernels, size_t nameBytes) {
  flatbuffers::FlatBufferBuilder b(nameBytes + 4 * kernels + 1024);
  auto name = b.CreateString(std::string(nameBytes, 'k'));
  auto kernel = Atoll::wire::CreateKernel(b, name, 0);
  std::vector<flatbuffers::Offset<Atoll::wire::Kernel>> ks(kernels, kernel);
  auto kv = b.CreateVector(ks);
  auto ptx = b.CreateString(".version 7.8\n");
  auto c = Atoll::wire::CreateCompiled(b, ptx, kv, 0);
  b.Finish(Atoll::wire::CreateResponse(b, kProtocolVersion, Atoll::wire::Result::Compiled,
                                       c.Union()));
  return std::string(reinterpret_cast<const char *>(b.GetBufferPointer()), b.GetSize());
}

/// R10-F2's second frame (fatanswer): one parameter table and one list of `params`
/// of them shared by `kernels` kernels (each with its own name).
std::string sharedParamsAnswer(size_t kernels, size_t params) {
  flatbuffers::FlatBufferBuilder b(4 * params + 64 * kernels + 1024);
  auto param = Atoll::wire::CreateParam(b, 1, 8, 8, 0, false, false);
  std::vector<flatbuffers::Offset<Atoll::wire::Param>> ps(params, param);
  auto pv = b.CreateVector(ps);
  std::vector<flatbuffers::Offset<Atoll::wire::Kernel>> ks;
  for (size_t i = 0; i < kernels; ++i)
    ks.push_back(Atoll::wire::CreateKernel(b, b.CreateString("k" + std::to_string(i)), pv));
  auto kv = b.CreateVector(ks);
  auto ptx = b.CreateString(".version 7.8\n");
  auto c = Atoll::wire::CreateCompiled(b, ptx, kv, 0);
  b.Finish(Atoll::wire::CreateResponse(b, kProtocolVersion, Atoll::wire::Result::Compiled,
                                       c.Union()));
  return std::string(reinterpret_cast<const char *>(b.GetBufferPointer()), b.GetSize());
}

/// An honest answer of `kernels` kernels with `params` parameters each, its PTX
/// declaring every one (as the validator requires of any answer that is loaded).
Compiled honestAnswer(size_t kernels, size_t params) {
  Compiled c;
  c.ptx = ".version 7.8\n.target sm_90\n.address_size 64\n";
  for (size_t i = 0; i < kernels; ++i) {
    KernelInfo k;
    k.name = "k" + std::to_string(i);
    c.ptx += ".visible .entry " + k.name + "(";
    for (size_t j = 0; j < params + 3; ++j)
      c.ptx += (j ? ",\n\t.param .u64 " : "\n\t.param .u64 ") + k.name + "_param_" +
               std::to_string(j);
    c.ptx += "\n)\n{\n\tret;\n\n}\n";
    for (size_t j = 0; j < params; ++j) {
      ParamInfo p;
      p.kind = ParamKind::Scalar;
      p.size = 8;
      p.align = 8;
      p.type = "i64";
      k.params.push_back(p);
    }
    c.kernels.push_back(std::move(k));
  }
  return c;
}
} // namespace

void *operator new(std::size_t n) {
  if (tCounting) {
    tAllocated += n;
    if (tFailAbove && n > tFailAbove)
      throw std::bad_alloc();
  }
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
// The library's operator delete frees with std::free: it matches this new.

TEST(CompileProtocol, ASharedNameIsRefusedWithoutCopies) {
  // R10-F2's first frame: one 1 MiB name shared by 1,000 kernels (1,000 MiB decoded
  // before the fix). Over the module cap of 512: refused before any kernel is copied;
  // with the protocol's own bound only, the name is refused before it is copied.
  std::string fat = sharedNameAnswer(1000, 1 << 20);
  {
    CountAllocations count;
    auto r = decodeResponse(std::string_view(fat), 512);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code(), ErrorCode::CapacityExceeded);
    EXPECT_NE(r.error().message().find("the module has 1000 kernels; at most 512 are loaded "
                                       "(RuntimeOptions::maxKernelsPerModule)"),
              std::string::npos)
        << r.error().message();
    EXPECT_LT(count.bytes(), 64u << 10);
  }
  {
    CountAllocations count;
    auto r = decodeResponse(std::string_view(fat));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code(), ErrorCode::CompileError);
    EXPECT_NE(r.error().message().find("a kernel name of 1048576 bytes (at most 16384)"),
              std::string::npos)
        << r.error().message();
    EXPECT_LT(count.bytes(), 2 * fat.size());
  }
  // Names within the length cap, under the kernel cap: the sum refuses the frame
  // after one copy of the name, not 40 (in place and by copy).
  fat = sharedNameAnswer(40, kMaxNameBytes);
  for (bool inPlace : {false, true}) {
    std::string payload = fat;
    CountAllocations count;
    auto r = inPlace ? decodeResponse(std::move(payload), 512)
                     : decodeResponse(std::string_view(payload), 512);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code(), ErrorCode::CompileError);
    EXPECT_NE(r.error().message().find("it decodes to more than twice its " +
                                       std::to_string(fat.size()) + " bytes"),
              std::string::npos)
        << r.error().message();
    EXPECT_GE(count.bytes(), size_t(kMaxNameBytes)) << "the first name is copied";
    EXPECT_LT(count.bytes(), 2 * fat.size()) << "in place: " << inPlace;
  }
  // 400 kernels sharing it: refused before the first copy of the name (only the
  // kernel records were reserved).
  fat = sharedNameAnswer(400, kMaxNameBytes);
  {
    CountAllocations count;
    auto r = decodeResponse(std::string_view(fat), 512);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message().find("names, parameter lists or kernels shared between "
                                       "kernels"),
              std::string::npos)
        << r.error().message();
    EXPECT_LT(count.bytes(), 400 * sizeof(KernelInfo) + 4096);
  }
  // One kernel with a name at the cap decodes (its name is in the frame once).
  auto one = decodeResponse(sharedNameAnswer(1, kMaxNameBytes));
  ASSERT_TRUE(one.ok()) << one.error().describe();
  EXPECT_EQ(std::get<Compiled>(*one).kernels.at(0).name.size(), kMaxNameBytes);
  // One byte more is refused before it is copied.
  auto longName = decodeResponse(sharedNameAnswer(1, kMaxNameBytes + 1));
  ASSERT_FALSE(longName.ok());
  EXPECT_NE(longName.error().message().find("a kernel name of " +
                                            std::to_string(kMaxNameBytes + 1) + " bytes"),
            std::string::npos)
      << longName.error().message();
}

TEST(CompileProtocol, ASharedParameterListIsRefusedWithoutCopies) {
  // R10-F2's frame: 2,040 kernels sharing one list of 4,096 parameters (8.4M records,
  // 391 MiB before the fix, from 73 KB).
  std::string fat = sharedParamsAnswer(2040, 4096);
  {
    CountAllocations count;
    auto r = decodeResponse(std::string_view(fat)); // the protocol's own bound only
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code(), ErrorCode::CompileError);
    EXPECT_NE(r.error().message().find("more than twice its"), std::string::npos)
        << r.error().message();
    EXPECT_LT(count.bytes(), 2 * fat.size());
  }
  // Under the kernel cap: the first kernel's copy of the shared list alone is more
  // than the frame can back (4,096 records of a list encoded once).
  fat = sharedParamsAnswer(64, 4096);
  CountAllocations count;
  auto r = decodeResponse(std::string_view(fat), 512);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("names, parameter lists or kernels shared between "
                                     "kernels"),
            std::string::npos)
      << r.error().message();
  EXPECT_LT(count.bytes(), 3 * fat.size());
}

TEST(CompileProtocol, HonestAnswersAtTheCapsDecode) {
  // Every kernel and parameter declared in the PTX, as in any answer that passes the
  // validator: within the bound, at the module cap and with many parameters.
  for (auto [kernels, params] : {std::pair{size_t(512), size_t(0)}, std::pair{size_t(512), size_t(1)},
                                 std::pair{size_t(4), size_t(kMaxParams)}}) {
    std::string payload = payloadOf(encodeResponse(honestAnswer(kernels, params)));
    auto r = decodeResponse(std::move(payload), 512);
    ASSERT_TRUE(r.ok()) << kernels << " x " << params << ": " << r.error().describe();
    const auto &c = std::get<Compiled>(*r);
    ASSERT_EQ(c.kernels.size(), kernels);
    EXPECT_EQ(c.kernels.back().params.size(), params);
  }
  // One more kernel than the cap: refused, naming it.
  auto over = decodeResponse(payloadOf(encodeResponse(honestAnswer(513, 0))), 512);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().code(), ErrorCode::CapacityExceeded);
  EXPECT_NE(over.error().message().find("513 kernels; at most 512"), std::string::npos);
}

TEST(CompileProtocol, AnAllocationFailureWhileDecodingIsATypedError) {
  std::string payload = payloadOf(encodeResponse(honestAnswer(64, 4)));
  {
    CountAllocations failing(/*failAbove=*/256);
    auto r = decodeResponse(std::string_view(payload), 512);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code(), ErrorCode::CompileResources);
    EXPECT_NE(r.error().message().find("ran out of memory while decoding the compile worker's "
                                       "answer of " +
                                       std::to_string(payload.size()) + " bytes"),
              std::string::npos)
        << r.error().message();
  }
  EXPECT_TRUE(decodeResponse(std::string_view(payload), 512).ok());
}

// The request goes out without a framed copy, and reads back as encodeRequest's frame.
TEST(CompileProtocol, WriteRequestSendsTheSameFrame) {
  auto soon = [] { return Clock::now() + std::chrono::seconds(5); };
  SocketPair s;
  AssembleJob job{std::string(300000, 'x'), "sm_90"};
  std::string expected = payloadOf(encodeRequest(Request(job)));
  std::thread writer([&] { EXPECT_TRUE(writeRequest(s.fd[1], Request(job), soon()).ok()); });
  auto got = readFrame(s.fd[0], 1 << 20, soon());
  writer.join();
  ASSERT_TRUE(got.ok()) << got.error().describe();
  EXPECT_EQ(*got, expected);
  auto decoded = decodeRequest(*got);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(std::get<AssembleJob>(*decoded).ptx, job.ptx);
}
