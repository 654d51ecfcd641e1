// Macros of the package's SSE kernels (quad_amd64.s, quadapply_amd64.s).
// TRANSPOSE is also in the other packages' kernels: the assembler reads
// headers from a package's own directory only.

// TRANSPOSE turns rows r0..r3 (lanes 0..3) into columns: afterwards r1,
// t1, r3, r2 hold element 0, 1, 2, 3 of every row.
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

// LOADV3I and STOREV3I are LOADV3 and STOREV3 at p+i.
#define LOADV3I(p, i, x, t) \
	MOVSD   (p)(i*1), x; \
	MOVSS   8(p)(i*1), t; \
	MOVLHPS t, x

#define STOREV3I(x, p, i, t) \
	MOVSD   x, (p)(i*1); \
	MOVHLPS x, t; \
	MOVSS   t, 8(p)(i*1)

// SPLAT defines name<>, 16 bytes of read-only data: the float32 of the
// given bits in every lane.
#define SPLAT(name, bits) \
	DATA name<>+0(SB)/4, $bits; \
	DATA name<>+4(SB)/4, $bits; \
	DATA name<>+8(SB)/4, $bits; \
	DATA name<>+12(SB)/4, $bits; \
	GLOBL name<>(SB), RODATA|NOPTR, $16

// SPLAT8 is SPLAT for 32 bytes, for the AVX kernels.
#define SPLAT8(name, bits) \
	DATA name<>+0(SB)/4, $bits; \
	DATA name<>+4(SB)/4, $bits; \
	DATA name<>+8(SB)/4, $bits; \
	DATA name<>+12(SB)/4, $bits; \
	DATA name<>+16(SB)/4, $bits; \
	DATA name<>+20(SB)/4, $bits; \
	DATA name<>+24(SB)/4, $bits; \
	DATA name<>+28(SB)/4, $bits; \
	GLOBL name<>(SB), RODATA|NOPTR, $32
