#!/usr/bin/env python3
"""Writes the hostile compile corpus (issue 14). Each input attacks the toolchain
(parser, verifier, optimiser, backend, assembler) rather than the hardening: it
must end as a typed error inside a compile worker while the service goes on.
Generated at build time (test/unit/CMakeLists.txt) so that the repository keeps
the recipe, not megabytes of nested brackets:  generate.py <out-dir> <llvm-as>"""
import os, subprocess, sys

HDR = ('target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"\n'
       'target triple = "nvptx64-nvidia-cuda"\n')
LLVM_AS = "llvm-as"

def w(name, text):
    with open(name, "w") as f:
        f.write(text)

VADD = HDR + """declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define ptx_kernel void @vadd(ptr %a, ptr %b, ptr %c, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = sext i32 %tid to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  %x = load float, ptr %pa, align 4
  %pc = getelementptr inbounds float, ptr %c, i64 %i
  store float %x, ptr %pc, align 4
  ret void
}
"""

def bitcode():
    return subprocess.run([LLVM_AS, "-o", "-", "-"], input=VADD.encode(),
                          check=True, capture_output=True).stdout

def main():
    bc = bitcode()
    # --- bitcode the reader must reject -------------------------------------------
    open("truncated-half.bc", "wb").write(bc[: len(bc) // 2])
    open("truncated-magic.bc", "wb").write(bc[:4])
    m = bytearray(bc)
    for k in range(40, len(m), 97):  # deterministic byte flips through the body
        m[k] ^= 0x5A
    open("mutated-body.bc", "wb").write(bytes(m))
    m = bytearray(bc)
    m[len(m) // 3: len(m) // 3 + 64] = b"\xff" * 64  # a run of all-ones abbreviations
    open("mutated-abbrevs.bc", "wb").write(bytes(m))
    # A bitcode wrapper header whose offset/size point far outside the file.
    wrapper = (0x0B17C0DE).to_bytes(4, "little") + (0).to_bytes(4, "little") + \
        (0x7FFFFFF0).to_bytes(4, "little") + (0x7FFFFFF0).to_bytes(4, "little") + \
        (0).to_bytes(4, "little")
    open("wrapper-out-of-bounds.bc", "wb").write(wrapper + bc)

    # --- textual IR attacking parser, verifier, optimiser and backend -----------
    depth = 100000
    w("deep-nested-types.ll", HDR + "@g = external global " + "[1 x " * depth + "i8" +
      "]" * depth + "\n")
    w("deep-nested-constexpr.ll", HDR + "@a = global [4 x i8] zeroinitializer\n@p = global ptr " +
      "getelementptr (i8, ptr " * depth + "@a" + ", i64 1)" * depth + "\n")
    w("self-containing-struct.ll", HDR + """%T = type { [2 x %T] }
define ptx_kernel void @k(ptr %p) {
  %v = load %T, ptr %p, align 8
  store %T %v, ptr %p, align 8
  ret void
}
""")
    w("giant-constant-array.ll", HDR + """@big = addrspace(4) constant <16777216 x i32> splat (i32 7), align 4
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i32, ptr addrspace(4) @big, i64 %i
  %v = load i32, ptr addrspace(4) %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}
""")
    vec = "<8388608 x i64> splat (i64 81985529216486895)"
    w("giant-global-initializer.ll", HDR + "@big = addrspace(1) global [4 x <8388608 x i64>] [" +
      ", ".join([vec] * 4) + """], align 8
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr i64, ptr addrspace(1) @big, i64 %i
  %v = load i64, ptr addrspace(1) %p, align 8
  store i64 %v, ptr %out, align 8
  ret void
}
""")
    w("recursive-kernel-helper.ll", HDR + """define internal void @r(ptr %p, i32 %n) {
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %more
more:
  %m = sub i32 %n, 1
  call void @r(ptr %p, i32 %m)
  store volatile i32 %n, ptr %p, align 4
  br label %done
done:
  ret void
}
define ptx_kernel void @k(ptr %p, i32 %n) {
  call void @r(ptr %p, i32 %n)
  ret void
}
""")
    w("huge-alignment.ll", HDR + """define ptx_kernel void @k(ptr %p) {
  %a = alloca i8, align 4294967296
  store i8 1, ptr %a
  ret void
}
""")
    w("huge-alloca.ll", HDR + """define ptx_kernel void @k(ptr %out, i64 %i) {
  %a = alloca [1099511627776 x i8], align 16
  %p = getelementptr [1099511627776 x i8], ptr %a, i64 0, i64 %i
  store i8 1, ptr %p, align 1
  %v = load i8, ptr %p, align 1
  store i8 %v, ptr %out, align 1
  ret void
}
""")
    # Each level calls the next twice, always inlined: 2^48 copies if nothing stops it.
    levels = 48
    fns = [HDR]
    fns.append("define internal void @f%d(ptr %%p) alwaysinline { store volatile i32 1, ptr %%p\n ret void }\n" % levels)
    for i in range(levels - 1, -1, -1):
        fns.append("define internal void @f%d(ptr %%p) alwaysinline {\n  call void @f%d(ptr %%p)\n"
                   "  call void @f%d(ptr %%p)\n  ret void\n}\n" % (i, i + 1, i + 1))
    fns.append("define ptx_kernel void @k(ptr %p) {\n  call void @f0(ptr %p)\n  ret void\n}\n")
    w("exponential-inlining.ll", "".join(fns))
    # Nested loops, each asking for a full unroll of 1000 iterations: 1000^6 bodies.
    body = [HDR, "define ptx_kernel void @k(ptr %p) {\nentry:\n  br label %l0\n"]
    n = 6
    for i in range(n):
        nxt = f"l{i + 1}" if i + 1 < n else "body"
        pre = "entry" if i == 0 else f"l{i - 1}"
        body.append(f"l{i}:\n  %i{i} = phi i32 [ 0, %{pre} ], [ %i{i}n, %latch{i} ]\n  br label %{nxt}\n")
    body.append("body:\n  store volatile i32 1, ptr %p, align 4\n  br label %latch" + str(n - 1) + "\n")
    for i in range(n - 1, -1, -1):
        out = f"latch{i - 1}" if i > 0 else "exit"
        body.append(f"latch{i}:\n  %i{i}n = add i32 %i{i}, 1\n  %c{i} = icmp ult i32 %i{i}n, 1000\n"
                    f"  br i1 %c{i}, label %l{i}, label %{out}, !llvm.loop !{i}\n")
    body.append("exit:\n  ret void\n}\n")
    for i in range(n):
        body.append(f"!{i} = distinct !{{!{i}, !{n + i}}}\n!{n + i} = !{{!\"llvm.loop.unroll.full\"}}\n")
    w("unroll-explosion.ll", "".join(body))
    w("huge-vector.ll", HDR + """define ptx_kernel void @k(ptr %p) {
  %v = load <4194304 x i64>, ptr %p, align 8
  %w = mul <4194304 x i64> %v, %v
  store <4194304 x i64> %w, ptr %p, align 8
  ret void
}
""")
    # A 16M-lane vector in registers: type legalisation splits it lane by lane.
    w("huge-vector-register.ll", HDR + """define ptx_kernel void @k(ptr %out, i32 %x, i32 %n) {
  %v = insertelement <16777216 x i32> splat (i32 7), i32 %x, i32 0
  %w = mul <16777216 x i32> %v, %v
  %e = extractelement <16777216 x i32> %w, i32 %n
  store i32 %e, ptr %out, align 4
  ret void
}
""")
    w("giant-integer.ll", HDR + """define ptx_kernel void @k(ptr %p) {
  %a = load i8388608, ptr %p, align 8
  %m = mul i8388608 %a, %a
  %d = udiv i8388608 %m, %a
  store i8388608 %d, ptr %p, align 8
  ret void
}
""")
    w("huge-byval.ll", HDR + """%big = type { [1073741824 x i8] }
define ptx_kernel void @k(ptr byval(%big) align 8 %s, ptr %out) {
  %v = load i8, ptr %s, align 1
  store i8 %v, ptr %out, align 1
  ret void
}
""")
    w("fp128-arith.ll", HDR + """define ptx_kernel void @k(ptr %p) {
  %a = load fp128, ptr %p, align 16
  %b = fdiv fp128 %a, %a
  %c = call fp128 @llvm.sqrt.f128(fp128 %b)
  store fp128 %c, ptr %p, align 16
  ret void
}
declare fp128 @llvm.sqrt.f128(fp128)
""")
    w("use-before-def.ll", HDR + """define ptx_kernel void @k(ptr %p) {
entry:
  store i32 %x, ptr %p, align 4
  %x = add i32 1, 2
  ret void
}
""")
    w("wrong-target.ll", 'target triple = "x86_64-unknown-linux-gnu"\ndefine void @k() { ret void }\n')
    w("inline-asm-trap.ll", HDR + """define ptx_kernel void @k() {
  call void asm sideeffect "trap;", ""()
  ret void
}
""")
    w("huge-memcpy.ll", HDR + """define ptx_kernel void @k(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 1099511627776, i1 false)
  ret void
}
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
""")
    # The three above kept alive (volatile accesses, a use of every array): -O2
    # cannot delete them, so the PTX declares them, and the service's PTX validator
    # refuses the sizes (a cubin's per-function sizes are 32 bits: they could wrap).
    w("huge-alloca-used.ll", HDR + """define ptx_kernel void @k(ptr %out, i64 %i) {
  %a = alloca [1099511627776 x i8], align 16
  %p = getelementptr [1099511627776 x i8], ptr %a, i64 0, i64 %i
  store volatile i8 1, ptr %p, align 1
  %v = load volatile i8, ptr %p, align 1
  store i8 %v, ptr %out, align 1
  ret void
}
""")
    w("huge-alignment-used.ll", HDR + """define ptx_kernel void @k(ptr %out) {
  %a = alloca i8, align 4294967296
  store volatile i8 1, ptr %a
  %v = load volatile i8, ptr %a
  store i8 %v, ptr %out
  ret void
}
""")
    w("many-shared-used.ll", HDR + "define ptx_kernel void @k(ptr %p, i32 %x) {\nentry:\n  switch i32 %x, label %d [\n" +
      "".join(f"    i32 {i}, label %b{i}\n" for i in range(4096)) + "  ]\n" +
      "".join(f"b{i}:\n  store volatile i8 1, ptr addrspace(3) @s{i}\n  br label %d\n" for i in range(4096)) +
      "d:\n  ret void\n}\n" +
      "".join(f"@s{i} = addrspace(3) global [49152 x i8] undef\n" for i in range(4096)))
    w("many-shared-globals.ll", HDR + "define ptx_kernel void @k(ptr %p, i32 %x) {\nentry:\n  switch i32 %x, label %d [\n" +
      "".join(f"    i32 {i}, label %d\n" for i in range(1, 3)) + "  ]\nd:\n  ret void\n}\n" +
      "".join(f"@s{i} = addrspace(3) global [49152 x i8] undef\n" for i in range(4096)))

    # --- PTX for the assembler request -------------------------------------------
    w("garbage.ptx", "\x00\x01this is not PTX at all {{{{ ;;;; \n" * 100)
    w("unknown-instruction.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k() {\n  frobnicate.b32 %r1, 7;\n  ret;\n}\n")
    w("undeclared-register.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k() {\n  .reg .b32 %r<2>;\n  add.s32 %r1, %r77, %r99;\n  ret;\n}\n")
    w("unterminated-entry.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(\n" + "  .param .u64 p,\n" * 5000)

if __name__ == "__main__":
    out, LLVM_AS = sys.argv[1], sys.argv[2]
    manifest = os.path.join(os.path.dirname(os.path.abspath(__file__)), "MANIFEST")
    os.makedirs(out, exist_ok=True)
    os.chdir(out)
    main()
    # Next to the inputs, so that a GPU bundle carries both.
    with open(manifest) as f, open("MANIFEST", "w") as g:
        g.write(f.read())
