package systems

import (
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/sway-anim/sway/components"
	"github.com/sway-anim/sway/internal/store"
)

// The systems tell the stores which ranges are live; the stores never
// query the world (package store has the removal rule). A store is
// compacted when it handed out more handles than characters hold (one went
// without Release) or a range was freed, on the calling goroutine before
// any worker sees it.

// liveHandles gathers the handles T every character holds.
type liveHandles[T any] struct {
	filter *generic.Filter1[T]
	list   []*T
}

func newLiveHandles[T any]() liveHandles[T] {
	return liveHandles[T]{filter: generic.NewFilter1[T]()}
}

// compactChains compacts the chain store if a handle was released or lost.
// When nothing was, it costs one arche count.
func compactChains(w *ecs.World, st *store.ChainStore, live *liveHandles[components.Chains]) {
	q := live.filter.Query(w)
	if q.Count() == st.Owners() && !st.Fragmented() {
		q.Close()
		return
	}
	for q.Next() {
		live.list = append(live.list, q.Get())
	}
	st.Compact(live.list)
	clear(live.list) // no pointer outlives the call
	live.list = live.list[:0]
}

// springPart is what the spring systems need of a part of the spring
// store (store.VRMPart, store.SimplePart) with handles T.
type springPart[T any] interface {
	Owners() int
	Fragmented() bool
	Bound() bool
	Compact(live []*T) bool
	bind(live []*T)
}

type vrmPart struct{ *store.VRMPart }

func (p vrmPart) bind(live []*components.VRMSprings) { p.Bind(live) }

type simplePart struct{ *store.SimplePart }

func (p simplePart) bind([]*components.SimpleSprings) { p.Bind() }

func vrmPartOf(s *store.SpringStore) springPart[components.VRMSprings] { return vrmPart{&s.VRM} }

func simplePartOf(s *store.SpringStore) springPart[components.SimpleSprings] {
	return simplePart{&s.Simple}
}

// prepareSprings compacts a part of the spring store when a character
// went (the part handed out more handles than the characters items hold,
// or a range was freed) and rebuilds the kernels' views when needed.
// live is a scratch list, returned for reuse. Calling goroutine only.
func prepareSprings[T any](p springPart[T], items []featureRef[T], live []*T) []*T {
	compact := p.Owners() != len(items) || p.Fragmented()
	if !compact && p.Bound() {
		return live
	}
	for i := range items {
		live = append(live, items[i].feat)
	}
	if compact {
		p.Compact(live)
	}
	if !p.Bound() {
		p.bind(live)
	}
	clear(live) // no pointer outlives the call
	return live[:0]
}

// CompactChains drops the ranges of removed characters from the chain
// store now, as the chain systems would at their next frame. Set-up code
// (it makes its filter): call it between frames.
func CompactChains(w *ecs.World) {
	live := newLiveHandles[components.Chains]()
	compactChains(w, ecs.GetResource[store.ChainStore](w), &live)
}

// CompactSprings drops the ranges of removed characters from the spring
// store now, as the spring systems would at their next frame, and
// rebuilds the kernels' views. Set-up code: call it between frames.
func CompactSprings(w *ecs.World) {
	st := ecs.GetResource[store.SpringStore](w)
	vrm := newFeatureCharacters[components.VRMSprings]()
	prepareSprings(vrmPartOf(st), vrm.gather(w), nil)
	vrm.release()
	simple := newFeatureCharacters[components.SimpleSprings]()
	prepareSprings(simplePartOf(st), simple.gather(w), nil)
	simple.release()
}
