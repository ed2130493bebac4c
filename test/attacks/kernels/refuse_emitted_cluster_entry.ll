; Class 5 (issue 13): the IR passes accept this kernel, but its attributes make
; the backend emit cluster launch directives (.explicitcluster,
; .reqnctapercluster) into the PTX. The PTX validator, the independent check of
; the final artifact, refuses it and names the PTX line.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @emitted_cluster_entry(ptr %out) "nvvm.cluster_dim"="2,1,1" {
  store i32 1, ptr %out, align 4
  ret void
}
