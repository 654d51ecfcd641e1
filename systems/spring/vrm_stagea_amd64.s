//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"
#include "vrm_simd_amd64.h"

// Stage A: stageA1 and touch1 (vrm_fast.go) for four slots.

DATA one<>+0(SB)/4, $0x3f800000
DATA one<>+4(SB)/4, $0x3f800000
DATA one<>+8(SB)/4, $0x3f800000
DATA one<>+12(SB)/4, $0x3f800000
GLOBL one<>(SB), RODATA|NOPTR, $16

DATA tiny<>+0(SB)/4, $0x2b8cbccc // float32(1e-12)
DATA tiny<>+4(SB)/4, $0x2b8cbccc
DATA tiny<>+8(SB)/4, $0x2b8cbccc
DATA tiny<>+12(SB)/4, $0x2b8cbccc
GLOBL tiny<>(SB), RODATA|NOPTR, $16

DATA huge<>+0(SB)/4, $0x7f7fffff // math.MaxFloat32
DATA huge<>+4(SB)/4, $0x7f7fffff
DATA huge<>+8(SB)/4, $0x7f7fffff
DATA huge<>+12(SB)/4, $0x7f7fffff
GLOBL huge<>(SB), RODATA|NOPTR, $16

DATA slack<>+0(SB)/4, $0x3f800054 // float32(1 + 1e-5)
DATA slack<>+4(SB)/4, $0x3f800054
DATA slack<>+8(SB)/4, $0x3f800054
DATA slack<>+12(SB)/4, $0x3f800054
GLOBL slack<>(SB), RODATA|NOPTR, $16

DATA tinier<>+0(SB)/4, $0x1e3ce508 // float32(1e-20), collide's tiny
DATA tinier<>+4(SB)/4, $0x1e3ce508
DATA tinier<>+8(SB)/4, $0x1e3ce508
DATA tinier<>+12(SB)/4, $0x1e3ce508
GLOBL tinier<>(SB), RODATA|NOPTR, $16

DATA bits<>+0(SB)/4, $1
DATA bits<>+4(SB)/4, $2
DATA bits<>+8(SB)/4, $4
DATA bits<>+12(SB)/4, $8
GLOBL bits<>(SB), RODATA|NOPTR, $16

// func stageA(q *quad, i int) uint64
TEXT ·stageA(SB), NOSPLIT, $0-24
	MOVQ q+0(FP), DI
	SLOTS
	CMPB quad_full(DI), $0
	JEQ  partial
	JOINTPTRFULL(0, R8)
	JOINTPTRFULL(1, R9)
	JOINTPTRFULL(2, R10)
	JOINTPTRFULL(3, R11)
	MOVB $15, quad_active(DI)
	JMP  slotted

partial:
	JOINTPTR(0, R8)
	JOINTPTR(1, R9)
	JOINTPTR(2, R10)
	JOINTPTR(3, R11)

	// q.active: bit s when i < len(q.joints[s])
	XORL   BX, BX
	CMPQ   CX, (quad_joints+24*0+8)(DI)
	SETLT  AL
	ORB    AL, BL
	CMPQ   CX, (quad_joints+24*1+8)(DI)
	SETLT  AL
	SHLB   $1, AL
	ORB    AL, BL
	CMPQ   CX, (quad_joints+24*2+8)(DI)
	SETLT  AL
	SHLB   $2, AL
	ORB    AL, BL
	CMPQ   CX, (quad_joints+24*3+8)(DI)
	SETLT  AL
	SHLB   $3, AL
	ORB    AL, BL
	MOVB   BL, quad_active(DI)

	// A slot whose spring ended at the previous joint is parked, as park does.
	PARK(0, parked0)
	PARK(1, parked1)
	PARK(2, parked2)
	PARK(3, parked3)

slotted:
	// rest := pr.rotFin(j.restAxis, pr.rotT(j.restAxis))
	MOVUPS vrmJoint_restAxis(R8), X0
	MOVUPS vrmJoint_restAxis(R9), X1
	MOVUPS vrmJoint_restAxis(R10), X2
	MOVUPS vrmJoint_restAxis(R11), X3
	TRANSPOSE(X0, X1, X2, X3, X4, X5) // restAxis X1 X5 X3, length X2
	MOVUPS X2, (quad_spill+0)(DI)
	MOVUPS quad_rx(DI), X6
	MOVUPS quad_ry(DI), X7
	MOVUPS quad_rz(DI), X8
	MOVUPS quad_rw(DI), X9
	ROT(X6, X7, X8, X9, X1, X5, X3, X10, X11, X12, X0, X2) // rest X1 X5 X3
	MOVUPS X1, quad_ax(DI)
	MOVUPS X5, quad_ay(DI)
	MOVUPS X3, quad_az(DI)

	// Settings as columns (setCols) when no slot has them per joint.
	CMPB   quad_perJoint(DI), $0
	JNE    setrows
	MOVUPS quad_f(DI), X2 // f
	MOVUPS quad_k(DI), X10
	MOVUPS (quad_spill+0)(DI), X8
	MULPS  X10, X8
	MOVUPS X8, quad_lk(DI) // j.length*k
	MOVUPS quad_gx(DI), X4
	MOVUPS quad_gy(DI), X9
	MOVUPS quad_gz(DI), X7
	MOVUPS quad_kp(DI), X6
	MOVUPS X6, (quad_spill+32)(DI)
	MOVUPS quad_stf(DI), X0
	JMP    force

setrows:
	// The slots' settings rows, idle ones past their springs.
	LEAQ ·idleSet(SB), BX
	SETPTR(0, R8)
	SETPTR(1, R9)
	SETPTR(2, R10)
	SETPTR(3, R11)

	// f := set.force*k + q.fk; lk := j.length*k
	MOVUPS vrmSet_stiffness(R8), X0
	MOVUPS vrmSet_stiffness(R9), X2
	MOVUPS vrmSet_stiffness(R10), X4
	MOVUPS vrmSet_stiffness(R11), X6
	TRANSPOSE(X0, X2, X4, X6, X7, X8) // stiffness X2, force X8, hitRadius X6
	MOVUPS X2, (quad_spill+16)(DI)
	MOVUPS quad_k(DI), X9
	MULPS  X9, X8
	MOVUPS quad_fk(DI), X10
	ADDPS  X10, X8
	MOVAPS X8, X2 // f
	MOVUPS (quad_spill+0)(DI), X8
	MULPS  X9, X8
	MOVUPS X8, quad_lk(DI)
	MULPS  X9, X6
	MOVUPS X6, quad_r(DI) // set.hitRadius*k

	// w := rest.scale(set.stiffness).add(set.gravity).scale(f)
	MOVUPS vrmSet_gravity(R8), X0
	MOVUPS vrmSet_gravity(R9), X4
	MOVUPS vrmSet_gravity(R10), X6
	MOVUPS vrmSet_gravity(R11), X7
	TRANSPOSE(X0, X4, X6, X7, X8, X9) // gravity X4 X9 X7, keep X6
	MOVUPS X6, (quad_spill+32)(DI)
	MOVUPS (quad_spill+16)(DI), X0

force:
	MULPS  X0, X1
	ADDPS  X4, X1
	MULPS  X2, X1
	MULPS  X0, X5
	ADDPS  X9, X5
	MULPS  X2, X5
	MULPS  X0, X3
	ADDPS  X7, X3
	MULPS  X2, X3
	MOVUPS X1, quad_nx(DI) // w, kept in next until next is due
	MOVUPS X5, quad_ny(DI)
	MOVUPS X3, quad_nz(DI)

	// p := *prev
	LEAQ (CX)(CX*2), AX
	SHLQ $2, AX // i*12
	CMPB quad_full(DI), $0
	JNE  tailsfull
	LOADPTR(quad_prev, 0, R8)
	LOADV3(R8, X0, X2)
	LOADPTR(quad_prev, 1, R8)
	LOADV3(R8, X4, X2)
	LOADPTR(quad_prev, 2, R8)
	LOADV3(R8, X6, X2)
	LOADPTR(quad_prev, 3, R8)
	LOADV3(R8, X7, X2)
	TRANSPOSE(X0, X4, X6, X7, X8, X9) // p X4 X9 X7

	// c := *cur; *prev = c
	LOADPTR(quad_cur, 0, R8)
	STOREPTR(quad_prev, 0, R9)
	MOVSD   (R8), X0
	MOVSS   8(R8), X2
	MOVSD   X0, (R9)
	MOVSS   X2, 8(R9)
	MOVLHPS X2, X0
	LOADPTR(quad_cur, 1, R8)
	STOREPTR(quad_prev, 1, R9)
	MOVSD   (R8), X6
	MOVSS   8(R8), X2
	MOVSD   X6, (R9)
	MOVSS   X2, 8(R9)
	MOVLHPS X2, X6
	LOADPTR(quad_cur, 2, R8)
	STOREPTR(quad_prev, 2, R9)
	MOVSD   (R8), X8
	MOVSS   8(R8), X2
	MOVSD   X8, (R9)
	MOVSS   X2, 8(R9)
	MOVLHPS X2, X8
	LOADPTR(quad_cur, 3, R8)
	STOREPTR(quad_prev, 3, R9)
	MOVSD   (R8), X10
	MOVSS   8(R8), X2
	MOVSD   X10, (R9)
	MOVSS   X2, 8(R9)
	MOVLHPS X2, X10
	JMP  tailsdone

tailsfull:
	LOADPTRFULL(quad_prev, 0, R8)
	LOADV3(R8, X0, X2)
	LOADPTRFULL(quad_prev, 1, R8)
	LOADV3(R8, X4, X2)
	LOADPTRFULL(quad_prev, 2, R8)
	LOADV3(R8, X6, X2)
	LOADPTRFULL(quad_prev, 3, R8)
	LOADV3(R8, X7, X2)
	TRANSPOSE(X0, X4, X6, X7, X8, X9) // p X4 X9 X7

	// c := *cur; *prev = c
	LOADPTRFULL(quad_cur, 0, R8)
	STOREPTRFULL(quad_prev, 0, R9)
	MOVSD   (R8), X0
	MOVSS   8(R8), X2
	MOVSD   X0, (R9)
	MOVSS   X2, 8(R9)
	MOVLHPS X2, X0
	LOADPTRFULL(quad_cur, 1, R8)
	STOREPTRFULL(quad_prev, 1, R9)
	MOVSD   (R8), X6
	MOVSS   8(R8), X2
	MOVSD   X6, (R9)
	MOVSS   X2, 8(R9)
	MOVLHPS X2, X6
	LOADPTRFULL(quad_cur, 2, R8)
	STOREPTRFULL(quad_prev, 2, R9)
	MOVSD   (R8), X8
	MOVSS   8(R8), X2
	MOVSD   X8, (R9)
	MOVSS   X2, 8(R9)
	MOVLHPS X2, X8
	LOADPTRFULL(quad_cur, 3, R8)
	STOREPTRFULL(quad_prev, 3, R9)
	MOVSD   (R8), X10
	MOVSS   8(R8), X2
	MOVSD   X10, (R9)
	MOVSS   X2, 8(R9)
	MOVLHPS X2, X10

tailsdone:
	TRANSPOSE(X0, X6, X8, X10, X11, X12) // c X6 X12 X10

	// q.bad |= bits of c-c: non-zero once a stored tail is not finite
	MOVAPS X6, X0
	SUBPS  X6, X0
	MOVAPS X12, X1
	SUBPS  X12, X1
	ORPS   X1, X0
	MOVAPS X10, X1
	SUBPS  X10, X1
	ORPS   X1, X0
	MOVUPS quad_bad(DI), X1
	ORPS   X1, X0
	MOVUPS X0, quad_bad(DI)

	// c = cr.rotFin(c, cr.rotT(c)).add(cp), and p the same
	CMPB quad_centred(DI), $0
	JEQ  integrate
	MOVUPS quad_crx(DI), X0
	MOVUPS quad_cry(DI), X1
	MOVUPS quad_crz(DI), X2
	MOVUPS quad_crw(DI), X3
	ROT(X0, X1, X2, X3, X6, X12, X10, X5, X8, X11, X13, X14)
	ROT(X0, X1, X2, X3, X4, X9, X7, X5, X8, X11, X13, X14)
	MOVUPS quad_cpx(DI), X0
	ADDPS  X0, X6
	ADDPS  X0, X4
	MOVUPS quad_cpy(DI), X1
	ADDPS  X1, X12
	ADDPS  X1, X9
	MOVUPS quad_cpz(DI), X2
	ADDPS  X2, X10
	ADDPS  X2, X7

integrate:
	// next := c.add(c.sub(p).scale(j.keep)).add(w)
	MOVUPS (quad_spill+32)(DI), X0
	MOVAPS X6, X1
	SUBPS  X4, X1
	MULPS  X0, X1
	ADDPS  X6, X1
	MOVUPS quad_nx(DI), X2
	ADDPS  X2, X1
	MOVAPS X12, X3
	SUBPS  X9, X3
	MULPS  X0, X3
	ADDPS  X12, X3
	MOVUPS quad_ny(DI), X2
	ADDPS  X2, X3
	MOVAPS X10, X5
	SUBPS  X7, X5
	MULPS  X0, X5
	ADDPS  X10, X5
	MOVUPS quad_nz(DI), X2
	ADDPS  X2, X5 // next X1 X3 X5

	// d := next.sub(head); l2 := d.dot(d)
	MOVUPS quad_hx(DI), X6
	MOVUPS quad_hy(DI), X7
	MOVUPS quad_hz(DI), X8
	MOVAPS X1, X9
	SUBPS  X6, X9
	MOVAPS X3, X10
	SUBPS  X7, X10
	MOVAPS X5, X11
	SUBPS  X8, X11
	MOVAPS X9, X12
	MULPS  X9, X12
	MOVAPS X10, X13
	MULPS  X10, X13
	ADDPS  X13, X12
	MOVAPS X11, X13
	MULPS  X11, X13
	ADDPS  X13, X12

	// dir := d.scale(1/sqrt(l2)) where l2 > 1e-12 && l2 <= math.MaxFloat32, else rest
	MOVUPS tiny<>(SB), X13
	CMPPS  X12, X13, $1 // 1e-12 < l2
	MOVAPS X12, X14
	MOVUPS huge<>(SB), X0
	CMPPS  X0, X14, $2 // l2 <= MaxFloat32
	ANDPS  X14, X13
	SQRTPS X12, X12
	MOVUPS one<>(SB), X14
	DIVPS  X12, X14
	MULPS  X14, X9
	MULPS  X14, X10
	MULPS  X14, X11
	MOVUPS quad_ax(DI), X0
	ANDPS  X13, X9
	MOVAPS X13, X12
	ANDNPS X0, X12
	ORPS   X12, X9
	MOVUPS quad_ay(DI), X0
	ANDPS  X13, X10
	MOVAPS X13, X12
	ANDNPS X0, X12
	ORPS   X12, X10
	MOVUPS quad_az(DI), X0
	ANDPS  X13, X11
	MOVAPS X13, X12
	ANDNPS X0, X12
	ORPS   X12, X11 // dir X9 X10 X11

	// next = head.add(dir.scale(lk))
	MOVUPS quad_lk(DI), X0
	MOVAPS X9, X1
	MULPS  X0, X1
	ADDPS  X6, X1
	MOVAPS X10, X3
	MULPS  X0, X3
	ADDPS  X7, X3
	MOVAPS X11, X5
	MULPS  X0, X5
	ADDPS  X8, X5
	MOVUPS X1, quad_nx(DI)
	MOVUPS X3, quad_ny(DI)
	MOVUPS X5, quad_nz(DI)
	MOVUPS X9, quad_dx(DI)
	MOVUPS X10, quad_dy(DI)
	MOVUPS X11, quad_dz(DI)

	// The collider pass (touch1): spheres push the tail out and
	// renormalise it in every slot they touch; a slot that may touch a
	// collider of another kind leaves the pass, byte s of the result
	// naming that collider for collide1 (0xff: none). R10 and spill+0 hold
	// the slots still in the pass, as bits and as an SSE mask.
	MOVL    $0xffffffff, DX
	MOVL    quad_near(DI), R9
	MOVBLZX quad_active(DI), R10
	MOVQ    R10, X12
	PSHUFD  $0, X12, X12
	MOVOU   bits<>(SB), X13
	PAND    X13, X12
	PCMPEQL X13, X12 // all ones where the slot's bit is set
	MOVUPS  X12, (quad_spill+0)(DI)
	LEAQ    quad_tab(DI), R8
	MOVAPS  X5, X2 // next X1 X3 X5 to X0 X1 X2
	MOVAPS  X3, X4
	MOVAPS  X1, X0
	MOVAPS  X4, X1
	MOVUPS  quad_r(DI), X3

touch:
	TESTL   R9, R9
	JZ      touched
	TESTL   R10, R10
	JZ      touched
	BSFL    R9, R11 // c
	LEAL    -1(R9), AX
	ANDL    AX, R9
	IMUL3Q  $colTab__size, R11, R12
	ADDQ    R8, R12
	PCMPEQL X10, X10 // all may touch
	CMPB    colTab_bound(R12), $0
	JNE     hit // Inside, or kinds that differ between slots
	MOVUPS  colTab_ax(R12), X4
	MOVUPS  colTab_ay(R12), X5
	MOVUPS  colTab_az(R12), X6
	MOVAPS  X0, X7
	SUBPS   X4, X7
	MOVAPS  X1, X8
	SUBPS   X5, X8
	MOVAPS  X2, X9
	SUBPS   X6, X9 // d := p.sub(a)
	MOVB    colTab_kind(R12), BL
	CMPB    BL, $0
	JEQ     sphere
	CMPB    BL, $1
	JEQ     capsule
	CMPB    BL, $2
	JNE     hit // unknown: Push decides

	// plane: d.dot(n)-r >= 0 misses
	MOVUPS  colTab_nx(R12), X10
	MOVUPS  colTab_ny(R12), X11
	MOVUPS  colTab_nz(R12), X12
	DOT3(X7, X8, X9, X10, X11, X12, X13, X14)
	SUBPS   X3, X13
	XORPS   X10, X10
	CMPPS   X13, X10, $6 // !(0 <= d.n - r)
	JMP     hit

capsule:
	// Beyond the capsule's bounding sphere in every slot still in the
	// pass (t.boundMiss): a miss, without the test below. Its result is
	// kept for the slots (spill+16): boundMiss || misses.
	MOVUPS  colTab_bcx(R12), X10
	MOVAPS  X0, X11
	SUBPS   X10, X11
	MULPS   X11, X11
	MOVUPS  colTab_bcy(R12), X10
	MOVAPS  X1, X12
	SUBPS   X10, X12
	MULPS   X12, X12
	ADDPS   X12, X11
	MOVUPS  colTab_bcz(R12), X10
	MOVAPS  X2, X12
	SUBPS   X10, X12
	MULPS   X12, X12
	ADDPS   X12, X11 // d.dot(d)
	MOVUPS  slack<>(SB), X12
	MULPS   X3, X12
	MOVUPS  colTab_bs(R12), X10
	ADDPS   X10, X12
	MULPS   X12, X12 // lim*lim
	CMPPS   X11, X12, $6 // !(lim*lim <= d.dot(d)): within the bound
	MOVUPS  (quad_spill+0)(DI), X13
	ANDPS   X13, X12
	MOVMSKPS X12, AX
	TESTL   AX, AX
	JZ      touch
	MOVUPS  X12, (quad_spill+16)(DI)

	// ab := b.sub(a); t := d.dot(ab); past the end d = d.sub(ab), along
	// the segment d = d.sub(ab.scale(t / l2))
	MOVUPS  colTab_bx(R12), X10
	SUBPS   X4, X10
	MOVUPS  colTab_by(R12), X11
	SUBPS   X5, X11
	MOVUPS  colTab_bz(R12), X12
	SUBPS   X6, X12
	DOT3(X7, X8, X9, X10, X11, X12, X13, X14) // t
	DOT3(X10, X11, X12, X10, X11, X12, X4, X14) // l2
	MOVAPS  X13, X5
	DIVPS   X4, X5 // t / l2
	MOVAPS  X4, X6
	CMPPS   X13, X6, $2 // l2 <= t
	MOVUPS  one<>(SB), X14
	ANDPS   X6, X14
	ANDNPS  X5, X6
	ORPS    X14, X6 // 1 past the end, else t/l2
	XORPS   X14, X14
	CMPPS   X13, X14, $1 // 0 < t
	ANDPS   X14, X6 // 0 before the start
	MULPS   X6, X10
	SUBPS   X10, X7
	MULPS   X6, X11
	SUBPS   X11, X8
	MULPS   X6, X12
	SUBPS   X12, X9
	DOT3(X7, X8, X9, X7, X8, X9, X13, X14)
	// R := c.RA, or c.RB if c.RB > R; R += r; d.dot(d) > R*R*(1+1e-5)
	// misses. MAXPS keeps its destination only when greater: RB.
	MOVUPS  colTab_rb(R12), X10
	MOVUPS  colTab_ra(R12), X11
	MAXPS   X11, X10
	ADDPS   X3, X10
	MULPS   X10, X10
	MOVUPS  slack<>(SB), X11
	MULPS   X11, X10
	CMPPS   X13, X10, $5 // !(R*R*(1+1e-5) < d.d)
	MOVUPS  (quad_spill+16)(DI), X11
	ANDPS   X11, X10 // and within the bound

hit:
	// Slots still in the pass that may touch c (X10) leave it, c first.
	MOVUPS  (quad_spill+0)(DI), X11
	ANDPS   X11, X10
	MOVMSKPS X10, AX
	TESTL   AX, AX
	JZ      touch
	ANDNPS  X11, X10
	MOVUPS  X10, (quad_spill+0)(DI)

mark:
	BSFL    AX, CX
	BTRL    CX, AX
	BTRL    CX, R10
	SHLL    $3, CX
	MOVL    $0xff, BX
	SHLL    CX, BX
	NOTL    BX
	ANDL    BX, DX
	MOVL    R11, BX
	SHLL    CX, BX
	ORL     BX, DX
	TESTL   AX, AX
	JNZ     mark
	JMP     touch

sphere:
	// R := c.RA + r; d.dot(d) >= R*R misses. Else collide.Push: p = c +
	// d*(R/sqrt(l2)), or c + (0, 1, 0)*R at the centre (l2 <= 1e-20).
	DOT3(X7, X8, X9, X7, X8, X9, X13, X14) // l2
	MOVUPS  colTab_ra(R12), X10
	ADDPS   X3, X10 // R
	MOVAPS  X10, X12
	MULPS   X10, X12
	CMPPS   X13, X12, $6 // !(R*R <= l2)
	MOVUPS  (quad_spill+0)(DI), X11
	ANDPS   X11, X12 // pushed: slots in the pass it touches
	MOVMSKPS X12, AX
	TESTL   AX, AX
	JZ      touch
	MOVAPS  X13, X11
	SQRTPS  X11, X11
	MOVAPS  X10, X14
	DIVPS   X11, X14 // k
	MULPS   X14, X7
	ADDPS   X4, X7
	MULPS   X14, X8
	ADDPS   X5, X8
	MULPS   X14, X9
	ADDPS   X6, X9 // p
	MOVUPS  tinier<>(SB), X14
	MOVAPS  X13, X11
	CMPPS   X14, X11, $2 // l2 <= 1e-20
	XORPS   X14, X14
	MULPS   X10, X14
	ADDPS   X14, X4 // cx + 0*R
	ADDPS   X14, X6 // cz + 0*R
	MOVUPS  one<>(SB), X14
	MULPS   X10, X14
	ADDPS   X14, X5 // cy + 1*R
	ANDPS   X11, X4
	MOVAPS  X11, X13
	ANDNPS  X7, X13
	ORPS    X13, X4
	ANDPS   X11, X5
	MOVAPS  X11, X13
	ANDNPS  X8, X13
	ORPS    X13, X5
	ANDPS   X11, X6
	ANDNPS  X9, X11
	ORPS    X11, X6 // p X4 X5 X6

	// dir := p.sub(head).norm(rest); next = head.add(dir.scale(lk))
	MOVUPS  quad_hx(DI), X7
	SUBPS   X7, X4
	MOVUPS  quad_hy(DI), X8
	SUBPS   X8, X5
	MOVUPS  quad_hz(DI), X9
	SUBPS   X9, X6
	DOT3(X4, X5, X6, X4, X5, X6, X13, X14) // l2
	MOVUPS  tiny<>(SB), X11
	CMPPS   X13, X11, $1 // 1e-12 < l2
	MOVAPS  X13, X14
	MOVUPS  huge<>(SB), X10
	CMPPS   X10, X14, $2 // l2 <= MaxFloat32: finite
	ANDPS   X14, X11
	SQRTPS  X13, X13
	MOVUPS  one<>(SB), X14
	DIVPS   X13, X14
	MULPS   X14, X4
	MULPS   X14, X5
	MULPS   X14, X6
	MOVUPS  quad_ax(DI), X10
	ANDPS   X11, X4
	MOVAPS  X11, X13
	ANDNPS  X10, X13
	ORPS    X13, X4
	MOVUPS  quad_ay(DI), X10
	ANDPS   X11, X5
	MOVAPS  X11, X13
	ANDNPS  X10, X13
	ORPS    X13, X5
	MOVUPS  quad_az(DI), X10
	ANDPS   X11, X6
	ANDNPS  X10, X11
	ORPS    X11, X6 // dir X4 X5 X6
	MOVUPS  quad_lk(DI), X10
	MOVAPS  X4, X11
	MULPS   X10, X11
	ADDPS   X11, X7
	MOVAPS  X5, X11
	MULPS   X10, X11
	ADDPS   X11, X8
	MOVAPS  X6, X11
	MULPS   X10, X11
	ADDPS   X11, X9 // next X7 X8 X9

	// In the pushed slots (X12) the tail and direction change.
	ANDPS   X12, X7
	MOVAPS  X12, X13
	ANDNPS  X0, X13
	ORPS    X13, X7
	MOVAPS  X7, X0
	ANDPS   X12, X8
	MOVAPS  X12, X13
	ANDNPS  X1, X13
	ORPS    X13, X8
	MOVAPS  X8, X1
	ANDPS   X12, X9
	MOVAPS  X12, X13
	ANDNPS  X2, X13
	ORPS    X13, X9
	MOVAPS  X9, X2
	MOVUPS  X0, quad_nx(DI)
	MOVUPS  X1, quad_ny(DI)
	MOVUPS  X2, quad_nz(DI)
	MOVUPS  quad_dx(DI), X13
	ANDPS   X12, X4
	MOVAPS  X12, X11
	ANDNPS  X13, X11
	ORPS    X11, X4
	MOVUPS  X4, quad_dx(DI)
	MOVUPS  quad_dy(DI), X13
	ANDPS   X12, X5
	MOVAPS  X12, X11
	ANDNPS  X13, X11
	ORPS    X11, X5
	MOVUPS  X5, quad_dy(DI)
	MOVUPS  quad_dz(DI), X13
	ANDPS   X12, X6
	ANDNPS  X13, X12
	ORPS    X12, X6
	MOVUPS  X6, quad_dz(DI)
	JMP     touch

touched:
	MOVQ    DX, ret+16(FP)
	RET
