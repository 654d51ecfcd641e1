//go:build amd64 && !purego

#include "textflag.h"
#include "go_asm.h"
#include "sse_amd64.h"

// The AVX2 kernel of Lanes.ApplyIn: turn (apply.go) and the child's world
// rotation for the eight lanes at once, one lane per 32-bit element of a
// YMM register, every operation in the same order as the Go code so that
// the results are the same bits (products and sums are commutative in
// IEEE arithmetic; the order of the sums is kept, and 2*x is computed as
// x+x, which is exact too). Comments name the Go expression a block
// computes. The lanes' rows are read into columns (applyQuad.t) with SSE,
// four lanes at a time (byte h of a column: 0 for lanes 0..3, 16 for
// lanes 4..7), before the first 256-bit instruction, and the results
// written back the same way after VZEROUPPER: the SSE code always meets
// clean upper halves.
//
// Every offset into the lanes' records comes from go_asm.h (the Go
// declarations) and every spill column from layout.go's constants:
// layout.go describes the layout these kernels assume and how to change
// the step; TestKernelLayout checks both.

SPLAT8(tiny, 0x179abe15)   // float32(1e-24)
SPLAT8(huge, 0x7149f2ca)   // float32(1e30)
SPLAT8(milli, 0x3a83126f)  // float32(1e-3)
SPLAT8(nmilli, 0xba83126f) // float32(-1e-3)
SPLAT8(one, 0x3f800000)
SPLAT8(half, 0x3f000000)
SPLAT8(sign, 0x80000000)

// Columns in applyQuad.t: the kernel's spill space and the rows it reads.
#define T_T0 (applyQuad_t+const_colBytes*const_aT0)(DI)
#define T_T1 (applyQuad_t+const_colBytes*const_aT1)(DI)
#define T_T2 (applyQuad_t+const_colBytes*const_aT2)(DI)
#define T_V0 (applyQuad_t+const_colBytes*const_aV0)(DI)
#define T_V1 (applyQuad_t+const_colBytes*const_aV1)(DI)
#define T_V2 (applyQuad_t+const_colBytes*const_aV2)(DI)
#define T_NL0 (applyQuad_t+const_colBytes*const_aNL0)(DI)
#define T_NL1 (applyQuad_t+const_colBytes*const_aNL1)(DI)
#define T_NL2 (applyQuad_t+const_colBytes*const_aNL2)(DI)
#define T_S0 (applyQuad_t+const_colBytes*const_aS0)(DI)
#define T_S1 (applyQuad_t+const_colBytes*const_aS1)(DI)
#define T_S2 (applyQuad_t+const_colBytes*const_aS2)(DI)
#define T_L0 (applyQuad_t+const_colBytes*const_aL0)(DI)
#define T_L1 (applyQuad_t+const_colBytes*const_aL1)(DI)
#define T_L2 (applyQuad_t+const_colBytes*const_aL2)(DI)
#define T_CW (applyQuad_t+const_colBytes*const_aCW)(DI)
#define T_CX (applyQuad_t+const_colBytes*const_aCX)(DI)
#define T_CY (applyQuad_t+const_colBytes*const_aCY)(DI)
#define T_CZ (applyQuad_t+const_colBytes*const_aCZ)(DI)
#define T_LW (applyQuad_t+const_colBytes*const_aLW)(DI)
#define T_LX (applyQuad_t+const_colBytes*const_aLX)(DI)
#define T_LY (applyQuad_t+const_colBytes*const_aLY)(DI)
#define T_LZ (applyQuad_t+const_colBytes*const_aLZ)(DI)

// COL is column k of applyQuad.t at byte h.
#define COL(k, h) (applyQuad_t+const_colBytes*(k)+(h))(DI)

// LANEPTRS sets R8..R11 to four lanes' pointers at off in the applyQuad.
#define LANEPTRS(off) \
	MOVQ (off+0)(DI), R8; \
	MOVQ (off+8)(DI), R9; \
	MOVQ (off+16)(DI), R10; \
	MOVQ (off+24)(DI), R11

// TDIFF sets x to the lane's pi - pj, its particles i and j at p+AX and
// p+BX (X4 and X6 scratch).
#define TDIFF(p, x) \
	LOADV3I(p, AX, x, X6); \
	LOADV3I(p, BX, X4, X6); \
	SUBPS   X4, x

// ROWS3 reads the vectors at i in four lanes' arrays (R8..R11) into
// columns k..k+2 at byte h.
#define ROWS3(i, k, h) \
	LOADV3I(R8, i, X0, X6); \
	LOADV3I(R9, i, X1, X6); \
	LOADV3I(R10, i, X2, X6); \
	LOADV3I(R11, i, X3, X6); \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS X1, COL(k, h); \
	MOVUPS X5, COL(k+1, h); \
	MOVUPS X3, COL(k+2, h)

// ROWS4 reads the quaternions at i (w first) in four lanes' arrays
// (R8..R11) into columns k..k+3 at byte h.
#define ROWS4(i, k, h) \
	MOVUPS (R8)(i*1), X0; \
	MOVUPS (R9)(i*1), X1; \
	MOVUPS (R10)(i*1), X2; \
	MOVUPS (R11)(i*1), X3; \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS X1, COL(k, h); \
	MOVUPS X5, COL(k+1, h); \
	MOVUPS X3, COL(k+2, h); \
	MOVUPS X2, COL(k+3, h)

// READ reads four lanes' rows (byte h of the columns): t = pi - pj,
// s = ws[pb], l = lp[b] and C = lr[b] (a particle with a bone), and
// L = lr[pb].
#define READ(h, endl) \
	LANEPTRS(applyQuad_pos+2*(h)); \
	TDIFF(R8, X0); \
	TDIFF(R9, X1); \
	TDIFF(R10, X2); \
	TDIFF(R11, X3); \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	MOVUPS X1, COL(const_aT0, h); \
	MOVUPS X5, COL(const_aT1, h); \
	MOVUPS X3, COL(const_aT2, h); \
	LANEPTRS(applyQuad_ws+2*(h)); \
	ROWS3(R12, const_aS0, h); \
	LANEPTRS(applyQuad_lr+2*(h)); \
	ROWS4(R13, const_aLW, h); \
	CMPQ  b+32(FP), $0; \
	JLT   endl; \
	ROWS4(DX, const_aCW, h); \
	LANEPTRS(applyQuad_lp+2*(h)); \
	ROWS3(R14, const_aL0, h); \
endl:

// QW, QX, QY and QZ set d to one element of the Hamilton product a b
// (qmul), with t scratch; QMUL sets dw..dz to all four.
#define QW(aw, ax, ay, az, bw, bx, by, bz, d, t) \
	VMULPS bw, aw, d; VMULPS bx, ax, t; VSUBPS t, d, d; \
	VMULPS by, ay, t; VSUBPS t, d, d; VMULPS bz, az, t; VSUBPS t, d, d

#define QX(aw, ax, ay, az, bw, bx, by, bz, d, t) \
	VMULPS bx, aw, d; VMULPS bw, ax, t; VADDPS t, d, d; \
	VMULPS bz, ay, t; VADDPS t, d, d; VMULPS by, az, t; VSUBPS t, d, d

#define QY(aw, ax, ay, az, bw, bx, by, bz, d, t) \
	VMULPS by, aw, d; VMULPS bw, ay, t; VADDPS t, d, d; \
	VMULPS bx, az, t; VADDPS t, d, d; VMULPS bz, ax, t; VSUBPS t, d, d

#define QZ(aw, ax, ay, az, bw, bx, by, bz, d, t) \
	VMULPS bz, aw, d; VMULPS bw, az, t; VADDPS t, d, d; \
	VMULPS by, ax, t; VADDPS t, d, d; VMULPS bx, ay, t; VSUBPS t, d, d

#define QMUL(aw, ax, ay, az, bw, bx, by, bz, dw, dx, dy, dz, t) \
	QW(aw, ax, ay, az, bw, bx, by, bz, dw, t); \
	QX(aw, ax, ay, az, bw, bx, by, bz, dx, t); \
	QY(aw, ax, ay, az, bw, bx, by, bz, dy, t); \
	QZ(aw, ax, ay, az, bw, bx, by, bz, dz, t)

// STOREQ and STOREV store the quaternion or vector x to p+i for lane s
// unless bit s of AX is set (s: the lane, 0..7).
#define STOREQ(s, x, p, i, skip) \
	BTL    $s, AX; \
	JCS    skip; \
	MOVUPS x, (p)(i*1); \
skip:

#define STOREV(s, x, p, i, t, skip) \
	BTL $s, AX; \
	JCS skip; \
	STOREV3I(x, p, i, t); \
skip:

// WRITE writes four lanes' results (byte h of the columns, lanes s0..s3):
// q into lr[pb] and, for a particle with a bone (b >= 0), the new
// lp[b], for the lanes not in AX.
#define WRITE(h, s0, s1, s2, s3, q0, q1, q2, q3, p0, p1, p2, p3, done) \
	MOVUPS COL(const_aLW, h), X1; \
	MOVUPS COL(const_aLX, h), X6; \
	MOVUPS COL(const_aLY, h), X7; \
	MOVUPS COL(const_aLZ, h), X12; \
	TRANSPOSE(X1, X6, X7, X12, X5, X14); \
	LANEPTRS(applyQuad_lr+2*(h)); \
	STOREQ(s0, X6, R8, R13, q0); \
	STOREQ(s1, X14, R9, R13, q1); \
	STOREQ(s2, X12, R10, R13, q2); \
	STOREQ(s3, X7, R11, R13, q3); \
	CMPQ   b+32(FP), $0; \
	JLT    done; \
	MOVUPS COL(const_aNL0, h), X8; \
	MOVUPS COL(const_aNL1, h), X9; \
	MOVUPS COL(const_aNL2, h), X10; \
	XORPS  X11, X11; \
	TRANSPOSE(X8, X9, X10, X11, X14, X15); \
	LANEPTRS(applyQuad_lp+2*(h)); \
	STOREV(s0, X9, R8, R14, X5, p0); \
	STOREV(s1, X15, R9, R14, X5, p1); \
	STOREV(s2, X11, R10, R14, X5, p2); \
	STOREV(s3, X10, R11, R14, X5, p3); \
done:

// func applyKernelAVX2(a *applyQuad, i, j, pb, b int, end *mgl32.Vec3) uint32
TEXT ·applyKernelAVX2(SB), NOSPLIT, $0-52
	MOVQ a+0(FP), DI
	MOVQ i+8(FP), AX
	MOVQ j+16(FP), BX
	MOVQ pb+24(FP), CX
	MOVQ b+32(FP), DX
	LEAQ (AX)(AX*2), AX
	SHLQ $2, AX         // i*12
	LEAQ (BX)(BX*2), BX
	SHLQ $2, BX         // j*12
	LEAQ (CX)(CX*2), R12
	SHLQ $2, R12        // pb*12
	MOVQ CX, R13
	SHLQ $4, R13        // pb*16
	LEAQ (DX)(DX*2), R14
	SHLQ $2, R14        // b*12
	SHLQ $4, DX         // b*16

	READ(0, read0)
	READ(16, read1)
	CMPQ  b+32(FP), $0
	JGE   havel

	// An end particle: l is its rest offset, the same in every lane.
	MOVQ         end+40(FP), SI
	VBROADCASTSS (SI), Y9
	VBROADCASTSS 4(SI), Y13
	VBROADCASTSS 8(SI), Y11
	VMOVUPS      Y9, T_L0
	VMOVUPS      Y13, T_L1
	VMOVUPS      Y11, T_L2

havel:
	// lb2 := t·t (Y7).
	VMOVUPS T_T0, Y1
	VMOVUPS T_T1, Y5
	VMOVUPS T_T2, Y3
	VMULPS  Y1, Y1, Y7
	VMULPS  Y5, Y5, Y5
	VADDPS  Y5, Y7, Y7
	VMULPS  Y3, Y3, Y3
	VADDPS  Y3, Y7, Y7

	// v := s ⊙ l (Y1, Y5, Y3), l in Y9, Y13, Y11.
	VMOVUPS T_S0, Y1
	VMOVUPS T_S1, Y5
	VMOVUPS T_S2, Y3
	VMOVUPS T_L0, Y9
	VMOVUPS T_L1, Y13
	VMOVUPS T_L2, Y11
	VMULPS  Y9, Y1, Y1
	VMULPS  Y13, Y5, Y5
	VMULPS  Y11, Y3, Y3
	VMOVUPS Y1, T_V0
	VMOVUPS Y5, T_V1
	VMOVUPS Y3, T_V2

	// la2 := v·v; m2 := la2*lb2; m := sqrt32(m2) (Y2).
	VMULPS  Y1, Y1, Y0
	VMULPS  Y5, Y5, Y5
	VADDPS  Y5, Y0, Y0
	VMULPS  Y3, Y3, Y3
	VADDPS  Y3, Y0, Y0
	VMULPS  Y7, Y0, Y0
	VSQRTPS Y0, Y2

	// lp[b] = l*(lb2/m) (T_NL0..2).
	VDIVPS  Y2, Y7, Y7
	VMULPS  Y7, Y9, Y9
	VMULPS  Y7, Y13, Y13
	VMULPS  Y7, Y11, Y11
	VMOVUPS Y9, T_NL0
	VMOVUPS Y13, T_NL1
	VMOVUPS Y11, T_NL2

	// ok (Y4) := m2 > 1e-24 && m2 < 1e30.
	VMOVUPS tiny<>(SB), Y4
	VCMPPS  $1, Y0, Y4, Y4
	VMOVUPS huge<>(SB), Y6
	VCMPPS  $1, Y6, Y0, Y0
	VANDPS  Y0, Y4, Y4

	// w := rot[pb], the columns of particle j (Y8..Y11), and -w.V
	// (Y12..Y14).
	MOVQ   j+16(FP), BX
	IMUL3Q $quatCols__size, BX, BX
	ADDQ   DI, BX
	VMOVUPS (applyQuad_w+quatCols_w)(BX), Y8
	VMOVUPS (applyQuad_w+quatCols_x)(BX), Y9
	VMOVUPS (applyQuad_w+quatCols_y)(BX), Y10
	VMOVUPS (applyQuad_w+quatCols_z)(BX), Y11
	VMOVUPS sign<>(SB), Y0
	VXORPS Y0, Y9, Y12
	VXORPS Y0, Y10, Y13
	VXORPS Y0, Y11, Y14

	// u := rotate(ww, -wx, -wy, -wz, t) (Y1, Y6, Y7): with x, y, z the
	// negated ones, T = 2 (y t2 - z t1, z t0 - x t2, x t1 - y t0) (Y0, Y3,
	// Y5); u = t + w T + (y T2 - z T1, z T0 - x T2, x T1 - y T0).
	VMOVUPS T_T0, Y6
	VMOVUPS T_T1, Y7
	VMOVUPS T_T2, Y15
	VMULPS Y15, Y13, Y0
	VMULPS Y7, Y14, Y1
	VSUBPS Y1, Y0, Y0
	VADDPS Y0, Y0, Y0
	VMULPS Y6, Y14, Y3
	VMULPS Y15, Y12, Y1
	VSUBPS Y1, Y3, Y3
	VADDPS Y3, Y3, Y3
	VMULPS Y7, Y12, Y5
	VMULPS Y6, Y13, Y1
	VSUBPS Y1, Y5, Y5
	VADDPS Y5, Y5, Y5
	VMULPS Y0, Y8, Y1
	VADDPS Y6, Y1, Y1
	VMULPS Y5, Y13, Y6
	VADDPS Y6, Y1, Y1
	VMULPS Y3, Y14, Y6
	VSUBPS Y6, Y1, Y1
	VMULPS Y3, Y8, Y6
	VADDPS Y7, Y6, Y6
	VMULPS Y0, Y14, Y7
	VADDPS Y7, Y6, Y6
	VMULPS Y5, Y12, Y7
	VSUBPS Y7, Y6, Y6
	VMULPS Y5, Y8, Y7
	VADDPS Y15, Y7, Y7
	VMULPS Y3, Y12, Y15
	VADDPS Y15, Y7, Y7
	VMULPS Y0, Y13, Y15
	VSUBPS Y15, Y7, Y7

	// hw := m + v·u (Y0); ok = ok && hw > 1e-3*m.
	VMOVUPS T_V0, Y3
	VMOVUPS T_V1, Y5
	VMOVUPS T_V2, Y12
	VMULPS Y1, Y3, Y0
	VADDPS Y2, Y0, Y0
	VMULPS Y6, Y5, Y13
	VADDPS Y13, Y0, Y0
	VMULPS Y7, Y12, Y13
	VADDPS Y13, Y0, Y0
	VMOVUPS milli<>(SB), Y13
	VMULPS Y2, Y13, Y13
	VCMPPS $1, Y0, Y13, Y13
	VANDPS Y13, Y4, Y4

	// c := v × u (Y2, Y13, Y3).
	VMULPS Y7, Y5, Y2
	VMULPS Y6, Y12, Y13
	VSUBPS Y13, Y2, Y2
	VMULPS Y1, Y12, Y13
	VMULPS Y7, Y3, Y14
	VSUBPS Y14, Y13, Y13
	VMULPS Y6, Y3, Y3
	VMULPS Y1, Y5, Y5
	VSUBPS Y5, Y3, Y3

	// k := 1/sqrt32(hw² + c·c); r := (hw, c)*k (Y0, Y2, Y13, Y3).
	VMULPS Y0, Y0, Y1
	VMULPS Y2, Y2, Y5
	VADDPS Y5, Y1, Y1
	VMULPS Y13, Y13, Y5
	VADDPS Y5, Y1, Y1
	VMULPS Y3, Y3, Y5
	VADDPS Y5, Y1, Y1
	VSQRTPS Y1, Y1
	VMOVUPS one<>(SB), Y5
	VDIVPS Y1, Y5, Y5
	VMULPS Y5, Y0, Y0
	VMULPS Y5, Y2, Y2
	VMULPS Y5, Y13, Y13
	VMULPS Y5, Y3, Y3

	// n := w r (Y1, Y6, Y7, Y12), the parent's new world rotation, into
	// its turned columns (BX: particle j's).
	QMUL(Y8, Y9, Y10, Y11, Y0, Y2, Y13, Y3, Y1, Y6, Y7, Y12, Y5)
	VMOVUPS Y1, (applyQuad_turned+quatCols_w)(BX)
	VMOVUPS Y6, (applyQuad_turned+quatCols_x)(BX)
	VMOVUPS Y7, (applyQuad_turned+quatCols_y)(BX)
	VMOVUPS Y12, (applyQuad_turned+quatCols_z)(BX)

	// rot[b] := n C, C = lr[b]: the columns of particle i (none for an
	// end particle).
	CMPQ   b+32(FP), $0
	JLT    turnl
	VMOVUPS T_CW, Y9
	VMOVUPS T_CX, Y15
	VMOVUPS T_CY, Y11
	VMOVUPS T_CZ, Y10
	MOVQ   i+8(FP), BX
	IMUL3Q $quatCols__size, BX, BX
	ADDQ   DI, BX
	QW(Y1, Y6, Y7, Y12, Y9, Y15, Y11, Y10, Y8, Y5)
	VMOVUPS Y8, (applyQuad_w+quatCols_w)(BX)
	QX(Y1, Y6, Y7, Y12, Y9, Y15, Y11, Y10, Y8, Y5)
	VMOVUPS Y8, (applyQuad_w+quatCols_x)(BX)
	QY(Y1, Y6, Y7, Y12, Y9, Y15, Y11, Y10, Y8, Y5)
	VMOVUPS Y8, (applyQuad_w+quatCols_y)(BX)
	QZ(Y1, Y6, Y7, Y12, Y9, Y15, Y11, Y10, Y8, Y5)
	VMOVUPS Y8, (applyQuad_w+quatCols_z)(BX)

turnl:

	// q := L r, L = lr[pb] (Y1, Y6, Y7, Y12).
	VMOVUPS T_LW, Y9
	VMOVUPS T_LX, Y15
	VMOVUPS T_LY, Y11
	VMOVUPS T_LZ, Y10
	QMUL(Y9, Y15, Y11, Y10, Y0, Y2, Y13, Y3, Y1, Y6, Y7, Y12, Y5)

	// d := q·q - 1; ok = ok && d < 1e-3 && d > -1e-3; L' := q*(1 - 0.5*d).
	VMULPS Y1, Y1, Y8
	VMULPS Y6, Y6, Y5
	VADDPS Y5, Y8, Y8
	VMULPS Y7, Y7, Y5
	VADDPS Y5, Y8, Y8
	VMULPS Y12, Y12, Y5
	VADDPS Y5, Y8, Y8
	VMOVUPS one<>(SB), Y5
	VSUBPS Y5, Y8, Y8
	VMOVAPS Y8, Y14
	VMOVUPS milli<>(SB), Y5
	VCMPPS $1, Y5, Y14, Y14
	VMOVUPS nmilli<>(SB), Y5
	VCMPPS $1, Y8, Y5, Y5
	VANDPS Y5, Y14, Y14
	VANDPS Y14, Y4, Y4
	VMOVUPS half<>(SB), Y5
	VMULPS Y8, Y5, Y5
	VMOVUPS one<>(SB), Y14
	VSUBPS Y5, Y14, Y14
	VMULPS Y14, Y1, Y1
	VMULPS Y14, Y6, Y6
	VMULPS Y14, Y7, Y7
	VMULPS Y14, Y12, Y12

	// The lanes left to turn (AX), and the others' results into the
	// pose: q (the columns of L, no longer needed) and, for a particle
	// with a bone, its new local position.
	VMOVMSKPS Y4, AX
	XORL      $255, AX
	MOVL      AX, ret+48(FP)
	VMOVUPS   Y1, T_LW
	VMOVUPS   Y6, T_LX
	VMOVUPS   Y7, T_LY
	VMOVUPS   Y12, T_LZ
	VZEROUPPER
	WRITE(0, 0, 1, 2, 3, lr0, lr1, lr2, lr3, lp0, lp1, lp2, lp3, wrote0)
	WRITE(16, 4, 5, 6, 7, lr4, lr5, lr6, lr7, lp4, lp5, lp6, lp7, wrote1)
	RET

// COPYPOS copies the 12 bytes of lane s's particle at r+R14 to its
// pose's world position at R13 (AX and R12 scratch).
#define COPYPOS(s, r) \
	MOVQ (applyQuad_wp+8*(s))(DI), AX; \
	MOVQ (r)(R14*1), R12; \
	MOVQ R12, (AX)(R13*1); \
	MOVL 8(r)(R14*1), R12; \
	MOVL R12, 8(AX)(R13*1)

// WORLDROT writes four lanes' rotation columns at R14 (byte h) to their
// world rotations at R13.
#define WORLDROT(h) \
	MOVUPS (quatCols_w+(h))(R14), X0; \
	MOVUPS (quatCols_x+(h))(R14), X1; \
	MOVUPS (quatCols_y+(h))(R14), X2; \
	MOVUPS (quatCols_z+(h))(R14), X3; \
	TRANSPOSE(X0, X1, X2, X3, X4, X5); \
	LANEPTRS(applyQuad_wr+2*(h)); \
	MOVUPS X1, (R8)(R13*1); \
	MOVUPS X5, (R9)(R13*1); \
	MOVUPS X3, (R10)(R13*1); \
	MOVUPS X2, (R11)(R13*1)

// func applyWorldAVX2(a *applyQuad, bone, children *int32, n int)
TEXT ·applyWorldAVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), DI
	MOVQ bone+8(FP), SI
	MOVQ children+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ BX, BX

wloop:
	MOVLQSX (SI)(BX*4), R12 // b
	TESTQ   R12, R12
	JLT     wnext           // an end particle

	// The bone's last rotation: its turn's (turned) when it has a child
	// particle, else the one its parent's turn gave it (w).
	IMUL3Q $quatCols__size, BX, R13
	LEAQ   applyQuad_w(DI)(R13*1), R14
	MOVL   (DX)(BX*4), AX
	TESTL  AX, AX
	JEQ    wleaf
	LEAQ   applyQuad_turned(DI)(R13*1), R14

wleaf:
	MOVQ R12, R13
	SHLQ $4, R13      // b*16
	WORLDROT(0)
	WORLDROT(16)

	// The bone on its particle, but the root's, which stays.
	TESTQ BX, BX
	JEQ   wnext
	LEAQ  (R12)(R12*2), R13
	SHLQ  $2, R13       // b*12
	LEAQ  (BX)(BX*2), R14
	SHLQ  $2, R14       // k*12
	LANEPTRS(applyQuad_pos)
	COPYPOS(0, R8)
	COPYPOS(1, R9)
	COPYPOS(2, R10)
	COPYPOS(3, R11)
	LANEPTRS(applyQuad_pos+32)
	COPYPOS(4, R8)
	COPYPOS(5, R9)
	COPYPOS(6, R10)
	COPYPOS(7, R11)

wnext:
	INCQ BX
	CMPQ BX, CX
	JLT  wloop
	RET
