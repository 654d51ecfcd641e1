package spring

// StepVRMSpringSets advances every spring of every set by dt, as
// StepVRMSprings would each set, with the same results. A set is
// typically one character's springs.
//
// Why across sets: StepVRMSprings fills the four SIMD slots of a quad with
// one character's springs, which leaves slots idle wherever its springs
// differ in length (a tail of 8 among hair of 6: the last joints step
// alone). Here spring k of up to four sets share a quad: with sets alike
// (the characters of one rig) every slot has a joint at every level, and
// the quad's collider columns, filled once from the four sets' colliders,
// serve all their springs.
func StepVRMSpringSets(sets [][]VRMSpring, dt float32) {
	dt = stepDt(dt)
	var lanes [4]lane
	var q quad
	for len(sets) > 0 {
		g := sets[:min(len(sets), 4)]
		sets = sets[len(g):]
		n := 0
		for _, s := range g {
			n = max(n, len(s))
		}
		for k := range n {
			stepAcross(g, k, lanes[:], &q, dt)
		}
	}
}

// stepAcross steps spring k of every set in g (at most four): the fast
// ones in q, longest first, the others on their own.
func stepAcross(g [][]VRMSpring, k int, lanes []lane, q *quad, dt float32) {
	var order [4]int8
	nf := 0
	for s := range g {
		if k >= len(g[s]) {
			continue
		}
		l := &lanes[s&3]
		g[s][k].Bad = false
		if !l.load(&g[s][k], dt) {
			continue
		}
		if !l.fast {
			for i := range l.n {
				l.stepGeneral(i, dt)
			}
			g[s][k].Bad = l.bad
			continue
		}
		p := nf
		for ; p > 0 && lanes[order[p-1]].n < l.n; p-- {
			order[p] = order[p-1]
		}
		order[p] = int8(s)
		nf++
	}
	if nf == 0 {
		return
	}
	q.reset()
	for f := range nf {
		q.add(f, &lanes[order[f]], int(order[f]))
	}
	for s := nf; s < 4; s++ {
		q.empty(s)
	}
	q.run(lanes)
	for f := range nf {
		s := order[f]
		g[s][k].Bad = lanes[s].bad
	}
}
