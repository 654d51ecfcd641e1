//go:build amd64 && !purego

#include "textflag.h"
#include "go_asm.h"
#include "sse_amd64.h"

// The AVX2 kernel of Quad: quadKernelGo (quad.go) for the eight lanes at
// once, one lane per 32-bit element of a YMM register, every operation in
// the same order so that the results are the same bits; comments name the
// Go expression a block computes. The copies between the lanes' rows and
// the columns (load, store, animate) work four lanes at a time with SSE,
// lanes 0..3 then 4..7 (byte 16 of each column). Memory is read and
// written with unaligned moves only: Go aligns a quad to 8 bytes. Every
// function that touches a YMM register clears the upper halves
// (VZEROUPPER) before it returns, so the SSE code that follows pays no
// transition.
//
// Every offset into the lanes' records comes from go_asm.h (the Go
// declarations) and every spill column from layout.go's constants:
// layout.go describes the layout these kernels assume and how to change
// the step; TestKernelLayout checks both.

SPLAT8(eps, 0x2b8cbccc)  // float32(1e-12), mathx.Epsilon
SPLAT8(one, 0x3f800000)
SPLAT8(grow, 0x3f804000) // refineGrow, 1 + 1/512

// LANES sets R8..R11 to four lanes' pointers at off in the quad.
#define LANES(off) \
	MOVQ (off+0)(DI), R8; \
	MOVQ (off+8)(DI), R9; \
	MOVQ (off+16)(DI), R10; \
	MOVQ (off+24)(DI), R11

// PARTS starts a loop over the n (CX) particles: SI at byte h of the
// first one's columns, DX counting down.
#define PARTS(h, loop) \
	LEAQ (quad_part+(h))(DI), SI; \
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

// PPLANES sets R8..R11 to four lanes' positions and R12, R13, R14, BX
// to their previous positions, SI to byte h of particle 0's columns, AX
// to 0 (particle i's byte offset in every lane's rows) and DX to n-1
// (CX), the particles before the last.
#define PPLANES(h) \
	LANES(quad_pos+2*(h)); \
	MOVQ (quad_prev+2*(h)+0)(DI), R12; \
	MOVQ (quad_prev+2*(h)+8)(DI), R13; \
	MOVQ (quad_prev+2*(h)+16)(DI), R14; \
	MOVQ (quad_prev+2*(h)+24)(DI), BX; \
	LEAQ (quad_part+(h))(DI), SI; \
	XORL AX, AX; \
	LEAQ -1(CX), DX

// PPNEXT moves AX and SI to the next particle and loops while DX counts
// particles before the last.
#define PPNEXT(loop) \
	ADDQ $const_vec3Bytes, AX; \
	ADDQ $quadPart__size, SI; \
	DECQ DX; \
	JNZ  loop

// TOCOLS transposes the vectors of four lanes in X0..X3 and stores their
// x, y, z to the columns xoff, yoff, zoff at SI; the fourth elements,
// which TRANSPOSE leaves in X2, are dropped.
#define TOCOLS(xoff, yoff, zoff) \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS X1, xoff(SI); \
	MOVUPS X5, yoff(SI); \
	MOVUPS X3, zoff(SI)

// LOADROWS reads a vector of four lanes (p0..p3, at AX) into columns,
// 16 bytes each: the fourth element, the next particle's x, is dropped.
// Only a particle before a lane's last may be read so (LOADROWS3 reads
// the last): 16 bytes of the last could reach past the lane's particles.
#define LOADROWS(p0, p1, p2, p3, xoff, yoff, zoff) \
	MOVUPS (p0)(AX*1), X0; \
	MOVUPS (p1)(AX*1), X1; \
	MOVUPS (p2)(AX*1), X2; \
	MOVUPS (p3)(AX*1), X3; \
	TOCOLS(xoff, yoff, zoff)

#define LOADROWS3(p0, p1, p2, p3, xoff, yoff, zoff) \
	LOADV3I(p0, AX, X0, X6); \
	LOADV3I(p1, AX, X1, X6); \
	LOADV3I(p2, AX, X2, X6); \
	LOADV3I(p3, AX, X3, X6); \
	TOCOLS(xoff, yoff, zoff)

// FROMCOLS loads the columns xoff, yoff, zoff at SI into X0..X2, ORs x-x
// of every element into X7 (0 for a finite x, NaN otherwise), and
// transposes them into four lanes' vectors, X1, X5, X3, X2, their fourth
// elements zero.
#define FROMCOLS(xoff, yoff, zoff) \
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
	TRANSPOSE(X0, X1, X2, X3, X4, X5)

// STOREROWS writes four lanes' vectors (p0..p3, at AX) from columns, 16
// bytes each: the fourth, zero, lands on the next particle's x, which
// the next particle's store then writes. A lane's last particle takes
// STOREROWS3, which writes 12 bytes, so that no store reaches past the
// lane's particles. (A chain in several lanes gets the same bits from
// each, so it ends the same whatever the order.)
#define STOREROWS(p0, p1, p2, p3, xoff, yoff, zoff) \
	FROMCOLS(xoff, yoff, zoff); \
	MOVUPS X1, (p0)(AX*1); \
	MOVUPS X5, (p1)(AX*1); \
	MOVUPS X3, (p2)(AX*1); \
	MOVUPS X2, (p3)(AX*1)

#define STOREROWS3(p0, p1, p2, p3, xoff, yoff, zoff) \
	FROMCOLS(xoff, yoff, zoff); \
	STOREV3I(X1, p0, AX, X6); \
	STOREV3I(X5, p1, AX, X6); \
	STOREV3I(X3, p2, AX, X6); \
	STOREV3I(X2, p3, AX, X6)

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

// HALF copies the state of lanes h/4 to h/4+3, whose elements are at
// byte h of each column (h: 0 or 16), between their rows and the columns:
// positions and previous positions in one pass by ROWS (LOADROWS or
// STOREROWS), the last particle's by ROWS3, then the collided flags by
// HIT (HITLOAD or HITSTORE).
#define HALF(h, ROWS, ROWS3, HIT, lpp, llast, lhit) \
	PPLANES(h); \
	TESTQ DX, DX; \
	JZ    llast; \
lpp: \
	ROWS(R8, R9, R10, R11, quadPart_x, quadPart_y, quadPart_z); \
	ROWS(R12, R13, R14, BX, quadPart_px, quadPart_py, quadPart_pz); \
	PPNEXT(lpp); \
llast: \
	ROWS3(R8, R9, R10, R11, quadPart_x, quadPart_y, quadPart_z); \
	ROWS3(R12, R13, R14, BX, quadPart_px, quadPart_py, quadPart_pz); \
	LANES(quad_hit+2*(h)); \
	PARTS(h, lhit); \
	HIT(R8, 0); \
	HIT(R9, 1); \
	HIT(R10, 2); \
	HIT(R11, 3); \
	NEXT(1, lhit)

// LOADHALF loads four lanes' state into the columns (see HALF).
#define LOADHALF(h, lpp, llast, lhit) HALF(h, LOADROWS, LOADROWS3, HITLOAD, lpp, llast, lhit)

// ENDHALF is quadAnimateEnd for lanes h/4 to h/4+3 (byte h of the
// columns and of pathMax).
#define ENDHALF(h) \
	MOVQ   lp+8(FP), BX; \
	MOVQ   pb+40(FP), CX; \
	ENDPOSE(h); \
	MOVQ   local+16(FP), AX; \
	ENDOFFSET; \
	MOVQ   i+24(FP), CX; \
	MOVQ   j+32(FP), DX; \
	MOVQ   pathMax+48(FP), AX; \
	MOVUPS h(AX), X14; \
	RECORD(h); \
	MOVQ   pathMax+48(FP), AX; \
	MOVUPS X14, h(AX)

// func quadLoadAVX2(q *quad, n int)
TEXT ·quadLoadAVX2(SB), NOSPLIT, $0-16
	MOVQ q+0(FP), DI
	MOVQ n+8(FP), CX
	LOADHALF(0, lpp0, llast0, hit0)
	LOADHALF(16, lpp1, llast1, hit1)
	RET

// STOREHALF stores four lanes' state from the columns (see HALF) and
// sets the low four bits of AX to those with a non-finite element (X7 not
// all zero bits).
#define STOREHALF(h, lpp, llast, lhit) \
	XORPS X7, X7; \
	HALF(h, STOREROWS, STOREROWS3, HITSTORE, lpp, llast, lhit); \
	XORPS    X0, X0; \
	PCMPEQL  X0, X7; \
	MOVMSKPS X7, AX; \
	XORL     $15, AX

// func quadStoreAVX2(q *quad, n int) uint32
TEXT ·quadStoreAVX2(SB), NOSPLIT, $0-20
	MOVQ q+0(FP), DI
	MOVQ n+8(FP), CX
	STOREHALF(0, spp0, slast0, shit0)
	MOVL AX, ret+16(FP)
	STOREHALF(16, spp1, slast1, shit1)
	SHLL $4, AX
	ORL  ret+16(FP), AX
	MOVL AX, ret+16(FP)
	RET

// ROWS loads the 16 bytes at off of four lanes' records (R8..R11) and
// spills them as columns to q.t[k0..k0+3], at byte h of each column: 0
// for lanes 0..3, 16 for lanes 4..7. It runs before any 256-bit
// instruction, so the legacy SSE code meets clean upper halves.
#define ROWS(off, k0, h) \
	MOVUPS    off(R8), X0; \
	MOVUPS    off(R9), X1; \
	MOVUPS    off(R10), X2; \
	MOVUPS    off(R11), X3; \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS    X1, (quad_t+const_colBytes*(k0)+(h))(DI); \
	MOVUPS    X5, (quad_t+const_colBytes*(k0+1)+(h))(DI); \
	MOVUPS    X3, (quad_t+const_colBytes*(k0+2)+(h))(DI); \
	MOVUPS    X2, (quad_t+const_colBytes*(k0+3)+(h))(DI)

// PACKED sets r to lane s's packed record at AX bytes times its stride.
#define PACKED(s, r) \
	MOVQ  (quad_ps+const_intBytes*(s))(DI), r; \
	IMULQ AX, r; \
	ADDQ  (quad_pk+const_sliceBytes*(s))(DI), r

// The animated record's columns in the particle (SI), and the packed
// fields' columns in q.t.
#define T_O0 quadPart_o0(SI)
#define T_O1 quadPart_o1(SI)
#define T_O2 quadPart_o2(SI)
#define T_RL quadPart_rl(SI)
#define T_PL quadPart_pl(SI)
#define T_R (quad_t+const_colBytes*const_tR)(DI)
#define T_E (quad_t+const_colBytes*const_tE)(DI)
#define T_SK (quad_t+const_colBytes*const_tSK)(DI)
#define T_KEEP (quad_t+const_colBytes*const_tKeep)(DI)
#define T_KEEPHIT (quad_t+const_colBytes*const_tKeepHit)(DI)
#define T_FS (quad_t+const_colBytes*const_tFS)(DI)
#define T_FSHIT (quad_t+const_colBytes*const_tFSHit)(DI)
#define T_INERT (quad_t+const_colBytes*const_tInert)(DI)

// SELECT sets d to m ? a : d, m a mask (each element all ones or all
// zeros: the blend reads its sign bit).
#define SELECT(m, a, d) \
	VBLENDVPS m, a, d, d

// INTEGRATE is the Verlet step of one component: x (Y7 loaded from xoff,
// its previous position from qoff) moves by (x-q)*keep (Y1) + f*fs (Y4) +
// r, r = m*a (a in Y5); q becomes x + r. The new x is left in out.
#define INTEGRATE(moff, foff, xoff, qoff, out) \
	VMOVUPS moff(DI), Y6; \
	VMULPS Y5, Y6, Y6; \
	VMOVUPS xoff(SI), Y7; \
	VMOVUPS qoff(SI), Y8; \
	VADDPS Y6, Y7, Y9; \
	VMOVUPS Y9, qoff(SI); \
	VSUBPS Y8, Y7, Y9; \
	VMULPS Y1, Y9, Y9; \
	VADDPS Y9, Y7, Y7; \
	VMOVUPS foff(DI), Y9; \
	VMULPS Y4, Y9, Y9; \
	VADDPS Y9, Y7, Y7; \
	VADDPS Y6, Y7, Y7; \
	VMOVAPS Y7, out

// SEGDIFF sets d to x minus the segment column at off (R11).
#define SEGDIFF(off, x, d) \
	VMOVUPS off(R11), Y15; \
	VSUBPS Y15, x, d

// SEGMUL sets t to the segment column at off (R11) times m.
#define SEGMUL(off, m, t) \
	VMOVUPS off(R11), t; \
	VMULPS m, t, t

// NEAR sets Y11 to segment.near of the position (Y0, Y1, Y2) of radius Y6
// for the collider at R13, by its operations in the same order; clobbers
// R11, Y12..Y15.
#define NEAR \
	MOVQ   quadCol_seg(R13), R11; \
	ANDQ   $(2*const_maxBounds-1), R11; \
	IMUL3Q $segCols__size, R11, R11; \
	LEAQ   quad_segs(DI)(R11*1), R11; \
	SEGDIFF(segCols_a0, Y0, Y11); \
	SEGDIFF(segCols_a1, Y1, Y12); \
	SEGDIFF(segCols_a2, Y2, Y13); \
	SEGMUL(segCols_u0, Y11, Y14); \
	SEGMUL(segCols_u1, Y12, Y15); \
	VADDPS Y15, Y14, Y14; \
	SEGMUL(segCols_u2, Y13, Y15); \
	VADDPS Y15, Y14, Y14; \
	VMOVUPS segCols_inv(R11), Y15; \
	VMULPS Y15, Y14, Y14; \
	VXORPS Y15, Y15, Y15; \
	VMAXPS Y15, Y14, Y14; \
	VMOVUPS one<>(SB), Y15; \
	VMINPS Y15, Y14, Y14; \
	SEGMUL(segCols_u0, Y14, Y15); \
	VSUBPS Y15, Y11, Y11; \
	SEGMUL(segCols_u1, Y14, Y15); \
	VSUBPS Y15, Y12, Y12; \
	SEGMUL(segCols_u2, Y14, Y15); \
	VSUBPS Y15, Y13, Y13; \
	VMULPS Y11, Y11, Y11; \
	VMULPS Y12, Y12, Y12; \
	VADDPS Y12, Y11, Y11; \
	VMULPS Y13, Y13, Y13; \
	VADDPS Y13, Y11, Y11; \
	VMOVUPS grow<>(SB), Y12; \
	VMULPS Y6, Y12, Y12; \
	VMOVUPS segCols_rm(R11), Y13; \
	VADDPS Y13, Y12, Y12; \
	VMULPS Y12, Y12, Y12; \
	VCMPPS $1, Y12, Y11, Y11

// HITS ORs into acc the lanes whose position (Y0, Y1, Y2) of radius Y6
// lies inside the bounding sphere of a collider it can reach and passes
// its segment test (NEAR, only where a lane is inside the sphere), over
// the q.ncol colliders; clobbers AX, R10, R11, R13, Y9..Y15.
#define HITS(acc, loop, next) \
	MOVQ   quad_ncol(DI), R10; \
	LEAQ   quad_col(DI), R13; \
loop: \
	VMOVUPS quadCol_c0(R13), Y9; \
	VSUBPS Y9, Y0, Y10; \
	VMULPS Y10, Y10, Y10; \
	VMOVUPS quadCol_c1(R13), Y9; \
	VSUBPS Y9, Y1, Y11; \
	VMULPS Y11, Y11, Y11; \
	VADDPS Y11, Y10, Y10; \
	VMOVUPS quadCol_c2(R13), Y9; \
	VSUBPS Y9, Y2, Y11; \
	VMULPS Y11, Y11, Y11; \
	VADDPS Y11, Y10, Y10; \
	VMOVUPS quadCol_r(R13), Y9; \
	VADDPS Y6, Y9, Y9; \
	VMULPS Y9, Y9, Y9; \
	VCMPPS $1, Y9, Y10, Y10; \
	VMOVUPS quadCol_reach(R13), Y9; \
	VANDPS Y9, Y10, Y10; \
	VMOVMSKPS Y10, AX; \
	TESTL  AX, AX; \
	JZ     next; \
	NEAR; \
	VANDPS Y11, Y10, Y10; \
	VORPS Y10, acc, acc; \
next: \
	ADDQ   $quadCol__size, R13; \
	DECQ   R10; \
	JNZ    loop

// func quadKernelAVX2(q *quad, i, j int) uint32
TEXT ·quadKernelAVX2(SB), NOSPLIT, $0-28
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
	ROWS(packed_r, const_tR, 0)
	ROWS(packed_keepHit, const_tKeepHit, 0)
	PACKED(4, R8)
	PACKED(5, R9)
	PACKED(6, R10)
	PACKED(7, R11)
	ROWS(packed_r, const_tR, 16)
	ROWS(packed_keepHit, const_tKeepHit, 16)

packed:

	// The particle (SI) and its parent (BX).
	IMUL3Q $quadPart__size, CX, CX
	LEAQ   quad_part(DI)(CX*1), SI
	IMUL3Q $quadPart__size, DX, DX
	LEAQ   quad_part(DI)(DX*1), BX

	// keep, fs := hit ? keepHit, fsHit : keep, fs; hit = false; keep *= vs
	VMOVUPS   quadPart_hit(SI), Y0
	VMOVUPS   T_KEEP, Y3
	VBLENDVPS Y0, T_KEEPHIT, Y3, Y1
	VMOVUPS   T_FS, Y3
	VBLENDVPS Y0, T_FSHIT, Y3, Y4
	VXORPS Y0, Y0, Y0
	VMOVUPS Y0, quadPart_hit(SI)
	VMOVUPS quad_vs(DI), Y2
	VMULPS Y2, Y1, Y1
	VMOVUPS T_INERT, Y5
	INTEGRATE(quad_m0, quad_f0, quadPart_x, quadPart_px, Y10)
	INTEGRATE(quad_m1, quad_f1, quadPart_y, quadPart_py, Y11)
	INTEGRATE(quad_m2, quad_f2, quadPart_z, quadPart_pz, Y12)
	VMOVAPS Y10, Y0
	VMOVAPS Y11, Y1
	VMOVAPS Y12, Y2

	// The parent p (Y3, Y4, Y5).
	VMOVUPS quadPart_x(BX), Y3
	VMOVUPS quadPart_y(BX), Y4
	VMOVUPS quadPart_z(BX), Y5

	// The colliders in reach of the parent: C.gap < path && |p-c|² <
	// (C.r + reach)², path = pl + r + slack (Y6), reach = rl + r (Y8).
	VMOVUPS T_PL, Y6
	VMOVUPS T_R, Y7
	VADDPS Y7, Y6, Y6
	VMOVUPS quad_slack(DI), Y8
	VADDPS Y8, Y6, Y6
	VMOVUPS T_RL, Y8
	VADDPS Y7, Y8, Y8
	VXORPS Y15, Y15, Y15
	MOVQ   quad_ncol(DI), R12
	LEAQ   quad_col(DI), R13
	TESTQ  R12, R12
	JZ     reached

reach:
	VMOVUPS quadCol_gap(R13), Y9
	VCMPPS $1, Y6, Y9, Y9
	VMOVUPS quadCol_c0(R13), Y10
	VSUBPS Y10, Y3, Y13
	VMULPS Y13, Y13, Y13
	VMOVUPS quadCol_c1(R13), Y10
	VSUBPS Y10, Y4, Y14
	VMULPS Y14, Y14, Y14
	VADDPS Y14, Y13, Y13
	VMOVUPS quadCol_c2(R13), Y10
	VSUBPS Y10, Y5, Y14
	VMULPS Y14, Y14, Y14
	VADDPS Y14, Y13, Y13
	VMOVUPS quadCol_r(R13), Y10
	VADDPS Y8, Y10, Y10
	VMULPS Y10, Y10, Y10
	VCMPPS $1, Y10, Y13, Y13
	VANDPS Y9, Y13, Y13
	VMOVUPS Y13, quadCol_reach(R13)
	VORPS Y13, Y15, Y15
	ADDQ   $quadCol__size, R13
	DECQ   R12
	JNZ    reach

reached:
	VMOVMSKPS Y15, R12 // lanes with a collider in reach

	// Elasticity: rest = p + o (Y7, Y8, Y10); x += (rest - x)*e.
	VMOVUPS T_E, Y6
	VMOVUPS T_O0, Y7
	VADDPS Y3, Y7, Y7
	VSUBPS Y0, Y7, Y9
	VMULPS Y6, Y9, Y9
	VADDPS Y9, Y0, Y0
	VMOVUPS T_O1, Y8
	VADDPS Y4, Y8, Y8
	VSUBPS Y1, Y8, Y9
	VMULPS Y6, Y9, Y9
	VADDPS Y9, Y1, Y1
	VMOVUPS T_O2, Y10
	VADDPS Y5, Y10, Y10
	VSUBPS Y2, Y10, Y9
	VMULPS Y6, Y9, Y9
	VADDPS Y9, Y2, Y2

	// Stiffness: d = rest - x; where |d|² > maxLen², maxLen = rl*sk,
	// x += d*((|d| - maxLen)/|d|).
	VSUBPS Y0, Y7, Y11
	VSUBPS Y1, Y8, Y12
	VSUBPS Y2, Y10, Y13
	VMULPS Y11, Y11, Y14
	VMULPS Y12, Y12, Y9
	VADDPS Y9, Y14, Y14
	VMULPS Y13, Y13, Y9
	VADDPS Y9, Y14, Y14
	VMOVUPS T_RL, Y6
	VMOVUPS T_SK, Y9
	VMULPS Y9, Y6, Y6
	VMULPS Y6, Y6, Y9
	VCMPPS $1, Y14, Y9, Y9 // maxLen² < |d|²
	VMOVMSKPS Y9, AX
	TESTL    AX, AX
	JZ       stiff
	VSQRTPS Y14, Y14
	VSUBPS Y6, Y14, Y7
	VDIVPS Y14, Y7, Y7
	VMULPS Y7, Y11, Y11
	VADDPS Y0, Y11, Y11
	VMULPS Y7, Y12, Y12
	VADDPS Y1, Y12, Y12
	VMULPS Y7, Y13, Y13
	VADDPS Y2, Y13, Y13
	SELECT(Y9, Y11, Y0)
	SELECT(Y9, Y12, Y1)
	SELECT(Y9, Y13, Y2)

stiff:
	VMOVUPS Y0, quad_ax(DI)
	VMOVUPS Y1, quad_ay(DI)
	VMOVUPS Y2, quad_az(DI)

	// The lanes whose stage-A position touches a reachable collider (R8).
	XORL   R8, R8
	XORL   R9, R9
	VMOVUPS T_R, Y6
	TESTL  R12, R12
	JZ     kept
	VXORPS Y7, Y7, Y7
	HITS(Y7, hit1, hit1next)
	VMOVMSKPS Y7, R8

kept:
	// Keep-length: d = p - x; x += d*((|d| - rl)/|d|) where |d|² > 1e-12,
	// else x = p + o.
	VSUBPS Y0, Y3, Y8
	VSUBPS Y1, Y4, Y9
	VSUBPS Y2, Y5, Y10
	VMULPS Y8, Y8, Y11
	VMULPS Y9, Y9, Y12
	VADDPS Y12, Y11, Y11
	VMULPS Y10, Y10, Y12
	VADDPS Y12, Y11, Y11
	VMOVUPS eps<>(SB), Y12
	VCMPPS $1, Y11, Y12, Y12 // 1e-12 < |d|²
	VSQRTPS Y11, Y11
	VMOVUPS T_RL, Y13
	VSUBPS Y13, Y11, Y14
	VDIVPS Y11, Y14, Y14
	VMULPS Y14, Y8, Y8
	VADDPS Y0, Y8, Y8
	VMULPS Y14, Y9, Y9
	VADDPS Y1, Y9, Y9
	VMULPS Y14, Y10, Y10
	VADDPS Y2, Y10, Y10
	VMOVUPS T_O0, Y0
	VADDPS Y3, Y0, Y0
	SELECT(Y12, Y8, Y0)
	VMOVUPS T_O1, Y1
	VADDPS Y4, Y1, Y1
	SELECT(Y12, Y9, Y1)
	VMOVUPS T_O2, Y2
	VADDPS Y5, Y2, Y2
	SELECT(Y12, Y10, Y2)

	// The lanes whose kept position touches one (R9).
	TESTL  R12, R12
	JZ     finite
	VXORPS Y7, Y7, Y7
	HITS(Y7, hit2, hit2next)
	VMOVMSKPS Y7, R9

finite:
	// (x0-x0)+(x1-x1)+(x2-x2) == 0: not finite lanes in R10.
	VSUBPS Y0, Y0, Y8
	VSUBPS Y1, Y1, Y9
	VADDPS Y9, Y8, Y8
	VSUBPS Y2, Y2, Y9
	VADDPS Y9, Y8, Y8
	VXORPS Y9, Y9, Y9
	VCMPPS $0, Y9, Y8, Y8
	VMOVMSKPS Y8, R10
	XORL     $255, R10

	VMOVUPS Y0, quadPart_x(SI)
	VMOVUPS Y1, quadPart_y(SI)
	VMOVUPS Y2, quadPart_z(SI)

	// h1 | (h2 &^ h1) << 8 | (nf &^ (h1 | h2)) << 16
	MOVL  R8, R11
	NOTL  R11
	ANDL  R11, R9
	MOVL  R8, R11
	ORL   R9, R11
	NOTL  R11
	ANDL  R11, R10
	SHLL  $8, R9
	SHLL  $16, R10
	MOVL  R8, AX
	ORL   R9, AX
	ORL   R10, AX
	MOVL  AX, ret+24(FP)
	VZEROUPPER
	RET


SPLAT8(ninf, 0xff800000) // -Inf
SPLAT8(qnan, 0x7fc00000) // float32(math.NaN())

// func quadCullAVX2(q *quad, reach *[QuadLanes]float32)
//
// Per listed collider: gap = sqrt(|b - root|²) - br, -Inf where open; it
// is kept where gap < reach or gap == -Inf, its columns then the sphere
// and gap, else zero and NaN.
TEXT ·quadCullAVX2(SB), NOSPLIT, $0-16
	MOVQ    q+0(FP), DI
	MOVQ    reach+8(FP), AX
	VMOVUPS (AX), Y7
	VMOVUPS Y7, quad_clReach(DI)
	VMOVUPS (quad_part+quadPart_x)(DI), Y4
	VMOVUPS (quad_part+quadPart_y)(DI), Y5
	VMOVUPS (quad_part+quadPart_z)(DI), Y6
	VMOVUPS ninf<>(SB), Y8
	VMOVUPS qnan<>(SB), Y9
	MOVQ    quad_ncol(DI), CX
	LEAQ    quad_col(DI), SI
	TESTQ   CX, CX
	JZ      culled

cull:
	// d0*d0 + d1*d1 + d2*d2, d = b - root (Y0).
	VMOVUPS (quadCol_b+boundCols_bc0)(SI), Y0
	VSUBPS  Y4, Y0, Y0
	VMULPS  Y0, Y0, Y0
	VMOVUPS (quadCol_b+boundCols_bc1)(SI), Y1
	VSUBPS  Y5, Y1, Y1
	VMULPS  Y1, Y1, Y1
	VADDPS  Y1, Y0, Y0
	VMOVUPS (quadCol_b+boundCols_bc2)(SI), Y1
	VSUBPS  Y6, Y1, Y1
	VMULPS  Y1, Y1, Y1
	VADDPS  Y1, Y0, Y0

	// gap = sqrt(...) - br, -Inf where open (Y0).
	VSQRTPS Y0, Y0
	VMOVUPS (quadCol_b+boundCols_br)(SI), Y2
	VSUBPS  Y2, Y0, Y0
	VMOVUPS (quadCol_b+boundCols_open)(SI), Y3
	SELECT(Y3, Y8, Y0)

	// keep = gap < reach || gap == -Inf (Y10).
	VCMPPS $1, Y7, Y0, Y10
	VCMPPS $0, Y8, Y0, Y11
	VORPS  Y11, Y10, Y10

	// The sphere where kept, else zero; the gap where kept, else NaN.
	VMOVUPS (quadCol_b+boundCols_bc0)(SI), Y1
	VANDPS  Y10, Y1, Y1
	VMOVUPS Y1, quadCol_c0(SI)
	VMOVUPS (quadCol_b+boundCols_bc1)(SI), Y1
	VANDPS  Y10, Y1, Y1
	VMOVUPS Y1, quadCol_c1(SI)
	VMOVUPS (quadCol_b+boundCols_bc2)(SI), Y1
	VANDPS  Y10, Y1, Y1
	VMOVUPS Y1, quadCol_c2(SI)
	VANDPS  Y10, Y2, Y2
	VMOVUPS Y2, quadCol_r(SI)
	VMOVAPS Y9, Y1
	SELECT(Y10, Y0, Y1)
	VMOVUPS Y1, quadCol_gap(SI)

	ADDQ $quadCol__size, SI
	DECQ CX
	JNZ  cull

culled:
	VZEROUPPER
	RET

// LANEPOS loads lane position rows for the bone at byte offset off (12
// per bone) of four lanes' world positions (R8..R11) and turns them into
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
// pathMax = pl > pathMax ? pl : pathMax. The columns are at byte h of the
// quad's (DI) particles. Clobbers DX, SI, X0.
#define RECORD(h) \
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
	MOVUPS (quad_part+quadPart_pl+(h))(DI)(DX*1), X10; \
	ADDPS  X9, X10; \
	IMUL3Q $quadPart__size, CX, SI; \
	LEAQ   (quad_part+(h))(DI)(SI*1), SI; \
	MOVUPS X6, quadPart_o0(SI); \
	MOVUPS X7, quadPart_o1(SI); \
	MOVUPS X8, quadPart_o2(SI); \
	MOVUPS X9, quadPart_rl(SI); \
	MOVUPS X10, quadPart_pl(SI); \
	MAXPS  X14, X10; \
	MOVAPS X10, X14

// POSLANES sets R8..R11 to four lanes' world positions, from lane h/4 on,
// in the quadPoses at lp.
#define POSLANES(lp, h) \
	MOVQ (quadPoses_wp+2*(h)+0)(lp), R8; \
	MOVQ (quadPoses_wp+2*(h)+8)(lp), R9; \
	MOVQ (quadPoses_wp+2*(h)+16)(lp), R10; \
	MOVQ (quadPoses_wp+2*(h)+24)(lp), R11

// ANIMATE is quadAnimate for four lanes (see ROWS for h), given lp in
// BX, lo in CX and pathMax in AX; it leaves their longest paths in X14.
// A particle's bone position stays in X12, X13, X15 for the next
// particle, which in a line of bones is its child: the parent's is then
// not loaded again (never for the first particle, whose parent comes
// before lo).
#define ANIMATE(h, loop, loadparent, own, done) \
	POSLANES(BX, h); \
	MOVUPS (h)(AX), X14; \
	CMPQ   CX, R14; \
	JGE    done; \
	MOVLQSX (R13)(CX*4), DX; \
	JMP    loadparent; \
loop: \
	MOVLQSX (R13)(CX*4), DX; \
	LEAQ    1(DX), BX; \
	CMPQ    BX, CX; \
	JNE     loadparent; \
	MOVAPS  X12, X9; \
	MOVAPS  X13, X10; \
	MOVAPS  X15, X11; \
	JMP     own; \
loadparent: \
	MOVLQSX (R12)(DX*4), BX; \
	IMUL3Q  $const_vec3Bytes, BX, BX; \
	LANEPOS(BX, X9, X10, X11); \
own: \
	MOVLQSX (R12)(CX*4), AX; \
	IMUL3Q  $const_vec3Bytes, AX, AX; \
	LANEPOS(AX, X6, X7, X8); \
	MOVAPS X6, X12; \
	MOVAPS X7, X13; \
	MOVAPS X8, X15; \
	SUBPS X9, X6; \
	SUBPS X10, X7; \
	SUBPS X11, X8; \
	RECORD(h); \
	INCQ CX; \
	CMPQ CX, R14; \
	JLT  loop; \
done:

// func quadAnimateAVX2(q *quad, lp *quadPoses, bone, parent *int32, lo, hi int, pathMax *[QuadLanes]float32)
//
// For each particle: the parent particle j (DX) and its bone's offset
// (BX), the particle's bone's offset (AX); o = x - parent's x (X6..X8).
TEXT ·quadAnimateAVX2(SB), NOSPLIT, $0-56
	MOVQ q+0(FP), DI
	MOVQ bone+16(FP), R12
	MOVQ parent+24(FP), R13
	MOVQ hi+40(FP), R14
	MOVQ   lp+8(FP), BX
	MOVQ   lo+32(FP), CX
	MOVQ   pathMax+48(FP), AX
	ANIMATE(0, animate0, parent0, own0, animated0)
	MOVQ   pathMax+48(FP), AX
	MOVUPS X14, (AX)
	MOVQ   lp+8(FP), BX
	MOVQ   lo+32(FP), CX
	ANIMATE(16, animate1, parent1, own1, animated1)
	MOVQ   pathMax+48(FP), AX
	MOVUPS X14, 16(AX)
	RET

// ENDPOSE loads, for four lanes (see ROWS for h) and given lp in BX and
// pb in CX, the parent bone's position (X9..X11), rotation w, x, y, z
// (X12..X15; a Quat is W first) and scale (X1, X5, X3).
#define ENDPOSE(h) \
	POSLANES(BX, h); \
	IMUL3Q $const_vec3Bytes, CX, R12; \
	SHLQ   $4, CX; \
	LANEPOS(R12, X9, X10, X11); \
	MOVQ   (quadPoses_wr+2*(h)+0)(BX), AX; \
	MOVUPS (AX)(CX*1), X0; \
	MOVQ   (quadPoses_wr+2*(h)+8)(BX), AX; \
	MOVUPS (AX)(CX*1), X1; \
	MOVQ   (quadPoses_wr+2*(h)+16)(BX), AX; \
	MOVUPS (AX)(CX*1), X2; \
	MOVQ   (quadPoses_wr+2*(h)+24)(BX), AX; \
	MOVUPS (AX)(CX*1), X3; \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVAPS X1, X12; \
	MOVAPS X5, X13; \
	MOVAPS X3, X14; \
	MOVAPS X2, X15; \
	MOVQ   (quadPoses_ws+2*(h)+0)(BX), AX; \
	LOADV3I(AX, R12, X0, X4); \
	MOVQ   (quadPoses_ws+2*(h)+8)(BX), AX; \
	LOADV3I(AX, R12, X1, X4); \
	MOVQ   (quadPoses_ws+2*(h)+16)(BX), AX; \
	LOADV3I(AX, R12, X2, X4); \
	MOVQ   (quadPoses_ws+2*(h)+24)(BX), AX; \
	LOADV3I(AX, R12, X3, X4); \
	TRANSPOSE(X0, X1, X2, X3, X4, X5)

// ENDOFFSET sets o (X6..X8) for the end particle at local (AX) in the
// frame ENDPOSE loaded: v = scale * local; rotate: t = 2 (q.V x v)
// (X3..X5), r = v + w t + q.V x t (X0, X2, X1); the particle is at
// position + r, and o is that minus the position.
#define ENDOFFSET \
	MOVSS  0(AX), X6; \
	SHUFPS $0, X6, X6; \
	MULPS  X1, X6; \
	MOVSS  4(AX), X7; \
	SHUFPS $0, X7, X7; \
	MULPS  X5, X7; \
	MOVSS  8(AX), X8; \
	SHUFPS $0, X8, X8; \
	MULPS  X3, X8; \
	MOVAPS X14, X3; \
	MULPS  X8, X3; \
	MOVAPS X15, X0; \
	MULPS  X7, X0; \
	SUBPS  X0, X3; \
	ADDPS  X3, X3; \
	MOVAPS X15, X4; \
	MULPS  X6, X4; \
	MOVAPS X13, X0; \
	MULPS  X8, X0; \
	SUBPS  X0, X4; \
	ADDPS  X4, X4; \
	MOVAPS X13, X5; \
	MULPS  X7, X5; \
	MOVAPS X14, X0; \
	MULPS  X6, X0; \
	SUBPS  X0, X5; \
	ADDPS  X5, X5; \
	MOVAPS X12, X0; \
	MULPS  X3, X0; \
	ADDPS  X6, X0; \
	MOVAPS X14, X1; \
	MULPS  X5, X1; \
	ADDPS  X1, X0; \
	MOVAPS X15, X1; \
	MULPS  X4, X1; \
	SUBPS  X1, X0; \
	MOVAPS X12, X2; \
	MULPS  X4, X2; \
	ADDPS  X7, X2; \
	MOVAPS X15, X1; \
	MULPS  X3, X1; \
	ADDPS  X1, X2; \
	MOVAPS X13, X1; \
	MULPS  X5, X1; \
	SUBPS  X1, X2; \
	MOVAPS X12, X1; \
	MULPS  X5, X1; \
	ADDPS  X8, X1; \
	MOVAPS X13, X6; \
	MULPS  X4, X6; \
	ADDPS  X6, X1; \
	MOVAPS X14, X6; \
	MULPS  X3, X6; \
	SUBPS  X6, X1; \
	ADDPS X9, X0; \
	ADDPS X10, X2; \
	ADDPS X11, X1; \
	SUBPS X9, X0; \
	SUBPS X10, X2; \
	SUBPS X11, X1; \
	MOVAPS X0, X6; \
	MOVAPS X2, X7; \
	MOVAPS X1, X8

// func quadAnimateEndAVX2(q *quad, lp *quadPoses, local *mgl32.Vec3, i, j, pb int, pathMax *[QuadLanes]float32)
TEXT ·quadAnimateEndAVX2(SB), NOSPLIT, $0-56
	MOVQ q+0(FP), DI

	// Lanes 0..3, then 4..7: their parent bone's frame, the end
	// particle's offset from it, and its record.
	ENDHALF(0)
	ENDHALF(16)
	RET
