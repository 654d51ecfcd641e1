// Macros of the AVX2 kernels (vrm_stagea_amd64.s, vrm_stageb_amd64.s).
// TRANSPOSE is also in the other packages' kernels: the assembler reads
// headers from a package's own directory only.
//
// Stage A and B of the VRM fast path for the eight slots of a quad, one
// slot per lane of a YMM register. Each is the scalar stageA1 / stageB1
// (vrm_fast.go) with every operation in the same order, so the results
// are the same bits; comments name the Go expression a block computes.
// Three-operand forms keep the operand order of the scalar code: "VOP b,
// a, d" is d = a OP b. No FMA: the Go code rounds every product.
//
// Per slot data come in rows (one slot's fields, loaded 16 or 12 bytes at
// a time). Before any 256-bit instruction, SSE transposes them four slots
// at a time into columns of quad.spill, eight slots each, which the YMM
// code loads whole; results go back the same way after VZEROUPPER. The
// quad's own arrays are columns already.

// TRANSPOSE turns rows r0..r3 (slots 0..3) into columns, or columns into
// rows: afterwards r1, t1, r3, r2 hold element 0, 1, 2, 3 of every row.
#define TRANSPOSE(r0, r1, r2, r3, t0, t1) \
	MOVAPS   r0, t0; \
	UNPCKLPS r1, t0; \
	UNPCKHPS r1, r0; \
	MOVAPS   r2, t1; \
	UNPCKLPS r3, t1; \
	UNPCKHPS r3, r2; \
	MOVAPS   t0, r1; \
	MOVLHPS  t1, r1; \
	MOVHLPS  t0, t1; \
	MOVAPS   r0, r3; \
	MOVLHPS  r2, r3; \
	MOVHLPS  r0, r2

// LOADV3 sets x to (v.x, v.y, v.z, 0) for the mgl32.Vec3 at p: 12 bytes,
// since reading 16 could leave the slice's memory.
#define LOADV3(p, x, t) \
	MOVSD   (p), x; \
	MOVSS   8(p), t; \
	MOVLHPS t, x

// STOREV3 stores the first three elements of x to the mgl32.Vec3 at p.
#define STOREV3(x, p, t) \
	MOVSD   x, (p); \
	MOVHLPS x, t; \
	MOVSS   t, 8(p)

// MOVEV3 loads the mgl32.Vec3 at src into x, as LOADV3, and stores it to
// dst: *prev = *cur as stage A reads the current tail.
#define MOVEV3(src, dst, x, t) \
	MOVSD   (src), x; \
	MOVSS   8(src), t; \
	MOVSD   x, (dst); \
	MOVSS   t, 8(dst); \
	MOVLHPS t, x

// Columns of quad.spill (32 bytes: eight slots), loaded or stored half
// at a time at byte h = 0 (slots 0-3) or 16 (slots 4-7). Stage A: the
// joints' rest axis and length, their settings rows, the previous and
// current tails; the collider pass's masks. Stage B: r, the rest
// rotations, and the outputs (local rotation, tail).
#define SP_RAX quad_spill+32*0
#define SP_RAY quad_spill+32*1
#define SP_RAZ quad_spill+32*2
#define SP_LEN quad_spill+32*3
#define SP_STF quad_spill+32*4
#define SP_FRC quad_spill+32*5
#define SP_HIT quad_spill+32*6
#define SP_GX quad_spill+32*7
#define SP_GY quad_spill+32*8
#define SP_GZ quad_spill+32*9
#define SP_KEEP quad_spill+32*10
#define SP_PX quad_spill+32*11
#define SP_PY quad_spill+32*12
#define SP_PZ quad_spill+32*13
#define SP_CX quad_spill+32*14
#define SP_CY quad_spill+32*15
#define SP_CZ quad_spill+32*16
#define SP_PASS quad_spill+32*17
#define SP_BOUND quad_spill+32*18
#define SP_RW quad_spill+32*0
#define SP_RX quad_spill+32*1
#define SP_RY quad_spill+32*2
#define SP_RZ quad_spill+32*3
#define SP_LRW quad_spill+32*4
#define SP_LRX quad_spill+32*5
#define SP_LRY quad_spill+32*6
#define SP_LRZ quad_spill+32*7
#define SP_OW quad_spill+32*8
#define SP_OX quad_spill+32*9
#define SP_OY quad_spill+32*10
#define SP_OZ quad_spill+32*11
#define SP_TX quad_spill+32*12
#define SP_TY quad_spill+32*13
#define SP_TZ quad_spill+32*14

// PTRS4 sets R8..R11 to the records of slots s0..s3 with the pointer
// macro P (JOINTPTR, SETPTR, ...).
#define PTRS4(P, s0, s1, s2, s3) \
	P(s0, R8); \
	P(s1, R9); \
	P(s2, R10); \
	P(s3, R11)

// ROWS4 loads the 16-byte rows at offset field of the records R8..R11
// point to and transposes them: X1, X5, X3, X2 hold their elements 0..3.
#define ROWS4(field) \
	MOVUPS field(R8), X0; \
	MOVUPS field(R9), X1; \
	MOVUPS field(R10), X2; \
	MOVUPS field(R11), X3; \
	TRANSPOSE(X0, X1, X2, X3, X4, X5)

// COLS stores rows r0..r3, transposed by TRANSPOSE(r0, r1, r2, r3, t0,
// t1), as the half h of columns c0..c3 (element 0..3 of the rows).
#define COLS(r1, t1, r3, r2, c0, c1, c2, c3, h) \
	MOVUPS r1, (c0+h)(DI); \
	MOVUPS t1, (c1+h)(DI); \
	MOVUPS r3, (c2+h)(DI); \
	MOVUPS r2, (c3+h)(DI)

// Slot pointers. Slot s's data are the slices q.joints[s], q.cur[s],
// q.prev[s] and q.dst[s]; it has a joint at i (CX) when i <
// len(q.joints[s]), whatever the other slices' lengths. The scaled index
// is in DX (joints: i*vrmJoint__size) or AX (tails: i*12, outputs: i*16).
// A slot without a joint reads idle data (R12, R13) and stores to q.sink
// (SI); nothing else is ever dereferenced for it. The ...FULL forms serve
// a full quad, where every slot has a joint at i.
#define JOINTPTRFULL(s, r) \
	MOVQ    (quad_joints+24*s)(DI), r; \
	ADDQ    DX, r

#define JOINTPTR(s, r) \
	MOVQ    (quad_joints+24*s)(DI), r; \
	ADDQ    DX, r; \
	CMPQ    CX, (quad_joints+24*s+8)(DI); \
	CMOVQGE R12, r

// SETPTR sets r to slot s's settings row at joint i (CX): q.sets[s] plus
// i*q.sstep[s], or the idle row (BX) past its spring.
#define SETPTR(s, r) \
	MOVQ    (quad_sstep+8*s)(DI), r; \
	IMULQ   CX, r; \
	ADDQ    (quad_sets+24*s)(DI), r; \
	CMPQ    CX, (quad_joints+24*s+8)(DI); \
	CMOVQGE BX, r

#define LOADPTRFULL(field, s, r) \
	MOVQ    (field+24*s)(DI), r; \
	ADDQ    AX, r

#define STOREPTRFULL(field, s, r) \
	MOVQ    (field+24*s)(DI), r; \
	ADDQ    AX, r

#define LOADPTR(field, s, r) \
	MOVQ    (field+24*s)(DI), r; \
	ADDQ    AX, r; \
	CMPQ    CX, (quad_joints+24*s+8)(DI); \
	CMOVQGE R13, r

#define STOREPTR(field, s, r) \
	MOVQ    (field+24*s)(DI), r; \
	ADDQ    AX, r; \
	CMPQ    CX, (quad_joints+24*s+8)(DI); \
	CMOVQGE SI, r

// SLOTS loads the slot pointers' common registers: CX = i, DX, R12, R13, SI.
#define SLOTS \
	MOVQ    i+8(FP), CX; \
	IMUL3Q  $vrmJoint__size, CX, DX; \
	LEAQ    ·idleJoint(SB), R12; \
	LEAQ    ·idleVec(SB), R13; \
	LEAQ    quad_sink(DI), SI

// VROT sets v to q.rot(v): t = q.rotT(v), v = q.rotFin(v, t).
#define VROT(qx, qy, qz, qw, vx, vy, vz, tx, ty, tz, s0, s1) \
	VMULPS vz, qy, tx; VMULPS vy, qz, s0; VSUBPS s0, tx, tx; VADDPS tx, tx, tx; \
	VMULPS vx, qz, ty; VMULPS vz, qx, s0; VSUBPS s0, ty, ty; VADDPS ty, ty, ty; \
	VMULPS vy, qx, tz; VMULPS vx, qy, s0; VSUBPS s0, tz, tz; VADDPS tz, tz, tz; \
	VMULPS tx, qw, s0; VADDPS s0, vx, vx; \
	VMULPS tz, qy, s0; VMULPS ty, qz, s1; VSUBPS s1, s0, s0; VADDPS s0, vx, vx; \
	VMULPS ty, qw, s0; VADDPS s0, vy, vy; \
	VMULPS tx, qz, s0; VMULPS tz, qx, s1; VSUBPS s1, s0, s0; VADDPS s0, vy, vy; \
	VMULPS tz, qw, s0; VADDPS s0, vz, vz; \
	VMULPS ty, qx, s0; VMULPS tx, qy, s1; VSUBPS s1, s0, s0; VADDPS s0, vz, vz

// VQMUL sets o to the Hamilton product a*b: a.mulW(b), a.mulX(b), ....
#define VQMUL(aw, ax, ay, az, bw, bx, by, bz, ow, ox, oy, oz, t) \
	VMULPS bw, aw, ow; VMULPS bx, ax, t; VSUBPS t, ow, ow; VMULPS by, ay, t; VSUBPS t, ow, ow; VMULPS bz, az, t; VSUBPS t, ow, ow; \
	VMULPS bx, aw, ox; VMULPS bw, ax, t; VADDPS t, ox, ox; VMULPS bz, ay, t; VADDPS t, ox, ox; VMULPS by, az, t; VSUBPS t, ox, ox; \
	VMULPS by, aw, oy; VMULPS bw, ay, t; VADDPS t, oy, oy; VMULPS bx, az, t; VADDPS t, oy, oy; VMULPS bz, ax, t; VSUBPS t, oy, oy; \
	VMULPS bz, aw, oz; VMULPS bw, az, t; VADDPS t, oz, oz; VMULPS by, ax, t; VADDPS t, oz, oz; VMULPS bx, ay, t; VSUBPS t, oz, oz

// VDOT3 sets o to (ax*bx + ay*by) + az*bz; t is clobbered.
#define VDOT3(ax, ay, az, bx, by, bz, o, t) \
	VMULPS bx, ax, o; VMULPS by, ay, t; VADDPS t, o, o; VMULPS bz, az, t; VADDPS t, o, o

// SEL sets d to a where mask m is set, b elsewhere: the masks come from
// compares, all ones or all zeros per lane.
#define SEL(m, a, b, d) VBLENDVPS m, a, b, d
