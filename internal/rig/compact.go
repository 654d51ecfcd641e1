package rig

// Range is one owner's bone slots [First, First+Count) in a Pool.
type Range struct{ First, Count int32 }

// Compact closes the gaps released ranges left: it moves the live ranges
// down, in the order given, so that they follow one another from slot 0,
// rewrites each range's First, and leaves the pool exactly their size with
// no free range. live must hold every range in use, sorted by First;
// otherwise (the counts do not add up with the free slots to the pool's
// length, or ranges overlap or are out of order) nothing is moved and
// Compact returns false. Set-up code: call it between frames, then update
// the owners' First from live.
func (p *Pool) Compact(live []Range) bool {
	used, end := 0, int32(0)
	for _, r := range live {
		if r.Count < 0 || r.First < end || int(r.First)+int(r.Count) > p.Len() {
			return false
		}
		end = r.First + r.Count
		used += int(r.Count)
	}
	if used+p.FreeSlots() != p.Len() {
		return false
	}
	next := int32(0)
	for i := range live {
		r := &live[i]
		if r.First != next {
			a, b := r.First, r.First+r.Count
			// Moving down: copy is a memmove, overlap is fine.
			copy(p.LocalPos[next:], p.LocalPos[a:b])
			copy(p.LocalRot[next:], p.LocalRot[a:b])
			copy(p.LocalScale[next:], p.LocalScale[a:b])
			copy(p.WorldPos[next:], p.WorldPos[a:b])
			copy(p.WorldRot[next:], p.WorldRot[a:b])
			copy(p.WorldScale[next:], p.WorldScale[a:b])
			r.First = next
		}
		next += r.Count
	}
	n := int(next)
	p.LocalPos, p.LocalRot, p.LocalScale = p.LocalPos[:n], p.LocalRot[:n], p.LocalScale[:n]
	p.WorldPos, p.WorldRot, p.WorldScale = p.WorldPos[:n], p.WorldRot[:n], p.WorldScale[:n]
	p.free = p.free[:0]
	p.ranges = len(live)
	return true
}

// Reclaim frees every slot that no range of live covers: the ranges of
// owners that went without Release. live must hold every range in use,
// sorted by First; otherwise (ranges overlap, are out of order or lie
// outside the pool) nothing changes and Reclaim returns false. Nothing
// moves: the gaps become the free list, first fit as after Release, and a
// gap at the end shrinks the arrays.
func (p *Pool) Reclaim(live []Range) bool {
	end := int32(0)
	for _, r := range live {
		if r.Count < 0 || r.First < end || int(r.First)+int(r.Count) > p.Len() {
			return false
		}
		end = r.First + r.Count
	}
	p.free = p.free[:0]
	next := int32(0)
	for _, r := range live {
		if r.First > next {
			p.free = append(p.free, span{next, r.First - next})
		}
		next = r.First + r.Count
	}
	n := int(next)
	p.LocalPos, p.LocalRot, p.LocalScale = p.LocalPos[:n], p.LocalRot[:n], p.LocalScale[:n]
	p.WorldPos, p.WorldRot, p.WorldScale = p.WorldPos[:n], p.WorldRot[:n], p.WorldScale[:n]
	p.ranges = len(live)
	return true
}
