//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"
#include "vrm_simd_amd64.h"

// Stage A: stageA1 and touch1 (vrm_fast.go) for eight slots.

DATA one<>+0(SB)/4, $0x3f800000
GLOBL one<>(SB), RODATA|NOPTR, $4

DATA tiny<>+0(SB)/4, $0x2b8cbccc // float32(1e-12)
GLOBL tiny<>(SB), RODATA|NOPTR, $4

DATA huge<>+0(SB)/4, $0x7f7fffff // math.MaxFloat32
GLOBL huge<>(SB), RODATA|NOPTR, $4

DATA slack<>+0(SB)/4, $0x3f800054 // float32(1 + 1e-5)
GLOBL slack<>(SB), RODATA|NOPTR, $4

DATA tinier<>+0(SB)/4, $0x1e3ce508 // float32(1e-20), collide's tiny
GLOBL tinier<>(SB), RODATA|NOPTR, $4

DATA bits<>+0(SB)/4, $1
DATA bits<>+4(SB)/4, $2
DATA bits<>+8(SB)/4, $4
DATA bits<>+12(SB)/4, $8
DATA bits<>+16(SB)/4, $16
DATA bits<>+20(SB)/4, $32
DATA bits<>+24(SB)/4, $64
DATA bits<>+28(SB)/4, $128
GLOBL bits<>(SB), RODATA|NOPTR, $32

// NORMREST sets (x, y, z) to d.norm(rest): d scaled by 1/sqrt(l2), its
// squared length, where 1e-12 < l2 <= math.MaxFloat32, else the rest
// direction (quad.ax, ay, az). m is left the mask of the slots scaled;
// l2, t and u are clobbered.
#define NORMREST(x, y, z, l2, m, t, u) \
	VBROADCASTSS tiny<>(SB), m; \
	VCMPPS       $1, l2, m, m; \
	VBROADCASTSS huge<>(SB), u; \
	VCMPPS       $2, u, l2, t; \
	VANDPS       t, m, m; \
	VSQRTPS      l2, l2; \
	VBROADCASTSS one<>(SB), t; \
	VDIVPS       l2, t, t; \
	VMULPS       t, x, x; \
	VMULPS       t, y, y; \
	VMULPS       t, z, z; \
	VMOVUPS      quad_ax(DI), u; \
	SEL(m, x, u, x); \
	VMOVUPS      quad_ay(DI), u; \
	SEL(m, y, u, y); \
	VMOVUPS      quad_az(DI), u; \
	SEL(m, z, u, z)

// ACTIVE sets bit s of BL when slot s has a joint at i (CX): i <
// len(q.joints[s]). AL is clobbered.
#define ACTIVE(s) \
	CMPQ  CX, (quad_joints+24*s+8)(DI); \
	SETLT AL; \
	SHLB  $s, AL; \
	ORB   AL, BL

// PARK parks slot s (see quad.park) when i (CX) is its spring's length.
#define PARK(s, skip) \
	CMPQ CX, (quad_joints+24*s+8)(DI); \
	JNE  skip; \
	MOVL $0, (quad_rx+4*s)(DI); \
	MOVL $0, (quad_ry+4*s)(DI); \
	MOVL $0, (quad_rz+4*s)(DI); \
	MOVL $0x3f800000, (quad_rw+4*s)(DI); \
	MOVL $0, (quad_hx+4*s)(DI); \
	MOVL $0, (quad_hy+4*s)(DI); \
	MOVL $0, (quad_hz+4*s)(DI); \
	MOVL $0, (quad_cpx+4*s)(DI); \
	MOVL $0, (quad_cpy+4*s)(DI); \
	MOVL $0, (quad_cpz+4*s)(DI); \
	MOVL $0, (quad_crx+4*s)(DI); \
	MOVL $0, (quad_cry+4*s)(DI); \
	MOVL $0, (quad_crz+4*s)(DI); \
	MOVL $0x3f800000, (quad_crw+4*s)(DI); \
	MOVL $0, (quad_stf+4*s)(DI); \
	MOVL $0, (quad_gx+4*s)(DI); \
	MOVL $0, (quad_gy+4*s)(DI); \
	MOVL $0, (quad_gz+4*s)(DI); \
	MOVL $0, (quad_kp+4*s)(DI); \
	MOVL $0, (quad_f+4*s)(DI); \
	MOVL $0, (quad_r+4*s)(DI); \
skip:

// GATHERJ reads the joint's rest axis and length of slots s0..s3 into
// half h of the spill columns. J is JOINTPTR or JOINTPTRFULL.
#define GATHERJ(J, s0, s1, s2, s3, h) \
	PTRS4(J, s0, s1, s2, s3); \
	ROWS4(vrmJoint_restAxis); \
	COLS(X1, X5, X3, X2, SP_RAX, SP_RAY, SP_RAZ, SP_LEN, h)

// PREVIN loads slot s's previous tail into x; CURIN its current tail,
// which it also stores as the previous one. L and S are as for GATHERT.
#define PREVIN(L, s, x) \
	L(quad_prev, s, R8); \
	LOADV3(R8, x, X4)

#define CURIN(L, S, s, x) \
	L(quad_cur, s, R8); \
	S(quad_prev, s, R9); \
	MOVEV3(R8, R9, x, X4)

// GATHERT reads the tails of slots s0..s3 into half h of the spill
// columns: the previous one (p := *prev) and the current one, which
// becomes the previous (c := *cur; *prev = c). L and S are LOADPTR and
// STOREPTR, or their FULL forms.
#define GATHERT(L, S, s0, s1, s2, s3, h) \
	PREVIN(L, s0, X0); \
	PREVIN(L, s1, X1); \
	PREVIN(L, s2, X2); \
	PREVIN(L, s3, X3); \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS X1, (SP_PX+h)(DI); \
	MOVUPS X5, (SP_PY+h)(DI); \
	MOVUPS X3, (SP_PZ+h)(DI); \
	CURIN(L, S, s0, X0); \
	CURIN(L, S, s1, X1); \
	CURIN(L, S, s2, X2); \
	CURIN(L, S, s3, X3); \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS X1, (SP_CX+h)(DI); \
	MOVUPS X5, (SP_CY+h)(DI); \
	MOVUPS X3, (SP_CZ+h)(DI)

// GATHERSETS reads the settings rows of slots s0..s3 (idle ones past
// their springs) into half h of the spill columns.
#define GATHERSETS(s0, s1, s2, s3, h) \
	PTRS4(SETPTR, s0, s1, s2, s3); \
	ROWS4(vrmSet_stiffness); \
	MOVUPS X1, (SP_STF+h)(DI); \
	MOVUPS X5, (SP_FRC+h)(DI); \
	MOVUPS X3, (SP_HIT+h)(DI); \
	ROWS4(vrmSet_gravity); \
	COLS(X1, X5, X3, X2, SP_GX, SP_GY, SP_GZ, SP_KEEP, h)

// func stageA(q *quad, i int) uint64
TEXT ·stageA(SB), NOSPLIT, $0-24
	CMPB ·simdStages(SB), $0
	JEQ  scalar
	MOVQ q+0(FP), DI
	SLOTS
	CMPB quad_full(DI), $0
	JEQ  partial
	MOVB $0xff, quad_active(DI)
	LEAQ (CX)(CX*2), AX
	SHLQ $2, AX // i*12
	GATHERT(LOADPTRFULL, STOREPTRFULL, 0, 1, 2, 3, 0)
	GATHERT(LOADPTRFULL, STOREPTRFULL, 4, 5, 6, 7, 16)
	CMPB quad_oneChain(DI), $0
	JNE  gathered // the joint is broadcast below
	GATHERJ(JOINTPTRFULL, 0, 1, 2, 3, 0)
	GATHERJ(JOINTPTRFULL, 4, 5, 6, 7, 16)
	JMP  gathered

partial:
	// q.active: bit s when i < len(q.joints[s])
	XORL BX, BX
	ACTIVE(0)
	ACTIVE(1)
	ACTIVE(2)
	ACTIVE(3)
	ACTIVE(4)
	ACTIVE(5)
	ACTIVE(6)
	ACTIVE(7)
	MOVB BL, quad_active(DI)

	// A slot whose spring ended at the previous joint is parked, as park does.
	PARK(0, parked0)
	PARK(1, parked1)
	PARK(2, parked2)
	PARK(3, parked3)
	PARK(4, parked4)
	PARK(5, parked5)
	PARK(6, parked6)
	PARK(7, parked7)
	LEAQ (CX)(CX*2), AX
	SHLQ $2, AX // i*12
	GATHERT(LOADPTR, STOREPTR, 0, 1, 2, 3, 0)
	GATHERT(LOADPTR, STOREPTR, 4, 5, 6, 7, 16)
	GATHERJ(JOINTPTR, 0, 1, 2, 3, 0)
	GATHERJ(JOINTPTR, 4, 5, 6, 7, 16)

gathered:
	CMPB quad_perJoint(DI), $0
	JEQ  rest
	LEAQ ·idleSet(SB), BX
	GATHERSETS(0, 1, 2, 3, 0)
	GATHERSETS(4, 5, 6, 7, 16)

rest:
	// Everything read: from here on the eight slots in YMM registers.
	// rest := pr.rotFin(j.restAxis, pr.rotT(j.restAxis)); the rest axis
	// and length of one chain's joint are broadcast to every slot.
	CMPB         quad_oneChain(DI), $0
	JEQ          restcols
	MOVQ         quad_joints(DI), R8
	ADDQ         DX, R8
	VBROADCASTSS vrmJoint_restAxis(R8), Y1
	VBROADCASTSS (vrmJoint_restAxis+4)(R8), Y5
	VBROADCASTSS (vrmJoint_restAxis+8)(R8), Y3
	VBROADCASTSS vrmJoint_length(R8), Y8
	VMOVUPS      Y8, (SP_LEN)(DI)
	JMP          restrot

restcols:
	VMOVUPS (SP_RAX)(DI), Y1
	VMOVUPS (SP_RAY)(DI), Y5
	VMOVUPS (SP_RAZ)(DI), Y3

restrot:
	VMOVUPS quad_rx(DI), Y6
	VMOVUPS quad_ry(DI), Y7
	VMOVUPS quad_rz(DI), Y8
	VMOVUPS quad_rw(DI), Y9
	VROT(Y6, Y7, Y8, Y9, Y1, Y5, Y3, Y10, Y11, Y12, Y0, Y2) // rest Y1 Y5 Y3
	VMOVUPS Y1, quad_ax(DI)
	VMOVUPS Y5, quad_ay(DI)
	VMOVUPS Y3, quad_az(DI)

	// Settings as columns (setCols) when no slot has them per joint; R14
	// points at the keep column.
	CMPB    quad_perJoint(DI), $0
	JNE     setrows
	VMOVUPS quad_f(DI), Y2 // f
	VMOVUPS quad_k(DI), Y10
	VMOVUPS (SP_LEN)(DI), Y8
	VMULPS  Y10, Y8, Y8
	VMOVUPS Y8, quad_lk(DI) // j.length*k
	VMOVUPS quad_gx(DI), Y4
	VMOVUPS quad_gy(DI), Y9
	VMOVUPS quad_gz(DI), Y7
	LEAQ    quad_kp(DI), R14
	VMOVUPS quad_stf(DI), Y0
	JMP     force

setrows:
	// f := set.force*k + q.fk; lk := j.length*k; r := set.hitRadius*k
	VMOVUPS quad_k(DI), Y9
	VMOVUPS (SP_FRC)(DI), Y8
	VMULPS  Y9, Y8, Y8
	VMOVUPS quad_fk(DI), Y10
	VADDPS  Y10, Y8, Y2 // f
	VMOVUPS (SP_LEN)(DI), Y8
	VMULPS  Y9, Y8, Y8
	VMOVUPS Y8, quad_lk(DI)
	VMOVUPS (SP_HIT)(DI), Y6
	VMULPS  Y9, Y6, Y6
	VMOVUPS Y6, quad_r(DI)
	VMOVUPS (SP_GX)(DI), Y4
	VMOVUPS (SP_GY)(DI), Y9
	VMOVUPS (SP_GZ)(DI), Y7
	LEAQ    (SP_KEEP)(DI), R14
	VMOVUPS (SP_STF)(DI), Y0

force:
	// w := rest.scale(set.stiffness).add(set.gravity).scale(f), kept in
	// next until next is due
	VMULPS  Y0, Y1, Y1
	VADDPS  Y4, Y1, Y1
	VMULPS  Y2, Y1, Y1
	VMULPS  Y0, Y5, Y5
	VADDPS  Y9, Y5, Y5
	VMULPS  Y2, Y5, Y5
	VMULPS  Y0, Y3, Y3
	VADDPS  Y7, Y3, Y3
	VMULPS  Y2, Y3, Y3
	VMOVUPS Y1, quad_nx(DI)
	VMOVUPS Y5, quad_ny(DI)
	VMOVUPS Y3, quad_nz(DI)

	// p := *prev; c := *cur, as gathered
	VMOVUPS (SP_PX)(DI), Y4
	VMOVUPS (SP_PY)(DI), Y9
	VMOVUPS (SP_PZ)(DI), Y7
	VMOVUPS (SP_CX)(DI), Y6
	VMOVUPS (SP_CY)(DI), Y12
	VMOVUPS (SP_CZ)(DI), Y10

	// q.bad |= bits of c-c: non-zero once a stored tail is not finite
	VSUBPS  Y6, Y6, Y0
	VSUBPS  Y12, Y12, Y1
	VORPS   Y1, Y0, Y0
	VSUBPS  Y10, Y10, Y1
	VORPS   Y1, Y0, Y0
	VMOVUPS quad_bad(DI), Y1
	VORPS   Y1, Y0, Y0
	VMOVUPS Y0, quad_bad(DI)

	// c = cr.rotFin(c, cr.rotT(c)).add(cp), and p the same
	CMPB    quad_centred(DI), $0
	JEQ     integrate
	VMOVUPS quad_crx(DI), Y0
	VMOVUPS quad_cry(DI), Y1
	VMOVUPS quad_crz(DI), Y2
	VMOVUPS quad_crw(DI), Y3
	VROT(Y0, Y1, Y2, Y3, Y6, Y12, Y10, Y5, Y8, Y11, Y13, Y14)
	VROT(Y0, Y1, Y2, Y3, Y4, Y9, Y7, Y5, Y8, Y11, Y13, Y14)
	VMOVUPS quad_cpx(DI), Y0
	VADDPS  Y0, Y6, Y6
	VADDPS  Y0, Y4, Y4
	VMOVUPS quad_cpy(DI), Y1
	VADDPS  Y1, Y12, Y12
	VADDPS  Y1, Y9, Y9
	VMOVUPS quad_cpz(DI), Y2
	VADDPS  Y2, Y10, Y10
	VADDPS  Y2, Y7, Y7

integrate:
	// next := c.add(c.sub(p).scale(j.keep)).add(w)
	VMOVUPS (R14), Y0
	VSUBPS  Y4, Y6, Y1
	VMULPS  Y0, Y1, Y1
	VADDPS  Y6, Y1, Y1
	VMOVUPS quad_nx(DI), Y2
	VADDPS  Y2, Y1, Y1
	VSUBPS  Y9, Y12, Y3
	VMULPS  Y0, Y3, Y3
	VADDPS  Y12, Y3, Y3
	VMOVUPS quad_ny(DI), Y2
	VADDPS  Y2, Y3, Y3
	VSUBPS  Y7, Y10, Y5
	VMULPS  Y0, Y5, Y5
	VADDPS  Y10, Y5, Y5
	VMOVUPS quad_nz(DI), Y2
	VADDPS  Y2, Y5, Y5 // next Y1 Y3 Y5

	// d := next.sub(head); l2 := d.dot(d)
	VMOVUPS quad_hx(DI), Y6
	VMOVUPS quad_hy(DI), Y7
	VMOVUPS quad_hz(DI), Y8
	VSUBPS  Y6, Y1, Y9
	VSUBPS  Y7, Y3, Y10
	VSUBPS  Y8, Y5, Y11
	VDOT3(Y9, Y10, Y11, Y9, Y10, Y11, Y12, Y13)

	// dir := d.scale(1/sqrt(l2)) where l2 > 1e-12 && l2 <= math.MaxFloat32, else rest
	NORMREST(Y9, Y10, Y11, Y12, Y13, Y14, Y0) // dir Y9 Y10 Y11

	// next = head.add(dir.scale(lk)), into Y0 Y1 Y2 for the collider pass
	VMOVUPS quad_lk(DI), Y12
	VMULPS  Y12, Y9, Y0
	VADDPS  Y6, Y0, Y0
	VMULPS  Y12, Y10, Y1
	VADDPS  Y7, Y1, Y1
	VMULPS  Y12, Y11, Y2
	VADDPS  Y8, Y2, Y2
	VMOVUPS Y0, quad_nx(DI)
	VMOVUPS Y1, quad_ny(DI)
	VMOVUPS Y2, quad_nz(DI)
	VMOVUPS Y9, quad_dx(DI)
	VMOVUPS Y10, quad_dy(DI)
	VMOVUPS Y11, quad_dz(DI)

	// The collider pass (touch1): spheres push the tail out and
	// renormalise it in every slot they touch; a slot that may touch a
	// collider of another kind leaves the pass, byte s of the result
	// naming that collider for collide1 (0xff: none). R10 and SP_PASS
	// hold the slots still in the pass, as bits and as a lane mask.
	MOVQ         $-1, DX
	MOVL         quad_near(DI), R9
	MOVBLZX      quad_active(DI), R10
	VMOVQ        R10, X12
	VPBROADCASTD X12, Y12
	VMOVDQU      bits<>(SB), Y13
	VPAND        Y13, Y12, Y12
	VPCMPEQD     Y13, Y12, Y12 // all ones where the slot's bit is set
	VMOVUPS      Y12, (SP_PASS)(DI)
	LEAQ         quad_tab(DI), R8
	VMOVUPS      quad_r(DI), Y3

touch:
	TESTL    R9, R9
	JZ       touched
	TESTL    R10, R10
	JZ       touched
	BSFL     R9, R11 // c
	LEAL     -1(R9), AX
	ANDL     AX, R9
	IMUL3Q   $colTab__size, R11, R12
	ADDQ     R8, R12
	VPCMPEQD Y10, Y10, Y10 // all may touch
	CMPB     colTab_bound(R12), $0
	JNE      hit // Inside, or kinds that differ between slots
	VMOVUPS  colTab_ax(R12), Y4
	VMOVUPS  colTab_ay(R12), Y5
	VMOVUPS  colTab_az(R12), Y6
	VSUBPS   Y4, Y0, Y7
	VSUBPS   Y5, Y1, Y8
	VSUBPS   Y6, Y2, Y9 // d := p.sub(a)
	MOVB     colTab_kind(R12), BL
	CMPB     BL, $0
	JEQ      sphere
	CMPB     BL, $1
	JEQ      capsule
	CMPB     BL, $2
	JNE      hit // unknown: Push decides

	// plane: d.dot(n)-r >= 0 misses
	VMOVUPS colTab_nx(R12), Y10
	VMOVUPS colTab_ny(R12), Y11
	VMOVUPS colTab_nz(R12), Y12
	VDOT3(Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14)
	VSUBPS  Y3, Y13, Y13
	VXORPS  Y10, Y10, Y10
	VCMPPS  $6, Y13, Y10, Y10 // !(0 <= d.n - r)
	JMP     hit

capsule:
	// Beyond the capsule's bounding sphere in every slot still in the
	// pass (t.boundMiss): a miss, without the test below. Its result is
	// kept for the slots (SP_BOUND): boundMiss || misses.
	VMOVUPS      colTab_bcx(R12), Y10
	VSUBPS       Y10, Y0, Y11
	VMULPS       Y11, Y11, Y11
	VMOVUPS      colTab_bcy(R12), Y10
	VSUBPS       Y10, Y1, Y12
	VMULPS       Y12, Y12, Y12
	VADDPS       Y12, Y11, Y11
	VMOVUPS      colTab_bcz(R12), Y10
	VSUBPS       Y10, Y2, Y12
	VMULPS       Y12, Y12, Y12
	VADDPS       Y12, Y11, Y11 // d.dot(d)
	VBROADCASTSS slack<>(SB), Y12
	VMULPS       Y3, Y12, Y12
	VMOVUPS      colTab_bs(R12), Y10
	VADDPS       Y10, Y12, Y12
	VMULPS       Y12, Y12, Y12 // lim*lim
	VCMPPS       $6, Y11, Y12, Y12 // !(lim*lim <= d.dot(d)): within the bound
	VMOVUPS      (SP_PASS)(DI), Y13
	VANDPS       Y13, Y12, Y12
	VMOVMSKPS    Y12, AX
	TESTL        AX, AX
	JZ           touch
	VMOVUPS      Y12, (SP_BOUND)(DI)

	// ab := b.sub(a); t := d.dot(ab); past the end d = d.sub(ab), along
	// the segment d = d.sub(ab.scale(t / l2))
	VMOVUPS      colTab_bx(R12), Y10
	VSUBPS       Y4, Y10, Y10
	VMOVUPS      colTab_by(R12), Y11
	VSUBPS       Y5, Y11, Y11
	VMOVUPS      colTab_bz(R12), Y12
	VSUBPS       Y6, Y12, Y12
	VDOT3(Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14) // t
	VDOT3(Y10, Y11, Y12, Y10, Y11, Y12, Y4, Y14) // l2
	VDIVPS       Y4, Y13, Y5 // t / l2
	VCMPPS       $2, Y13, Y4, Y6 // l2 <= t
	VBROADCASTSS one<>(SB), Y14
	SEL(Y6, Y14, Y5, Y6) // 1 past the end, else t/l2
	VXORPS       Y14, Y14, Y14
	VCMPPS       $1, Y13, Y14, Y14 // 0 < t
	VANDPS       Y14, Y6, Y6 // 0 before the start
	VMULPS       Y6, Y10, Y10
	VSUBPS       Y10, Y7, Y7
	VMULPS       Y6, Y11, Y11
	VSUBPS       Y11, Y8, Y8
	VMULPS       Y6, Y12, Y12
	VSUBPS       Y12, Y9, Y9
	VDOT3(Y7, Y8, Y9, Y7, Y8, Y9, Y13, Y14)

	// R := c.RA, or c.RB if c.RB > R; R += r; d.dot(d) > R*R*(1+1e-5)
	// misses. VMAXPS keeps its first source only when greater: RB.
	VMOVUPS      colTab_rb(R12), Y10
	VMOVUPS      colTab_ra(R12), Y11
	VMAXPS       Y11, Y10, Y10
	VADDPS       Y3, Y10, Y10
	VMULPS       Y10, Y10, Y10
	VBROADCASTSS slack<>(SB), Y11
	VMULPS       Y11, Y10, Y10
	VCMPPS       $5, Y13, Y10, Y10 // !(R*R*(1+1e-5) < d.d)
	VMOVUPS      (SP_BOUND)(DI), Y11
	VANDPS       Y11, Y10, Y10 // and within the bound

hit:
	// Slots still in the pass that may touch c (Y10) leave it, c first.
	VMOVUPS   (SP_PASS)(DI), Y11
	VANDPS    Y11, Y10, Y10
	VMOVMSKPS Y10, AX
	TESTL     AX, AX
	JZ        touch
	VANDNPS   Y11, Y10, Y10
	VMOVUPS   Y10, (SP_PASS)(DI)

mark:
	// byte s of the result (DX) = c for each slot s of AX
	BSFL  AX, CX
	BTRL  CX, AX
	BTRL  CX, R10
	SHLL  $3, CX
	MOVQ  $0xff, BX
	SHLQ  CX, BX
	NOTQ  BX
	ANDQ  BX, DX
	MOVQ  R11, BX
	SHLQ  CX, BX
	ORQ   BX, DX
	TESTL AX, AX
	JNZ   mark
	JMP   touch

sphere:
	// R := c.RA + r; d.dot(d) >= R*R misses. Else collide.Push: p = c +
	// d*(R/sqrt(l2)), or c + (0, 1, 0)*R at the centre (l2 <= 1e-20).
	VDOT3(Y7, Y8, Y9, Y7, Y8, Y9, Y13, Y14) // l2
	VMOVUPS      colTab_ra(R12), Y10
	VADDPS       Y3, Y10, Y10 // R
	VMULPS       Y10, Y10, Y12
	VCMPPS       $6, Y13, Y12, Y12 // !(R*R <= l2)
	VMOVUPS      (SP_PASS)(DI), Y11
	VANDPS       Y11, Y12, Y12 // pushed: slots in the pass it touches
	VMOVMSKPS    Y12, AX
	TESTL        AX, AX
	JZ           touch
	VSQRTPS      Y13, Y11
	VDIVPS       Y11, Y10, Y14 // k
	VMULPS       Y14, Y7, Y7
	VADDPS       Y4, Y7, Y7
	VMULPS       Y14, Y8, Y8
	VADDPS       Y5, Y8, Y8
	VMULPS       Y14, Y9, Y9
	VADDPS       Y6, Y9, Y9 // p
	VBROADCASTSS tinier<>(SB), Y14
	VCMPPS       $2, Y14, Y13, Y11 // l2 <= 1e-20
	VXORPS       Y14, Y14, Y14
	VMULPS       Y10, Y14, Y14
	VADDPS       Y14, Y4, Y4 // cx + 0*R
	VADDPS       Y14, Y6, Y6 // cz + 0*R
	VBROADCASTSS one<>(SB), Y14
	VMULPS       Y10, Y14, Y14
	VADDPS       Y14, Y5, Y5 // cy + 1*R
	SEL(Y11, Y4, Y7, Y4)
	SEL(Y11, Y5, Y8, Y5)
	SEL(Y11, Y6, Y9, Y6) // p Y4 Y5 Y6

	// dir := p.sub(head).norm(rest); next = head.add(dir.scale(lk))
	VMOVUPS      quad_hx(DI), Y7
	VSUBPS       Y7, Y4, Y4
	VMOVUPS      quad_hy(DI), Y8
	VSUBPS       Y8, Y5, Y5
	VMOVUPS      quad_hz(DI), Y9
	VSUBPS       Y9, Y6, Y6
	VDOT3(Y4, Y5, Y6, Y4, Y5, Y6, Y13, Y14) // l2
	NORMREST(Y4, Y5, Y6, Y13, Y11, Y14, Y10) // dir Y4 Y5 Y6
	VMOVUPS      quad_lk(DI), Y10
	VMULPS       Y10, Y4, Y11
	VADDPS       Y11, Y7, Y7
	VMULPS       Y10, Y5, Y11
	VADDPS       Y11, Y8, Y8
	VMULPS       Y10, Y6, Y11
	VADDPS       Y11, Y9, Y9 // next Y7 Y8 Y9

	// In the pushed slots (Y12) the tail and direction change.
	SEL(Y12, Y7, Y0, Y0)
	SEL(Y12, Y8, Y1, Y1)
	SEL(Y12, Y9, Y2, Y2)
	VMOVUPS Y0, quad_nx(DI)
	VMOVUPS Y1, quad_ny(DI)
	VMOVUPS Y2, quad_nz(DI)
	VMOVUPS quad_dx(DI), Y13
	SEL(Y12, Y4, Y13, Y4)
	VMOVUPS Y4, quad_dx(DI)
	VMOVUPS quad_dy(DI), Y13
	SEL(Y12, Y5, Y13, Y5)
	VMOVUPS Y5, quad_dy(DI)
	VMOVUPS quad_dz(DI), Y13
	SEL(Y12, Y6, Y13, Y6)
	VMOVUPS Y6, quad_dz(DI)
	JMP     touch

touched:
	VZEROUPPER
	MOVQ DX, ret+16(FP)
	RET

scalar:
	JMP ·stageAGo(SB)
