; Review R6-F1: the work model weighed one IR instruction as one unit whatever it
; compiles to. A `udiv <64 x i64>` is 64 i64 division subroutines (~70 instructions
; each), so 80 of them (5120 divisions, ~8 ms per wave of 1056 x 256 threads on the
; H200) ran with no poll at all, and a loop of 4 of them was charged 4096 iterations
; at once (seconds between polls). Now a division costs 64 units per 64-bit piece
; of every element and the toolchain keeps machine sinking from moving the work
; past the polls. Written out from test/passes/atoll-mem/Inputs/gen-op-chain.py's
; `udivmix` form (x / (v | 2^33) + v), which -O2 cannot fold.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i64 @llvm.vector.reduce.xor.v64i64(<64 x i64>)

; Loop-free: 5120 i64 divisions per thread (1 ms per block of 256 threads).
define ptx_kernel void @straight_vector_div(ptr addrspace(1) %out, i64 %seed) {
entry:
  %s0 = insertelement <64 x i64> poison, i64 %seed, i64 0
  %s = shufflevector <64 x i64> %s0, <64 x i64> poison, <64 x i32> zeroinitializer
  %x = xor <64 x i64> %s, <i64 0, i64 977, i64 1954, i64 2931, i64 3908, i64 4885, i64 5862, i64 6839, i64 7816, i64 8793, i64 9770, i64 10747, i64 11724, i64 12701, i64 13678, i64 14655, i64 15632, i64 16609, i64 17586, i64 18563, i64 19540, i64 20517, i64 21494, i64 22471, i64 23448, i64 24425, i64 25402, i64 26379, i64 27356, i64 28333, i64 29310, i64 30287, i64 31264, i64 32241, i64 33218, i64 34195, i64 35172, i64 36149, i64 37126, i64 38103, i64 39080, i64 40057, i64 41034, i64 42011, i64 42988, i64 43965, i64 44942, i64 45919, i64 46896, i64 47873, i64 48850, i64 49827, i64 50804, i64 51781, i64 52758, i64 53735, i64 54712, i64 55689, i64 56666, i64 57643, i64 58620, i64 59597, i64 60574, i64 61551>
  %d1 = or <64 x i64> %x, splat (i64 8589934592)
  %q1 = udiv <64 x i64> %x, %d1
  %v1 = add <64 x i64> %q1, %x
  %d2 = or <64 x i64> %v1, splat (i64 8589934592)
  %q2 = udiv <64 x i64> %x, %d2
  %v2 = add <64 x i64> %q2, %v1
  %d3 = or <64 x i64> %v2, splat (i64 8589934592)
  %q3 = udiv <64 x i64> %x, %d3
  %v3 = add <64 x i64> %q3, %v2
  %d4 = or <64 x i64> %v3, splat (i64 8589934592)
  %q4 = udiv <64 x i64> %x, %d4
  %v4 = add <64 x i64> %q4, %v3
  %d5 = or <64 x i64> %v4, splat (i64 8589934592)
  %q5 = udiv <64 x i64> %x, %d5
  %v5 = add <64 x i64> %q5, %v4
  %d6 = or <64 x i64> %v5, splat (i64 8589934592)
  %q6 = udiv <64 x i64> %x, %d6
  %v6 = add <64 x i64> %q6, %v5
  %d7 = or <64 x i64> %v6, splat (i64 8589934592)
  %q7 = udiv <64 x i64> %x, %d7
  %v7 = add <64 x i64> %q7, %v6
  %d8 = or <64 x i64> %v7, splat (i64 8589934592)
  %q8 = udiv <64 x i64> %x, %d8
  %v8 = add <64 x i64> %q8, %v7
  %d9 = or <64 x i64> %v8, splat (i64 8589934592)
  %q9 = udiv <64 x i64> %x, %d9
  %v9 = add <64 x i64> %q9, %v8
  %d10 = or <64 x i64> %v9, splat (i64 8589934592)
  %q10 = udiv <64 x i64> %x, %d10
  %v10 = add <64 x i64> %q10, %v9
  %d11 = or <64 x i64> %v10, splat (i64 8589934592)
  %q11 = udiv <64 x i64> %x, %d11
  %v11 = add <64 x i64> %q11, %v10
  %d12 = or <64 x i64> %v11, splat (i64 8589934592)
  %q12 = udiv <64 x i64> %x, %d12
  %v12 = add <64 x i64> %q12, %v11
  %d13 = or <64 x i64> %v12, splat (i64 8589934592)
  %q13 = udiv <64 x i64> %x, %d13
  %v13 = add <64 x i64> %q13, %v12
  %d14 = or <64 x i64> %v13, splat (i64 8589934592)
  %q14 = udiv <64 x i64> %x, %d14
  %v14 = add <64 x i64> %q14, %v13
  %d15 = or <64 x i64> %v14, splat (i64 8589934592)
  %q15 = udiv <64 x i64> %x, %d15
  %v15 = add <64 x i64> %q15, %v14
  %d16 = or <64 x i64> %v15, splat (i64 8589934592)
  %q16 = udiv <64 x i64> %x, %d16
  %v16 = add <64 x i64> %q16, %v15
  %d17 = or <64 x i64> %v16, splat (i64 8589934592)
  %q17 = udiv <64 x i64> %x, %d17
  %v17 = add <64 x i64> %q17, %v16
  %d18 = or <64 x i64> %v17, splat (i64 8589934592)
  %q18 = udiv <64 x i64> %x, %d18
  %v18 = add <64 x i64> %q18, %v17
  %d19 = or <64 x i64> %v18, splat (i64 8589934592)
  %q19 = udiv <64 x i64> %x, %d19
  %v19 = add <64 x i64> %q19, %v18
  %d20 = or <64 x i64> %v19, splat (i64 8589934592)
  %q20 = udiv <64 x i64> %x, %d20
  %v20 = add <64 x i64> %q20, %v19
  %d21 = or <64 x i64> %v20, splat (i64 8589934592)
  %q21 = udiv <64 x i64> %x, %d21
  %v21 = add <64 x i64> %q21, %v20
  %d22 = or <64 x i64> %v21, splat (i64 8589934592)
  %q22 = udiv <64 x i64> %x, %d22
  %v22 = add <64 x i64> %q22, %v21
  %d23 = or <64 x i64> %v22, splat (i64 8589934592)
  %q23 = udiv <64 x i64> %x, %d23
  %v23 = add <64 x i64> %q23, %v22
  %d24 = or <64 x i64> %v23, splat (i64 8589934592)
  %q24 = udiv <64 x i64> %x, %d24
  %v24 = add <64 x i64> %q24, %v23
  %d25 = or <64 x i64> %v24, splat (i64 8589934592)
  %q25 = udiv <64 x i64> %x, %d25
  %v25 = add <64 x i64> %q25, %v24
  %d26 = or <64 x i64> %v25, splat (i64 8589934592)
  %q26 = udiv <64 x i64> %x, %d26
  %v26 = add <64 x i64> %q26, %v25
  %d27 = or <64 x i64> %v26, splat (i64 8589934592)
  %q27 = udiv <64 x i64> %x, %d27
  %v27 = add <64 x i64> %q27, %v26
  %d28 = or <64 x i64> %v27, splat (i64 8589934592)
  %q28 = udiv <64 x i64> %x, %d28
  %v28 = add <64 x i64> %q28, %v27
  %d29 = or <64 x i64> %v28, splat (i64 8589934592)
  %q29 = udiv <64 x i64> %x, %d29
  %v29 = add <64 x i64> %q29, %v28
  %d30 = or <64 x i64> %v29, splat (i64 8589934592)
  %q30 = udiv <64 x i64> %x, %d30
  %v30 = add <64 x i64> %q30, %v29
  %d31 = or <64 x i64> %v30, splat (i64 8589934592)
  %q31 = udiv <64 x i64> %x, %d31
  %v31 = add <64 x i64> %q31, %v30
  %d32 = or <64 x i64> %v31, splat (i64 8589934592)
  %q32 = udiv <64 x i64> %x, %d32
  %v32 = add <64 x i64> %q32, %v31
  %d33 = or <64 x i64> %v32, splat (i64 8589934592)
  %q33 = udiv <64 x i64> %x, %d33
  %v33 = add <64 x i64> %q33, %v32
  %d34 = or <64 x i64> %v33, splat (i64 8589934592)
  %q34 = udiv <64 x i64> %x, %d34
  %v34 = add <64 x i64> %q34, %v33
  %d35 = or <64 x i64> %v34, splat (i64 8589934592)
  %q35 = udiv <64 x i64> %x, %d35
  %v35 = add <64 x i64> %q35, %v34
  %d36 = or <64 x i64> %v35, splat (i64 8589934592)
  %q36 = udiv <64 x i64> %x, %d36
  %v36 = add <64 x i64> %q36, %v35
  %d37 = or <64 x i64> %v36, splat (i64 8589934592)
  %q37 = udiv <64 x i64> %x, %d37
  %v37 = add <64 x i64> %q37, %v36
  %d38 = or <64 x i64> %v37, splat (i64 8589934592)
  %q38 = udiv <64 x i64> %x, %d38
  %v38 = add <64 x i64> %q38, %v37
  %d39 = or <64 x i64> %v38, splat (i64 8589934592)
  %q39 = udiv <64 x i64> %x, %d39
  %v39 = add <64 x i64> %q39, %v38
  %d40 = or <64 x i64> %v39, splat (i64 8589934592)
  %q40 = udiv <64 x i64> %x, %d40
  %v40 = add <64 x i64> %q40, %v39
  %d41 = or <64 x i64> %v40, splat (i64 8589934592)
  %q41 = udiv <64 x i64> %x, %d41
  %v41 = add <64 x i64> %q41, %v40
  %d42 = or <64 x i64> %v41, splat (i64 8589934592)
  %q42 = udiv <64 x i64> %x, %d42
  %v42 = add <64 x i64> %q42, %v41
  %d43 = or <64 x i64> %v42, splat (i64 8589934592)
  %q43 = udiv <64 x i64> %x, %d43
  %v43 = add <64 x i64> %q43, %v42
  %d44 = or <64 x i64> %v43, splat (i64 8589934592)
  %q44 = udiv <64 x i64> %x, %d44
  %v44 = add <64 x i64> %q44, %v43
  %d45 = or <64 x i64> %v44, splat (i64 8589934592)
  %q45 = udiv <64 x i64> %x, %d45
  %v45 = add <64 x i64> %q45, %v44
  %d46 = or <64 x i64> %v45, splat (i64 8589934592)
  %q46 = udiv <64 x i64> %x, %d46
  %v46 = add <64 x i64> %q46, %v45
  %d47 = or <64 x i64> %v46, splat (i64 8589934592)
  %q47 = udiv <64 x i64> %x, %d47
  %v47 = add <64 x i64> %q47, %v46
  %d48 = or <64 x i64> %v47, splat (i64 8589934592)
  %q48 = udiv <64 x i64> %x, %d48
  %v48 = add <64 x i64> %q48, %v47
  %d49 = or <64 x i64> %v48, splat (i64 8589934592)
  %q49 = udiv <64 x i64> %x, %d49
  %v49 = add <64 x i64> %q49, %v48
  %d50 = or <64 x i64> %v49, splat (i64 8589934592)
  %q50 = udiv <64 x i64> %x, %d50
  %v50 = add <64 x i64> %q50, %v49
  %d51 = or <64 x i64> %v50, splat (i64 8589934592)
  %q51 = udiv <64 x i64> %x, %d51
  %v51 = add <64 x i64> %q51, %v50
  %d52 = or <64 x i64> %v51, splat (i64 8589934592)
  %q52 = udiv <64 x i64> %x, %d52
  %v52 = add <64 x i64> %q52, %v51
  %d53 = or <64 x i64> %v52, splat (i64 8589934592)
  %q53 = udiv <64 x i64> %x, %d53
  %v53 = add <64 x i64> %q53, %v52
  %d54 = or <64 x i64> %v53, splat (i64 8589934592)
  %q54 = udiv <64 x i64> %x, %d54
  %v54 = add <64 x i64> %q54, %v53
  %d55 = or <64 x i64> %v54, splat (i64 8589934592)
  %q55 = udiv <64 x i64> %x, %d55
  %v55 = add <64 x i64> %q55, %v54
  %d56 = or <64 x i64> %v55, splat (i64 8589934592)
  %q56 = udiv <64 x i64> %x, %d56
  %v56 = add <64 x i64> %q56, %v55
  %d57 = or <64 x i64> %v56, splat (i64 8589934592)
  %q57 = udiv <64 x i64> %x, %d57
  %v57 = add <64 x i64> %q57, %v56
  %d58 = or <64 x i64> %v57, splat (i64 8589934592)
  %q58 = udiv <64 x i64> %x, %d58
  %v58 = add <64 x i64> %q58, %v57
  %d59 = or <64 x i64> %v58, splat (i64 8589934592)
  %q59 = udiv <64 x i64> %x, %d59
  %v59 = add <64 x i64> %q59, %v58
  %d60 = or <64 x i64> %v59, splat (i64 8589934592)
  %q60 = udiv <64 x i64> %x, %d60
  %v60 = add <64 x i64> %q60, %v59
  %d61 = or <64 x i64> %v60, splat (i64 8589934592)
  %q61 = udiv <64 x i64> %x, %d61
  %v61 = add <64 x i64> %q61, %v60
  %d62 = or <64 x i64> %v61, splat (i64 8589934592)
  %q62 = udiv <64 x i64> %x, %d62
  %v62 = add <64 x i64> %q62, %v61
  %d63 = or <64 x i64> %v62, splat (i64 8589934592)
  %q63 = udiv <64 x i64> %x, %d63
  %v63 = add <64 x i64> %q63, %v62
  %d64 = or <64 x i64> %v63, splat (i64 8589934592)
  %q64 = udiv <64 x i64> %x, %d64
  %v64 = add <64 x i64> %q64, %v63
  %d65 = or <64 x i64> %v64, splat (i64 8589934592)
  %q65 = udiv <64 x i64> %x, %d65
  %v65 = add <64 x i64> %q65, %v64
  %d66 = or <64 x i64> %v65, splat (i64 8589934592)
  %q66 = udiv <64 x i64> %x, %d66
  %v66 = add <64 x i64> %q66, %v65
  %d67 = or <64 x i64> %v66, splat (i64 8589934592)
  %q67 = udiv <64 x i64> %x, %d67
  %v67 = add <64 x i64> %q67, %v66
  %d68 = or <64 x i64> %v67, splat (i64 8589934592)
  %q68 = udiv <64 x i64> %x, %d68
  %v68 = add <64 x i64> %q68, %v67
  %d69 = or <64 x i64> %v68, splat (i64 8589934592)
  %q69 = udiv <64 x i64> %x, %d69
  %v69 = add <64 x i64> %q69, %v68
  %d70 = or <64 x i64> %v69, splat (i64 8589934592)
  %q70 = udiv <64 x i64> %x, %d70
  %v70 = add <64 x i64> %q70, %v69
  %d71 = or <64 x i64> %v70, splat (i64 8589934592)
  %q71 = udiv <64 x i64> %x, %d71
  %v71 = add <64 x i64> %q71, %v70
  %d72 = or <64 x i64> %v71, splat (i64 8589934592)
  %q72 = udiv <64 x i64> %x, %d72
  %v72 = add <64 x i64> %q72, %v71
  %d73 = or <64 x i64> %v72, splat (i64 8589934592)
  %q73 = udiv <64 x i64> %x, %d73
  %v73 = add <64 x i64> %q73, %v72
  %d74 = or <64 x i64> %v73, splat (i64 8589934592)
  %q74 = udiv <64 x i64> %x, %d74
  %v74 = add <64 x i64> %q74, %v73
  %d75 = or <64 x i64> %v74, splat (i64 8589934592)
  %q75 = udiv <64 x i64> %x, %d75
  %v75 = add <64 x i64> %q75, %v74
  %d76 = or <64 x i64> %v75, splat (i64 8589934592)
  %q76 = udiv <64 x i64> %x, %d76
  %v76 = add <64 x i64> %q76, %v75
  %d77 = or <64 x i64> %v76, splat (i64 8589934592)
  %q77 = udiv <64 x i64> %x, %d77
  %v77 = add <64 x i64> %q77, %v76
  %d78 = or <64 x i64> %v77, splat (i64 8589934592)
  %q78 = udiv <64 x i64> %x, %d78
  %v78 = add <64 x i64> %q78, %v77
  %d79 = or <64 x i64> %v78, splat (i64 8589934592)
  %q79 = udiv <64 x i64> %x, %d79
  %v79 = add <64 x i64> %q79, %v78
  %d80 = or <64 x i64> %v79, splat (i64 8589934592)
  %q80 = udiv <64 x i64> %x, %d80
  %v80 = add <64 x i64> %q80, %v79
  %r = call i64 @llvm.vector.reduce.xor.v64i64(<64 x i64> %v80)
  store i64 %r, ptr addrspace(1) %out, align 8
  ret void
}

; A wait on a flag nobody sets around a 4096-iteration loop of 4 <64 x i64>
; divisions (1M i64 divisions per thread): the old model charged it at once.
define ptx_kernel void @charged_vector_div(ptr addrspace(1) %out, i64 %seed, ptr addrspace(1) %flag) {
entry:
  %s0 = insertelement <64 x i64> poison, i64 %seed, i64 0
  %s = shufflevector <64 x i64> %s0, <64 x i64> poison, <64 x i32> zeroinitializer
  %x = xor <64 x i64> %s, <i64 0, i64 977, i64 1954, i64 2931, i64 3908, i64 4885, i64 5862, i64 6839, i64 7816, i64 8793, i64 9770, i64 10747, i64 11724, i64 12701, i64 13678, i64 14655, i64 15632, i64 16609, i64 17586, i64 18563, i64 19540, i64 20517, i64 21494, i64 22471, i64 23448, i64 24425, i64 25402, i64 26379, i64 27356, i64 28333, i64 29310, i64 30287, i64 31264, i64 32241, i64 33218, i64 34195, i64 35172, i64 36149, i64 37126, i64 38103, i64 39080, i64 40057, i64 41034, i64 42011, i64 42988, i64 43965, i64 44942, i64 45919, i64 46896, i64 47873, i64 48850, i64 49827, i64 50804, i64 51781, i64 52758, i64 53735, i64 54712, i64 55689, i64 56666, i64 57643, i64 58620, i64 59597, i64 60574, i64 61551>
  br label %wait
wait:
  %acc = phi <64 x i64> [ %x, %entry ], [ %lv4, %loop ]
  %f = load volatile i32, ptr addrspace(1) %flag, align 4
  %done = icmp ne i32 %f, 0
  br i1 %done, label %exit, label %loop.ph
loop.ph:
  br label %loop
loop:
  %i = phi i32 [ 0, %loop.ph ], [ %i.next, %loop ]
  %a = phi <64 x i64> [ %acc, %loop.ph ], [ %lv4, %loop ]
  %ld1 = or <64 x i64> %a, splat (i64 8589934592)
  %lq1 = udiv <64 x i64> %x, %ld1
  %lv1 = add <64 x i64> %lq1, %a
  %ld2 = or <64 x i64> %lv1, splat (i64 8589934592)
  %lq2 = udiv <64 x i64> %x, %ld2
  %lv2 = add <64 x i64> %lq2, %lv1
  %ld3 = or <64 x i64> %lv2, splat (i64 8589934592)
  %lq3 = udiv <64 x i64> %x, %ld3
  %lv3 = add <64 x i64> %lq3, %lv2
  %ld4 = or <64 x i64> %lv3, splat (i64 8589934592)
  %lq4 = udiv <64 x i64> %x, %ld4
  %lv4 = add <64 x i64> %lq4, %lv3
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, 4096
  br i1 %c, label %loop, label %wait
exit:
  %r = call i64 @llvm.vector.reduce.xor.v64i64(<64 x i64> %acc)
  store i64 %r, ptr addrspace(1) %out, align 8
  ret void
}
