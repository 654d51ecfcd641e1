package gltfrig

import (
	"fmt"
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// The demo avatar's parts, in the counts DemoAvatar writes them.
const (
	DemoHairStrands   = 8  // hair strands on the head, J_Sec_Hair<i>_<k>
	DemoHairJoints    = 4  // nodes per hair strand (the last is the tail)
	DemoSkirtStrands  = 12 // skirt strands around the hips, J_Sec_Skirt<i>_<k>
	DemoSkirtJoints   = 4  // nodes per skirt strand (the last is the tail)
	DemoTailJoints    = 6  // J_Sec_Tail_01 … _06 (the last is the tail)
	DemoEarrings      = 2  // J_Sec_L_Earring_01/_02 and J_Sec_R_…
	DemoEarringJoints = 2  // nodes per earring (the last is the tail)
	// DemoSprings are the springs: one per hair strand, per skirt strand,
	// the tail and one per earring, in that order.
	DemoSprings = DemoHairStrands + DemoSkirtStrands + 1 + DemoEarrings
	// DemoColliders are the colliders: a head sphere, an upper chest and a
	// hips sphere, upper and lower leg capsules on both sides, in three
	// groups (Head, Body, Legs).
	DemoColliders      = 7
	DemoColliderGroups = 3
	// DemoHeight is the avatar's height in metres, standing at the origin.
	DemoHeight = 1.5
)

// DemoAvatarName is the file name the project writes the demo avatar to.
const DemoAvatarName = "sway-demo.vrm"

type dvec = mgl64.Vec3

// demoBone is a bone of the demo avatar at its model-space rest position
// (T-pose, +Z forward, +X the character's left, identity rotations).
type demoBone struct {
	name, parent string
	pos          dvec
}

// demoRig is the avatar's skeleton and its secondary chains.
type demoRig struct {
	bones    []demoBone
	index    map[string]int
	hair     [][]string
	skirt    [][]string
	tail     []string
	earrings [][]string
}

func (r *demoRig) add(name, parent string, pos dvec) string {
	r.index[name] = len(r.bones)
	r.bones = append(r.bones, demoBone{name, parent, pos})
	return name
}

func (r *demoRig) at(name string) dvec { return r.bones[r.index[name]].pos }

// chain adds a chain of nodes at the given model-space points under parent.
func (r *demoRig) chain(parent string, name func(k int) string, pts []dvec) []string {
	var out []string
	for k, p := range pts {
		parent = r.add(name(k+1), parent, p)
		out = append(out, parent)
	}
	return out
}

// The head sphere: centre in the head bone's space and radius; the
// hair cap lies just outside it.
var (
	demoHeadCentre = dvec{0, 0.11, 0.01}
	demoHeadRadius = 0.12
	demoCapRadius  = 0.128
)

func rad(deg float64) float64 { return deg * math.Pi / 180 }

// demoDir is the direction at deg from +Z towards +X and elevation el.
func demoDir(deg, el float64) dvec {
	a, e := rad(deg), rad(el)
	return dvec{math.Cos(e) * math.Sin(a), math.Sin(e), math.Cos(e) * math.Cos(a)}
}

func demoSkeleton() *demoRig {
	r := &demoRig{index: map[string]int{}}
	r.add("Root", "", dvec{})
	r.add("J_Bip_C_Hips", "Root", dvec{0, 0.80, 0})
	r.add("J_Bip_C_Spine", "J_Bip_C_Hips", dvec{0, 0.87, 0})
	r.add("J_Bip_C_Chest", "J_Bip_C_Spine", dvec{0, 0.97, 0})
	r.add("J_Bip_C_UpperChest", "J_Bip_C_Chest", dvec{0, 1.07, 0})
	r.add("J_Bip_C_Neck", "J_Bip_C_UpperChest", dvec{0, 1.20, 0})
	head := r.add("J_Bip_C_Head", "J_Bip_C_Neck", dvec{0, 1.26, 0})
	hc := r.at(head).Add(demoHeadCentre)
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		r.add("J_Adj_"+side.s+"_FaceEye", head, hc.Add(demoEyeDir(side.x).Mul(0.113)))
	}
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		p := "J_Bip_" + side.s + "_"
		x := side.x
		r.add(p+"Shoulder", "J_Bip_C_UpperChest", dvec{x * 0.02, 1.17, 0})
		r.add(p+"UpperArm", p+"Shoulder", dvec{x * 0.09, 1.17, 0})
		r.add(p+"LowerArm", p+"UpperArm", dvec{x * 0.31, 1.17, 0})
		r.add(p+"Hand", p+"LowerArm", dvec{x * 0.51, 1.17, 0})
		r.add(p+"UpperLeg", "J_Bip_C_Hips", dvec{x * 0.08, 0.75, 0})
		r.add(p+"LowerLeg", p+"UpperLeg", dvec{x * 0.08, 0.42, 0})
		r.add(p+"Foot", p+"LowerLeg", dvec{x * 0.08, 0.08, 0})
		r.add(p+"ToeBase", p+"Foot", dvec{x * 0.08, 0.02, 0.1})
	}
	// Hair: strands that follow the hair cap from their root down to the
	// head's equator, then fall, drifting back behind the shoulders.
	type strand struct{ deg, el0, el1, fall, drift float64 }
	var strands []strand
	for _, s := range []strand{{25, 62, 24, 0, 0}, {75, 45, 0, 0.1, 0.2}, {130, 40, 0, 0.22, 0.3}, {165, 35, 0, 0.3, 0.25}} {
		strands = append(strands, s, strand{-s.deg, s.el0, s.el1, s.fall, s.drift})
	}
	for i, s := range strands {
		const hr = 0.132
		arc := rad(s.el0-s.el1) * hr
		total := arc + s.fall
		var pts []dvec
		for k := 0; k < DemoHairJoints; k++ {
			d := total * float64(k) / float64(DemoHairJoints-1)
			if d <= arc {
				pts = append(pts, hc.Add(demoDir(s.deg, s.el0-(d/hr)*180/math.Pi).Mul(hr)))
				continue
			}
			f := d - arc
			base := hc.Add(demoDir(s.deg, s.el1).Mul(hr))
			pts = append(pts, base.Add(dvec{0, -f, -f * s.drift}))
		}
		r.hair = append(r.hair, r.chain(head, func(k int) string { return fmt.Sprintf("J_Sec_Hair%d_%02d", i+1, k) }, pts))
	}
	// Skirt: a ring of strands from the waist, flaring out.
	for i := 0; i < DemoSkirtStrands; i++ {
		deg := 15 + 360*float64(i)/DemoSkirtStrands
		var pts []dvec
		for k := 0; k < DemoSkirtJoints; k++ {
			y, rr := demoSkirtRow(k)
			pts = append(pts, dvec{0, y, 0}.Add(demoDir(deg, 0).Mul(rr)))
		}
		r.skirt = append(r.skirt, r.chain("J_Bip_C_Hips", func(k int) string { return fmt.Sprintf("J_Sec_Skirt%d_%02d", i+1, k) }, pts))
	}
	// Tail: from the small of the back, out and curling up.
	tp := dvec{0, 0.83, -0.10}
	pts := []dvec{tp}
	for _, step := range []dvec{{0, -0.03, -0.075}, {0, -0.01, -0.08}, {0, 0.03, -0.075}, {0, 0.06, -0.06}, {0, 0.075, -0.03}} {
		tp = tp.Add(step)
		pts = append(pts, tp)
	}
	r.tail = r.chain("J_Bip_C_Hips", func(k int) string { return fmt.Sprintf("J_Sec_Tail_%02d", k) }, pts)
	// Earrings: from the ear lobes.
	for _, side := range []struct {
		s string
		x float64
	}{{"L", 1}, {"R", -1}} {
		lobe := r.at(head).Add(dvec{side.x * 0.116, 0.052, 0.005})
		r.earrings = append(r.earrings, r.chain(head, func(k int) string { return fmt.Sprintf("J_Sec_%s_Earring_%02d", side.s, k) },
			[]dvec{lobe, lobe.Add(dvec{0, -0.035, 0})}))
	}
	return r
}

// demoEyeDir is the direction from the head sphere's centre to an eye.
func demoEyeDir(side float64) dvec { return dvec{side * 0.36, -0.1, 0.93}.Normalize() }

// demoSkirtRow is the height and radius of the skirt's row k.
func demoSkirtRow(k int) (y, r float64) {
	return 0.86 - 0.1*float64(k), 0.13 + 0.042*float64(k)
}

// The materials, in the order of the mesh's primitives.
const (
	matSkin = iota
	matHair
	matWhite
	matSkirt
	matShoes
	matEyes
	matGold
	matCount
)

func demoMaterials() []*gltf.Material {
	m := func(name string, r, g, b, metal, rough float64) *gltf.Material {
		return &gltf.Material{Name: name, AlphaMode: gltf.AlphaOpaque, PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorFactor: &[4]float64{c32(r), c32(g), c32(b), 1}, MetallicFactor: gltf.Float(metal), RoughnessFactor: gltf.Float(c32(rough))}}
	}
	skirt := m("Skirt", 0.86, 0.24, 0.34, 0, 0.8)
	skirt.DoubleSided = true
	return []*gltf.Material{
		m("Skin", 1, 0.84, 0.74, 0, 0.7),
		m("Hair", 0.22, 0.42, 0.78, 0, 0.6),
		m("White", 0.96, 0.96, 0.98, 0, 0.8),
		skirt,
		m("Shoes", 0.25, 0.18, 0.2, 0, 0.6),
		m("Eyes", 0.12, 0.1, 0.22, 0, 0.3),
		m("Gold", 1, 0.78, 0.25, 1, 0.3),
	}
}

// infl is one joint's weight on a vertex.
type infl struct {
	j int
	w float64
}

// demoMesh collects the skinned mesh: one set of vertices, indices per
// material.
type demoMesh struct {
	joint   map[string]int // bone name -> skin joint index
	pos     [][3]float32
	nrm     [][3]float32
	joints  [][4]uint8
	weights [][4]float32
	idx     [matCount][]uint16
}

// vertex adds a vertex with its influences: the four largest (ties by
// joint index), normalised so that the float32 weights sum to 1.
func (m *demoMesh) vertex(p, n dvec, ws []infl) int {
	sum := map[int]float64{}
	var order []int
	for _, w := range ws {
		if w.w <= 0 {
			continue
		}
		if _, ok := sum[w.j]; !ok {
			order = append(order, w.j)
		}
		sum[w.j] += w.w
	}
	sort.Slice(order, func(a, b int) bool {
		if sum[order[a]] != sum[order[b]] {
			return sum[order[a]] > sum[order[b]]
		}
		return order[a] < order[b]
	})
	if len(order) > 4 {
		order = order[:4]
	}
	total := 0.0
	for _, j := range order {
		total += sum[j]
	}
	var js [4]uint8
	var wt [4]float32
	var rest float32
	for k := len(order) - 1; k >= 1; k-- {
		js[k] = uint8(order[k])
		wt[k] = float32(sum[order[k]] / total)
		rest += wt[k]
	}
	js[0], wt[0] = uint8(order[0]), 1-rest
	n = n.Normalize()
	m.pos = append(m.pos, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
	m.nrm = append(m.nrm, [3]float32{float32(n[0]), float32(n[1]), float32(n[2])})
	m.joints = append(m.joints, js)
	m.weights = append(m.weights, wt)
	return len(m.pos) - 1
}

func (m *demoMesh) tri(mat, a, b, c int) {
	m.idx[mat] = append(m.idx[mat], uint16(a), uint16(b), uint16(c))
}

// one is a single influence on a bone.
func (m *demoMesh) one(bone string) []infl { return []infl{{m.joint[bone], 1}} }

// along is the influence of a point at s along a chain (s = k at joint k):
// segment k (joint k to k+1) follows joint k, and over the first half of
// a segment the weight shifts from the joint before it (parent before the
// first; none: "") so that bends are smooth. Past the last joint it
// follows the last segment.
func (m *demoMesh) along(parent string, chain []string, s float64) []infl {
	seg := int(math.Floor(s))
	seg = max(0, min(seg, len(chain)-2))
	t := s - float64(seg)
	drv := m.joint[chain[seg]]
	prev := parent
	if seg > 0 {
		prev = chain[seg-1]
	}
	if prev == "" || t >= 0.5 {
		return []infl{{drv, 1}}
	}
	w := 0.5 - max(t, 0)
	return []infl{{m.joint[prev], w}, {drv, 1 - w}}
}

// ring is one cross-section of a tube: an ellipse about c in the plane
// of u and v = axis × u, with radii ru and rv.
type ring struct {
	c, axis, u dvec
	ru, rv     float64
	w          []infl
}

// tube adds a closed tube through rings, with a dome over each end whose
// depth is cap times the smaller radius (0: no dome, left open).
func (m *demoMesh) tube(mat int, rings []ring, segs int, capStart, capEnd float64) {
	frame := func(r ring) (a, u, v dvec) {
		a = r.axis.Normalize()
		u = r.u.Sub(a.Mul(r.u.Dot(a))).Normalize()
		return a, u, a.Cross(u)
	}
	// addRing adds the vertices of r scaled by scale and moved off along
	// dir times its axis: a ring of a dome of depth dz when dz > 0.
	var all []int // each ring's first vertex
	addRing := func(r ring, scale, off, dz float64, dir float64) int {
		a, u, v := frame(r)
		first := len(m.pos)
		for k := 0; k < segs; k++ {
			th := 2 * math.Pi * float64(k) / float64(segs)
			cs, sn := math.Cos(th), math.Sin(th)
			p := r.c.Add(u.Mul(r.ru * scale * cs)).Add(v.Mul(r.rv * scale * sn)).Add(a.Mul(dir * off))
			n := u.Mul(cs * scale / r.ru).Add(v.Mul(sn * scale / r.rv))
			if dz > 0 {
				n = n.Add(a.Mul(dir * math.Sqrt(max(0, 1-scale*scale)) / dz))
			}
			m.vertex(p, n, r.w)
		}
		return first
	}
	const domeRings = 3
	pole := func(r ring, depth, dir float64) int {
		a, _, _ := frame(r)
		return m.vertex(r.c.Add(a.Mul(dir*depth)), a.Mul(dir), r.w)
	}
	// Start dome: from the pole outwards.
	startPole := -1
	if capStart > 0 {
		r := rings[0]
		depth := capStart * min(r.ru, r.rv)
		startPole = pole(r, depth, -1)
		for i := domeRings - 1; i >= 1; i-- {
			phi := math.Pi / 2 * float64(i) / domeRings
			all = append(all, addRing(r, math.Cos(phi), depth*math.Sin(phi), depth, -1))
		}
	}
	for _, r := range rings {
		all = append(all, addRing(r, 1, 0, 0, 1))
	}
	endPole := -1
	if capEnd > 0 {
		r := rings[len(rings)-1]
		depth := capEnd * min(r.ru, r.rv)
		for i := 1; i < domeRings; i++ {
			phi := math.Pi / 2 * float64(i) / domeRings
			all = append(all, addRing(r, math.Cos(phi), depth*math.Sin(phi), depth, 1))
		}
		endPole = pole(r, depth, 1)
	}
	for i := 0; i+1 < len(all); i++ {
		a, b := all[i], all[i+1]
		for k := 0; k < segs; k++ {
			k1 := (k + 1) % segs
			m.tri(mat, a+k, a+k1, b+k)
			m.tri(mat, a+k1, b+k1, b+k)
		}
	}
	if startPole >= 0 {
		f := all[0]
		for k := 0; k < segs; k++ {
			m.tri(mat, startPole, f+(k+1)%segs, f+k)
		}
	}
	if endPole >= 0 {
		f := all[len(all)-1]
		for k := 0; k < segs; k++ {
			m.tri(mat, f+k, f+(k+1)%segs, endPole)
		}
	}
}

// ellipsoid adds an ellipsoid about c: radii ru along u, rv along
// axis × u and ra along axis, latitudes from lo to 90 degrees about
// axis (lo = -90: closed; above: open at the bottom), w giving each
// vertex's influences from its position.
func (m *demoMesh) ellipsoid(mat int, c, axis, u dvec, ru, rv, ra, lo float64, segs, rows int, w func(p dvec) []infl) {
	a := axis.Normalize()
	u = u.Sub(a.Mul(u.Dot(a))).Normalize()
	v := a.Cross(u)
	first := len(m.pos)
	for i := 0; i <= rows; i++ {
		phi := rad(lo + (90-lo)*float64(i)/float64(rows))
		cp, sp := math.Cos(phi), math.Sin(phi)
		for k := 0; k < segs; k++ {
			th := 2 * math.Pi * float64(k) / float64(segs)
			cs, sn := math.Cos(th), math.Sin(th)
			p := c.Add(u.Mul(ru * cp * cs)).Add(v.Mul(rv * cp * sn)).Add(a.Mul(ra * sp))
			n := u.Mul(cp * cs / ru).Add(v.Mul(cp * sn / rv)).Add(a.Mul(sp / ra))
			if math.Abs(cp) < 1e-9 {
				n = a.Mul(math.Copysign(1, sp))
			}
			m.vertex(p, n, w(p))
		}
	}
	for i := 0; i < rows; i++ {
		r0, r1 := first+i*segs, first+(i+1)*segs
		for k := 0; k < segs; k++ {
			k1 := (k + 1) % segs
			m.tri(mat, r0+k, r0+k1, r1+k)
			m.tri(mat, r0+k1, r1+k1, r1+k)
		}
	}
}

// sphere is a closed sphere on one bone.
func (m *demoMesh) sphere(mat int, c dvec, r float64, segs, rows int, bone string) {
	w := m.one(bone)
	m.ellipsoid(mat, c, dvec{0, 1, 0}, dvec{1, 0, 0}, r, r, r, -90, segs, rows, func(dvec) []infl { return w })
}

// chainRings are rings along a chain's joints, sub rings per segment,
// radius tapering from r0 to r1 (ellipse ratio rv/ru = flat), u the
// width direction at each point.
func (m *demoMesh) chainRings(r *demoRig, parent string, chain []string, sub int, r0, r1, flat float64, u func(p dvec) dvec) []ring {
	var out []ring
	n := len(chain) - 1
	for i := 0; i <= n*sub; i++ {
		s := float64(i) / float64(sub)
		seg := min(int(s), n-1)
		t := s - float64(seg)
		a, b := r.at(chain[seg]), r.at(chain[seg+1])
		p := a.Add(b.Sub(a).Mul(t))
		axis := b.Sub(a)
		if t == 0 && seg > 0 { // at a joint: between the two segments
			axis = axis.Normalize().Add(a.Sub(r.at(chain[seg-1])).Normalize())
		}
		rr := r0 + (r1-r0)*s/float64(n)
		out = append(out, ring{c: p, axis: axis, u: u(p), ru: rr, rv: rr * flat, w: m.along(parent, chain, s)})
	}
	return out
}

// demoBody builds the skinned mesh on the skeleton.
func demoBody(r *demoRig, joint map[string]int) *demoMesh {
	m := &demoMesh{joint: joint}
	up, x, z := dvec{0, 1, 0}, dvec{1, 0, 0}, dvec{0, 0, 1}
	constU := func(v dvec) func(dvec) dvec { return func(dvec) dvec { return v } }

	// Torso: hips to the base of the neck, an ellipse wider than deep.
	torso := []string{"J_Bip_C_Hips", "J_Bip_C_Spine", "J_Bip_C_Chest", "J_Bip_C_UpperChest", "J_Bip_C_Neck"}
	var rings []ring
	for _, t := range []struct{ y, rx, rz, s float64 }{
		{0.72, 0.12, 0.09, 0}, {0.80, 0.135, 0.10, 0}, {0.87, 0.12, 0.088, 1}, {0.97, 0.11, 0.08, 2},
		{1.07, 0.125, 0.085, 3}, {1.15, 0.13, 0.08, 3.6}, {1.19, 0.08, 0.06, 3.9}, {1.21, 0.045, 0.04, 4},
	} {
		rings = append(rings, ring{c: dvec{0, t.y, 0}, axis: up, u: x, ru: t.rx, rv: t.rz, w: m.along("", torso, t.s)})
	}
	m.tube(matWhite, rings, 16, 0.6, 0)
	// Neck.
	neck := []string{"J_Bip_C_Neck", "J_Bip_C_Head"}
	m.tube(matSkin, []ring{
		{c: dvec{0, 1.17, 0}, axis: up, u: x, ru: 0.036, rv: 0.036, w: m.along("J_Bip_C_UpperChest", neck, -0.5)},
		{c: dvec{0, 1.23, 0}, axis: up, u: x, ru: 0.035, rv: 0.035, w: m.along("J_Bip_C_UpperChest", neck, 0.5)},
		{c: dvec{0, 1.3, 0}, axis: up, u: x, ru: 0.034, rv: 0.034, w: m.one("J_Bip_C_Head")},
	}, 10, 0, 0)
	// Head, hair cap, ears, eyes.
	head := "J_Bip_C_Head"
	hc := r.at(head).Add(demoHeadCentre)
	m.sphere(matSkin, hc, demoHeadRadius, 20, 14, head)
	onHead := m.one(head)
	m.ellipsoid(matHair, hc, dvec{0, 1, -0.6}, x, demoCapRadius, demoCapRadius, demoCapRadius, -5, 20, 8, func(dvec) []infl { return onHead })
	for _, side := range []float64{1, -1} {
		m.ellipsoid(matSkin, r.at(head).Add(dvec{side * 0.117, 0.085, 0.005}), up, z, 0.018, 0.012, 0.028, -90, 8, 6, func(dvec) []infl { return onHead })
		s := "L"
		if side < 0 {
			s = "R"
		}
		eye := "J_Adj_" + s + "_FaceEye"
		d := demoEyeDir(side)
		c := r.at(eye)
		onEye := m.one(eye)
		m.ellipsoid(matEyes, c, d, up, 0.026, 0.019, 0.012, -90, 12, 6, func(dvec) []infl { return onEye })
		glint := c.Add(d.Mul(0.011)).Add(dvec{side * 0.007, 0.011, 0})
		m.sphere(matWhite, glint, 0.0055, 8, 4, eye)
	}
	// Hair strands: flat ribbons, wide across the head, tapering.
	for _, h := range r.hair {
		u := func(p dvec) dvec {
			rad := p.Sub(hc)
			rad[1] = 0
			return up.Cross(rad)
		}
		m.tube(matHair, m.chainRings(r, head, h, 2, 0.038, 0.01, 0.35, u), 8, 0.8, 1)
	}
	// Arms: sleeves over the upper arms, skin below, hands.
	for _, s := range []string{"L", "R"} {
		p := "J_Bip_" + s + "_"
		arm := []string{p + "Shoulder", p + "UpperArm", p + "LowerArm", p + "Hand"}
		xs := []float64{r.at(arm[0])[0], r.at(arm[1])[0], r.at(arm[2])[0], r.at(arm[3])[0]}
		sign := math.Copysign(1, xs[3])
		param := func(ax float64) float64 { // chain parameter of a point at |x| = ax
			for k := 0; k+1 < len(xs); k++ {
				a, b := math.Abs(xs[k]), math.Abs(xs[k+1])
				if ax <= b || k+2 == len(xs) {
					return float64(k) + (ax-a)/(b-a)
				}
			}
			return 0
		}
		armRing := func(ax, r float64) ring {
			return ring{c: dvec{sign * ax, 1.17, 0}, axis: dvec{sign, 0, 0}, u: up, ru: r, rv: r, w: m.along("J_Bip_C_UpperChest", arm, param(ax))}
		}
		m.tube(matSkin, []ring{armRing(0.06, 0.046), armRing(0.09, 0.045), armRing(0.2, 0.04), armRing(0.31, 0.035),
			armRing(0.41, 0.031), armRing(0.5, 0.026)}, 12, 0.8, 0.6)
		m.tube(matWhite, []ring{armRing(0.06, 0.053), armRing(0.12, 0.051), armRing(0.2, 0.048)}, 12, 0.8, 0)
		hand := arm[3]
		onHand := m.one(hand)
		m.ellipsoid(matSkin, r.at(hand).Add(dvec{sign * 0.05, 0, 0.005}), dvec{sign, 0, 0}, z, 0.038, 0.018, 0.055, -90, 10, 6, func(dvec) []infl { return onHand })
		// Legs: skin above, boots below, feet.
		leg := []string{p + "UpperLeg", p + "LowerLeg", p + "Foot", p + "ToeBase"}
		lx := r.at(leg[0])[0]
		ys := []float64{r.at(leg[0])[1], r.at(leg[1])[1], r.at(leg[2])[1]}
		lparam := func(y float64) float64 {
			if y >= ys[1] {
				return (ys[0] - y) / (ys[0] - ys[1])
			}
			return 1 + (ys[1]-y)/(ys[1]-ys[2])
		}
		legRing := func(y, r float64) ring {
			return ring{c: dvec{lx, y, 0}, axis: dvec{0, -1, 0}, u: x, ru: r, rv: r, w: m.along("J_Bip_C_Hips", leg, lparam(y))}
		}
		m.tube(matSkin, []ring{legRing(0.79, 0.066), legRing(0.75, 0.067), legRing(0.6, 0.062), legRing(0.42, 0.05), legRing(0.3, 0.045)}, 12, 0.8, 0)
		m.tube(matShoes, []ring{legRing(0.32, 0.05), legRing(0.22, 0.047), legRing(0.12, 0.044), legRing(0.08, 0.042)}, 12, 0, 0.5)
		foot, toe := leg[2], leg[3]
		fw, tw := m.joint[foot], m.joint[toe]
		tz := r.at(toe)[2]
		m.ellipsoid(matShoes, dvec{lx, 0.045, 0.04}, z, x, 0.048, 0.042, 0.11, -90, 12, 8, func(p dvec) []infl {
			t := math.Max(0, math.Min(1, (p[2]-(tz-0.03))/0.06)) // toes from 3 cm behind the toe joint
			return []infl{{fw, 1 - t}, {tw, t}}
		})
	}
	// Skirt: panels between the strands, a mid vertex between every two
	// strands (half on each), the waist row on the hips.
	n := len(r.skirt)
	cols := 2 * n
	first := len(m.pos)
	for k := 0; k < DemoSkirtJoints; k++ {
		y, rr := demoSkirtRow(k)
		_, r2 := demoSkirtRow(k + 1)
		for c := 0; c < cols; c++ {
			deg := 15 + 360*float64(c)/float64(cols)
			p := dvec{0, y, 0}.Add(demoDir(deg, 0).Mul(rr))
			nrm := demoDir(deg, 0).Mul(0.1).Add(dvec{0, r2 - rr, 0})
			var ws []infl
			for _, i := range []int{c / 2, (c + 1) / 2 % n} {
				for _, w := range m.along("J_Bip_C_Hips", r.skirt[i], float64(k)) {
					ws = append(ws, infl{w.j, w.w / 2})
				}
			}
			m.vertex(p, nrm, ws)
		}
	}
	for k := 0; k+1 < DemoSkirtJoints; k++ {
		a, b := first+k*cols, first+(k+1)*cols
		for c := 0; c < cols; c++ {
			c1 := (c + 1) % cols
			m.tri(matSkirt, a+c, b+c, a+c1)
			m.tri(matSkirt, a+c1, b+c, b+c1)
		}
	}
	// Tail: a tube tapering to a rounded tip.
	m.tube(matHair, m.chainRings(r, "J_Bip_C_Hips", r.tail, 2, 0.034, 0.02, 1, constU(x)), 10, 0.5, 1)
	// Earrings: a short link and a bead.
	for _, e := range r.earrings {
		top, bottom := r.at(e[0]), r.at(e[1])
		m.tube(matGold, []ring{{c: top, axis: bottom.Sub(top), u: z, ru: 0.003, rv: 0.003, w: m.one(e[0])},
			{c: bottom, axis: bottom.Sub(top), u: z, ru: 0.003, rv: 0.003, w: m.one(e[0])}}, 6, 0, 0)
		m.sphere(matGold, bottom.Add(dvec{0, -0.008, 0}), 0.013, 10, 6, e[0])
	}
	return m
}

// demoSpring writes a VRMC_springBone spring whose settings soften from
// the root joint to the tail.
func demoSpring(idx map[string]int, name string, chain []string, stiff0, stiff1, power, drag, hit float64, groups []int) corpusObj {
	var js []any
	for k, b := range chain {
		t := float64(k) / float64(max(1, len(chain)-2))
		s := stiff0 + (stiff1-stiff0)*math.Min(t, 1)
		js = append(js, springJoint1(idx[b], s, power, [3]float64{0, -1, 0}, drag, hit))
	}
	return corpusObj{"name": name, "joints": js, "colliderGroups": groups}
}

// DemoAvatar writes the project's demo avatar as VRM 1.0 GLB bytes, the
// same bytes on every call: a stylised character 1.5 m tall (T-pose,
// facing +Z) with VRoid Studio's bone names (J_Bip_C_Hips, …) and the
// VRMC_vrm humanoid map of hips, spine, chest, upper chest, neck, head,
// eyes, shoulders, arms, hands, legs, feet and toes; hair strands, a ring
// skirt, a tail and earrings as VRMC_springBone springs (DemoSprings),
// with sphere colliders on the head, upper chest and hips and capsules on
// the legs (DemoColliders); and one skinned mesh generated here (body,
// hair cap and ribbons, skirt panels on the skirt strands, tail tube,
// earrings: POSITION, NORMAL, JOINTS_0 as UNSIGNED_BYTE, WEIGHTS_0
// summing to 1, one primitive per material of base colour factors) on
// skins[0], whose inverse bind matrices are those of the rest pose.
func DemoAvatar() ([]byte, error) {
	r := demoSkeleton()
	b := newCBuilder()
	var joints []string
	for i, bn := range r.bones {
		t := bn.pos
		if bn.parent != "" {
			t = bn.pos.Sub(r.at(bn.parent))
		}
		b.add(bn.name, bn.parent, [3]float64(t))
		if i > 0 { // every bone but Root
			joints = append(joints, bn.name)
		}
	}
	b.add("Body", "", [3]float64{})
	doc, idx, err := b.document(cDocOptions{generator: "sway gltfrig.DemoAvatar", materials: demoMaterials()})
	if err != nil {
		return nil, err
	}
	// The skin: every bone but Root, in node order, each inverse bind
	// matrix the inverse of the joint's rest transform as the file's nodes
	// compose it (identity rotations: a translation by minus the sum of
	// the translations written down to the joint).
	ibm := make([][4][4]float32, len(joints))
	skinJoints := make([]int, len(joints))
	for k, name := range joints {
		var p [3]float64
		for i := idx[name]; ; {
			n := doc.Nodes[i]
			for c := range p {
				p[c] += n.Translation[c]
			}
			parent := r.bones[i].parent
			if parent == "" {
				break
			}
			i = idx[parent]
		}
		ibm[k] = [4][4]float32{{1, 0, 0, float32(-p[0])}, {0, 1, 0, float32(-p[1])}, {0, 0, 1, float32(-p[2])}, {0, 0, 0, 1}} // [row][column]
		skinJoints[k] = idx[name]
	}
	acc := modeler.WriteInverseBindMatrices(doc, ibm)
	doc.Skins = []*gltf.Skin{{Name: "Body", Joints: skinJoints, InverseBindMatrices: gltf.Index(acc), Skeleton: gltf.Index(idx["Root"])}}
	joint := map[string]int{}
	for k, j := range joints {
		joint[j] = k
	}
	m := demoBody(r, joint)
	if len(m.pos) > math.MaxUint16 || len(joints) > math.MaxUint8+1 {
		return nil, fmt.Errorf("gltfrig: demo avatar: %d vertices, %d joints", len(m.pos), len(joints))
	}
	attr := gltf.PrimitiveAttributes{
		gltf.POSITION:  modeler.WritePosition(doc, m.pos),
		gltf.NORMAL:    modeler.WriteNormal(doc, m.nrm),
		gltf.JOINTS_0:  modeler.WriteJoints(doc, m.joints),
		gltf.WEIGHTS_0: modeler.WriteWeights(doc, m.weights),
	}
	mesh := &gltf.Mesh{Name: "Body"}
	for mat := range matCount {
		if len(m.idx[mat]) == 0 {
			continue
		}
		mesh.Primitives = append(mesh.Primitives, &gltf.Primitive{Attributes: attr, Mode: gltf.PrimitiveTriangles,
			Indices: gltf.Index(modeler.WriteIndices(doc, m.idx[mat])), Material: gltf.Index(mat)})
	}
	doc.Meshes = []*gltf.Mesh{mesh}
	body := doc.Nodes[idx["Body"]]
	body.Mesh, body.Skin = gltf.Index(0), gltf.Index(0)

	sphere := func(node string, off [3]float64, rr float64) corpusObj {
		return corpusObj{"node": idx[node], "shape": corpusObj{"sphere": corpusObj{"offset": c32v(off), "radius": c32(rr)}}}
	}
	capsule := func(node string, off, tail [3]float64, rr float64) corpusObj {
		return corpusObj{"node": idx[node], "shape": corpusObj{"capsule": corpusObj{"offset": c32v(off), "radius": c32(rr), "tail": c32v(tail)}}}
	}
	colliders := []any{
		sphere("J_Bip_C_Head", [3]float64(demoHeadCentre), 0.1),
		sphere("J_Bip_C_UpperChest", [3]float64{0, 0.03, 0}, 0.09),
		sphere("J_Bip_C_Hips", [3]float64{0, 0, 0}, 0.1),
		capsule("J_Bip_L_UpperLeg", [3]float64{0, 0, 0}, [3]float64{0, -0.33, 0}, 0.065),
		capsule("J_Bip_R_UpperLeg", [3]float64{0, 0, 0}, [3]float64{0, -0.33, 0}, 0.065),
		capsule("J_Bip_L_LowerLeg", [3]float64{0, 0, 0}, [3]float64{0, -0.32, 0}, 0.05),
		capsule("J_Bip_R_LowerLeg", [3]float64{0, 0, 0}, [3]float64{0, -0.32, 0}, 0.05),
	}
	groups := []any{
		corpusObj{"name": "Head", "colliders": []int{0}},
		corpusObj{"name": "Body", "colliders": []int{1, 2}},
		corpusObj{"name": "Legs", "colliders": []int{3, 4, 5, 6}},
	}
	var springs []any
	for i, h := range r.hair {
		springs = append(springs, demoSpring(idx, fmt.Sprintf("Hair%d", i+1), h, 1.2, 0.7, 0.15, 0.35, 0.02, []int{0, 1}))
	}
	for i, s := range r.skirt {
		springs = append(springs, demoSpring(idx, fmt.Sprintf("Skirt%d", i+1), s, 1.6, 1.0, 0.25, 0.3, 0.02, []int{1, 2}))
	}
	springs = append(springs, demoSpring(idx, "Tail", r.tail, 1.8, 0.9, 0.08, 0.25, 0.03, []int{1, 2}))
	for _, e := range r.earrings {
		name := "Earring" + e[0][len("J_Sec_"):len("J_Sec_")+1]
		springs = append(springs, demoSpring(idx, name, e, 0.3, 0.3, 0.5, 0.2, 0.012, []int{0}))
	}
	bones := corpusObj{}
	for _, h := range vroidHuman {
		bones[h[0]] = corpusObj{"node": idx[h[1]]}
	}
	meta := corpusObj{"name": "sway demo avatar", "version": "1", "authors": []string{"the sway authors"},
		"licenseUrl": "https://vrm.dev/licenses/1.0/", "avatarPermission": "everyone", "commercialUsage": "corporation",
		"allowExcessivelyViolentUsage": false, "allowExcessivelySexualUsage": false, "allowPoliticalOrReligiousUsage": false,
		"allowAntisocialOrHateUsage": false, "creditNotation": "unnecessary", "allowRedistribution": true,
		"modification": "allowModificationRedistribution"}
	doc.ExtensionsUsed = []string{"VRMC_springBone", "VRMC_vrm"}
	doc.Extensions = gltf.Extensions{
		"VRMC_vrm": corpusObj{"specVersion": "1.0", "meta": meta, "humanoid": corpusObj{"humanBones": bones},
			"lookAt": corpusObj{"type": "bone", "offsetFromHeadBone": c32v([3]float64{0, 0.1, 0.11})}},
		"VRMC_springBone": corpusObj{"specVersion": "1.0", "colliders": colliders, "colliderGroups": groups, "springs": springs},
	}
	demoWalk(doc, idx, r)
	return corpusGLB(doc)
}

// DemoWalkKeys is the number of keys of the demo avatar's "Walk" (one
// second at 30 keys per second, the first key repeated last).
const DemoWalkKeys = 31

// demoWalk adds "Walk": a one-second walking loop on the spot, LINEAR at
// 30 keys per second, as Blender writes an action: the arms lowered from
// the T-pose and swinging, the legs swinging and the knees bending in
// turn, the hips bobbing twice a cycle.
func demoWalk(doc *gltf.Document, idx map[string]int, r *demoRig) {
	times := make([]float32, DemoWalkKeys)
	for k := range times {
		times[k] = float32(k) / 30
	}
	in := modeler.WriteAccessor(doc, gltf.TargetNone, times)
	doc.Accessors[in].Min, doc.Accessors[in].Max = []float64{0}, []float64{1}
	a := &gltf.Animation{Name: "Walk"}
	quat := func(axis dvec, deg float64) [4]float32 {
		s, c := math.Sincos(rad(deg) / 2)
		return [4]float32{float32(axis[0] * s), float32(axis[1] * s), float32(axis[2] * s), float32(c)}
	}
	rotate := func(node string, at func(u float64) [4]float32) {
		keys := make([][4]float32, DemoWalkKeys)
		for k := range keys {
			keys[k] = at(float64(k) / (DemoWalkKeys - 1))
		}
		a.Samplers = append(a.Samplers, &gltf.AnimationSampler{Input: in, Output: modeler.WriteAccessor(doc, gltf.TargetNone, keys), Interpolation: gltf.InterpolationLinear})
		a.Channels = append(a.Channels, &gltf.AnimationChannel{Sampler: len(a.Samplers) - 1,
			Target: gltf.AnimationChannelTarget{Node: gltf.Index(idx[node]), Path: gltf.TRSRotation}})
	}
	swing := func(u float64) float64 { return math.Sin(2 * math.Pi * u) }
	for _, side := range []struct {
		s    string
		sign float64
	}{{"L", 1}, {"R", -1}} {
		sd := side
		rotate("J_Bip_"+sd.s+"_UpperArm", func(u float64) [4]float32 {
			// Down 70 degrees about the forward axis, then a swing about
			// the left-right axis against the leg of the same side.
			down := quat(dvec{0, 0, 1}, -70*sd.sign)
			fwd := quat(dvec{1, 0, 0}, 20*sd.sign*swing(u))
			return mulQ(fwd, down)
		})
		rotate("J_Bip_"+sd.s+"_UpperLeg", func(u float64) [4]float32 { return quat(dvec{1, 0, 0}, -25*sd.sign*swing(u)) })
		rotate("J_Bip_"+sd.s+"_LowerLeg", func(u float64) [4]float32 {
			return quat(dvec{1, 0, 0}, 35*math.Max(0, sd.sign*swing(u+0.25)))
		})
	}
	hips := [3]float64(r.at("J_Bip_C_Hips").Sub(r.at(r.bones[r.index["J_Bip_C_Hips"]].parent)))
	pos := make([][3]float32, DemoWalkKeys)
	for k := range pos {
		u := float64(k) / (DemoWalkKeys - 1)
		pos[k] = [3]float32{float32(hips[0]), float32(hips[1] + 0.015*math.Cos(4*math.Pi*u)), float32(hips[2])}
	}
	a.Samplers = append(a.Samplers, &gltf.AnimationSampler{Input: in, Output: modeler.WriteAccessor(doc, gltf.TargetNone, pos), Interpolation: gltf.InterpolationLinear})
	a.Channels = append(a.Channels, &gltf.AnimationChannel{Sampler: len(a.Samplers) - 1,
		Target: gltf.AnimationChannelTarget{Node: gltf.Index(idx["J_Bip_C_Hips"]), Path: gltf.TRSTranslation}})
	doc.Animations = append(doc.Animations, a)
}

// mulQ is the product a·b of two rotations written x, y, z, w.
func mulQ(a, b [4]float32) [4]float32 {
	ax, ay, az, aw := float64(a[0]), float64(a[1]), float64(a[2]), float64(a[3])
	bx, by, bz, bw := float64(b[0]), float64(b[1]), float64(b[2]), float64(b[3])
	return [4]float32{
		float32(aw*bx + ax*bw + ay*bz - az*by),
		float32(aw*by - ax*bz + ay*bw + az*bx),
		float32(aw*bz + ax*by - ay*bx + az*bw),
		float32(aw*bw - ax*bx - ay*by - az*bz),
	}
}
