; A store through an addrspace(101) (kernel parameter space) pointer derived from
; a byval parameter: parameter space is read-only; there is no PTX form for it
; (instruction selection crashes) -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Small = type { [4 x i32] }

define ptx_kernel void @param_space_store(ptr byval(%struct.Small) align 4 %s, i32 %idx, i32 %v, ptr %out) {
  %q = addrspacecast ptr %s to ptr addrspace(101)
  %i = and i32 %idx, 3
  %p = getelementptr [4 x i32], ptr addrspace(101) %q, i32 0, i32 %i
  store i32 %v, ptr addrspace(101) %p, align 4
  %r = load i32, ptr addrspace(101) %q, align 4
  store i32 %r, ptr %out, align 4
  ret void
}
