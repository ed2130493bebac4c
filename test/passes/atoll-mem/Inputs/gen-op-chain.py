# Prints a kernel @chain: N dependent operations OP on values of type TY (argv: N OP TY
# [loop]), loop-free, or with "loop" as the body of a loop of 4096 iterations; the
# result is stored once. The preemption work model (R6-F1) must weigh each operation
# by what it compiles to: a <64 x i64> division is 64 subroutine calls, not one.
import sys

args = sys.argv[1:]
loop = args[-1] == "loop"
if loop:
    args = args[:-1]
n, op, ty = int(args[0]), args[1], " ".join(args[2:])  # the type may come in pieces
vec = ty.startswith("<")
elem = ty.strip("<>").split(" x ")[-1]
one = {"double": "1.0", "float": "1.0"}.get(elem, "3")
const = f"splat ({elem} {one})" if vec else one
print('target triple = "nvptx64-nvidia-cuda"')
suffix = ("v" + ty.strip("<>").split(" x ")[0] if vec else "") + ("f64" if elem == "double" else "f32")
if op == "sqrt":
    print(f"declare {ty} @llvm.sqrt.{suffix}({ty})")
print(f"define ptx_kernel void @chain(ptr addrspace(1) %o, {ty} %x) {{")
print("entry:")
prev = "%x"
if loop:
    print("  br label %loop")
    print("loop:")
    print("  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]")
    print(f"  %acc = phi {ty} [ %x, %entry ], [ %v{n}, %loop ]")
    prev = "%acc"
for i in range(1, n + 1):
    if op == "udivmix":  # the review's form, which -O2 cannot fold: x / (v | 2^33) + v
        big = f"splat ({elem} 8589934592)" if vec else "8589934592"
        print(f"  %d{i} = or {ty} {prev}, {big}")
        print(f"  %q{i} = udiv {ty} %x, %d{i}")
        print(f"  %v{i} = add {ty} %q{i}, {prev}")
    elif op == "sqrt":
        print(f"  %v{i} = call {ty} @llvm.sqrt.{suffix}({ty} {prev})")
    else:
        print(f"  %v{i} = {op} {ty} {const}, {prev}")
    prev = f"%v{i}"
if loop:
    print("  %i.next = add i32 %i, 1")
    print("  %c = icmp ult i32 %i.next, 4096")
    print("  br i1 %c, label %loop, label %exit")
    print("exit:")
if vec:  # reduced to one element: a whole wide vector is wider than any access may be
    vt = "v" + ty.strip("<>").split(" x ")[0] + elem.replace("double", "f64").replace("float", "f32")
    if elem in ("double", "float"):
        print(f"  %r = call {elem} @llvm.vector.reduce.fadd.{vt}({elem} 0.0, {ty} {prev})")
    else:
        print(f"  %r = call {elem} @llvm.vector.reduce.xor.{vt}({ty} {prev})")
    print(f"  store {elem} %r, ptr addrspace(1) %o")
else:
    print(f"  store {ty} {prev}, ptr addrspace(1) %o")
print("  ret void")
print("}")
