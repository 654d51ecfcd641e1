//go:build amd64 && !purego

#include "textflag.h"

// matricesAVX2 takes the joints eight at a time, one joint per lane of a
// 256-bit vector: the eight bones' rotations, positions and scales and
// the eight inverse bind matrices are transposed into vectors of one
// component each, every lane runs matricesGo's scalar operations in its
// order (one vector instruction per scalar operation, no fused
// multiply-add: the same bits), and the eight matrices are transposed
// back. Lane j (j = 0..3) of a 128-bit half is joint j of the group in
// the low half and joint j+4 in the high half.
//
// Registers: DI dst cursor, SI pos, BX rot, CX scale, R8 joints cursor,
// R9 inv cursor, R10 joints end, R11 n, R14 bad, AX DX R12 R13 scratch.
//
// Frame (bytes from SP, 32 each): the position's x, y, z at 0, 32, 64,
// the scale's at 96, 128, 160, the 3×3 part A column by column (a00,
// a10, a20, a01, ...) from 192.

#define PX 0
#define PY 32
#define PZ 64
#define SX 96
#define SY 128
#define SZ 160
#define A00 192
#define A10 224
#define A20 256
#define A01 288
#define A11 320
#define A21 352
#define A02 384
#define A12 416
#define A22 448

DATA skinOnes8<>+0(SB)/4, $1.0
DATA skinOnes8<>+4(SB)/4, $1.0
DATA skinOnes8<>+8(SB)/4, $1.0
DATA skinOnes8<>+12(SB)/4, $1.0
DATA skinOnes8<>+16(SB)/4, $1.0
DATA skinOnes8<>+20(SB)/4, $1.0
DATA skinOnes8<>+24(SB)/4, $1.0
DATA skinOnes8<>+28(SB)/4, $1.0
GLOBL skinOnes8<>(SB), RODATA|NOPTR, $32

DATA skinZero8<>+0(SB)/8, $0
DATA skinZero8<>+8(SB)/8, $0
DATA skinZero8<>+16(SB)/8, $0
DATA skinZero8<>+24(SB)/8, $0
GLOBL skinZero8<>(SB), RODATA|NOPTR, $32

DATA skinIdent8<>+0(SB)/4, $1.0
DATA skinIdent8<>+4(SB)/4, $0
DATA skinIdent8<>+8(SB)/4, $0
DATA skinIdent8<>+12(SB)/4, $0
DATA skinIdent8<>+16(SB)/4, $0
DATA skinIdent8<>+20(SB)/4, $1.0
DATA skinIdent8<>+24(SB)/4, $0
DATA skinIdent8<>+28(SB)/4, $0
DATA skinIdent8<>+32(SB)/4, $0
DATA skinIdent8<>+36(SB)/4, $0
DATA skinIdent8<>+40(SB)/4, $1.0
DATA skinIdent8<>+44(SB)/4, $0
DATA skinIdent8<>+48(SB)/4, $0
DATA skinIdent8<>+52(SB)/4, $0
DATA skinIdent8<>+56(SB)/4, $0
DATA skinIdent8<>+60(SB)/4, $1.0
GLOBL skinIdent8<>(SB), RODATA|NOPTR, $64

// IDX loads joint j's bone into r, leaves the group for bad if it is not
// in [0, n), and makes r three times the bone (a Vec3's index in floats).
#define IDX(j, r) \
	MOVLQSX (4*j)(R8), r \
	CMPQ    r, R11 \
	JAE     bad \
	LEAQ    (r)(r*2), r

// PAIR checks the bones of joints j0 and j1 and gathers their positions'
// and scales' x and y into the 128-bit pxy = (x0, y0, x1, y1) and sxy;
// ZFIRST then puts their z into lanes 0 and 1 of pz and sz (clearing the
// rest), ZSECOND into lanes 2 and 3. A Vec3 is read as 8 bytes and 4,
// never past its end.
#define PAIR(j0, j1, pxy, sxy) \
	IDX(j0, AX) \
	IDX(j1, DX) \
	VMOVSD  (SI)(AX*4), pxy \
	VMOVHPS (SI)(DX*4), pxy, pxy \
	VMOVSD  (CX)(AX*4), sxy \
	VMOVHPS (CX)(DX*4), sxy, sxy

#define ZFIRST(pz, sz) \
	VMOVSS     8(SI)(AX*4), pz \
	VINSERTPS  $0x10, 8(SI)(DX*4), pz, pz \
	VMOVSS     8(CX)(AX*4), sz \
	VINSERTPS  $0x10, 8(CX)(DX*4), sz, sz

#define ZSECOND(pz, sz) \
	VINSERTPS  $0x20, 8(SI)(AX*4), pz, pz \
	VINSERTPS  $0x30, 8(SI)(DX*4), pz, pz \
	VINSERTPS  $0x20, 8(CX)(AX*4), sz, sz \
	VINSERTPS  $0x30, 8(CX)(DX*4), sz, sz

// ROT loads the rotations (w, x, y, z) of joints j and j+4 into the two
// halves of y (bones already checked).
#define ROT(j, x, y) \
	MOVLQSX (4*j)(R8), AX \
	SHLQ    $4, AX \
	MOVLQSX (4*j+16)(R8), DX \
	SHLQ    $4, DX \
	VMOVUPS     (BX)(AX*1), x \
	VINSERTF128 $1, (BX)(DX*1), y, y

// COLUMN computes column c of the eight matrices, rows 0..2 into Y0, Y1,
// Y2: m_r = (a_r0·b_0c + a_r1·b_1c) + a_r2·b_2c, B's column c transposed
// from the eight inverse bind matrices (joint j at 64·j bytes).
#define COLUMN(c) \
	VMOVUPS     (16*c)(R9), X4 \
	VINSERTF128 $1, (256+16*c)(R9), Y4, Y4 \
	VMOVUPS     (64+16*c)(R9), X5 \
	VINSERTF128 $1, (320+16*c)(R9), Y5, Y5 \
	VMOVUPS     (128+16*c)(R9), X6 \
	VINSERTF128 $1, (384+16*c)(R9), Y6, Y6 \
	VMOVUPS     (192+16*c)(R9), X7 \
	VINSERTF128 $1, (448+16*c)(R9), Y7, Y7 \
	VUNPCKLPS   Y5, Y4, Y8 \
	VUNPCKHPS   Y5, Y4, Y9 \
	VUNPCKLPS   Y7, Y6, Y4 \
	VUNPCKHPS   Y7, Y6, Y5 \
	VUNPCKLPD   Y4, Y8, Y6 \
	VUNPCKHPD   Y4, Y8, Y7 \
	VUNPCKLPD   Y5, Y9, Y8 \
	VMULPS      (A00)(SP), Y6, Y0 \
	VMULPS      (A01)(SP), Y7, Y3 \
	VADDPS      Y3, Y0, Y0 \
	VMULPS      (A02)(SP), Y8, Y3 \
	VADDPS      Y3, Y0, Y0 \
	VMULPS      (A10)(SP), Y6, Y1 \
	VMULPS      (A11)(SP), Y7, Y3 \
	VADDPS      Y3, Y1, Y1 \
	VMULPS      (A12)(SP), Y8, Y3 \
	VADDPS      Y3, Y1, Y1 \
	VMULPS      (A20)(SP), Y6, Y2 \
	VMULPS      (A21)(SP), Y7, Y3 \
	VADDPS      Y3, Y2, Y2 \
	VMULPS      (A22)(SP), Y8, Y3 \
	VADDPS      Y3, Y2, Y2

// STORE transposes rows 0..2 in Y0, Y1, Y2 and row 3 (the vector at
// last) into column c of the eight matrices at DI.
#define STORE(c, last) \
	VUNPCKLPS    Y1, Y0, Y3 \
	VUNPCKHPS    Y1, Y0, Y4 \
	VUNPCKLPS    last, Y2, Y5 \
	VUNPCKHPS    last, Y2, Y6 \
	VUNPCKLPD    Y5, Y3, Y7 \
	VUNPCKHPD    Y5, Y3, Y8 \
	VUNPCKLPD    Y6, Y4, Y9 \
	VUNPCKHPD    Y6, Y4, Y3 \
	VMOVUPS      X7, (16*c)(DI) \
	VEXTRACTF128 $1, Y7, (256+16*c)(DI) \
	VMOVUPS      X8, (64+16*c)(DI) \
	VEXTRACTF128 $1, Y8, (320+16*c)(DI) \
	VMOVUPS      X9, (128+16*c)(DI) \
	VEXTRACTF128 $1, Y9, (384+16*c)(DI) \
	VMOVUPS      X3, (192+16*c)(DI) \
	VEXTRACTF128 $1, Y3, (448+16*c)(DI)

// func matricesAVX2(dst *mgl32.Mat4, pos *mgl32.Vec3, rot *mgl32.Quat, scale *mgl32.Vec3,
//	joints *int32, inv *mgl32.Mat4, m, n int) (bad, stop int)
TEXT ·matricesAVX2(SB), $480-80
	MOVQ dst+0(FP), DI
	MOVQ pos+8(FP), SI
	MOVQ rot+16(FP), BX
	MOVQ scale+24(FP), CX
	MOVQ joints+32(FP), R8
	MOVQ inv+40(FP), R9
	MOVQ m+48(FP), R10
	LEAQ (R8)(R10*4), R10
	MOVQ n+56(FP), R11
	XORQ R14, R14

loop:
	CMPQ R8, R10
	JAE  done

	// Positions and scales: (x, y) pairs and z lanes per half, then
	// x = lanes 0 and 2 of the pairs, y = lanes 1 and 3. Every bone is
	// checked here, before anything is written.
	PAIR(0, 1, X0, X3)
	ZFIRST(X2, X5)
	PAIR(2, 3, X1, X4)
	ZSECOND(X2, X5)
	PAIR(4, 5, X6, X9)
	ZFIRST(X8, X11)
	PAIR(6, 7, X7, X10)
	ZSECOND(X8, X11)
	VINSERTF128 $1, X6, Y0, Y0
	VINSERTF128 $1, X7, Y1, Y1
	VINSERTF128 $1, X8, Y2, Y2
	VINSERTF128 $1, X9, Y3, Y3
	VINSERTF128 $1, X10, Y4, Y4
	VINSERTF128 $1, X11, Y5, Y5
	VSHUFPS $0x88, Y1, Y0, Y6
	VSHUFPS $0xDD, Y1, Y0, Y7
	VMOVUPS Y6, PX(SP)
	VMOVUPS Y7, PY(SP)
	VMOVUPS Y2, PZ(SP)
	VSHUFPS $0x88, Y4, Y3, Y6
	VSHUFPS $0xDD, Y4, Y3, Y7
	VMOVUPS Y6, SX(SP)
	VMOVUPS Y7, SY(SP)
	VMOVUPS Y5, SZ(SP)

	// Rotations, transposed into w, x, y, z.
	ROT(0, X0, Y0)
	ROT(1, X1, Y1)
	ROT(2, X2, Y2)
	ROT(3, X3, Y3)
	VUNPCKLPS Y1, Y0, Y4 // w0 w1 x0 x1
	VUNPCKHPS Y1, Y0, Y5 // y0 y1 z0 z1
	VUNPCKLPS Y3, Y2, Y6
	VUNPCKHPS Y3, Y2, Y7
	VUNPCKLPD Y6, Y4, Y0 // w
	VUNPCKHPD Y6, Y4, Y1 // x
	VUNPCKLPD Y7, Y5, Y2 // y
	VUNPCKHPD Y7, Y5, Y3 // z

	// The products of matricesGo, then A column by column.
	VADDPS Y1, Y1, Y4   // x2
	VADDPS Y2, Y2, Y5   // y2
	VADDPS Y3, Y3, Y6   // z2
	VMULPS Y4, Y1, Y7   // xx
	VMULPS Y5, Y2, Y8   // yy
	VMULPS Y6, Y3, Y9   // zz
	VMULPS Y5, Y1, Y10  // xy
	VMULPS Y6, Y1, Y11  // xz
	VMULPS Y6, Y2, Y12  // yz
	VMULPS Y4, Y0, Y13  // wx
	VMULPS Y5, Y0, Y14  // wy
	VMULPS Y6, Y0, Y15  // wz
	VMOVUPS skinOnes8<>(SB), Y0

	VADDPS Y9, Y8, Y1   // yy+zz
	VSUBPS Y1, Y0, Y1   // 1-(yy+zz)
	VMULPS SX(SP), Y1, Y1
	VMOVUPS Y1, A00(SP)
	VADDPS Y15, Y10, Y1 // xy+wz
	VMULPS SX(SP), Y1, Y1
	VMOVUPS Y1, A10(SP)
	VSUBPS Y14, Y11, Y1 // xz-wy
	VMULPS SX(SP), Y1, Y1
	VMOVUPS Y1, A20(SP)

	VSUBPS Y15, Y10, Y1 // xy-wz
	VMULPS SY(SP), Y1, Y1
	VMOVUPS Y1, A01(SP)
	VADDPS Y9, Y7, Y1   // xx+zz
	VSUBPS Y1, Y0, Y1
	VMULPS SY(SP), Y1, Y1
	VMOVUPS Y1, A11(SP)
	VADDPS Y13, Y12, Y1 // yz+wx
	VMULPS SY(SP), Y1, Y1
	VMOVUPS Y1, A21(SP)

	VADDPS Y14, Y11, Y1 // xz+wy
	VMULPS SZ(SP), Y1, Y1
	VMOVUPS Y1, A02(SP)
	VSUBPS Y13, Y12, Y1 // yz-wx
	VMULPS SZ(SP), Y1, Y1
	VMOVUPS Y1, A12(SP)
	VADDPS Y8, Y7, Y1   // xx+yy
	VSUBPS Y1, Y0, Y1
	VMULPS SZ(SP), Y1, Y1
	VMOVUPS Y1, A22(SP)

	// M = W·B column by column, written as it comes; Y10..Y12 keep
	// column 0's rows, then (m0 + m4) per row, Y13..Y15 column 2's.
	COLUMN(0)
	VMOVAPS Y0, Y10
	VMOVAPS Y1, Y11
	VMOVAPS Y2, Y12
	STORE(0, skinZero8<>(SB))
	COLUMN(1)
	VADDPS Y0, Y10, Y10
	VADDPS Y1, Y11, Y11
	VADDPS Y2, Y12, Y12
	STORE(1, skinZero8<>(SB))
	COLUMN(2)
	VMOVAPS Y0, Y13
	VMOVAPS Y1, Y14
	VMOVAPS Y2, Y15
	STORE(2, skinZero8<>(SB))
	COLUMN(3)
	VADDPS PX(SP), Y0, Y0
	VADDPS PY(SP), Y1, Y1
	VADDPS PZ(SP), Y2, Y2
	VADDPS Y0, Y13, Y13
	VADDPS Y1, Y14, Y14
	VADDPS Y2, Y15, Y15
	STORE(3, skinOnes8<>(SB))

	// r = (m0 + m4) + (m8 + m12) per row; r - r is 0 unless an entry is
	// not finite (or the sum overflows), NaN otherwise, and a sum of
	// such is NaN when one is.
	VADDPS Y13, Y10, Y10
	VADDPS Y14, Y11, Y11
	VADDPS Y15, Y12, Y12
	VSUBPS Y10, Y10, Y10
	VSUBPS Y11, Y11, Y11
	VSUBPS Y12, Y12, Y12
	VADDPS Y11, Y10, Y10
	VADDPS Y12, Y10, Y10
	VCMPPS $3, Y10, Y10, Y10 // unordered
	VMOVMSKPS Y10, AX
	TESTQ AX, AX
	JNZ   ident

next:
	ADDQ $32, R8
	ADDQ $512, R9
	ADDQ $512, DI
	JMP  loop

	// Joint j of the group (bit j of AX, lane j) gets the identity.
ident:
	VMOVUPS skinIdent8<>+0(SB), X4
	VMOVUPS skinIdent8<>+16(SB), X5
	VMOVUPS skinIdent8<>+32(SB), X6
	VMOVUPS skinIdent8<>+48(SB), X7

identNext:
	BSFQ    AX, DX
	SHLQ    $6, DX
	VMOVUPS X4, (DI)(DX*1)
	VMOVUPS X5, 16(DI)(DX*1)
	VMOVUPS X6, 32(DI)(DX*1)
	VMOVUPS X7, 48(DI)(DX*1)
	INCQ    R14
	LEAQ    -1(AX), DX
	ANDQ    DX, AX
	JNZ     identNext
	JMP     next

bad:
	VZEROUPPER
	MOVQ R14, bad+64(FP)
	MOVQ R8, R13
	SUBQ joints+32(FP), R13
	SHRQ $2, R13
	MOVQ R13, stop+72(FP)
	RET

done:
	VZEROUPPER
	MOVQ R14, bad+64(FP)
	MOVQ $-1, stop+72(FP)
	RET
