package skin

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/components"
)

// near reports whether every entry of a and b differs by at most tol.
func near(a, b mgl32.Mat4, tol float32) bool {
	for i := range a {
		if d := a[i] - b[i]; d > tol || d < -tol {
			return false
		}
	}
	return true
}

// rotZ is a turn of deg degrees about +Z.
func rotZ(deg float32) mgl32.Quat {
	return mgl32.QuatRotate(mgl32.DegToRad(deg), mgl32.Vec3{0, 0, 1})
}

// A two-bone arm along +X: the shoulder at (1, 0, 0), the elbow at
// (2, 0, 0), the forearm one metre long. Posed, the elbow is bent 90°
// about +Z and the forearm scaled 2 along its own X. The skin lists the
// forearm first.
func TestArmBent90Scaled(t *testing.T) {
	one := mgl32.Vec3{1, 1, 1}
	ibShoulder, ok1 := InverseOf(mgl32.Vec3{1, 0, 0}, mgl32.QuatIdent(), one)
	ibElbow, ok2 := InverseOf(mgl32.Vec3{2, 0, 0}, mgl32.QuatIdent(), one)
	if !ok1 || !ok2 {
		t.Fatal("InverseOf failed")
	}
	// The inverse of a translation is the opposite translation.
	if want := mgl32.Translate3D(-2, 0, 0); ibElbow != want {
		t.Fatalf("elbow inverse bind = %v, want %v", ibElbow, want)
	}
	job := Job{
		Pos:     []mgl32.Vec3{{1, 0, 0}, {2, 0, 0}},
		Rot:     []mgl32.Quat{mgl32.QuatIdent(), rotZ(90)},
		Scale:   []mgl32.Vec3{one, {2, 1, 1}},
		Joints:  []int32{1, 0},
		InvBind: []mgl32.Mat4{ibElbow, ibShoulder},
	}
	if err := job.Validate(); err != nil {
		t.Fatal(err)
	}
	dst := make([]mgl32.Mat4, 2)
	if bad := Matrices(dst, &job); bad != 0 {
		t.Fatalf("%d joints replaced", bad)
	}
	// Forearm: T(2,0,0)·Rz(90)·S(2,1,1)·T(-2,0,0). Rz(90)'s columns are
	// (0,1,0), (-1,0,0), (0,0,1); the first scaled by 2 gives (0,2,0).
	// Translation: A·(-2,0,0) + (2,0,0) = (0,-4,0) + (2,0,0) = (2,-4,0).
	forearm := mgl32.Mat4{
		0, 2, 0, 0,
		-1, 0, 0, 0,
		0, 0, 1, 0,
		2, -4, 0, 1,
	}
	if !near(dst[0], forearm, 1e-6) {
		t.Errorf("forearm matrix = %v, want %v", dst[0], forearm)
	}
	// The wrist's rest position (3,0,0) goes to the elbow plus 2 m up.
	if got := dst[0].Mul4x1(mgl32.Vec4{3, 0, 0, 1}); !got.Vec3().ApproxEqualThreshold(mgl32.Vec3{2, 2, 0}, 1e-6) {
		t.Errorf("wrist at %v, want (2, 2, 0)", got)
	}
	// Shoulder: not moved from its bind pose, the identity.
	if !near(dst[1], mgl32.Ident4(), 1e-6) {
		t.Errorf("shoulder matrix = %v, want the identity", dst[1])
	}
}

// randomTransform is a transform with position within ±2 m, any unit
// rotation and scale 0.5..2 per axis.
func randomTransform(r *rand.Rand) components.Transform {
	q := mgl32.Quat{W: r.Float32()*2 - 1, V: mgl32.Vec3{r.Float32()*2 - 1, r.Float32()*2 - 1, r.Float32()*2 - 1}}.Normalize()
	v := func(lo, hi float32) mgl32.Vec3 {
		return mgl32.Vec3{lo + (hi-lo)*r.Float32(), lo + (hi-lo)*r.Float32(), lo + (hi-lo)*r.Float32()}
	}
	return components.Transform{Pos: v(-2, 2), Rot: q, Scale: v(0.5, 2)}
}

// randomJob is a job of n bones with random world transforms and k
// joints on random bones, each with the inverse bind matrix of another
// random transform.
func randomJob(r *rand.Rand, bones, joints int) Job {
	var j Job
	for range bones {
		tr := randomTransform(r)
		j.Pos, j.Rot, j.Scale = append(j.Pos, tr.Pos), append(j.Rot, tr.Rot), append(j.Scale, tr.Scale)
	}
	for range joints {
		j.Joints = append(j.Joints, int32(r.IntN(bones)))
		tr := randomTransform(r)
		ib, ok := InverseOf(tr.Pos, tr.Rot, tr.Scale)
		if !ok {
			panic("InverseOf")
		}
		j.InvBind = append(j.InvBind, ib)
	}
	return j
}

// reference is the skinning matrix in float64, plain: the world matrix
// built entry by entry from the quaternion, times the inverse bind
// matrix as a full 4×4 product. It also returns, per entry, the sum of
// the absolute values of the terms, to scale the float32 tolerance.
func reference(p mgl32.Vec3, q mgl32.Quat, s mgl32.Vec3, b mgl32.Mat4) (m, mag [16]float64) {
	w, x, y, z := float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])
	rot := [3][3]float64{ // [row][col]
		{1 - 2*y*y - 2*z*z, 2*x*y - 2*w*z, 2*x*z + 2*w*y},
		{2*x*y + 2*w*z, 1 - 2*x*x - 2*z*z, 2*y*z - 2*w*x},
		{2*x*z - 2*w*y, 2*y*z + 2*w*x, 1 - 2*x*x - 2*y*y},
	}
	var wm [4][4]float64 // [row][col]
	for r := range 3 {
		for c := range 3 {
			wm[r][c] = rot[r][c] * float64(s[c])
		}
		wm[r][3] = float64(p[r])
	}
	wm[3][3] = 1
	for r := range 4 {
		for c := range 4 {
			for k := range 4 {
				v := wm[r][k] * float64(b[4*c+k])
				m[4*c+r] += v
				mag[4*c+r] += math.Abs(v)
			}
		}
	}
	return m, mag
}

func TestMatchesFloat64Reference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		j := randomJob(r, 20, 30)
		dst := make([]mgl32.Mat4, len(j.Joints))
		if bad := Matrices(dst, &j); bad != 0 {
			t.Fatalf("trial %d: %d joints replaced", trial, bad)
		}
		for k, b := range j.Joints {
			want, mag := reference(j.Pos[b], j.Rot[b], j.Scale[b], j.InvBind[k])
			for i := range 16 {
				// A few float32 roundings of terms of at most mag.
				tol := 8 * 6e-8 * (mag[i] + 1)
				if d := math.Abs(float64(dst[k][i]) - want[i]); d > tol {
					t.Fatalf("trial %d joint %d entry %d: %g, reference %g (off %g, tolerance %g)", trial, k, i, dst[k][i], want[i], d, tol)
				}
			}
		}
	}
}

// At the rest pose, with the inverse bind matrices of the rest pose, every
// skinning matrix is the identity within float32 rounding.
func TestRestPoseIsIdentity(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var j Job
	for b := range 50 {
		tr := randomTransform(r)
		tr.Pos = tr.Pos.Mul(5) // up to 10 m from the origin
		j.Pos, j.Rot, j.Scale = append(j.Pos, tr.Pos), append(j.Rot, tr.Rot), append(j.Scale, tr.Scale)
		ib, ok := InverseOf(tr.Pos, tr.Rot, tr.Scale)
		if !ok {
			t.Fatal("InverseOf")
		}
		j.Joints, j.InvBind = append(j.Joints, int32(b)), append(j.InvBind, ib)
	}
	dst := make([]mgl32.Mat4, len(j.Joints))
	Matrices(dst, &j)
	for k, m := range dst {
		// Entries of magnitude up to 2·10 (scale times distance) rounded.
		if !near(m, mgl32.Ident4(), 1e-5) {
			t.Errorf("joint %d: %v, want the identity", k, m)
		}
	}
}

func TestInverseOfInvertsMat4(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		tr := randomTransform(r)
		ib, ok := InverseOf(tr.Pos, tr.Rot, tr.Scale)
		if !ok {
			t.Fatal("InverseOf")
		}
		if p := InverseBindProblem(ib); p != "" {
			t.Fatalf("InverseOf gave an unusable matrix: %s", p)
		}
		if m := tr.Mat4().Mul4(ib); !near(m, mgl32.Ident4(), 2e-6) {
			t.Fatalf("Mat4·InverseOf = %v", m)
		}
	}
}

func TestInverseOfRejectsZeroScale(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct {
		name string
		p    mgl32.Vec3
		q    mgl32.Quat
		s    mgl32.Vec3
	}{
		{"zero scale", mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{1, 0, 1}},
		{"NaN scale", mgl32.Vec3{}, mgl32.QuatIdent(), mgl32.Vec3{1, nan, 1}},
		{"NaN position", mgl32.Vec3{nan, 0, 0}, mgl32.QuatIdent(), mgl32.Vec3{1, 1, 1}},
		{"zero rotation", mgl32.Vec3{}, mgl32.Quat{}, mgl32.Vec3{1, 1, 1}},
	} {
		if _, ok := InverseOf(c.p, c.q, c.s); ok {
			t.Errorf("%s: InverseOf succeeded", c.name)
		}
	}
}

// The flat form is the matrix form bit for bit, non-finite joints
// included.
func TestFloatsEqualMatricesBitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 50 {
		j := randomJob(r, 30, 40)
		if trial%2 == 1 {
			j.Pos[r.IntN(30)][1] = float32(math.Inf(1))
		}
		mats := make([]mgl32.Mat4, len(j.Joints))
		flat := make([]float32, 16*len(j.Joints)+3) // room past the end is left alone
		for i := range flat {
			flat[i] = -7
		}
		b1, b2 := Matrices(mats, &j), Floats(flat, &j)
		if b1 != b2 {
			t.Fatalf("trial %d: %d and %d joints replaced", trial, b1, b2)
		}
		for k, m := range mats {
			for i := range 16 {
				if math.Float32bits(m[i]) != math.Float32bits(flat[16*k+i]) {
					t.Fatalf("trial %d joint %d entry %d: %g and %g", trial, k, i, m[i], flat[16*k+i])
				}
			}
		}
		for _, v := range flat[16*len(j.Joints):] {
			if v != -7 {
				t.Fatal("Floats wrote past its joints")
			}
		}
	}
}

func TestNonFiniteJointGetsIdentity(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	r := rand.New(rand.NewPCG(9, 10))
	j := randomJob(r, 5, 5)
	j.Joints = []int32{0, 1, 2, 3, 4}
	j.Pos[0][2] = nan
	j.Rot[1].V[0] = inf
	j.Scale[2][1] = -inf
	j.Scale[3] = mgl32.Vec3{3e38, 3e38, 3e38} // finite, but the product overflows
	dst := make([]mgl32.Mat4, 5)
	if bad := Matrices(dst, &j); bad != 4 {
		t.Fatalf("%d joints replaced, want 4", bad)
	}
	for k := range 4 {
		if dst[k] != mgl32.Ident4() {
			t.Errorf("joint %d: %v, want the identity", k, dst[k])
		}
	}
	for i, v := range dst[4] {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("joint 4 entry %d = %g", i, v)
		}
	}
}

func TestZeroJoints(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	j := randomJob(r, 3, 0)
	if err := j.Validate(); err != nil {
		t.Fatal(err)
	}
	if Matrices(nil, &j) != 0 || Floats(nil, &j) != 0 {
		t.Fatal("zero joints replaced some")
	}
	dst := []mgl32.Mat4{{1}}
	Matrices(dst, &j)
	if dst[0] != (mgl32.Mat4{1}) {
		t.Fatal("zero joints wrote a matrix")
	}
}

func TestValidateRejects(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, c := range []struct {
		name string
		edit func(j *Job)
	}{
		{"joint out of range", func(j *Job) { j.Joints[1] = 4 }},
		{"negative joint", func(j *Job) { j.Joints[0] = -1 }},
		{"fewer matrices", func(j *Job) { j.InvBind = j.InvBind[:2] }},
		{"short rotations", func(j *Job) { j.Rot = j.Rot[:3] }},
		{"NaN matrix", func(j *Job) { j.InvBind[2][5] = float32(math.NaN()) }},
		{"projective row", func(j *Job) { j.InvBind[0][3] = 0.5 }},
		{"singular", func(j *Job) { j.InvBind[1][0], j.InvBind[1][1], j.InvBind[1][2] = 0, 0, 0 }},
		{"flat", func(j *Job) {
			j.InvBind[1] = mgl32.Mat4{1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1e-8, 0, 0, 0, 0, 1}
		}},
	} {
		j := randomJob(r, 4, 3)
		if err := j.Validate(); err != nil {
			t.Fatalf("%s: the job before the edit: %v", c.name, err)
		}
		c.edit(&j)
		if err := j.Validate(); err == nil {
			t.Errorf("%s: Validate accepted it", c.name)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	// Within the tolerance the last row passes; a tiny but orthogonal
	// scale is not singular.
	m := mgl32.Scale3D(1e-4, 1e4, 1)
	m[3], m[15] = 1e-6, 1+1e-6
	if p := InverseBindProblem(m); p != "" {
		t.Errorf("InverseBindProblem(%v) = %q", m, p)
	}
}

func TestAsMat4(t *testing.T) {
	if AsMat4(make([]float32, 15)) != nil {
		t.Error("AsMat4 of 15 values is not nil")
	}
	f := make([]float32, 33)
	m := AsMat4(f)
	if len(m) != 2 {
		t.Fatalf("len = %d, want 2", len(m))
	}
	m[1][15] = 5
	if f[31] != 5 {
		t.Error("AsMat4 does not share the slice's memory")
	}
}

func TestNoAllocations(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	j := randomJob(r, 85, 85)
	mats := make([]mgl32.Mat4, 85)
	flat := make([]float32, 16*85)
	if n := testing.AllocsPerRun(100, func() { Matrices(mats, &j); Floats(flat, &j) }); n != 0 {
		t.Fatalf("%v allocations per run", n)
	}
}

func BenchmarkMatrices(b *testing.B) {
	for _, joints := range []int{85, 1024} {
		r := rand.New(rand.NewPCG(17, 18))
		j := randomJob(r, joints, joints)
		for k := range j.Joints {
			j.Joints[k] = int32(k)
		}
		dst := make([]mgl32.Mat4, joints)
		b.Run("joints="+itoa(joints), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Matrices(dst, &j)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*joints), "ns/joint")
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
