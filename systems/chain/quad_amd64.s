//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"
#include "go_asm.h"
#include "sse_amd64.h"

// The SSE kernel of Quad: quadKernelGo (quad.go) for the four lanes at
// once, one lane per SSE lane, every operation in the same order so that
// the results are the same bits; comments name the Go expression a block
// computes. Only SSE2 is used: every amd64 processor has it. Memory is
// read and written with MOVUPS only: Go aligns a quad to 8 bytes, not 16.

SPLAT(eps, 0x2b8cbccc)  // float32(1e-12), mathx.Epsilon
SPLAT(one, 0x3f800000)
SPLAT(grow, 0x3f804000) // refineGrow, 1 + 1/512

// LANES sets R8..R11 to the lanes' pointers at off in the quad.
#define LANES(off) \
	MOVQ (off+0)(DI), R8; \
	MOVQ (off+8)(DI), R9; \
	MOVQ (off+16)(DI), R10; \
	MOVQ (off+24)(DI), R11

// PARTS starts a loop over the n (CX) particles: SI at the first, DX
// counting down.
#define PARTS(loop) \
	LEAQ quad_part(DI), SI; \
	MOVQ CX, DX; \
loop:

// NEXT moves the lanes' pointers (R8..R11) on by step bytes and SI to the
// next particle, and loops while particles remain.
#define NEXT(step, loop) \
	ADDQ $step, R8; \
	ADDQ $step, R9; \
	ADDQ $step, R10; \
	ADDQ $step, R11; \
	ADDQ $quadPart__size, SI; \
	DECQ DX; \
	JNZ  loop

// LOADVECS copies n (CX) vectors of every lane (R8..R11) into the columns
// xoff, yoff, zoff of the particles.
#define LOADVECS(xoff, yoff, zoff, loop) \
	PARTS(loop); \
	LOADV3(R8, X0, X6); \
	LOADV3(R9, X1, X6); \
	LOADV3(R10, X2, X6); \
	LOADV3(R11, X3, X6); \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS    X1, xoff(SI); \
	MOVUPS    X5, yoff(SI); \
	MOVUPS    X3, zoff(SI); \
	NEXT(12, loop)

// STOREVECS is LOADVECS the other way, and ORs x-x of every element
// stored into X7: 0 for a finite x, NaN otherwise.
#define STOREVECS(xoff, yoff, zoff, loop) \
	PARTS(loop); \
	MOVUPS    xoff(SI), X0; \
	MOVUPS    yoff(SI), X1; \
	MOVUPS    zoff(SI), X2; \
	MOVAPS    X0, X4; \
	SUBPS     X0, X4; \
	ORPS      X4, X7; \
	MOVAPS    X1, X4; \
	SUBPS     X1, X4; \
	ORPS      X4, X7; \
	MOVAPS    X2, X4; \
	SUBPS     X2, X4; \
	ORPS      X4, X7; \
	XORPS     X3, X3; \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	STOREV3(X1, R8, X6); \
	STOREV3(X5, R9, X6); \
	STOREV3(X3, R10, X6); \
	STOREV3(X2, R11, X6); \
	NEXT(12, loop)

// HITLOAD copies lane s's collided flag at r (0 or 1) to the particle's
// hit column at SI (0 or all ones); HITSTORE copies it back.
#define HITLOAD(r, s) \
	MOVBLZX (r), AX; \
	NEGL    AX; \
	MOVL    AX, (quadPart_hit+4*s)(SI)

#define HITSTORE(r, s) \
	MOVL (quadPart_hit+4*s)(SI), AX; \
	NEGL AX; \
	MOVB AX, (r)

// func quadLoad(q *quad, n int)
TEXT ·quadLoad(SB), NOSPLIT, $0-16
	MOVQ q+0(FP), DI
	MOVQ n+8(FP), CX
	LANES(quad_pos)
	LOADVECS(quadPart_x, quadPart_y, quadPart_z, loadpos)
	LANES(quad_prev)
	LOADVECS(quadPart_px, quadPart_py, quadPart_pz, loadprev)
	LANES(quad_hit)
	PARTS(loadhit)
	HITLOAD(R8, 0)
	HITLOAD(R9, 1)
	HITLOAD(R10, 2)
	HITLOAD(R11, 3)
	NEXT(1, loadhit)
	RET

// func quadStore(q *quad, n int) uint32
TEXT ·quadStore(SB), NOSPLIT, $0-20
	MOVQ q+0(FP), DI
	MOVQ n+8(FP), CX
	XORPS X7, X7
	LANES(quad_pos)
	STOREVECS(quadPart_x, quadPart_y, quadPart_z, storepos)
	LANES(quad_prev)
	STOREVECS(quadPart_px, quadPart_py, quadPart_pz, storeprev)
	LANES(quad_hit)
	PARTS(storehit)
	HITSTORE(R8, 0)
	HITSTORE(R9, 1)
	HITSTORE(R10, 2)
	HITSTORE(R11, 3)
	NEXT(1, storehit)

	// The lanes with a non-finite element: X7 not all zero bits.
	XORPS    X0, X0
	PCMPEQL  X0, X7
	MOVMSKPS X7, AX
	XORL     $15, AX
	MOVL     AX, ret+16(FP)
	RET

// ROWS loads the 16 bytes at off of the four lanes' records (R8..R11)
// and spills them as columns to q.t[k0..k0+3].
#define ROWS(off, k0) \
	MOVUPS    off(R8), X0; \
	MOVUPS    off(R9), X1; \
	MOVUPS    off(R10), X2; \
	MOVUPS    off(R11), X3; \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS    X1, (quad_t+16*(k0))(DI); \
	MOVUPS    X5, (quad_t+16*(k0+1))(DI); \
	MOVUPS    X3, (quad_t+16*(k0+2))(DI); \
	MOVUPS    X2, (quad_t+16*(k0+3))(DI)

// PACKED sets r to lane s's packed record at AX bytes times its stride.
#define PACKED(s, r) \
	MOVQ  (quad_ps+8*(s))(DI), r; \
	IMULQ AX, r; \
	ADDQ  (quad_pk+24*(s))(DI), r

// The animated record's columns in the particle (SI), and the packed
// fields' columns in q.t.
#define T_O0 quadPart_o0(SI)
#define T_O1 quadPart_o1(SI)
#define T_O2 quadPart_o2(SI)
#define T_RL quadPart_rl(SI)
#define T_PL quadPart_pl(SI)
#define T_R (quad_t+16*5)(DI)
#define T_E (quad_t+16*6)(DI)
#define T_SK (quad_t+16*7)(DI)
#define T_KEEP (quad_t+16*8)(DI)
#define T_KEEPHIT (quad_t+16*9)(DI)
#define T_FS (quad_t+16*10)(DI)
#define T_FSHIT (quad_t+16*11)(DI)
#define T_INERT (quad_t+16*12)(DI)

// SELECT sets d to m ? a : d, with t clobbered.
#define SELECT(m, a, d, t) \
	ANDPS  m, a; \
	MOVAPS m, t; \
	ANDNPS d, t; \
	ORPS   t, a; \
	MOVAPS a, d

// INTEGRATE is the Verlet step of one component: x (X7 loaded from xoff,
// its previous position from qoff) moves by (x-q)*keep (X1) + f*fs (X4) +
// r, r = m*a (a in X5); q becomes x + r. The new x is left in out.
#define INTEGRATE(moff, foff, xoff, qoff, out) \
	MOVUPS moff(DI), X6; \
	MULPS  X5, X6; \
	MOVUPS xoff(SI), X7; \
	MOVUPS qoff(SI), X8; \
	MOVAPS X7, X9; \
	ADDPS  X6, X9; \
	MOVUPS X9, qoff(SI); \
	MOVAPS X7, X9; \
	SUBPS  X8, X9; \
	MULPS  X1, X9; \
	ADDPS  X9, X7; \
	MOVUPS foff(DI), X9; \
	MULPS  X4, X9; \
	ADDPS  X9, X7; \
	ADDPS  X6, X7; \
	MOVAPS X7, out

// SEGDIFF sets d to x minus the segment column at off (R11).
#define SEGDIFF(off, x, d) \
	MOVUPS off(R11), X15; \
	MOVAPS x, d; \
	SUBPS  X15, d

// SEGMUL sets t to the segment column at off (R11) times m.
#define SEGMUL(off, m, t) \
	MOVUPS off(R11), t; \
	MULPS  m, t

// NEAR sets X11 to segment.near of the position (X0, X1, X2) of radius X6
// for the collider at R13, by its operations in the same order; clobbers
// R11, X12..X15.
#define NEAR \
	MOVQ   quadCol_seg(R13), R11; \
	ANDQ   $(2*const_maxBounds-1), R11; \
	IMUL3Q $segCols__size, R11, R11; \
	LEAQ   quad_segs(DI)(R11*1), R11; \
	SEGDIFF(segCols_a0, X0, X11); \
	SEGDIFF(segCols_a1, X1, X12); \
	SEGDIFF(segCols_a2, X2, X13); \
	SEGMUL(segCols_u0, X11, X14); \
	SEGMUL(segCols_u1, X12, X15); \
	ADDPS  X15, X14; \
	SEGMUL(segCols_u2, X13, X15); \
	ADDPS  X15, X14; \
	MOVUPS segCols_inv(R11), X15; \
	MULPS  X15, X14; \
	XORPS  X15, X15; \
	MAXPS  X15, X14; \
	MOVUPS one<>(SB), X15; \
	MINPS  X15, X14; \
	SEGMUL(segCols_u0, X14, X15); \
	SUBPS  X15, X11; \
	SEGMUL(segCols_u1, X14, X15); \
	SUBPS  X15, X12; \
	SEGMUL(segCols_u2, X14, X15); \
	SUBPS  X15, X13; \
	MULPS  X11, X11; \
	MULPS  X12, X12; \
	ADDPS  X12, X11; \
	MULPS  X13, X13; \
	ADDPS  X13, X11; \
	MOVUPS grow<>(SB), X12; \
	MULPS  X6, X12; \
	MOVUPS segCols_rm(R11), X13; \
	ADDPS  X13, X12; \
	MULPS  X12, X12; \
	CMPPS  X12, X11, $1

// HITS ORs into acc the lanes whose position (X0, X1, X2) of radius X6
// lies inside the bounding sphere of a collider it can reach and passes
// its segment test (NEAR, only where a lane is inside the sphere), over
// the q.ncol colliders; clobbers AX, R10, R11, R13, X9..X15.
#define HITS(acc, loop, next) \
	MOVQ   quad_ncol(DI), R10; \
	LEAQ   quad_col(DI), R13; \
loop: \
	MOVUPS quadCol_c0(R13), X9; \
	MOVAPS X0, X10; \
	SUBPS  X9, X10; \
	MULPS  X10, X10; \
	MOVUPS quadCol_c1(R13), X9; \
	MOVAPS X1, X11; \
	SUBPS  X9, X11; \
	MULPS  X11, X11; \
	ADDPS  X11, X10; \
	MOVUPS quadCol_c2(R13), X9; \
	MOVAPS X2, X11; \
	SUBPS  X9, X11; \
	MULPS  X11, X11; \
	ADDPS  X11, X10; \
	MOVUPS quadCol_r(R13), X9; \
	ADDPS  X6, X9; \
	MULPS  X9, X9; \
	CMPPS  X9, X10, $1; \
	MOVUPS quadCol_reach(R13), X9; \
	ANDPS  X9, X10; \
	MOVMSKPS X10, AX; \
	TESTL  AX, AX; \
	JZ     next; \
	NEAR; \
	ANDPS  X11, X10; \
	ORPS   X10, acc; \
next: \
	ADDQ   $quadCol__size, R13; \
	DECQ   R10; \
	JNZ    loop

// func quadKernel(q *quad, i, j int) uint32
TEXT ·quadKernel(SB), NOSPLIT, $0-28
	MOVQ q+0(FP), DI
	MOVQ i+8(FP), CX
	MOVQ j+16(FP), DX

	// Their packed records at i*ps (one shared record: ps 0), unless run
	// has set their columns once for all particles.
	CMPB   quad_shared(DI), $0
	JNE    packed
	IMUL3Q $packed__size, CX, AX
	PACKED(0, R8)
	PACKED(1, R9)
	PACKED(2, R10)
	PACKED(3, R11)
	ROWS(0, 5)
	ROWS(16, 9)

packed:

	// The particle (SI) and its parent (BX).
	IMUL3Q $quadPart__size, CX, CX
	LEAQ   quad_part(DI)(CX*1), SI
	IMUL3Q $quadPart__size, DX, DX
	LEAQ   quad_part(DI)(DX*1), BX

	// keep, fs := hit ? keepHit, fsHit : keep, fs; hit = false; keep *= vs
	MOVUPS quadPart_hit(SI), X0
	MOVUPS T_KEEPHIT, X1
	MOVUPS T_KEEP, X3
	SELECT(X0, X1, X3, X2)
	MOVAPS X3, X1
	MOVUPS T_FSHIT, X4
	MOVUPS T_FS, X3
	SELECT(X0, X4, X3, X2)
	MOVAPS X3, X4
	XORPS  X0, X0
	MOVUPS X0, quadPart_hit(SI)
	MOVUPS quad_vs(DI), X2
	MULPS  X2, X1
	MOVUPS T_INERT, X5
	INTEGRATE(quad_m0, quad_f0, quadPart_x, quadPart_px, X10)
	INTEGRATE(quad_m1, quad_f1, quadPart_y, quadPart_py, X11)
	INTEGRATE(quad_m2, quad_f2, quadPart_z, quadPart_pz, X12)
	MOVAPS X10, X0
	MOVAPS X11, X1
	MOVAPS X12, X2

	// The parent p (X3, X4, X5).
	MOVUPS quadPart_x(BX), X3
	MOVUPS quadPart_y(BX), X4
	MOVUPS quadPart_z(BX), X5

	// The colliders in reach of the parent: C.gap < path && |p-c|² <
	// (C.r + reach)², path = pl + r + slack (X6), reach = rl + r (X8).
	MOVUPS T_PL, X6
	MOVUPS T_R, X7
	ADDPS  X7, X6
	MOVUPS quad_slack(DI), X8
	ADDPS  X8, X6
	MOVUPS T_RL, X8
	ADDPS  X7, X8
	XORPS  X15, X15
	MOVQ   quad_ncol(DI), R12
	LEAQ   quad_col(DI), R13
	TESTQ  R12, R12
	JZ     reached

reach:
	MOVUPS quadCol_gap(R13), X9
	CMPPS  X6, X9, $1
	MOVUPS quadCol_c0(R13), X10
	MOVAPS X3, X13
	SUBPS  X10, X13
	MULPS  X13, X13
	MOVUPS quadCol_c1(R13), X10
	MOVAPS X4, X14
	SUBPS  X10, X14
	MULPS  X14, X14
	ADDPS  X14, X13
	MOVUPS quadCol_c2(R13), X10
	MOVAPS X5, X14
	SUBPS  X10, X14
	MULPS  X14, X14
	ADDPS  X14, X13
	MOVUPS quadCol_r(R13), X10
	ADDPS  X8, X10
	MULPS  X10, X10
	CMPPS  X10, X13, $1
	ANDPS  X9, X13
	MOVUPS X13, quadCol_reach(R13)
	ORPS   X13, X15
	ADDQ   $quadCol__size, R13
	DECQ   R12
	JNZ    reach

reached:
	MOVMSKPS X15, R12 // lanes with a collider in reach

	// Elasticity: rest = p + o (X7, X8, X10); x += (rest - x)*e.
	MOVUPS T_E, X6
	MOVUPS T_O0, X7
	ADDPS  X3, X7
	MOVAPS X7, X9
	SUBPS  X0, X9
	MULPS  X6, X9
	ADDPS  X9, X0
	MOVUPS T_O1, X8
	ADDPS  X4, X8
	MOVAPS X8, X9
	SUBPS  X1, X9
	MULPS  X6, X9
	ADDPS  X9, X1
	MOVUPS T_O2, X10
	ADDPS  X5, X10
	MOVAPS X10, X9
	SUBPS  X2, X9
	MULPS  X6, X9
	ADDPS  X9, X2

	// Stiffness: d = rest - x; where |d|² > maxLen², maxLen = rl*sk,
	// x += d*((|d| - maxLen)/|d|).
	MOVAPS   X7, X11
	SUBPS    X0, X11
	MOVAPS   X8, X12
	SUBPS    X1, X12
	MOVAPS   X10, X13
	SUBPS    X2, X13
	MOVAPS   X11, X14
	MULPS    X14, X14
	MOVAPS   X12, X9
	MULPS    X9, X9
	ADDPS    X9, X14
	MOVAPS   X13, X9
	MULPS    X9, X9
	ADDPS    X9, X14
	MOVUPS   T_RL, X6
	MOVUPS   T_SK, X9
	MULPS    X9, X6
	MOVAPS   X6, X9
	MULPS    X9, X9
	CMPPS    X14, X9, $1 // maxLen² < |d|²
	MOVMSKPS X9, AX
	TESTL    AX, AX
	JZ       stiff
	SQRTPS   X14, X14
	MOVAPS   X14, X7
	SUBPS    X6, X7
	DIVPS    X14, X7
	MULPS    X7, X11
	ADDPS    X0, X11
	MULPS    X7, X12
	ADDPS    X1, X12
	MULPS    X7, X13
	ADDPS    X2, X13
	SELECT(X9, X11, X0, X8)
	SELECT(X9, X12, X1, X8)
	SELECT(X9, X13, X2, X8)

stiff:
	MOVUPS X0, quad_ax(DI)
	MOVUPS X1, quad_ay(DI)
	MOVUPS X2, quad_az(DI)

	// The lanes whose stage-A position touches a reachable collider (R8).
	XORL   R8, R8
	XORL   R9, R9
	MOVUPS T_R, X6
	TESTL  R12, R12
	JZ     kept
	XORPS  X7, X7
	HITS(X7, hit1, hit1next)
	MOVMSKPS X7, R8

kept:
	// Keep-length: d = p - x; x += d*((|d| - rl)/|d|) where |d|² > 1e-12,
	// else x = p + o.
	MOVAPS X3, X8
	SUBPS  X0, X8
	MOVAPS X4, X9
	SUBPS  X1, X9
	MOVAPS X5, X10
	SUBPS  X2, X10
	MOVAPS X8, X11
	MULPS  X11, X11
	MOVAPS X9, X12
	MULPS  X12, X12
	ADDPS  X12, X11
	MOVAPS X10, X12
	MULPS  X12, X12
	ADDPS  X12, X11
	MOVUPS eps<>(SB), X12
	CMPPS  X11, X12, $1 // 1e-12 < |d|²
	SQRTPS X11, X11
	MOVUPS T_RL, X13
	MOVAPS X11, X14
	SUBPS  X13, X14
	DIVPS  X11, X14
	MULPS  X14, X8
	ADDPS  X0, X8
	MULPS  X14, X9
	ADDPS  X1, X9
	MULPS  X14, X10
	ADDPS  X2, X10
	MOVUPS T_O0, X0
	ADDPS  X3, X0
	SELECT(X12, X8, X0, X13)
	MOVUPS T_O1, X1
	ADDPS  X4, X1
	SELECT(X12, X9, X1, X13)
	MOVUPS T_O2, X2
	ADDPS  X5, X2
	SELECT(X12, X10, X2, X13)

	// The lanes whose kept position touches one (R9).
	TESTL  R12, R12
	JZ     finite
	XORPS  X7, X7
	HITS(X7, hit2, hit2next)
	MOVMSKPS X7, R9

finite:
	// (x0-x0)+(x1-x1)+(x2-x2) == 0: not finite lanes in R10.
	MOVAPS   X0, X8
	SUBPS    X0, X8
	MOVAPS   X1, X9
	SUBPS    X1, X9
	ADDPS    X9, X8
	MOVAPS   X2, X9
	SUBPS    X2, X9
	ADDPS    X9, X8
	XORPS    X9, X9
	CMPPS    X9, X8, $0
	MOVMSKPS X8, R10
	XORL     $15, R10

	MOVUPS X0, quadPart_x(SI)
	MOVUPS X1, quadPart_y(SI)
	MOVUPS X2, quadPart_z(SI)

	// h1 | (h2 &^ h1) << 4 | (nf &^ (h1 | h2)) << 8
	MOVL  R8, R11
	NOTL  R11
	ANDL  R11, R9
	MOVL  R8, R11
	ORL   R9, R11
	NOTL  R11
	ANDL  R11, R10
	SHLL  $4, R9
	SHLL  $8, R10
	MOVL  R8, AX
	ORL   R9, AX
	ORL   R10, AX
	MOVL  AX, ret+24(FP)
	RET

SPLAT(ninf, 0xff800000) // -Inf
SPLAT(qnan, 0x7fc00000) // float32(math.NaN())

// func quadCull(q *quad, reach *[4]float32)
//
// Per listed collider: gap = sqrt(|b - root|²) - br, -Inf where open; it
// is kept where gap < reach or gap == -Inf, its columns then the sphere
// and gap, else zero and NaN.
TEXT ·quadCull(SB), NOSPLIT, $0-16
	MOVQ   q+0(FP), DI
	MOVQ   reach+8(FP), AX
	MOVUPS (AX), X7
	MOVUPS X7, quad_clReach(DI)
	MOVUPS (quad_part+quadPart_x)(DI), X4
	MOVUPS (quad_part+quadPart_y)(DI), X5
	MOVUPS (quad_part+quadPart_z)(DI), X6
	MOVUPS ninf<>(SB), X8
	MOVUPS qnan<>(SB), X9
	MOVQ   quad_ncol(DI), CX
	LEAQ   quad_col(DI), SI
	TESTQ  CX, CX
	JZ     culled

cull:
	// d0*d0 + d1*d1 + d2*d2, d = b - root (X0).
	MOVUPS (quadCol_b+boundCols_bc0)(SI), X0
	SUBPS  X4, X0
	MULPS  X0, X0
	MOVUPS (quadCol_b+boundCols_bc1)(SI), X1
	SUBPS  X5, X1
	MULPS  X1, X1
	ADDPS  X1, X0
	MOVUPS (quadCol_b+boundCols_bc2)(SI), X1
	SUBPS  X6, X1
	MULPS  X1, X1
	ADDPS  X1, X0

	// gap = sqrt(...) - br, -Inf where open (X0).
	SQRTPS X0, X0
	MOVUPS (quadCol_b+boundCols_br)(SI), X2
	SUBPS  X2, X0
	MOVUPS (quadCol_b+boundCols_open)(SI), X3
	MOVAPS X8, X1
	SELECT(X3, X1, X0, X10)

	// keep = gap < reach || gap == -Inf (X10).
	MOVAPS X0, X10
	CMPPS  X7, X10, $1
	MOVAPS X0, X11
	CMPPS  X8, X11, $0
	ORPS   X11, X10

	// The sphere where kept, else zero; the gap where kept, else NaN.
	MOVUPS (quadCol_b+boundCols_bc0)(SI), X1
	ANDPS  X10, X1
	MOVUPS X1, quadCol_c0(SI)
	MOVUPS (quadCol_b+boundCols_bc1)(SI), X1
	ANDPS  X10, X1
	MOVUPS X1, quadCol_c1(SI)
	MOVUPS (quadCol_b+boundCols_bc2)(SI), X1
	ANDPS  X10, X1
	MOVUPS X1, quadCol_c2(SI)
	ANDPS  X10, X2
	MOVUPS X2, quadCol_r(SI)
	MOVAPS X9, X1
	SELECT(X10, X0, X1, X11)
	MOVUPS X1, quadCol_gap(SI)

	ADDQ $quadCol__size, SI
	DECQ CX
	JNZ  cull

culled:
	RET

// LANEPOS loads lane position rows for the bone at byte offset off (12
// per bone) of the lanes' world positions (R8..R11) and turns them into
// columns x, y, z; clobbers X0..X5.
#define LANEPOS(off, x, y, z) \
	LOADV3I(R8, off, X0, X4); \
	LOADV3I(R9, off, X1, X4); \
	LOADV3I(R10, off, X2, X4); \
	LOADV3I(R11, off, X3, X4); \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVAPS X1, x; \
	MOVAPS X5, y; \
	MOVAPS X3, z

// RECORD stores particle i's (CX) animated record, o in X6..X8 and its
// parent particle j in DX, and takes its path into pathMax (X14):
// l = sqrt(o0*o0 + o1*o1 + o2*o2) (X9), pl = the parent's pl + l (X10),
// pathMax = pl > pathMax ? pl : pathMax. Clobbers DX, SI, X0.
#define RECORD \
	MOVAPS X6, X9; \
	MULPS  X6, X9; \
	MOVAPS X7, X0; \
	MULPS  X7, X0; \
	ADDPS  X0, X9; \
	MOVAPS X8, X0; \
	MULPS  X8, X0; \
	ADDPS  X0, X9; \
	SQRTPS X9, X9; \
	IMUL3Q $quadPart__size, DX, DX; \
	MOVUPS (quad_part+quadPart_pl)(DI)(DX*1), X10; \
	ADDPS  X9, X10; \
	IMUL3Q $quadPart__size, CX, SI; \
	LEAQ   quad_part(DI)(SI*1), SI; \
	MOVUPS X6, quadPart_o0(SI); \
	MOVUPS X7, quadPart_o1(SI); \
	MOVUPS X8, quadPart_o2(SI); \
	MOVUPS X9, quadPart_rl(SI); \
	MOVUPS X10, quadPart_pl(SI); \
	MAXPS  X14, X10; \
	MOVAPS X10, X14

// POSLANES sets R8..R11 to the lanes' world positions in the quadPoses
// at lp.
#define POSLANES(lp) \
	MOVQ (quadPoses_wp+0)(lp), R8; \
	MOVQ (quadPoses_wp+8)(lp), R9; \
	MOVQ (quadPoses_wp+16)(lp), R10; \
	MOVQ (quadPoses_wp+24)(lp), R11

// func quadAnimate(q *quad, lp *quadPoses, bone, parent *int32, lo, hi int, pathMax *[4]float32)
TEXT ·quadAnimate(SB), NOSPLIT, $0-56
	MOVQ   q+0(FP), DI
	MOVQ   lp+8(FP), BX
	POSLANES(BX)
	MOVQ   bone+16(FP), R12
	MOVQ   parent+24(FP), R13
	MOVQ   lo+32(FP), CX
	MOVQ   hi+40(FP), R14
	MOVQ   pathMax+48(FP), AX
	MOVUPS (AX), X14
	CMPQ   CX, R14
	JGE    animated

animate:
	// The parent particle j (DX) and its bone's offset (BX), the
	// particle's bone's offset (AX).
	MOVLQSX (R13)(CX*4), DX
	MOVLQSX (R12)(DX*4), BX
	IMUL3Q  $12, BX, BX
	MOVLQSX (R12)(CX*4), AX
	IMUL3Q  $12, AX, AX

	// o = x - parent's x (X6..X8).
	LANEPOS(BX, X9, X10, X11)
	LANEPOS(AX, X6, X7, X8)
	SUBPS X9, X6
	SUBPS X10, X7
	SUBPS X11, X8

	RECORD
	INCQ CX
	CMPQ CX, R14
	JLT  animate

animated:
	MOVQ   pathMax+48(FP), AX
	MOVUPS X14, (AX)
	RET

// func quadAnimateEnd(q *quad, lp *quadPoses, local *mgl32.Vec3, i, j, pb int, pathMax *[4]float32)
TEXT ·quadAnimateEnd(SB), NOSPLIT, $0-56
	MOVQ q+0(FP), DI
	MOVQ lp+8(FP), BX
	POSLANES(BX)
	MOVQ pb+40(FP), CX
	IMUL3Q $12, CX, R12
	SHLQ   $4, CX

	// The parent bone's position (X9..X11), rotation w, x, y, z
	// (X12..X15; a Quat is W first) and scale (X1, X5, X3).
	LANEPOS(R12, X9, X10, X11)
	MOVQ   (quadPoses_wr+0)(BX), AX
	MOVUPS (AX)(CX*1), X0
	MOVQ   (quadPoses_wr+8)(BX), AX
	MOVUPS (AX)(CX*1), X1
	MOVQ   (quadPoses_wr+16)(BX), AX
	MOVUPS (AX)(CX*1), X2
	MOVQ   (quadPoses_wr+24)(BX), AX
	MOVUPS (AX)(CX*1), X3
	TRANSPOSE(X0, X1, X2, X3, X4, X5)
	MOVAPS X1, X12
	MOVAPS X5, X13
	MOVAPS X3, X14
	MOVAPS X2, X15
	MOVQ   (quadPoses_ws+0)(BX), AX
	LOADV3I(AX, R12, X0, X4)
	MOVQ   (quadPoses_ws+8)(BX), AX
	LOADV3I(AX, R12, X1, X4)
	MOVQ   (quadPoses_ws+16)(BX), AX
	LOADV3I(AX, R12, X2, X4)
	MOVQ   (quadPoses_ws+24)(BX), AX
	LOADV3I(AX, R12, X3, X4)
	TRANSPOSE(X0, X1, X2, X3, X4, X5)

	// v = scale * local (X6..X8).
	MOVQ   local+16(FP), AX
	MOVSS  0(AX), X6
	SHUFPS $0, X6, X6
	MULPS  X1, X6
	MOVSS  4(AX), X7
	SHUFPS $0, X7, X7
	MULPS  X5, X7
	MOVSS  8(AX), X8
	SHUFPS $0, X8, X8
	MULPS  X3, X8

	// rotate: t = 2 (q.V x v) (X3..X5); r = v + w t + q.V x t (X0, X2, X1).
	MOVAPS X14, X3
	MULPS  X8, X3
	MOVAPS X15, X0
	MULPS  X7, X0
	SUBPS  X0, X3
	ADDPS  X3, X3
	MOVAPS X15, X4
	MULPS  X6, X4
	MOVAPS X13, X0
	MULPS  X8, X0
	SUBPS  X0, X4
	ADDPS  X4, X4
	MOVAPS X13, X5
	MULPS  X7, X5
	MOVAPS X14, X0
	MULPS  X6, X0
	SUBPS  X0, X5
	ADDPS  X5, X5
	MOVAPS X12, X0
	MULPS  X3, X0
	ADDPS  X6, X0
	MOVAPS X14, X1
	MULPS  X5, X1
	ADDPS  X1, X0
	MOVAPS X15, X1
	MULPS  X4, X1
	SUBPS  X1, X0
	MOVAPS X12, X2
	MULPS  X4, X2
	ADDPS  X7, X2
	MOVAPS X15, X1
	MULPS  X3, X1
	ADDPS  X1, X2
	MOVAPS X13, X1
	MULPS  X5, X1
	SUBPS  X1, X2
	MOVAPS X12, X1
	MULPS  X5, X1
	ADDPS  X8, X1
	MOVAPS X13, X6
	MULPS  X4, X6
	ADDPS  X6, X1
	MOVAPS X14, X6
	MULPS  X3, X6
	SUBPS  X6, X1

	// The end particle at position + r; o is that minus the position.
	ADDPS X9, X0
	ADDPS X10, X2
	ADDPS X11, X1
	SUBPS X9, X0
	SUBPS X10, X2
	SUBPS X11, X1
	MOVAPS X0, X6
	MOVAPS X2, X7
	MOVAPS X1, X8

	MOVQ   i+24(FP), CX
	MOVQ   j+32(FP), DX
	MOVQ   pathMax+48(FP), AX
	MOVUPS (AX), X14
	RECORD
	MOVQ   pathMax+48(FP), AX
	MOVUPS X14, (AX)
	RET
