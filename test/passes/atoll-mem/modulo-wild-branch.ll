; Modulo-based mode, the wild-address branch. An address inside the arena is its
; own remainder, so the 64-bit urem (a long instruction sequence in SASS) runs only
; for a wild address, behind a branch marked unlikely:
;   head:       rel = addr - base; wild = rel >=u size; br wild, wrap, tail (!prof)
;   atoll.wrap: wrapped = rel urem size; br tail
;   tail:       off = phi [rel, head], [wrapped, wrap]; umin(off, size - S) & ~(A-1)
;               ... the tenant's access
; The block is split at the clamp, so this checks that the split leaves valid IR
; (the successors' phis, loops, several clamps in one block, a memcpy's two
; operands, a group's shared clamp), that a clamp hoisted out of a loop stays out
; of it (the pass keeps its LoopInfo up to date across the splits), and that a
; launch-invariant clamp in the entry block keeps the plain urem.
; The block-layout checks are about the modulo branch, without the preemption checks
; (preempt-*.ll); the llc run keeps them.
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based;preempt=off>,verify' -S %s | FileCheck %s
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based;preempt=off>,print<loops>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOOPS
; RUN: %opt-atoll -passes='atoll-mem<clamping-mode=modulo-based>' %s -o - | %llc-sm90 -o /dev/null

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; (a) A load after a branch: the urem is in atoll.wrap, not in the load's block; the
; phi of %exit now comes from the tail block.
define ptx_kernel void @after_branch(ptr addrspace(1) %p, i64 %i, i1 %c, ptr addrspace(1) %out) {
entry:
  br i1 %c, label %then, label %exit

then:
  %a = getelementptr float, ptr addrspace(1) %p, i64 %i
  %v = load float, ptr addrspace(1) %a, align 4
  %f = fadd float %v, 1.0
  br label %exit

exit:
  %r = phi float [ %f, %then ], [ 0.0, %entry ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @after_branch(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[LIM:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    [[LIMS:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    br label %atoll.body
; CHECK-EMPTY:
; CHECK-NEXT:  atoll.body:
; CHECK-NEXT:    br i1 %c, label %then, label %exit
; CHECK-EMPTY:
; CHECK-NEXT:  then:
; CHECK-NEXT:    %a = getelementptr float, ptr addrspace(1) %p, i64 %i
; CHECK-NEXT:    [[P:%.*]] = ptrtoint ptr addrspace(1) %a to i64
; CHECK-NEXT:    [[PF:%atoll.addr.fr[0-9]*]] = freeze i64 [[P]]
; CHECK-NEXT:    [[R:%atoll.rel[0-9]*]] = sub i64 [[PF]], %__atoll_arena_base
; CHECK-NEXT:    [[W:%atoll.wild[0-9]*]] = icmp uge i64 [[R]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[W]], label %[[WRAP:atoll.wrap[0-9]*]], label %[[TAIL:[0-9]+]], !prof [[UNLIKELY:![0-9]+]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAP]]: {{ *}}; preds = %then{{$}}
; CHECK-NEXT:    [[U:%atoll.wrapped[0-9]*]] = urem i64 [[R]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAIL]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAIL]]: {{ *}}; preds = %then, %[[WRAP]]{{$}}
; CHECK-NEXT:    [[OFF:%atoll.off[0-9]*]] = phi i64 [ [[R]], %then ], [ [[U]], %[[WRAP]] ]
; CHECK-NOT:     urem
; CHECK-NEXT:    [[C:%.*]] = call i64 @llvm.umin.i64(i64 [[OFF]], i64 [[LIM]])
; CHECK-NEXT:    [[AL:%.*]] = and i64 [[C]], -4
; CHECK-NEXT:    [[A:%.*]] = add i64 %__atoll_arena_base, [[AL]]
; CHECK-NEXT:    [[G:%.*]] = inttoptr i64 [[A]] to ptr addrspace(1)
; CHECK-NOT:     urem
; CHECK-NEXT:    %v = load float, ptr addrspace(1) [[G]], align 4
; CHECK-NEXT:    %f = fadd float %v, 1.000000e+00
; CHECK-NEXT:    br label %exit
; CHECK-EMPTY:
; CHECK-NEXT:  exit: {{ *}}; preds = %[[TAIL]], %atoll.body{{$}}
; CHECK-NEXT:    %r = phi float [ %f, %[[TAIL]] ], [ 0.000000e+00, %atoll.body ]
; CHECK-NEXT:    [[PS:%.*]] = ptrtoint ptr addrspace(1) %out to i64
; CHECK-NEXT:    [[PSF:%atoll.addr.fr[0-9]*]] = freeze i64 [[PS]]
; CHECK-NEXT:    [[RS:%atoll.rel[0-9]*]] = sub i64 [[PSF]], %__atoll_arena_base
; CHECK-NEXT:    [[WS:%atoll.wild[0-9]*]] = icmp uge i64 [[RS]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[WS]], label %[[WRAPS:atoll.wrap[0-9]*]], label %[[TAILS:[0-9]+]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAPS]]: {{ *}}; preds = %exit{{$}}
; CHECK-NEXT:    [[US:%atoll.wrapped[0-9]*]] = urem i64 [[RS]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAILS]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAILS]]: {{ *}}; preds = %exit, %[[WRAPS]]{{$}}
; CHECK-NEXT:    [[OFFS:%atoll.off[0-9]*]] = phi i64 [ [[RS]], %exit ], [ [[US]], %[[WRAPS]] ]
; CHECK-NEXT:    [[CS:%.*]] = call i64 @llvm.umin.i64(i64 [[OFFS]], i64 [[LIMS]])
; CHECK-NEXT:    [[ALS:%.*]] = and i64 [[CS]], -4
; CHECK-NEXT:    [[AS:%.*]] = add i64 %__atoll_arena_base, [[ALS]]
; CHECK-NEXT:    [[GS:%.*]] = inttoptr i64 [[AS]] to ptr addrspace(1)
; CHECK-NEXT:    store float %r, ptr addrspace(1) [[GS]], align 4
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; (c) In a loop: %a varies per iteration (clamped in the loop, with the branch
; inside it); %inv is loop-invariant, defined before the loop (clamped right after
; its definition, with the branch, outside the loop); the kernel argument %q is
; launch-invariant (clamped once in the entry block, plain urem, no branch). %y and
; %z come after %x in the loop body, i.e. in the block created by %x's split: their
; clamps are hoisted only if the pass's LoopInfo knows that block.
define ptx_kernel void @loops(ptr addrspace(1) %p, ptr addrspace(1) %q, i64 %j, i64 %n, ptr addrspace(1) %out) {
entry:
  %inv = getelementptr float, ptr addrspace(1) %q, i64 %j
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc3, %loop ]
  %a = getelementptr float, ptr addrspace(1) %p, i64 %k
  %x = load float, ptr addrspace(1) %a, align 4
  %y = load float, ptr addrspace(1) %inv, align 4
  %z = load float, ptr addrspace(1) %q, align 4
  %acc1 = fadd float %acc, %x
  %acc2 = fadd float %acc1, %y
  %acc3 = fadd float %acc2, %z
  %k1 = add i64 %k, 1
  %done = icmp eq i64 %k1, %n
  br i1 %done, label %exit, label %loop

exit:
  store float %acc3, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @loops(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[LIMX:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    [[LIMY:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    [[PZ:%.*]] = ptrtoint ptr addrspace(1) %q to i64
; CHECK-NEXT:    [[PZF:%atoll.addr.fr[0-9]*]] = freeze i64 [[PZ]]
; CHECK-NEXT:    [[RZ:%atoll.rel[0-9]*]] = sub i64 [[PZF]], %__atoll_arena_base
; CHECK-NEXT:    [[MZ:%atoll.off[0-9]*]] = urem i64 [[RZ]], %__atoll_arena_size
; CHECK-NEXT:    [[LIMZ:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    [[CZ:%.*]] = call i64 @llvm.umin.i64(i64 [[MZ]], i64 [[LIMZ]])
; CHECK-NEXT:    [[ALZ:%.*]] = and i64 [[CZ]], -4
; CHECK-NEXT:    [[AZ:%.*]] = add i64 %__atoll_arena_base, [[ALZ]]
; CHECK-NEXT:    [[GZ:%.*]] = inttoptr i64 [[AZ]] to ptr addrspace(1)
; CHECK-NEXT:    {{%atoll.lim[0-9]*}} = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    br label %atoll.body
; CHECK-EMPTY:
; CHECK-NEXT:  atoll.body:
; CHECK-NEXT:    %inv = getelementptr float, ptr addrspace(1) %q, i64 %j
; CHECK-NEXT:    [[PY:%.*]] = ptrtoint ptr addrspace(1) %inv to i64
; CHECK-NEXT:    [[PYF:%atoll.addr.fr[0-9]*]] = freeze i64 [[PY]]
; CHECK-NEXT:    [[RY:%atoll.rel[0-9]*]] = sub i64 [[PYF]], %__atoll_arena_base
; CHECK-NEXT:    [[WY:%atoll.wild[0-9]*]] = icmp uge i64 [[RY]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[WY]], label %[[WRAPY:atoll.wrap[0-9]*]], label %[[TAILY:[0-9]+]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAPY]]:
; CHECK-NEXT:    [[UY:%atoll.wrapped[0-9]*]] = urem i64 [[RY]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAILY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAILY]]:
; CHECK-NEXT:    [[OFFY:%atoll.off[0-9]*]] = phi i64 [ [[RY]], %atoll.body ], [ [[UY]], %[[WRAPY]] ]
; CHECK-NEXT:    [[CY:%.*]] = call i64 @llvm.umin.i64(i64 [[OFFY]], i64 [[LIMY]])
; CHECK-NEXT:    [[ALY:%.*]] = and i64 [[CY]], -4
; CHECK-NEXT:    [[AY:%.*]] = add i64 %__atoll_arena_base, [[ALY]]
; CHECK-NEXT:    [[GY:%.*]] = inttoptr i64 [[AY]] to ptr addrspace(1)
; CHECK-NEXT:    br label %loop
; CHECK-EMPTY:
; The loop: header (with the only wild branch), atoll.wrap, and the tail that
; holds all three loads and the backedge.
; CHECK-NEXT:  loop: {{ *}}; preds = %[[LATCH:[0-9]+]], %[[TAILY]]{{$}}
; CHECK-NEXT:    %k = phi i64 [ 0, %[[TAILY]] ], [ %k1, %[[LATCH]] ]
; CHECK-NEXT:    %acc = phi float [ 0.000000e+00, %[[TAILY]] ], [ %acc3, %[[LATCH]] ]
; CHECK-NEXT:    %a = getelementptr float, ptr addrspace(1) %p, i64 %k
; CHECK-NEXT:    [[PX:%.*]] = ptrtoint ptr addrspace(1) %a to i64
; CHECK-NEXT:    [[PXF:%atoll.addr.fr[0-9]*]] = freeze i64 [[PX]]
; CHECK-NEXT:    [[RX:%atoll.rel[0-9]*]] = sub i64 [[PXF]], %__atoll_arena_base
; CHECK-NEXT:    [[WX:%atoll.wild[0-9]*]] = icmp uge i64 [[RX]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[WX]], label %[[WRAPX:atoll.wrap[0-9]*]], label %[[LATCH]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAPX]]: {{ *}}; preds = %loop{{$}}
; CHECK-NEXT:    [[UX:%atoll.wrapped[0-9]*]] = urem i64 [[RX]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[LATCH]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[LATCH]]: {{ *}}; preds = %loop, %[[WRAPX]]{{$}}
; CHECK-NEXT:    [[OFFX:%atoll.off[0-9]*]] = phi i64 [ [[RX]], %loop ], [ [[UX]], %[[WRAPX]] ]
; CHECK-NEXT:    [[CX:%.*]] = call i64 @llvm.umin.i64(i64 [[OFFX]], i64 [[LIMX]])
; CHECK-NEXT:    [[ALX:%.*]] = and i64 [[CX]], -4
; CHECK-NEXT:    [[AX:%.*]] = add i64 %__atoll_arena_base, [[ALX]]
; CHECK-NEXT:    [[GX:%.*]] = inttoptr i64 [[AX]] to ptr addrspace(1)
; CHECK-NEXT:    %x = load float, ptr addrspace(1) [[GX]], align 4
; CHECK-NEXT:    %y = load float, ptr addrspace(1) [[GY]], align 4
; CHECK-NEXT:    %z = load float, ptr addrspace(1) [[GZ]], align 4
; CHECK-NEXT:    %acc1 = fadd float %acc, %x
; CHECK-NEXT:    %acc2 = fadd float %acc1, %y
; CHECK-NEXT:    %acc3 = fadd float %acc2, %z
; CHECK-NEXT:    %k1 = add i64 %k, 1
; CHECK-NEXT:    %done = icmp eq i64 %k1, %n
; CHECK-NEXT:    br i1 %done, label %exit, label %loop
; CHECK-EMPTY:
; CHECK-NEXT:  exit: {{ *}}; preds = %[[LATCH]]{{$}}
; CHECK:         store float %acc3, ptr addrspace(1) {{%.*}}, align 4

; The same with two loops: %e varies per inner iteration, %row per outer one (its
; clamp goes into the outer loop, after %row), %bias is defined before both.
define ptx_kernel void @nested(ptr addrspace(1) %p, ptr addrspace(1) %v, i64 %n, i64 %m, ptr addrspace(1) %out) {
entry:
  %bias = getelementptr float, ptr addrspace(1) %out, i64 %n
  br label %outer

outer:
  %r = phi i64 [ 0, %entry ], [ %r1, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %s1, %outer.latch ]
  %row = getelementptr float, ptr addrspace(1) %p, i64 %r
  br label %inner

inner:
  %c = phi i64 [ 0, %outer ], [ %c1, %inner ]
  %s = phi float [ %acc, %outer ], [ %s1, %inner ]
  %e = getelementptr float, ptr addrspace(1) %v, i64 %c
  %x = load float, ptr addrspace(1) %e, align 4
  %y = load float, ptr addrspace(1) %row, align 4
  %z = load float, ptr addrspace(1) %bias, align 4
  %s0 = fadd float %s, %x
  %s2 = fadd float %s0, %y
  %s1 = fadd float %s2, %z
  %c1 = add i64 %c, 1
  %cd = icmp eq i64 %c1, %m
  br i1 %cd, label %outer.latch, label %inner

outer.latch:
  %r1 = add i64 %r, 1
  %rd = icmp eq i64 %r1, %n
  br i1 %rd, label %exit, label %outer

exit:
  store float %s1, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @nested(
; CHECK-NOT:     urem
; CHECK:       atoll.body:
; CHECK-NEXT:    %bias = getelementptr float, ptr addrspace(1) %out, i64 %n
; CHECK-NEXT:    [[PB:%.*]] = ptrtoint ptr addrspace(1) %bias to i64
; CHECK-NEXT:    [[PBF:%atoll.addr.fr[0-9]*]] = freeze i64 [[PB]]
; CHECK-NEXT:    [[RB:%atoll.rel[0-9]*]] = sub i64 [[PBF]], %__atoll_arena_base
; CHECK-NEXT:    [[WB:%atoll.wild[0-9]*]] = icmp uge i64 [[RB]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[WB]], label %[[WRAPB:atoll.wrap[0-9]*]], label %[[TAILB:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[WRAPB]]:
; CHECK-NEXT:    urem i64 [[RB]], %__atoll_arena_size
; CHECK:       {{^}}[[TAILB]]:
; CHECK:         [[GB:%atoll.global[0-9]*]] = inttoptr i64 {{%.*}} to ptr addrspace(1)
; CHECK-NEXT:    br label %outer
; CHECK-EMPTY:
; CHECK-NEXT:  outer:
; CHECK-NEXT:    %r = phi i64 [ 0, %[[TAILB]] ], [ %r1, %outer.latch ]
; CHECK-NEXT:    %acc = phi float [ 0.000000e+00, %[[TAILB]] ], [ %s1, %outer.latch ]
; CHECK-NEXT:    %row = getelementptr float, ptr addrspace(1) %p, i64 %r
; CHECK-NEXT:    [[PR:%.*]] = ptrtoint ptr addrspace(1) %row to i64
; CHECK-NEXT:    [[PRF:%atoll.addr.fr[0-9]*]] = freeze i64 [[PR]]
; CHECK-NEXT:    [[RR:%atoll.rel[0-9]*]] = sub i64 [[PRF]], %__atoll_arena_base
; CHECK-NEXT:    [[WR:%atoll.wild[0-9]*]] = icmp uge i64 [[RR]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[WR]], label %[[WRAPR:atoll.wrap[0-9]*]], label %[[TAILR:[0-9]+]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[WRAPR]]:
; CHECK-NEXT:    urem i64 [[RR]], %__atoll_arena_size
; CHECK:       {{^}}[[TAILR]]:
; CHECK:         [[GR:%atoll.global[0-9]*]] = inttoptr i64 {{%.*}} to ptr addrspace(1)
; CHECK-NEXT:    br label %inner
; CHECK-EMPTY:
; CHECK-NEXT:  inner: {{ *}}; preds = %[[ILATCH:[0-9]+]], %[[TAILR]]{{$}}
; CHECK:         [[WE:%atoll.wild[0-9]*]] = icmp uge i64
; CHECK-NEXT:    br i1 [[WE]], label %[[WRAPE:atoll.wrap[0-9]*]], label %[[ILATCH]], !prof [[UNLIKELY]]
; CHECK:       {{^}}[[ILATCH]]: {{ *}}; preds = %inner, %[[WRAPE]]{{$}}
; CHECK-NOT:     atoll.wild
; CHECK-NOT:     urem
; CHECK:         %x = load float, ptr addrspace(1) {{%atoll.global[0-9]*}}, align 4
; CHECK-NEXT:    %y = load float, ptr addrspace(1) [[GR]], align 4
; CHECK-NEXT:    %z = load float, ptr addrspace(1) [[GB]], align 4
; CHECK-NOT:     atoll.wild
; CHECK-NOT:     urem
; CHECK:         br i1 %cd, label %outer.latch, label %inner
; CHECK-EMPTY:
; CHECK-NEXT:  outer.latch: {{ *}}; preds = %[[ILATCH]]{{$}}

; The loops as LLVM finds them again: each wrap block inside the loop of its clamp,
; nothing else added to the loops (the hoisted clamps are outside them).
; LOOPS-LABEL: Loop info for function 'loops':
; LOOPS-NEXT:  Loop at depth 1 containing: %loop<header>,%atoll.wrap{{[0-9]*}},%{{[0-9]+}}<latch><exiting>{{$}}
; LOOPS-LABEL: Loop info for function 'nested':
; LOOPS-NEXT:  Loop at depth 1 containing: %outer<header>,%atoll.wrap{{[0-9]*}},%{{[0-9]+}},%inner,%atoll.wrap{{[0-9]*}},%{{[0-9]+}},%outer.latch<latch><exiting>{{$}}
; LOOPS-NEXT:  Loop at depth 2 containing: %inner<header>,%atoll.wrap{{[0-9]*}},%{{[0-9]+}}<latch><exiting>{{$}}

; (d) Two accesses in one block, through different pointers: each gets its own
; branch, in program order; the second splits the first one's tail.
define ptx_kernel void @two(ptr addrspace(1) %p, ptr %q, i64 %i) {
  %a = getelementptr i32, ptr addrspace(1) %p, i64 %i
  %v = load i32, ptr addrspace(1) %a, align 4
  %b = getelementptr i64, ptr %q, i64 %i
  %w = zext i32 %v to i64
  store i64 %w, ptr %b, align 8
  ret void
}

; CHECK-LABEL: define ptx_kernel void @two(
; CHECK-NEXT:    [[LIM4:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 4
; CHECK-NEXT:    [[LIM8:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 8
; CHECK-NEXT:    br label %atoll.body
; CHECK-EMPTY:
; CHECK-NEXT:  atoll.body:
; CHECK-NEXT:    %a = getelementptr i32, ptr addrspace(1) %p, i64 %i
; CHECK-NEXT:    [[P0:%.*]] = ptrtoint ptr addrspace(1) %a to i64
; CHECK-NEXT:    [[P0F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P0]]
; CHECK-NEXT:    [[R0:%atoll.rel[0-9]*]] = sub i64 [[P0F]], %__atoll_arena_base
; CHECK-NEXT:    [[W0:%atoll.wild[0-9]*]] = icmp uge i64 [[R0]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[W0]], label %[[WRAP0:atoll.wrap[0-9]*]], label %[[TAIL0:[0-9]+]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAP0]]: {{ *}}; preds = %atoll.body{{$}}
; CHECK-NEXT:    [[U0:%atoll.wrapped[0-9]*]] = urem i64 [[R0]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAIL0]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAIL0]]: {{ *}}; preds = %atoll.body, %[[WRAP0]]{{$}}
; CHECK-NEXT:    [[OFF0:%atoll.off[0-9]*]] = phi i64 [ [[R0]], %atoll.body ], [ [[U0]], %[[WRAP0]] ]
; CHECK-NEXT:    [[C0:%.*]] = call i64 @llvm.umin.i64(i64 [[OFF0]], i64 [[LIM4]])
; CHECK-NEXT:    [[AL0:%.*]] = and i64 [[C0]], -4
; CHECK-NEXT:    [[A0:%.*]] = add i64 %__atoll_arena_base, [[AL0]]
; CHECK-NEXT:    [[G0:%.*]] = inttoptr i64 [[A0]] to ptr addrspace(1)
; CHECK-NEXT:    %v = load i32, ptr addrspace(1) [[G0]], align 4
; CHECK-NEXT:    %b = getelementptr i64, ptr %q, i64 %i
; CHECK-NEXT:    %w = zext i32 %v to i64
; CHECK-NEXT:    [[P1:%.*]] = ptrtoint ptr %b to i64
; CHECK-NEXT:    [[P1F:%atoll.addr.fr[0-9]*]] = freeze i64 [[P1]]
; CHECK-NEXT:    [[R1:%atoll.rel[0-9]*]] = sub i64 [[P1F]], %__atoll_arena_base
; CHECK-NEXT:    [[W1:%atoll.wild[0-9]*]] = icmp uge i64 [[R1]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[W1]], label %[[WRAP1:atoll.wrap[0-9]*]], label %[[TAIL1:[0-9]+]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAP1]]: {{ *}}; preds = %[[TAIL0]]{{$}}
; CHECK-NEXT:    [[U1:%atoll.wrapped[0-9]*]] = urem i64 [[R1]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAIL1]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAIL1]]: {{ *}}; preds = %[[TAIL0]], %[[WRAP1]]{{$}}
; CHECK-NEXT:    [[OFF1:%atoll.off[0-9]*]] = phi i64 [ [[R1]], %[[TAIL0]] ], [ [[U1]], %[[WRAP1]] ]
; CHECK-NEXT:    [[C1:%.*]] = call i64 @llvm.umin.i64(i64 [[OFF1]], i64 [[LIM8]])
; CHECK-NEXT:    [[AL1:%.*]] = and i64 [[C1]], -8
; CHECK-NEXT:    [[A1:%.*]] = add i64 %__atoll_arena_base, [[AL1]]
; CHECK-NEXT:    [[G1:%.*]] = inttoptr i64 [[A1]] to ptr addrspace(1)
; CHECK-NEXT:    [[X1:%.*]] = addrspacecast ptr addrspace(1) [[G1]] to ptr
; CHECK-NEXT:    store i64 %w, ptr [[X1]], align 8
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }

; (e) A memcpy with a run-time length between two global pointers, after a
; branch: the length is cut to the arena size, then each operand gets its own
; clamp, branch and limit size - len (computed in the tail, after the phi).
define ptx_kernel void @copy(ptr addrspace(1) %d, ptr addrspace(1) %s, i64 %n, i1 %c) {
entry:
  br i1 %c, label %go, label %exit

go:
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 4 %d, ptr addrspace(1) align 8 %s, i64 %n, i1 false)
  br label %exit

exit:
  ret void
}

; CHECK-LABEL: define ptx_kernel void @copy(
; CHECK:       go:
; CHECK-NEXT:    [[LG0:%atoll.len.fr[0-9]*]] = freeze i64 %n
; CHECK-NEXT:    [[L0:%atoll.len[0-9]*]] = call i64 @llvm.umin.i64(i64 [[LG0]], i64 %__atoll_arena_size)
; CHECK-NEXT:    [[L:%atoll.len[0-9]*]] = call i64 @llvm.umin.i64(i64 [[L0]], i64 %__atoll_arena_size)
; CHECK-NEXT:    [[PD:%.*]] = ptrtoint ptr addrspace(1) %d to i64
; CHECK-NEXT:    [[PDF:%atoll.addr.fr[0-9]*]] = freeze i64 [[PD]]
; CHECK-NEXT:    [[RD:%atoll.rel[0-9]*]] = sub i64 [[PDF]], %__atoll_arena_base
; CHECK-NEXT:    [[WD:%atoll.wild[0-9]*]] = icmp uge i64 [[RD]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[WD]], label %[[WRAPD:atoll.wrap[0-9]*]], label %[[TAILD:[0-9]+]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAPD]]: {{ *}}; preds = %go{{$}}
; CHECK-NEXT:    [[UD:%atoll.wrapped[0-9]*]] = urem i64 [[RD]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAILD]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAILD]]: {{ *}}; preds = %go, %[[WRAPD]]{{$}}
; CHECK-NEXT:    [[OFFD:%atoll.off[0-9]*]] = phi i64 [ [[RD]], %go ], [ [[UD]], %[[WRAPD]] ]
; CHECK-NEXT:    [[LIMD:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, [[L]]
; CHECK-NEXT:    [[CD:%.*]] = call i64 @llvm.umin.i64(i64 [[OFFD]], i64 [[LIMD]])
; CHECK-NEXT:    [[ALD:%.*]] = and i64 [[CD]], -4
; CHECK-NEXT:    [[AD:%.*]] = add i64 %__atoll_arena_base, [[ALD]]
; CHECK-NEXT:    [[GD:%.*]] = inttoptr i64 [[AD]] to ptr addrspace(1)
; CHECK-NEXT:    [[PS:%.*]] = ptrtoint ptr addrspace(1) %s to i64
; CHECK-NEXT:    [[PSF:%atoll.addr.fr[0-9]*]] = freeze i64 [[PS]]
; CHECK-NEXT:    [[RS:%atoll.rel[0-9]*]] = sub i64 [[PSF]], %__atoll_arena_base
; CHECK-NEXT:    [[WS:%atoll.wild[0-9]*]] = icmp uge i64 [[RS]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[WS]], label %[[WRAPS:atoll.wrap[0-9]*]], label %[[TAILS:[0-9]+]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[WRAPS]]: {{ *}}; preds = %[[TAILD]]{{$}}
; CHECK-NEXT:    [[US:%atoll.wrapped[0-9]*]] = urem i64 [[RS]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[TAILS]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[TAILS]]: {{ *}}; preds = %[[TAILD]], %[[WRAPS]]{{$}}
; CHECK-NEXT:    [[OFFS:%atoll.off[0-9]*]] = phi i64 [ [[RS]], %[[TAILD]] ], [ [[US]], %[[WRAPS]] ]
; CHECK-NEXT:    [[LIMS:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, [[L]]
; CHECK-NEXT:    [[CS:%.*]] = call i64 @llvm.umin.i64(i64 [[OFFS]], i64 [[LIMS]])
; CHECK-NEXT:    [[ALS:%.*]] = and i64 [[CS]], -8
; CHECK-NEXT:    [[AS:%.*]] = add i64 %__atoll_arena_base, [[ALS]]
; CHECK-NEXT:    [[GS:%.*]] = inttoptr i64 [[AS]] to ptr addrspace(1)
; CHECK-NEXT:    call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 4 [[GD]], ptr addrspace(1) align 8 [[GS]], i64 [[L]], i1 false)
; CHECK-NEXT:    br label %exit
; CHECK-EMPTY:
; CHECK-NEXT:  exit: {{ *}}; preds = %[[TAILS]], %atoll.body{{$}}

; (f) Two accesses Base + C in one block share one clamp of Base (limit size - 8):
; one branch, the members' addresses (GEPs) in its tail.
define ptx_kernel void @group(ptr addrspace(1) %p, i64 %i, ptr addrspace(1) %out) {
  %a = getelementptr float, ptr addrspace(1) %p, i64 %i
  %a1 = getelementptr i8, ptr addrspace(1) %a, i64 4
  %x = load float, ptr addrspace(1) %a, align 4
  %y = load float, ptr addrspace(1) %a1, align 4
  %s = fadd float %x, %y
  store float %s, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define ptx_kernel void @group(
; CHECK-NEXT:    [[GLIM:%atoll.lim[0-9]*]] = sub i64 %__atoll_arena_size, 8
; CHECK:       atoll.body:
; CHECK-NEXT:    %a = getelementptr float, ptr addrspace(1) %p, i64 %i
; CHECK-NEXT:    %a1 = getelementptr i8, ptr addrspace(1) %a, i64 4
; CHECK-NEXT:    [[GP:%.*]] = ptrtoint ptr addrspace(1) %a to i64
; CHECK-NEXT:    [[GPF:%atoll.addr.fr[0-9]*]] = freeze i64 [[GP]]
; CHECK-NEXT:    [[GRL:%atoll.rel[0-9]*]] = sub i64 [[GPF]], %__atoll_arena_base
; CHECK-NEXT:    [[GW:%atoll.wild[0-9]*]] = icmp uge i64 [[GRL]], %__atoll_arena_size
; CHECK-NEXT:    br i1 [[GW]], label %[[GWRAP:atoll.wrap[0-9]*]], label %[[GTAIL:[0-9]+]], !prof [[UNLIKELY]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[GWRAP]]: {{ *}}; preds = %atoll.body{{$}}
; CHECK-NEXT:    [[GU:%atoll.wrapped[0-9]*]] = urem i64 [[GRL]], %__atoll_arena_size
; CHECK-NEXT:    br label %[[GTAIL]]
; CHECK-EMPTY:
; CHECK-NEXT:  {{^}}[[GTAIL]]: {{ *}}; preds = %atoll.body, %[[GWRAP]]{{$}}
; CHECK-NEXT:    [[GOFF:%atoll.off[0-9]*]] = phi i64 [ [[GRL]], %atoll.body ], [ [[GU]], %[[GWRAP]] ]
; CHECK-NEXT:    [[GC:%.*]] = call i64 @llvm.umin.i64(i64 [[GOFF]], i64 [[GLIM]])
; CHECK-NEXT:    [[GAL:%.*]] = and i64 [[GC]], -4
; CHECK-NEXT:    [[GA:%.*]] = add i64 %__atoll_arena_base, [[GAL]]
; CHECK-NEXT:    [[GG:%.*]] = inttoptr i64 [[GA]] to ptr addrspace(1)
; CHECK-NEXT:    [[M0:%atoll.grp.addr[0-9]*]] = getelementptr i8, ptr addrspace(1) [[GG]], i64 0
; CHECK-NEXT:    %x = load float, ptr addrspace(1) [[M0]], align 4
; CHECK-NEXT:    [[M1:%atoll.grp.addr[0-9]*]] = getelementptr i8, ptr addrspace(1) [[GG]], i64 4
; CHECK-NEXT:    %y = load float, ptr addrspace(1) [[M1]], align 4
; CHECK-NEXT:    %s = fadd float %x, %y
; CHECK-NEXT:    {{%.*}} = ptrtoint ptr addrspace(1) %out to i64

; (b) Every wild branch carries the same weights: the wrap path (the true
; successor) unlikely, as llvm::MDBuilder::createUnlikelyBranchWeights gives them.
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
