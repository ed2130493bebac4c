# Prints a loop-free kernel @long: a chain of N dependent global loads (argv[1]),
# each address computed from the previous value, then one store (R3-F5 part 2).
import sys

n = int(sys.argv[1])
print('target triple = "nvptx64-nvidia-cuda"')
print("define ptx_kernel void @long(ptr addrspace(1) %p, ptr addrspace(1) %o) {")
print("entry:")
print("  %v0 = load i32, ptr addrspace(1) %p")
for i in range(1, n):
    print(f"  %a{i} = getelementptr i32, ptr addrspace(1) %p, i32 %v{i - 1}")
    print(f"  %v{i} = load i32, ptr addrspace(1) %a{i}")
print(f"  store i32 %v{n - 1}, ptr addrspace(1) %o")
print("  ret void")
print("}")
