// Macros of the SSE kernels (vrm_stagea_amd64.s, vrm_stageb_amd64.s).
// TRANSPOSE is also in the other packages' kernels: the assembler reads
// headers from a package's own directory only.
//
// Stage A and B of the VRM fast path for the four slots of a quad, one
// slot per SSE lane. Each is the scalar stageA1 / stageB1 (vrm_fast.go)
// with every operation in the same order, so the results are the same
// bits; comments name the Go expression a block computes. Only SSE2 is
// used: every amd64 processor has it.
//
// Per slot data come in rows (one slot's fields, loaded 16 or 12 bytes at
// a time) and are transposed to columns (one field of the four slots);
// results go back the same way. The quad's own arrays are columns already.

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

// Slot pointers. Slot s's data are the slices q.joints[s], q.cur[s],
// q.prev[s] and q.dst[s]; it has a joint at i (CX) when i <
// len(q.joints[s]), whatever the other slices' lengths. The scaled index
// is in DX (joints: i*vrmJoint__size) or AX (tails: i*12, outputs: i*16).
// A slot without a joint reads idle data (R12, R13) and stores to q.sink
// (SI); nothing else is ever dereferenced for it.
// JOINTPTRFULL is JOINTPTR for a full quad: every slot has a joint.
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

// LOADPTRFULL and STOREPTRFULL are LOADPTR and STOREPTR for a full quad,
// where every slot has a joint at i.
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

// ROT sets v to q.rot(v): t = q.rotT(v), v = q.rotFin(v, t).
#define ROT(qx, qy, qz, qw, vx, vy, vz, tx, ty, tz, s0, s1) \
	MOVAPS qy, tx; MULPS vz, tx; MOVAPS qz, s0; MULPS vy, s0; SUBPS s0, tx; ADDPS tx, tx; \
	MOVAPS qz, ty; MULPS vx, ty; MOVAPS qx, s0; MULPS vz, s0; SUBPS s0, ty; ADDPS ty, ty; \
	MOVAPS qx, tz; MULPS vy, tz; MOVAPS qy, s0; MULPS vx, s0; SUBPS s0, tz; ADDPS tz, tz; \
	MOVAPS qw, s0; MULPS tx, s0; ADDPS s0, vx; \
	MOVAPS qy, s0; MULPS tz, s0; MOVAPS qz, s1; MULPS ty, s1; SUBPS s1, s0; ADDPS s0, vx; \
	MOVAPS qw, s0; MULPS ty, s0; ADDPS s0, vy; \
	MOVAPS qz, s0; MULPS tx, s0; MOVAPS qx, s1; MULPS tz, s1; SUBPS s1, s0; ADDPS s0, vy; \
	MOVAPS qw, s0; MULPS tz, s0; ADDPS s0, vz; \
	MOVAPS qx, s0; MULPS ty, s0; MOVAPS qy, s1; MULPS tx, s1; SUBPS s1, s0; ADDPS s0, vz

// QMUL sets o to the Hamilton product a*b: a.mulW(b), a.mulX(b), ....
#define QMUL(aw, ax, ay, az, bw, bx, by, bz, ow, ox, oy, oz, t) \
	MOVAPS aw, ow; MULPS bw, ow; MOVAPS ax, t; MULPS bx, t; SUBPS t, ow; MOVAPS ay, t; MULPS by, t; SUBPS t, ow; MOVAPS az, t; MULPS bz, t; SUBPS t, ow; \
	MOVAPS aw, ox; MULPS bx, ox; MOVAPS ax, t; MULPS bw, t; ADDPS t, ox; MOVAPS ay, t; MULPS bz, t; ADDPS t, ox; MOVAPS az, t; MULPS by, t; SUBPS t, ox; \
	MOVAPS aw, oy; MULPS by, oy; MOVAPS ay, t; MULPS bw, t; ADDPS t, oy; MOVAPS az, t; MULPS bx, t; ADDPS t, oy; MOVAPS ax, t; MULPS bz, t; SUBPS t, oy; \
	MOVAPS aw, oz; MULPS bz, oz; MOVAPS az, t; MULPS bw, t; ADDPS t, oz; MOVAPS ax, t; MULPS by, t; ADDPS t, oz; MOVAPS ay, t; MULPS bx, t; SUBPS t, oz

// collide.Shape, checked by vrm_layout.go.
#define shape_kind 0
#define shape_bound 1
#define shape_a 4
#define shape_b 16
#define shape_ra 28
#define shape_rb 32
#define shape_n 36
#define shape_size 48

// BCAST sets x to the float32 at m in every element.
#define BCAST(m, x) \
	MOVSS  m, x; \
	SHUFPS $0, x, x

// DOT3 sets o to (ax*bx + ay*by) + az*bz; t is clobbered.
#define DOT3(ax, ay, az, bx, by, bz, o, t) \
	MOVAPS ax, o; MULPS bx, o; MOVAPS ay, t; MULPS by, t; ADDPS t, o; MOVAPS az, t; MULPS bz, t; ADDPS t, o
